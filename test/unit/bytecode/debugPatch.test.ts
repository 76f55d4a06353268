import { strict as assert } from 'node:assert';
import { buildDebugBytecode as sdkDebugBytecode } from '@alephium/web3';
import { buildDebugBytecode, DebugPatchError } from '../../../src/core/bytecode/debugPatch';

// The oracle is the SDK's own buildDebugBytecode: what `@alephium/cli` deploys on a devnet.

describe('debug bytecode from the compiler patch (core/bytecode/debugPatch)', () => {
  const release = '0102030405060708090a0b0c';

  it('is the release code for an empty patch', () => {
    assert.equal(buildDebugBytecode(release, ''), release);
  });

  it('copies, inserts and skips exactly as the SDK does', () => {
    for (const patch of ['=4+7e00=20', '=0+ff-4=20', '+abcd=24', '=10-6=8', '=24+0102', '=3+e=1-2+9=18']) {
      assert.equal(buildDebugBytecode(release, patch), sdkDebugBytecode(release, patch), patch);
    }
    assert.equal(buildDebugBytecode(release, '=4+7e00=20'), '01027e000304' + '05060708090a0b0c');
  });

  it('refuses what the compiler would not write, instead of applying it in part', () => {
    const refuses = (patch: string, why: RegExp) =>
      assert.throws(
        () => buildDebugBytecode(release, patch),
        (e: Error) => e instanceof DebugPatchError && why.test(e.message),
      );
    refuses('=25', /past the end/);
    refuses('-30', /past the end/);
    refuses('+abc=24', /half a byte/);
    refuses('=1a', /not a decimal/);
    refuses('=4*2', /'\*' at character 2/);
  });

  it('reads a long hostile patch in one pass', () => {
    const long = '+00'.repeat(200_000);
    assert.equal(buildDebugBytecode(release, long).length, 400_000);
  });
});
