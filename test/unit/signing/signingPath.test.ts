/** The one signing path: only verified bytes, the policy, the confirmation, and only then the key. */
import { strict as assert } from 'node:assert';
import {
  TransferDeclinedError,
  confirmAndSign,
  confirmSignAndSubmit,
  networkPin,
  type Confirmation,
  type ConfirmStage,
  type SigningDeps,
} from '../../../src/core/signing/signingPath';
import { verifyTxIdSignature } from '../../../src/core/protocol/keys';
import { scriptConfirmation, transferConfirmation } from '../../../src/core/signing/confirmation';
import { NotVerifiedError, verifyTransfer } from '../../../src/core/signing/verify';
import { ATTACKER, SENDER, honestRequest, honestTx, responseFor } from './verifyFixtures';

function harness(answers: boolean[] = [true, true]) {
  const events: string[] = [];
  const deps: SigningDeps = {
    key: {
      publicKey: SENDER.publicKey,
      readPrivateKey: () => (events.push('key read'), SENDER.privateKey),
    },
    confirm: (_c: Confirmation, stage: ConfirmStage) => {
      events.push(`asked ${stage}`);
      return Promise.resolve(answers.shift() ?? true);
    },
  };
  return { deps, events };
}

const verified = (networkId = 4) =>
  verifyTransfer(honestRequest(), responseFor({ ...honestTx(), networkId }));

describe('the signing path (core/signing/signingPath.ts)', () => {
  it('reads the private key once, after the confirmation, and signs what was verified', async () => {
    const h = harness();
    const tx = verified();
    const { signatures, confirmationSkipped } = await confirmAndSign(h.deps, [tx], transferConfirmation(tx));
    assert.deepEqual(h.events, ['asked first', 'key read']);
    assert.equal(confirmationSkipped, false);
    assert.ok(verifyTxIdSignature(tx.txId, signatures[0]!, SENDER.publicKey));
  });

  it('never reads the key when the user declines, at either confirmation', async () => {
    for (const answers of [[false], [true, false]]) {
      const h = harness([...answers]);
      const tx = verified(0);
      await assert.rejects(confirmAndSign(h.deps, [tx], transferConfirmation(tx)), TransferDeclinedError);
      assert.ok(!h.events.includes('key read'), h.events.join(', '));
    }
  });

  it('refuses, before asking, anything verification did not make or made for another signer', async () => {
    const h = harness();
    const tx = verified();
    const forged = { ...tx };
    await assert.rejects(confirmAndSign(h.deps, [forged], transferConfirmation(tx)), NotVerifiedError);
    const otherSigner: SigningDeps = { ...h.deps, key: { ...h.deps.key, publicKey: ATTACKER.publicKey } };
    await assert.rejects(
      confirmAndSign(otherSigner, [tx], transferConfirmation(tx)),
      /not verified for the signer/,
    );
    assert.deepEqual(h.events, []);
  });

  it('stops without reading the key when the command is cancelled while the user confirms', async () => {
    const h = harness();
    const controller = new AbortController();
    const deps: SigningDeps = {
      ...h.deps,
      signal: controller.signal,
      confirm: () => {
        controller.abort();
        return Promise.resolve(true);
      },
    };
    const tx = verified();
    await assert.rejects(confirmAndSign(deps, [tx], transferConfirmation(tx)), /aborted/);
    assert.deepEqual(h.events, []);
  });

  it('says so, and signs nothing, when the key was removed while the user confirmed', async () => {
    const tx = verified();
    const deps: SigningDeps = {
      ...harness().deps,
      key: { publicKey: SENDER.publicKey, readPrivateKey: () => undefined },
    };
    await assert.rejects(
      confirmAndSign(deps, [tx], transferConfirmation(tx)),
      /No signer key is stored any more/,
    );
  });

  it('asks twice for a script transaction on mainnet, and the second question names the fee', async () => {
    const tx = verified(0);
    const asked: [ConfirmStage, string][] = [];
    const deps: SigningDeps = {
      ...harness().deps,
      confirm: (c, stage) => {
        asked.push([stage, c.lines[0] ?? '']);
        return Promise.resolve(true);
      },
      // Even the user's setting and a test run's argument do not skip it on mainnet.
      policy: { skipBySetting: true, skipByArgument: true, mode: 'test' },
    };
    const confirmation = scriptConfirmation('Execute Counter.increment on mainnet?', tx, [
      'Run Counter.increment',
    ]);
    const submitted: string[] = [];
    const sent = await confirmSignAndSubmit(
      {
        ...deps,
        client: {
          submitTransaction: (r) => {
            submitted.push(r.signature);
            return Promise.resolve({ txId: tx.txId, fromGroup: 0, toGroup: 0, recovered: false });
          },
        },
      },
      tx,
      confirmation,
    );
    assert.deepEqual(
      asked.map(([stage]) => stage),
      ['first', 'second'],
    );
    assert.match(asked[1]![1], /real funds on mainnet\. Really sign it, with a fee of/);
    assert.equal(sent.signature, submitted[0]);
    assert.equal(sent.confirmationSkipped, false);
  });

  it("pins the network: a mainnet or testnet profile its id, a devnet profile its node's id but never 0 or 1", async () => {
    let asked = 0;
    const node = () => {
      asked++;
      return Promise.resolve(4);
    };
    assert.deepEqual(await networkPin('mainnet', node), { expectedNetworkId: 0 });
    assert.deepEqual(await networkPin('testnet', node), { expectedNetworkId: 1 });
    assert.equal(asked, 0, 'no request for a named network');
    assert.deepEqual(await networkPin('devnet', node), { expectedNetworkId: 4, refusedNetworkIds: [0, 1] });
  });
});
