/** The send workflow with a scripted client: validation before requests, decline paths, mainnet twice. */
import { strict as assert } from 'node:assert';
import { ValidationError } from '../../../src/core/gateway/errors';
import type { BuiltTransfer } from '../../../src/core/gateway/schemas';
import { ONE_ALPH, encodeUnsignedTx, type UnsignedTxInput } from '../../../src/core/protocol';
import type { ConfirmationSummary } from '../../../src/core/signing/confirmation';
import {
  SweepIncompleteError,
  TransferDeclinedError,
  sendSweep,
  sendTransfer,
  type ConfirmStage,
  type SendDeps,
  type TransferClient,
} from '../../../src/core/transactions/sendTransfer';
import { TransferVerificationError, type BuildResponse } from '../../../src/core/signing/verify';
import {
  ATTACKER,
  RECIPIENT,
  SENDER,
  TOKEN_ID,
  honestRequest,
  honestTx,
  out,
  refKey,
  responseFor,
} from '../signing/verifyFixtures';

function harness(build: (tx: UnsignedTxInput) => BuildResponse = (tx) => responseFor(tx), tx = honestTx()) {
  const calls: string[] = [];
  const submitted: { unsignedTx: string; signature: string }[] = [];
  const client: TransferClient = {
    buildTransfer: () => {
      calls.push('build');
      return Promise.resolve(build(tx) as BuiltTransfer);
    },
    submitTransaction: (req) => {
      calls.push('submit');
      submitted.push(req);
      return Promise.resolve({ txId: 'ff'.repeat(32), fromGroup: 0, toGroup: 0, recovered: false });
    },
  };
  // Each read of the private key, with how many confirmations had been answered by then: the proof of
  // "read only after the user confirmed" (and of "nothing was signed" when it stays empty).
  const signed: number[] = [];
  const asked: [ConfirmationSummary, ConfirmStage][] = [];
  let answers: boolean[] = [true, true];
  const deps: SendDeps = {
    client,
    key: {
      publicKey: SENDER.publicKey,
      readPrivateKey: () => (signed.push(asked.length), SENDER.privateKey),
    },
    confirm: (summary, stage) => {
      asked.push([summary as ConfirmationSummary, stage]);
      return Promise.resolve(answers.shift() ?? true);
    },
  };
  return { deps, calls, submitted, signed, asked, answer: (a: boolean[]) => (answers = a) };
}

