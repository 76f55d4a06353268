/**
 * The debug build as a real devnet runs it: the artifacts' `bytecode` is the release code (no DEBUG
 * instruction), `.project.json` records the patch to the debug code as @alephium/cli writes it, and the
 * sandbox runs either code of a known contract, emitting Debug messages (event index -3, `debugMessages`)
 * only when the deployed code is the debug one. The SDK (`Contract.fromJson` with the patch,
 * `buildByteCodeToDeploy(fields, isDevnet)`) is the oracle for both codes.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Contract, codec, hexToBinUnsafe, transactionSign } from '@alephium/web3';
import { blake2b } from '@noble/hashes/blake2.js';
import { buildDebugBytecode } from '../../src/core/bytecode/debugPatch';
import { ARTIFACTS_DIR } from './projectContracts';
import { control, newSandbox, type Api } from '../testing/helpers';
import type { Sandbox } from '../http/server';

interface ProjectInfo {
  sourceFile: string;
  sourceCodeHash: string;
  bytecodeDebugPatch: string;
  codeHashDebug: string;
}
interface ProjectFile {
  fullNodeVersion: string;
  compilerOptionsUsed: Record<string, boolean>;
  infos: Record<string, ProjectInfo>;
}
interface CallResult {
  type: string;
  error?: string;
  events?: { eventIndex: number }[];
  debugMessages?: { contractAddress: string; message: string }[];
}

const readArtifact = (name: string) => readFileSync(join(ARTIFACTS_DIR, `${name}.ral.json`), 'utf8');
const project = JSON.parse(readFileSync(join(ARTIFACTS_DIR, '.project.json'), 'utf8')) as ProjectFile;
const codeHash = (hex: string) => Buffer.from(blake2b(hexToBinUnsafe(hex), { dkLen: 32 })).toString('hex');
/** The names of a contract code's instructions, every method. */
const instrNames = (hex: string) =>
  codec.contract.contractCodec
    .decodeContract(hexToBinUnsafe(hex))
    .methods.flatMap((m) => m.instrs.map((i) => i.name));
const sdkContract = (name: string) => {
  const info = project.infos[name]!;
  return Contract.fromJson(
    JSON.parse(readArtifact(name)) as never,
    info.bytecodeDebugPatch,
    info.codeHashDebug,
  );
};

describe('sandbox artifacts: release code, and the debug code in .project.json as @alephium/cli writes it', () => {
  it(".project.json has the CLI's shape: the node's compiler options, infos sorted by name", () => {
    assert.deepEqual(Object.keys(project), ['fullNodeVersion', 'compilerOptionsUsed', 'infos']);
    assert.deepEqual(Object.keys(project.infos), ['Counter', 'Increment', 'IncrementBy', 'TokenFaucet']);
    for (const info of Object.values(project.infos))
      assert.deepEqual(Object.keys(info), [
        'sourceFile',
        'sourceCodeHash',
        'bytecodeDebugPatch',
        'codeHashDebug',
      ]);
    assert.equal(project.infos.Counter!.sourceFile, 'counter.ral');
    assert.equal(project.compilerOptionsUsed.ignoreUnusedConstantsWarnings, true);
  });

  for (const name of ['Counter', 'TokenFaucet']) {
    it(`${name}: the release code has no DEBUG; the patched code has it and hashes to codeHashDebug`, () => {
      const artifact = JSON.parse(readArtifact(name)) as { bytecode: string; codeHash: string };
      const info = project.infos[name]!;
      assert.equal(codeHash(artifact.bytecode), artifact.codeHash);
      assert.ok(!instrNames(artifact.bytecode).includes('DEBUG'), 'the release code emits no Debug');
      const sdk = sdkContract(name);
      assert.equal(codeHash(sdk.bytecodeDebug), info.codeHashDebug);
      assert.notEqual(info.codeHashDebug, artifact.codeHash);
      assert.ok(instrNames(sdk.bytecodeDebug).includes('DEBUG'), 'the debug code emits Debug');
      // The extension's own patcher agrees with the SDK's.
      assert.equal(buildDebugBytecode(artifact.bytecode, info.bytecodeDebugPatch), sdk.bytecodeDebug);
    });
  }
});

describe('sandbox gateway: Debug messages come from the debug code only', () => {
  let sb: Sandbox;
  let api: Api;
  const signer = () => sb.accounts[0]!;
  const counter = sdkContract('Counter');

  /** Deploys a Counter with the code the SDK picks for a devnet (debug) or not (release); its address. */
  const deploy = async (isDevnet: boolean) => {
    const bytecode = counter.buildByteCodeToDeploy(
      { owner: signer().address, count: 0n, paused: false },
      isDevnet,
    );
    const b = await api.json<{ unsignedTx: string; txId: string; contractAddress: string }>(
      '/contracts/unsigned-tx/deploy-contract',
      { fromPublicKey: signer().publicKey, bytecode },
    );
    const signature = transactionSign(b.txId, signer().privateKey);
    await api.json('/transactions/submit', { unsignedTx: b.unsignedTx, signature });
    await control(sb, 'POST', '/mine');
    return b.contractAddress;
  };
  const increment = (address: string) =>
    api.json<CallResult>('/contracts/call-contract', { group: signer().group, address, methodIndex: 1 });
  /** Increments for real (a mined contract call) and returns the tx's events by tx id. */
  const incrementMined = async (address: string) => {
    const { txId } = await control<{ txId: string }>(sb, 'POST', `/contracts/${address}/call`, {
      method: 'increment',
    });
    return api.json<{ events: { eventIndex: number }[] }>(`/events/tx-id/${txId}`);
  };

  before(async () => {
    ({ sb, api } = await newSandbox());
  });
  after(() => sb.close());

  it('a Counter deployed with the debug code reports codeHashDebug and emits its Debug message', async () => {
    const address = await deploy(true);
    const state = await api.json<{ codeHash: string; bytecode: string }>(`/contracts/${address}/state`);
    assert.equal(state.codeHash, project.infos.Counter!.codeHashDebug);
    assert.equal(state.bytecode, counter.bytecodeDebug);
    const r = await increment(address);
    assert.equal(r.type, 'CallContractSucceeded', r.error);
    assert.deepEqual(r.debugMessages, [{ contractAddress: address, message: 'count is now 1' }]);
    const mined = await incrementMined(address);
    assert.deepEqual(
      mined.events.map((e) => e.eventIndex),
      [-3, 0],
    );
  });

  it('a Counter deployed with the release code runs the same but emits no Debug message', async () => {
    const address = await deploy(false);
    const state = await api.json<{ codeHash: string }>(`/contracts/${address}/state`);
    assert.equal(state.codeHash, counter.codeHash);
    const r = await increment(address);
    assert.equal(r.type, 'CallContractSucceeded', r.error);
    assert.deepEqual(r.debugMessages, []);
    const mined = await incrementMined(address);
    assert.deepEqual(
      mined.events.map((e) => e.eventIndex),
      [0],
    );
  });

  it('the genesis Counter is deployed as the CLI deploys on a devnet: the debug code', () => {
    const genesis = sb.contracts.find((c) => c.name === 'Counter')!;
    assert.equal(genesis.codeHash, project.infos.Counter!.codeHashDebug);
  });
});
