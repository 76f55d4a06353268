/**
 * A caller's request (a task, a command link, another extension) is never the user's own: the policy
 * names the caller, and arguments that choose a recipient, an amount or a script always bring the
 * confirmation, whatever the user's `confirmBeforeSigning` says (core/signing/confirmPolicy.ts).
 */
import { strict as assert } from 'node:assert';
import {
  callerAsked,
  callerChoices,
  callerWords,
  confirmationDecision,
  type CallerStart,
  type RunMode,
} from '../../../src/core/signing/confirmPolicy';
import { confirmAndSign, type Confirmation, type ConfirmStage } from '../../../src/core/signing/signingPath';
import { transferConfirmation } from '../../../src/core/signing/confirmation';
import { verifyTransfer } from '../../../src/core/signing/verify';
import { SENDER, honestRequest, honestTx, responseFor } from './verifyFixtures';

const USERS_VS_CODE: RunMode[] = ['production', 'development'];
const TASK_SEND: CallerStart = { flow: 'transfer', chose: ['recipient', 'amount'] };

describe("a caller's signing request (the confirmation policy)", () => {
  it('reads what a signing command’s arguments chose, in a fixed order, and counts unknown keys', () => {
    assert.deepEqual(callerChoices({ amount: '500', to: 'x', confirm: false }), ['recipient', 'amount']);
    assert.deepEqual(callerChoices({ address: 'c', method: 'withdraw', args: ['1'] }), ['script']);
    assert.deepEqual(callerChoices({ artifact: 'Token', fields: {}, alph: '1' }), ['amount', 'script']);
    assert.deepEqual(callerChoices({ to: 'x', gasPrice: '100000000000' }), ['recipient', 'amount']);
    // A key this table does not know still counts: a new argument is confirmed until it is placed.
    assert.deepEqual(callerChoices({ somethingNew: 1 }), ['other values']);
    // Keys that only say how to report, or ask to skip (decided apart), choose nothing.
    assert.deepEqual(callerChoices({ confirm: false, waitForConfirmation: false, to: undefined }), []);
    for (const none of [undefined, null, 'to', 7, ['to']]) assert.deepEqual(callerChoices(none), []);
  });

  it("always asks when a caller chose the recipient, the amount or the script, whatever the user's setting", () => {
    for (const mode of USERS_VS_CODE)
      for (const chose of [['recipient'], ['amount'], ['script'], ['other values']] as const) {
        const decision = confirmationDecision({
          mainnet: false,
          skipBySetting: true,
          skipByArgument: true,
          mode,
          caller: { flow: 'execute', chose },
        });
        assert.equal(decision.ask, true, `${mode} ${chose.join()}`);
        assert.match(decision.reason, /caller chose the .*skipped only for values you typed; asking/);
      }
  });

  it('names the caller in every confirmation a caller started, on mainnet too, and says what it chose', () => {
    for (const mode of USERS_VS_CODE)
      for (const mainnet of [false, true]) {
        const decision = confirmationDecision({
          mainnet,
          skipBySetting: false,
          skipByArgument: false,
          mode,
          caller: TASK_SEND,
        });
        assert.equal(decision.ask, true);
        assert.equal(decision.askedBy, callerWords(TASK_SEND));
      }
    const words = callerWords(TASK_SEND);
    assert.match(words, /^Not started by you from the palette or a view: /);
    for (const who of [
      'a task',
      'a command link',
      'a keybinding',
      'another extension',
      "chat assistant's tool",
    ])
      assert.ok(words.includes(who), `${who} in: ${words}`);
    assert.match(words, /asked for this transfer and chose its recipient and amount\./);
    assert.match(words, /VS Code does not say which\. If you did not ask for it, choose Cancel\.$/);
    assert.match(
      callerWords({ flow: 'execute', chose: ['amount', 'script'] }),
      /for this contract call and chose its amount and script\./,
    );
    assert.match(
      callerWords({ flow: 'sweep', chose: ['recipient'] }),
      /for this sweep and chose its recipient\./,
    );
    assert.match(callerWords({ flow: 'deploy', chose: [] }), /for this deploy \(you typed its values/);
    assert.match(
      callerAsked('to remove the API key of "x"'),
      /another extension .*asked to remove the API key/,
    );
  });

  it("lets the user's setting skip a caller-started flow only when the user typed every value", () => {
    const decision = confirmationDecision({
      mainnet: false,
      skipBySetting: true,
      skipByArgument: false,
      mode: 'production',
      caller: { flow: 'transfer', chose: [] },
    });
    assert.equal(decision.ask, false);
    // A caller's confirm: false alone still skips nothing.
    const byArgument = confirmationDecision({
      mainnet: false,
      skipBySetting: false,
      skipByArgument: true,
      mode: 'production',
      caller: { flow: 'transfer', chose: [] },
    });
    assert.equal(byArgument.ask, true);
    assert.ok(byArgument.askedBy);
  });

  it("keeps the extension's own test runs as they were: arguments act for the user, nobody is named", () => {
    for (const skipByArgument of [false, true]) {
      const decision = confirmationDecision({
        mainnet: false,
        skipBySetting: !skipByArgument,
        skipByArgument,
        mode: 'test',
        caller: TASK_SEND,
      });
      assert.equal(decision.ask, false);
      assert.equal(decision.askedBy, undefined);
    }
    const asks = confirmationDecision({
      mainnet: false,
      skipBySetting: false,
      skipByArgument: false,
      mode: 'test',
      caller: TASK_SEND,
    });
    assert.deepEqual(asks, { ask: true, reason: '' });
  });
});

describe('the signing path shows who asked', () => {
  const verified = () => verifyTransfer(honestRequest(), responseFor({ ...honestTx(), networkId: 0 }));

  it('hands the caller’s words to both confirmations, and asks despite the setting', async () => {
    const tx = verified();
    const shown: [ConfirmStage, string | undefined][] = [];
    let keyReads = 0;
    await confirmAndSign(
      {
        key: { publicKey: SENDER.publicKey, readPrivateKey: () => (keyReads++, SENDER.privateKey) },
        confirm: (c: Confirmation, stage) => {
          shown.push([stage, c.askedBy]);
          return Promise.resolve(true);
        },
        policy: { skipBySetting: true, skipByArgument: false, mode: 'development', caller: TASK_SEND },
      },
      [tx],
      transferConfirmation(tx),
    );
    assert.deepEqual(shown, [
      ['first', callerWords(TASK_SEND)],
      ['second', callerWords(TASK_SEND)],
    ]);
    assert.equal(keyReads, 1);
  });

  it('a testnet send a caller chose is confirmed although the setting is off; declining reads no key', async () => {
    const tx = verifyTransfer(honestRequest(), responseFor({ ...honestTx(), networkId: 1 }));
    let asked = 0;
    let keyReads = 0;
    await assert.rejects(
      confirmAndSign(
        {
          key: { publicKey: SENDER.publicKey, readPrivateKey: () => (keyReads++, SENDER.privateKey) },
          confirm: () => (asked++, Promise.resolve(false)),
          policy: { skipBySetting: true, skipByArgument: true, mode: 'production', caller: TASK_SEND },
        },
        [tx],
        transferConfirmation(tx, { profileNetwork: 'testnet' }),
      ),
      { name: 'TransferDeclinedError' },
    );
    assert.equal(asked, 1);
    assert.equal(keyReads, 0);
  });
});
