import { strict as assert } from 'node:assert';
import {
  argumentsActForUser,
  confirmationDecision,
  isMainnet,
  type RunMode,
} from '../../../src/core/signing/confirmPolicy';

const MODES: RunMode[] = ['production', 'development', 'test'];

describe('confirmation policy (the one rule for skipping a confirmation)', () => {
  it('always asks on mainnet, whatever the setting, the argument or the mode', () => {
    for (const mode of MODES)
      for (const skipBySetting of [false, true])
        for (const skipByArgument of [false, true]) {
          const d = confirmationDecision({ mainnet: true, skipBySetting, skipByArgument, mode });
          assert.equal(d.ask, true, `${mode} setting=${skipBySetting} argument=${skipByArgument}`);
        }
  });

  it("lets only the user's own setting skip off mainnet in a user's VS Code", () => {
    for (const mode of ['production', 'development'] as const) {
      assert.equal(
        confirmationDecision({ mainnet: false, skipBySetting: false, skipByArgument: true, mode }).ask,
        true,
        `confirm: false from a caller is ignored in ${mode}`,
      );
      assert.equal(
        confirmationDecision({ mainnet: false, skipBySetting: true, skipByArgument: false, mode }).ask,
        false,
      );
    }
    assert.match(
      confirmationDecision({ mainnet: false, skipBySetting: false, skipByArgument: true, mode: 'production' })
        .reason,
      /ignored in production mode/,
    );
  });

  it("honours a caller's confirm: false only in the extension's own test runs", () => {
    assert.equal(
      confirmationDecision({ mainnet: false, skipBySetting: false, skipByArgument: true, mode: 'test' }).ask,
      false,
    );
    assert.deepEqual(
      MODES.filter((m) => argumentsActForUser(m)),
      ['test'],
    );
  });

  it('asks by default and says nothing when nobody asked to skip', () => {
    assert.deepEqual(
      confirmationDecision({
        mainnet: false,
        skipBySetting: false,
        skipByArgument: false,
        mode: 'production',
      }),
      { ask: true, reason: '' },
    );
  });

  it('counts as mainnet the bytes’ network id 0 or a profile named mainnet', () => {
    assert.equal(isMainnet(0, 'devnet'), true);
    assert.equal(isMainnet(4, ' MainNet '), true);
    assert.equal(isMainnet(1, 'testnet'), false);
    assert.equal(isMainnet(undefined, undefined), false);
  });
});
