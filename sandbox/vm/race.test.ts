/**
 * `fail-in-block` as a real race: the owner pauses the Counter in a block before the script's, the script
 * really fails in its block on `assert!(!paused, ErrorCodes.Paused)`, and the owner unpauses it in a block
 * after. So the state just before the script's block explains the failure (the explainer reproduces it
 * there), and the state after the unpause lets the same script through again.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildScriptByteCode, transactionSign } from '@alephium/web3';
import { stateBeforeBlock } from '../../src/core/debugging/scriptReproduction';
import { ARTIFACTS_DIR, COUNTER_PAUSED_ERROR } from './projectContracts';
import { control, newSandbox, type Api } from '../testing/helpers';
import type { Sandbox } from '../http/server';

interface Built {
  unsignedTx: string;
  txId: string;
  gasAmount: number;
  gasPrice: string;
}
interface Header {
  hash: string;
  chainFrom: number;
  chainTo: number;
  deps: string[];
}
interface Val {
  type: string;
  value: string | boolean;
}
interface CallResult {
  type: string;
  error?: string;
  contracts?: { address: string; mutFields: Val[] }[];
}

const incrementByTemplate = JSON.parse(readFileSync(join(ARTIFACTS_DIR, 'IncrementBy.ral.json'), 'utf8')) as {
  bytecodeTemplate: string;
  fieldsSig: { names: string[]; types: string[]; isMutable: boolean[] };
};
const counterSource = readFileSync(join(ARTIFACTS_DIR, '..', 'contracts', 'counter.ral'), 'utf8');

describe('sandbox gateway: fail-in-block is a race the state explains', () => {
  let sb: Sandbox;
  let api: Api;
  const counter = () => sb.contracts.find((c) => c.name === 'Counter')!;
  const signer = () => sb.accounts[0]!;
  const script = (step: bigint) =>
    buildScriptByteCode(
      incrementByTemplate.bytecodeTemplate,
      { counter: counter().contractId, step },
      incrementByTemplate.fieldsSig,
      [],
    );
  const mutFields = async (worldStateBlockHash?: string) => {
    const r = await api.json<CallResult>('/contracts/call-contract', {
      group: counter().groupIndex,
      address: counter().address,
      methodIndex: 0,
      ...(worldStateBlockHash ? { worldStateBlockHash } : {}),
    });
    assert.equal(r.type, 'CallContractSucceeded', r.error);
    return r.contracts!.find((c) => c.address === counter().address)!.mutFields;
  };
  const balance = async (address: string) =>
    BigInt((await api.json<{ balance: string }>(`/addresses/${address}/balance`)).balance);
  /** Builds, signs and submits the script, then mines; the build. */
  const executeAndMine = async (bytecode: string) => {
    const b = await api.json<Built>('/contracts/unsigned-tx/execute-script', {
      fromPublicKey: signer().publicKey,
      bytecode,
    });
    const signature = transactionSign(b.txId, signer().privateKey);
    await api.json('/transactions/submit', { unsignedTx: b.unsignedTx, signature });
    await control(sb, 'POST', '/mine');
    return b;
  };
  const callTxScript = (bytecode: string, worldStateBlockHash: string, txId: string) =>
    api.post('/contracts/call-tx-script', {
      group: signer().group,
      bytecode,
      callerAddress: signer().address,
      worldStateBlockHash,
      txId,
    });

  before(async () => {
    ({ sb, api } = await newSandbox());
  });
  after(() => sb.close());

  it('the script fails in its block on the Paused assert, and the state just before its block says why', async () => {
    const bytecode = script(2n);
    const countBefore = (await mutFields())[0]!.value;
    const balanceBefore = await balance(signer().address);
    assert.deepEqual(await control(sb, 'POST', '/scripts/fail-in-block', {}), { count: 1 });

    const built = await executeAndMine(bytecode);

    // Mined, kept, failed: the fee is charged and the count did not move.
    const status = await api.json<{ type: string; blockHash: string }>(
      `/transactions/status?txId=${built.txId}`,
    );
    assert.equal(status.type, 'Confirmed');
    const details = await api.json<{ scriptExecutionOk: boolean }>(`/transactions/details/${built.txId}`);
    assert.equal(details.scriptExecutionOk, false);
    assert.equal(
      await balance(signer().address),
      balanceBefore - BigInt(built.gasAmount) * BigInt(built.gasPrice),
      'the fee is charged, nothing else moves',
    );
    assert.deepEqual(await mutFields(), [
      { type: 'U256', value: countBefore },
      { type: 'Bool', value: false },
    ]);

    // The competing change is in the block before the script's: the Counter was paused there.
    const header = await api.json<Header>(`/blockflow/headers/${status.blockHash}`);
    assert.equal(header.chainFrom, header.chainTo, 'a script runs in an intra-group block');
    const before = stateBeforeBlock(header)!;
    assert.ok(before, 'the header names the state before its block');
    assert.deepEqual(await mutFields(before), [
      { type: 'U256', value: countBefore },
      { type: 'Bool', value: true },
    ]);

    // Reproduced there, the script fails with the same assert and error code.
    const reproduced = await callTxScript(bytecode, before, built.txId);
    assert.equal(reproduced.status, 400);
    const error = ((await reproduced.json()) as { detail: string }).detail;
    assert.match(
      error,
      new RegExp(`Assertion Failed in Contract @ ${counter().address}, Error Code: ${COUNTER_PAUSED_ERROR}`),
    );
    // Error code 2 is ErrorCodes.Paused, the first assert of incrementBy in counter.ral.
    assert.match(counterSource, /Paused = 2/);
    assert.match(
      counterSource,
      /pub fn incrementBy\(step: U256\) -> \(\) \{\n\s+assert!\(!paused, ErrorCodes\.Paused\)/,
    );

    // The unpause came in a later block: against today's state the same script goes through.
    const tip = sb.chain.bestBlockHash(signer().group);
    assert.notEqual(tip, status.blockHash);
    const later = await callTxScript(bytecode, tip, built.txId);
    assert.equal(later.status, 200, await later.clone().text());
  });

  it('the count is spent: the next script runs and changes the Counter', async () => {
    const countBefore = BigInt(String((await mutFields())[0]!.value));
    const built = await executeAndMine(script(3n));
    const details = await api.json<{ scriptExecutionOk: boolean }>(`/transactions/details/${built.txId}`);
    assert.equal(details.scriptExecutionOk, true);
    assert.equal((await mutFields())[0]!.value, String(countBefore + 3n));
  });

  it('the owner alone pauses: anyone else is refused with NotOwner', async () => {
    const stranger = sb.accounts[1]!;
    const res = await fetch(`${sb.baseUrl}/__sandbox/contracts/Counter/call`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ method: 'pause', caller: stranger.address }),
    });
    assert.equal(res.status, 400);
    assert.match(
      await res.text(),
      new RegExp(`Assertion Failed in Contract @ ${counter().address}, Error Code: 0`),
    );
    assert.equal((await mutFields())[1]!.value, false);
  });
});
