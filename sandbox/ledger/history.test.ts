/**
 * Contract state per block: call-contract, multicall and call-tx-script pinned to a `worldStateBlockHash`
 * read the state after that block, an unknown block fails as the node's does, `txId` and
 * `interestedContracts` are honoured, and a block's header names its parent where the explainer looks.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { buildScriptByteCode } from '@alephium/web3';
import { stateBeforeBlock } from '../../src/core/debugging/scriptReproduction';
import { ARTIFACTS_DIR } from '../vm/projectContracts';
import { control, newSandbox, type Api } from '../testing/helpers';
import type { Sandbox } from '../http/server';

interface CallResult {
  type: string;
  returns?: { type: string; value: string }[];
  error?: string;
  contracts?: { address: string; mutFields: { value: string }[] }[];
  events?: { blockHash: string; contractAddress: string }[];
}
interface Header {
  hash: string;
  chainFrom: number;
  chainTo: number;
  height: number;
  timestamp: number;
  deps: string[];
}

const UNKNOWN_BLOCK = 'ab'.repeat(32);

describe('sandbox gateway: state per block (worldStateBlockHash)', () => {
  let sb: Sandbox;
  let api: Api;
  const counter = () => sb.contracts.find((c) => c.name === 'Counter')!;
  const faucet = () => sb.contracts.find((c) => c.name === 'TokenFaucet')!;
  const getCount = (worldStateBlockHash?: string) => ({
    group: counter().groupIndex,
    address: counter().address,
    methodIndex: 0,
    ...(worldStateBlockHash ? { worldStateBlockHash } : {}),
  });
  const countAt = async (hash?: string) => {
    const r = await api.json<CallResult>('/contracts/call-contract', getCount(hash));
    assert.equal(r.type, 'CallContractSucceeded', r.error);
    return BigInt(r.returns![0]!.value);
  };
  /** Increments the counter in a block of its own; the block's hash. */
  const incrementInBlock = async () => {
    const r = await control<{ events: { blockHash: string }[] }>(sb, 'POST', '/events/trigger', {
      contract: 'Counter',
      count: 1,
    });
    return r.events[0]!.blockHash;
  };
  let first: string;
  let second: string;
  let start: bigint;

  before(async () => {
    ({ sb, api } = await newSandbox());
    start = await countAt();
    first = await incrementInBlock();
    second = await incrementInBlock();
  });
  after(() => sb.close());

  it('a call pinned to an earlier block sees that block state, unpinned sees today', async () => {
    assert.notEqual(first, second);
    assert.equal(await countAt(first), start + 1n);
    assert.equal(await countAt(second), start + 2n);
    assert.equal(await countAt(), start + 2n);
  });

  it('an unknown block fails the call as the node does, and each call of a multicall on its own', async () => {
    const alone = await api.json<CallResult>('/contracts/call-contract', getCount(UNKNOWN_BLOCK));
    assert.equal(alone.type, 'CallContractFailed');
    assert.match(alone.error ?? '', new RegExp(UNKNOWN_BLOCK));
    const multi = await api.json<{ results: CallResult[] }>('/contracts/multicall-contract', {
      calls: [getCount(first), getCount(UNKNOWN_BLOCK), getCount(second), getCount()],
    });
    assert.deepEqual(
      multi.results.map((r) => r.type),
      ['CallContractSucceeded', 'CallContractFailed', 'CallContractSucceeded', 'CallContractSucceeded'],
    );
    assert.equal(multi.results[0]!.returns![0]!.value, String(start + 1n));
    assert.equal(multi.results[2]!.returns![0]!.value, String(start + 2n));
  });

  it('refuses a block hash that is not 32 bytes of hex with a 400', async () => {
    const res = await api.post('/contracts/call-contract', getCount('abc'));
    assert.equal(res.status, 400);
  });

  it('reports the pinned state of the called and the interested contracts, events at the pinned block', async () => {
    const r = await api.json<CallResult>('/contracts/call-contract', {
      ...getCount(first),
      methodIndex: 1, // increment: an event, nothing kept
      interestedContracts: [faucet().address, counter().address],
    });
    assert.equal(r.type, 'CallContractSucceeded', r.error);
    assert.deepEqual(
      r.contracts!.map((c) => c.address),
      [counter().address, faucet().address],
    );
    assert.equal(r.contracts![0]!.mutFields[0]!.value, String(start + 1n));
    assert.ok(r.events!.length > 0);
    assert.ok(r.events!.every((e) => e.blockHash === first));
    assert.equal(await countAt(), start + 2n, 'a pinned dry run changes nothing');
  });

  it('the header of a block puts its parent on its chain at deps[G - 1 + chainFrom] (stateBeforeBlock)', async () => {
    const header = await api.json<Header>(`/blockflow/headers/${second}`);
    assert.deepEqual(Object.keys(header).sort(), [
      'chainFrom',
      'chainTo',
      'deps',
      'hash',
      'height',
      'timestamp',
    ]);
    assert.equal(header.hash, second);
    assert.equal(header.chainFrom, counter().groupIndex);
    assert.equal(header.chainTo, header.chainFrom);
    const parent = stateBeforeBlock(header);
    const firstHeader = await api.json<Header>(`/blockflow/headers/${first}`);
    assert.equal(parent, first);
    assert.equal(firstHeader.height, header.height - 1);
    // The state just before the second block is the state after the first.
    assert.equal(await countAt(parent), start + 1n);
    const missing = await api.get(`/blockflow/headers/${UNKNOWN_BLOCK}`);
    assert.equal(missing.status, 404);
  });

  it('call-tx-script runs against the pinned block (txId accepted), an unknown block is a 400', async () => {
    const artifact = JSON.parse(readFileSync(join(ARTIFACTS_DIR, 'IncrementBy.ral.json'), 'utf8')) as {
      bytecodeTemplate: string;
      fieldsSig: { names: string[]; types: string[]; isMutable: boolean[] };
    };
    const bytecode = buildScriptByteCode(
      artifact.bytecodeTemplate,
      { counter: counter().contractId, step: 5n },
      artifact.fieldsSig,
      [],
    );
    const txId = 'cd'.repeat(32);
    const r = await api.json<CallResult>('/contracts/call-tx-script', {
      group: counter().groupIndex,
      bytecode,
      worldStateBlockHash: first,
      txId,
      interestedContracts: [faucet().address],
    });
    const after = r.contracts!.find((c) => c.address === counter().address);
    assert.equal(after?.mutFields[0]?.value, String(start + 1n + 5n));
    assert.ok(r.contracts!.some((c) => c.address === faucet().address));
    const unknown = await api.post('/contracts/call-tx-script', {
      group: counter().groupIndex,
      bytecode,
      worldStateBlockHash: UNKNOWN_BLOCK,
    });
    assert.equal(unknown.status, 400);
    assert.equal(await countAt(), start + 2n);
  });
});