describe('sendTransfer', () => {
  it('builds, verifies, confirms once on devnet, signs and submits; returns our txId and groups', async () => {
    const h = harness();
    const sent = await sendTransfer(h.deps, honestRequest());
    assert.deepEqual(h.calls, ['build', 'submit']);
    assert.equal(h.signed.length, 1);
    assert.equal(sent.txId, responseFor(honestTx()).txId, 'our txId, not the one the gateway echoed');
    assert.equal(h.asked.length, 1);
    assert.equal(h.asked[0]![1], 'first');
    assert.equal(h.submitted[0]!.unsignedTx, encodeUnsignedTx(honestTx()));
  });

  it('asks a second time on mainnet and stops without signing when the user declines either time', async () => {
    const mainnet = { ...honestTx(), networkId: 0 };
    const ok = harness(undefined, mainnet);
    await sendTransfer(ok.deps, honestRequest());
    assert.deepEqual(
      ok.asked.map(([, s]) => s),
      ['first', 'second'],
    );
    assert.match(ok.asked[1]![0].lines[0]!, /real funds on mainnet/);

    for (const [answers, stage] of [
      [[false], 'first'],
      [[true, false], 'second'],
    ] as const) {
      const h = harness(undefined, mainnet);
      h.answer([...answers]);
      await assert.rejects(
        sendTransfer(h.deps, honestRequest()),
        (e: unknown) => e instanceof TransferDeclinedError && e.stage === stage,
      );
      assert.equal(h.signed.length, 0);
      assert.deepEqual(h.calls, ['build']);
    }
  });

  it('validates inputs before any request', async () => {
    const bad: [Parameters<typeof sendTransfer>[1], RegExp][] = [
      [honestRequest({ destinations: [] }), /destinations: must be a non-empty array/],
      [
        honestRequest({ destinations: [{ address: 'not-an-address', attoAlphAmount: ONE_ALPH }] }),
        /destinations\[0\]\.address/,
      ],
      [
        honestRequest({ destinations: [{ address: RECIPIENT.address, attoAlphAmount: 10n ** 15n - 1n }] }),
        /below the dust minimum/,
      ],
      [
        honestRequest({ destinations: [{ address: RECIPIENT.address, attoAlphAmount: '1.5' }] }),
        /attoAlphAmount: must be a non-negative integer/,
      ],
      [
        honestRequest({
          destinations: [
            { address: RECIPIENT.address, attoAlphAmount: ONE_ALPH, tokens: [{ id: 'xyz', amount: '1' }] },
          ],
        }),
        /tokens\[0\]\.id/,
      ],
      [
        honestRequest({
          destinations: [
            { address: RECIPIENT.address, attoAlphAmount: ONE_ALPH, tokens: [{ id: TOKEN_ID, amount: '0' }] },
          ],
        }),
        /must be positive/,
      ],
      [
        honestRequest({
          destinations: [
            {
              address: RECIPIENT.address,
              attoAlphAmount: ONE_ALPH,
              tokens: [
                { id: TOKEN_ID, amount: '1' },
                { id: TOKEN_ID, amount: '2' },
              ],
            },
          ],
        }),
        /one destination per token/,
      ],
      [honestRequest({ gasAmount: 10 }), /gasAmount/],
      [honestRequest({ gasPrice: 1n }), /gasPrice/],
      [{ ...honestRequest(), fromPublicKey: ATTACKER.publicKey }, /not the signing key's public key/],
    ];
    for (const [request, message] of bad) {
      const h = harness();
      await assert.rejects(
        sendTransfer(h.deps, request),
        (e: unknown) => e instanceof ValidationError && message.test(e.message),
      );
      assert.deepEqual(h.calls, [], `no request for ${message}`);
    }
  });

  it('refuses hand-built tampering before the user is asked, and nothing is signed or submitted', async () => {
    const tampered: UnsignedTxInput[] = [
      honestTx([out(ATTACKER.address, ONE_ALPH)]),
      honestTx([out(RECIPIENT.address, 2n * ONE_ALPH)]),
      honestTx([out(RECIPIENT.address, ONE_ALPH), out(ATTACKER.address, ONE_ALPH)]),
      { ...honestTx(), scriptOpt: '01010000000000' },
      { ...honestTx(), gasPrice: String(10n ** 14n) },
    ];
    for (const tx of tampered) {
      const h = harness(undefined, tx);
      await assert.rejects(sendTransfer(h.deps, honestRequest()), TransferVerificationError);
      assert.equal(h.signed.length, 0);
      assert.equal(h.asked.length, 0);
      assert.deepEqual(h.calls, ['build']);
    }
    const h = harness((tx) => ({ ...responseFor(tx), txId: '00'.repeat(32) }));
    await assert.rejects(
      sendTransfer(h.deps, honestRequest()),
      (e: unknown) => e instanceof TransferVerificationError && e.check === 'txid',
    );
    assert.equal(h.signed.length, 0);
  });

  it('stops before signing when cancelled during confirmation', async () => {
    const h = harness();
    const controller = new AbortController();
    const deps: SendDeps = {
      ...h.deps,
      signal: controller.signal,
      confirm: () => {
        controller.abort();
        return Promise.resolve(true);
      },
    };
    await assert.rejects(sendTransfer(deps, honestRequest()), /aborted/);
    assert.equal(h.signed.length, 0);
  });

  it('reads the private key once, only after the user confirmed, and returns nothing that holds it', async () => {
    const h = harness();
    const sent = await sendTransfer(h.deps, honestRequest());
    assert.deepEqual(h.signed, [1], 'one read, after the one confirmation');
    assert.ok(
      !JSON.stringify(sent, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)).includes(
        SENDER.privateKey,
      ),
    );
  });

  it("asks even when a caller passes confirm: false, unless it is the extension's own test run", async () => {
    for (const [mode, asks] of [
      ['production', 1],
      ['development', 1],
      ['test', 0],
    ] as const) {
      const h = harness();
      const sent = await sendTransfer(
        { ...h.deps, policy: { skipBySetting: false, skipByArgument: true, mode } },
        honestRequest(),
      );
      assert.equal(h.asked.length, asks, mode);
      assert.equal(sent.confirmationSkipped, asks === 0, mode);
    }
    // The user's own setting skips off mainnet; on mainnet nothing skips, both confirmations are shown.
    const setting = harness();
    await sendTransfer(
      { ...setting.deps, policy: { skipBySetting: true, skipByArgument: true, mode: 'test' } },
      honestRequest(),
    );
    assert.equal(setting.asked.length, 0);
    const mainnet = harness(undefined, { ...honestTx(), networkId: 0 });
    await sendTransfer(
      { ...mainnet.deps, policy: { skipBySetting: true, skipByArgument: true, mode: 'test' } },
      honestRequest(),
    );
    assert.deepEqual(
      mainnet.asked.map(([, stage]) => stage),
      ['first', 'second'],
    );
  });
});

