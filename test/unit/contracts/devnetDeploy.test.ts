import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as web3 from '@alephium/web3';
import { ArtifactRegistry } from '../../../src/core/artifacts';
import { parseDeployScript } from '../../../src/core/bytecode';
import {
  addressFromContractId,
  blake2b256,
  bytesToHex,
  contractIdFromTx,
  hexToBytes,
  ONE_ALPH,
  type UnsignedTxInput,
} from '../../../src/core/protocol';
import { buildAndVerifyDeploy, deployCode, prepareDeploy } from '../../../src/core/contracts/actions';
import { TransferVerificationError, verifyScriptTx } from '../../../src/core/signing/verify';
import { SENDER, honestTx, out, responseFor } from '../signing/verifyFixtures';

const VERIFIER = { verifyScriptTx, TransferVerificationError };
const COUNTER_JSON = readFileSync(
  join(import.meta.dirname, '../../../sandbox/project/artifacts/Counter.ral.json'),
  'utf8',
);
const release = (JSON.parse(COUNTER_JSON) as { bytecode: string }).bytecode.toLowerCase();
// The compiler's shape of a debug patch: keep a prefix, insert the Debug instructions, keep the rest.
const PATCH = `=40+7e0207=${release.length - 40}`;
const debugCode = web3.buildDebugBytecode(release, PATCH);
const codeHashDebug = bytesToHex(blake2b256(hexToBytes(debugCode)));

/** The sandbox's Counter with a `.project.json` that carries its debug patch, as the CLI's compile writes it. */
function registryWith(info: Record<string, unknown> | undefined): ArtifactRegistry {
  return ArtifactRegistry.fromFiles([
    { path: 'artifacts/Counter.ral.json', text: COUNTER_JSON },
    ...(info
      ? [
          {
            path: 'artifacts/.project.json',
            text: JSON.stringify({ fullNodeVersion: 'v4.6.0', infos: { Counter: info } }),
          },
        ]
      : []),
  ]);
}

const withPatch = registryWith({
  sourceFile: 'counter.ral',
  bytecodeDebugPatch: PATCH,
  codeHashDebug,
});
const counter = withPatch.byName('Counter')!;
const fields = { owner: SENDER.address, count: '3', paused: 'false' };
const sdkFields = { owner: SENDER.address, count: 3n, paused: false };
/** The SDK's Counter with the same patch: the oracle of what @alephium/cli deploys. */
const sdk = web3.Contract.fromJson(JSON.parse(COUNTER_JSON) as never, PATCH, codeHashDebug);

describe('deploy on a devnet as @alephium/cli does (debug build, the CLI codeHash)', () => {
  it('sends the debug build on a devnet, with the bytes and codeHash the CLI computes', () => {
    assert.notEqual(debugCode, release, 'the patch changes the code');
    const d = prepareDeploy({ artifact: 'Counter', fields }, counter, SENDER.address, withPatch, {
      networkId: 4,
    });
    const cliBytes = sdk.buildByteCodeToDeploy(sdkFields, true);
    assert.equal(d.codeBuild, 'debug');
    assert.equal(d.code, debugCode);
    assert.equal(d.bytecode, cliBytes);
    assert.equal(d.cliCodeHash, createHash('sha256').update(cliBytes, 'utf8').digest('hex'));
    assert.equal(parseDeployScript(d.expectedScript).code, debugCode, 'the verifier expects the debug code');
    assert.equal(d.codeNote, undefined);
  });

  for (const networkId of [0, 1]) {
    it(`never sends the debug build on network id ${networkId}`, () => {
      const d = prepareDeploy({ artifact: 'Counter', fields }, counter, SENDER.address, withPatch, {
        networkId,
      });
      const cliBytes = sdk.buildByteCodeToDeploy(sdkFields, false);
      assert.equal(d.codeBuild, 'release');
      assert.equal(d.bytecode, cliBytes);
      assert.equal(parseDeployScript(d.expectedScript).code, release);
      assert.equal(d.cliCodeHash, createHash('sha256').update(cliBytes, 'utf8').digest('hex'));
    });
  }

  it('sends the release code on a devnet without a debug build, and says Debug will not be emitted', () => {
    const plain = registryWith(undefined);
    const d = prepareDeploy(
      { artifact: 'Counter', fields },
      plain.byName('Counter')!,
      SENDER.address,
      plain,
      {
        networkId: 4,
      },
    );
    assert.equal(d.codeBuild, 'release');
    assert.equal(d.code, release);
    assert.match(
      d.codeNote ?? '',
      /debug messages will not be emitted|emit Debug messages will not be emitted/,
    );
  });

  it('sends the release code when the patch does not give codeHashDebug (stale or altered)', () => {
    const stale = registryWith({ bytecodeDebugPatch: PATCH, codeHashDebug: 'ab'.repeat(32) });
    const chosen = deployCode(stale.byName('Counter')!, stale, 4);
    assert.equal(chosen.build, 'release');
    assert.equal(chosen.code.toLowerCase(), release);
    assert.ok(chosen.note);
  });

  it('sends the release code when the network is not known', () => {
    assert.equal(deployCode(counter, withPatch, undefined).build, 'release');
  });

  it('verifies a devnet deploy built around the debug code, and refuses one built around the release code', async () => {
    const d = prepareDeploy({ artifact: 'Counter', fields }, counter, SENDER.address, withPatch, {
      networkId: 4,
    });
    const releasePlan = prepareDeploy({ artifact: 'Counter', fields }, counter, SENDER.address, withPatch, {
      networkId: 1,
    });
    const tx = (script: string): UnsignedTxInput => ({
      ...honestTx([out(SENDER.address, 5n * ONE_ALPH)]),
      scriptOpt: script,
      gasAmount: 60_000,
    });
    const client = (t: UnsignedTxInput) => ({
      buildDeployContract: () => {
        const r = responseFor(t);
        const id = contractIdFromTx(r.txId, t.fixedOutputs.length, r.fromGroup);
        return Promise.resolve({ ...r, contractAddress: addressFromContractId(id) });
      },
    });
    const built = await buildAndVerifyDeploy(client(tx(d.expectedScript)), d, SENDER.publicKey, {}, VERIFIER);
    assert.ok(built.lines[0]?.includes('the debug build'));
    await assert.rejects(
      buildAndVerifyDeploy(client(tx(releasePlan.expectedScript)), d, SENDER.publicKey, {}, VERIFIER),
      (e: unknown) => e instanceof TransferVerificationError && /creates different code/.test(e.message),
    );
  });
});
