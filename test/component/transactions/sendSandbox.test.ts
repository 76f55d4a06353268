/**
 * The whole send path against the real sandbox gateway (in-process HTTP server): every tampering mode
 * is refused before anything is signed, and an honest transfer and sweep are signed, submitted, mined
 * (on demand through the control API) and tracked to final.
 */
import { strict as assert } from 'node:assert';
import type { GatewayClient } from '../../../src/core/gateway/client';
import { systemClock } from '../../../src/core/util/clock';
import { ONE_ALPH, addressFromPublicKey, txIdFromUnsignedTx } from '../../../src/core/protocol';
import { verifyTxIdSignature } from '../../../src/core/protocol/keys';
import type { SignerKey } from '../../../src/core/signing/signingPath';
import { sendSweep, sendTransfer, type SendDeps } from '../../../src/core/transactions/sendTransfer';
import { TxTracker, type TrackState } from '../../../src/core/transactions/txTracker';
import { TransferVerificationError, type VerificationCheck } from '../../../src/core/signing/verify';
import type { Sandbox, TamperMode } from '../../../sandbox';
import { keyOf } from '../../unit/signing/verifyFixtures';
import { callContracts } from '../../../src/core/gateway/batching';
import { parseTokenList, TokenCatalog } from '../../../src/core/tokens';
import { connectedSandbox } from '../fixtures/connectedSandbox';

async function control(sb: Sandbox, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${sb.baseUrl}/__sandbox${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`control ${method} ${path} -> ${res.status} ${text}`);
  return JSON.parse(text);
}

/** A signer key that counts how often its private key is read: the proof that nothing was signed. */
function spyKey(privateKey: string, publicKey: string): SignerKey & { reads: number } {
  const key = {
    publicKey,
    reads: 0,
    readPrivateKey: () => {
      key.reads++;
      return privateKey;
    },
  };
  return key;
}