describe('sendSweep', () => {
  function sweepTx(key: string, to = RECIPIENT.address): { txId: string; unsignedTx: string } {
    const tx = {
      ...honestTx([out(to, 3n * ONE_ALPH)]),
      inputs: [
        { ...honestTx().inputs[0]!, outputRef: { ...honestTx().inputs[0]!.outputRef, key: refKey(key) } },
      ],
    };
    const r = responseFor(tx);
    return { txId: r.txId, unsignedTx: r.unsignedTx };
  }

  it('confirms once for the set, then signs and submits each transaction; a later failure reports what went out', async () => {
    const txs = [sweepTx('s1'), sweepTx('s2')];
    const h = harness();
    let submits = 0;
    const deps: SendDeps = {
      ...h.deps,
      client: {
        ...h.deps.client,
        buildSweep: () => Promise.resolve({ unsignedTxs: txs }),
        submitTransaction: () =>
          ++submits === 2
            ? Promise.reject(new Error('gateway down'))
            : Promise.resolve({ txId: txs[0]!.txId, fromGroup: 0, toGroup: 0, recovered: false }),
      },
    };
    await assert.rejects(
      sendSweep(deps, { fromPublicKey: SENDER.publicKey, toAddress: RECIPIENT.address }),
      (e: unknown) => {
        assert.ok(e instanceof SweepIncompleteError);
        assert.equal(e.submitted.length, 1);
        assert.equal(e.submitted[0]!.txId, txs[0]!.txId);
        assert.equal(e.failedIndex, 1);
        return true;
      },
    );
    assert.equal(h.asked.length, 1);
    assert.equal(h.asked[0]![0].kind, 'sweep');
    assert.equal(h.asked[0]![0].total.alph, '6.004');
  });

  it('refuses a sweep that pays anyone but the destination, before asking', async () => {
    const h = harness();
    const deps: SendDeps = {
      ...h.deps,
      client: {
        ...h.deps.client,
        buildSweep: () => Promise.resolve({ unsignedTxs: [sweepTx('s1'), sweepTx('s2', ATTACKER.address)] }),
      },
    };
    await assert.rejects(
      sendSweep(deps, { fromPublicKey: SENDER.publicKey, toAddress: RECIPIENT.address }),
      /sweep tx 1: output 0 pays 3 ALPH .* to \w+, not to the sweep destination/,
    );
    assert.equal(h.asked.length, 0);
    assert.equal(h.signed.length, 0);
  });
});

describe('sendTransfer names the tokens before the confirmation', () => {
  const tokenTx = () =>
    honestTx([out(RECIPIENT.address, 10n ** 15n, { tokens: [{ id: TOKEN_ID, amount: '2500' }] })]);
  const tokenRequest = () =>
    honestRequest({
      destinations: [
        {
          address: RECIPIENT.address,
          attoAlphAmount: 10n ** 15n,
          tokens: [{ id: TOKEN_ID, amount: '2500' }],
        },
      ],
    });

  it('asks the metadata port for the verified tokens once, before the modal, and shows the names', async () => {
    const h = harness(undefined, tokenTx());
    const order: string[] = [];
    const asked: string[][] = [];
    const deps: SendDeps = {
      ...h.deps,
      tokenMetadata: (ids) => {
        order.push(`names (${h.asked.length} asked)`);
        asked.push([...ids]);
        return Promise.resolve(
          new Map([[TOKEN_ID, { symbol: 'SBX', name: 'Sandbox', decimals: 2, source: 'contract' as const }]]),
        );
      },
    };
    await sendTransfer(deps, tokenRequest());
    assert.deepEqual(order, ['names (0 asked)'], 'resolved before the confirmation, once');
    assert.deepEqual(asked, [[TOKEN_ID]]);
    const text = h.asked[0]![0].text;
    assert.ok(
      text.includes(`Token: 25 SBX (2500 raw, as the token names itself) of token ${TOKEN_ID}`),
      text,
    );
  });

  it('a failed lookup still confirms, with the raw amount and id, and says why to its listener', async () => {
    const h = harness(undefined, tokenTx());
    const errors: unknown[] = [];
    await sendTransfer(
      {
        ...h.deps,
        tokenMetadata: () => Promise.reject(new Error('multicall failed')),
        onTokenMetadataError: (e) => errors.push(e),
      },
      tokenRequest(),
    );
    assert.equal(errors.length, 1);
    assert.ok(h.asked[0]![0].text.includes(`Token: 2500 (raw; unknown token) of token ${TOKEN_ID}`));
    assert.equal(h.signed.length, 1, 'the user confirmed the raw view and it was signed');
  });

  it('a transfer without tokens sends no lookup', async () => {
    const h = harness();
    let lookups = 0;
    await sendTransfer(
      { ...h.deps, tokenMetadata: () => Promise.resolve((lookups++, new Map())) },
      honestRequest(),
    );
    assert.equal(lookups, 0);
  });
});