describe('send workflow against the sandbox gateway', function () {
  let sb: Sandbox;
  let client: GatewayClient;
  let stop: () => Promise<void>;

  before(async () => {
    ({ sb, client, stop } = await connectedSandbox());
  });
  after(async () => {
    await stop();
  });
  afterEach(async () => {
    await control(sb, 'POST', '/tamper', { mode: 'none' });
  });

  const sender = () => sb.accounts[0]!;
  const submits = () =>
    sb.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/transactions/submit'));

  function deps(key: SignerKey, confirmations: unknown[]): SendDeps {
    return {
      client,
      key,
      confirm: (summary) => {
        confirmations.push(summary);
        return Promise.resolve(true);
      },
      crossCheckDecode: true,
      verify: { expectedNetworkId: 4 },
    };
  }

  const cases: [TamperMode, VerificationCheck, RegExp][] = [
    ['recipient', 'outputs', /output 0 pays \w+, but destination 0 is \w+/],
    ['amount', 'outputs', /output 0 carries 3 ALPH .*, but destination 0 asked for 2 ALPH/],
    [
      'extra-output',
      'outputs',
      /output 1 \(1 ALPH .*\) pays \w+: it is neither a requested destination nor change/,
    ],
    ['txid', 'txid', /is not blake2b-256 of the unsigned transaction bytes/],
    [
      'decode-lies',
      'gateway-decode',
      /decode endpoint describes a different transaction than the bytes it built/,
    ],
  ];
  for (const [mode, check, message] of cases) {
    it(`refuses the '${mode}' tampering before signing, with the right message`, async () => {
      await control(sb, 'POST', '/tamper', { mode });
      const signer = spyKey(sender().privateKey, sender().publicKey);
      const confirmations: unknown[] = [];
      const submitsBefore = submits().length;
      await assert.rejects(
        sendTransfer(deps(signer, confirmations), {
          fromPublicKey: sender().publicKey,
          destinations: [{ address: sb.accounts[1]!.address, attoAlphAmount: 2n * ONE_ALPH }],
        }),
        (e: unknown) => {
          assert.ok(e instanceof TransferVerificationError, String(e));
          assert.equal(e.check, check, e.message);
          assert.match(e.message, message);
          return true;
        },
      );
      assert.equal(signer.reads, 0, 'the private key was never read: nothing was signed');
      assert.equal(confirmations.length, 0, 'the user was never asked to approve a tampered transaction');
      assert.equal(submits().length, submitsBefore, 'nothing was submitted');
    });
  }

  it('sends an honest transfer: verified, confirmed, signed locally, submitted, mined and tracked to final', async () => {
    const recipient = keyOf('sandbox recipient').address;
    const signer = spyKey(sender().privateKey, sender().publicKey);
    const confirmations: unknown[] = [];
    const sent = await sendTransfer(deps(signer, confirmations), {
      fromPublicKey: sender().publicKey,
      destinations: [{ address: recipient, attoAlphAmount: '1500000000000000000' }],
    });
    assert.equal(signer.reads, 1);
    assert.equal(confirmations.length, 1, 'devnet: one confirmation');
    assert.equal(sent.txId, txIdFromUnsignedTx(sent.unsignedTx), 'the id of the bytes that were signed');
    assert.equal((await client.getTxStatus(sent.txId, sent)).type, 'MemPooled');

    await control(sb, 'POST', '/mine', { count: 1 });
    const states: TrackState[] = [];
    const tracker = new TxTracker({ client, clock: systemClock });
    tracker.onDidChange((c) => states.push(c.state));
    const outcome = await tracker.track({
      txId: sent.txId,
      fromGroup: sent.fromGroup,
      toGroup: sent.toGroup,
    });
    assert.equal(outcome.kind, 'final');
    assert.deepEqual(
      states.map((s) => s.kind),
      ['confirmed', 'final'],
    );
    const balance = await client.getAddressBalance(recipient);
    assert.equal(balance.balance, '1500000000000000000');
  });

  it('sweeps an address with many outputs: one confirmation, every tx verified, signed and submitted', async () => {
    // Account 4 is the sandbox's 'many-utxos' genesis account (45 outputs of 100 ALPH).
    const many = sb.accounts[4]!;
    const to = keyOf('sweep destination').address;
    const signer = spyKey(many.privateKey, many.publicKey);
    const confirmations: unknown[] = [];
    const result = await sendSweep(deps(signer, confirmations), {
      fromPublicKey: many.publicKey,
      toAddress: to,
    });
    assert.ok(result.txs.length > 1, 'the sandbox splits a 45-output sweep into several transactions');
    assert.equal(confirmations.length, 1, 'one confirmation for the whole set');
    assert.equal(signer.reads, 1, 'one read of the key signs the whole confirmed set');
    await control(sb, 'POST', '/mine', { count: 1 });
    for (const tx of result.txs) assert.equal((await client.getTxStatus(tx.txId, tx)).type, 'Confirmed');
    const balance = await client.getAddressBalance(to);
    assert.equal(BigInt(balance.balance), result.totalSwept);
    assert.equal(addressFromPublicKey(many.publicKey), many.address);
  });

  it('refuses a tampered sweep without signing any of its transactions', async () => {
    await control(sb, 'POST', '/tamper', { mode: 'recipient' });
    const a = sb.accounts[1]!;
    const signer = spyKey(a.privateKey, a.publicKey);
    const submitsBefore = submits().length;
    await assert.rejects(
      sendSweep(deps(signer, []), { fromPublicKey: a.publicKey, toAddress: keyOf('sweep 2').address }),
      (e: unknown) =>
        e instanceof TransferVerificationError &&
        e.check === 'outputs' &&
        /sweep tx 0: output 0 pays .* not to the sweep destination/.test(e.message),
    );
    assert.equal(signer.reads, 0);
    assert.equal(submits().length, submitsBefore);
  });

  describe("a token transfer's confirmation names the TokenFaucet token", () => {
    const faucetId = () => sb.contracts.find((c) => c.name === 'TokenFaucet')!.contractId;
    const multicalls = () =>
      sb.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/contracts/multicall-contract'));

    async function sendFaucetTokens(catalog: TokenCatalog): Promise<string> {
      const signer = spyKey(sender().privateKey, sender().publicKey);
      const confirmations: { text: string }[] = [];
      await sendTransfer(
        {
          ...deps(signer, confirmations),
          tokenMetadata: (ids, signal) => catalog.resolve(ids, signal),
        },
        {
          fromPublicKey: sender().publicKey,
          destinations: [
            {
              address: keyOf('token recipient').address,
              attoAlphAmount: ONE_ALPH / 1000n,
              tokens: [{ id: faucetId(), amount: 2_500_000n }],
            },
          ],
        },
      );
      assert.equal(confirmations.length, 1);
      return confirmations[0]!.text;
    }

    it('from its own contract (getSymbol/getName/getDecimals, one multicall), marked as its claim', async () => {
      const catalog = new TokenCatalog(new Map(), (calls, signal) =>
        callContracts(client, calls, { priority: 'user', ...(signal ? { signal } : {}) }),
      );
      const before = multicalls().length;
      const text = await sendFaucetTokens(catalog);
      const line = `0.0000000000025 SBX (2500000 raw, as the token names itself) of token ${faucetId()}`;
      assert.ok(text.includes(`  Token: ${line}`), text);
      assert.ok(text.includes(`Total token: ${line}`), text);
      assert.equal(multicalls().length - before, 1, 'one multicall for the three metadata methods');
      await sendFaucetTokens(catalog);
      assert.equal(multicalls().length - before, 1, 'cached: the second transfer asks nothing');
    });

    it('from a token list, without asking the chain', async () => {
      const list = parseTokenList(
        { networkId: 4, tokens: [{ id: faucetId(), symbol: 'FCT', name: 'Faucet', decimals: 6 }] },
        4,
      );
      const catalog = new TokenCatalog(list, (calls, signal) =>
        callContracts(client, calls, { priority: 'user', ...(signal ? { signal } : {}) }),
      );
      const before = multicalls().length;
      const text = await sendFaucetTokens(catalog);
      assert.ok(text.includes(`  Token: 2.5 FCT (2500000 raw) of token ${faucetId()}`), text);
      assert.equal(multicalls().length, before);
    });
  });

  it('the signature the sandbox accepted verifies against the sender key (no prehash)', async () => {
    const signer = spyKey(sender().privateKey, sender().publicKey);
    const sent = await sendTransfer(deps(signer, []), {
      fromPublicKey: sender().publicKey,
      destinations: [{ address: keyOf('x').address, attoAlphAmount: ONE_ALPH }],
    });
    const body = JSON.parse(submits().at(-1)!.body) as { signature: string };
    assert.ok(verifyTxIdSignature(sent.txId, body.signature, sender().publicKey));
  });
});
