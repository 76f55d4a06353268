/**
 * Every script the sandbox runs (a mined tx, a build's estimate and simulation, call-tx-script, a contract
 * call) runs on the project's VM (`src/core/vm`'s `runTxScript`), against the sandbox's contracts read
 * lazily in the node's JSON shape. Nothing is changed here: the run is handed back as a stage (the
 * contracts it changed or created as new copies, the outputs it generated in the VM's order, its events),
 * which a mined transaction commits and a dry run throws away.
 */
import {
  addressFromContractId,
  addressFromLockupScript,
  blake2b256,
  bytesToHex,
  groupOfAddress,
  hexToBytes,
  lockupScriptFromAddress,
  outputKey,
  scriptHintOfLockupScript,
} from '../../src/core/protocol';
import {
  DEVNET_FORKS,
  MemoryWorldState,
  hardForkAt,
  initialStateHashOf,
  runTxScript,
  valToNode,
  type ContractRecord,
  type NodeContractState,
  type TxRunResult,
} from '../../src/core/vm';
import { copyInstance } from '../ledger/history';
import { NETWORK_ID, type ContractInstance, type EventRecord, type Utxo } from '../ledger/types';
import type { ContractDef, Val } from './projectContracts';
import { ScriptVmError, type Assets } from './scriptCodec';

/** What a run needs of the ledger. */
export interface VmHost {
  readonly contracts: ReadonlyMap<string, ContractInstance>;
  stateOf(c: ContractInstance): Record<string, unknown>;
  defForCode(code: string, imm: Val[], mut: Val[]): { def: ContractDef; fields: Record<string, Val> };
  pendingEvent(address: string, eventIndex: number, fields: Val[], txId: string): EventRecord;
  now(): number;
}

export interface VmRunRequest {
  readonly script: Uint8Array;
  readonly caller: string;
  readonly provided: Assets;
  readonly txId: string;
  readonly fixedOutputCount: number;
  readonly gasAmount: number;
  readonly gasPrice: bigint;
}

export type StagedOutput =
  { readonly kind: 'contract'; readonly c: ContractInstance } | { readonly kind: 'asset'; readonly u: Utxo };

/** A run that completed, as the ledger applies it. */
export interface Stage {
  readonly returns: Val[];
  readonly gas: number;
  /** The ledger's contracts the run loaded, called or read (as they were). */
  readonly touched: ContractInstance[];
  /** New copies of existing contracts the run changed (fields, assets, output), by address. */
  readonly updated: Map<string, ContractInstance>;
  readonly removed: string[];
  readonly created: ContractInstance[];
  /** Contracts whose output the run spent (as they were): the tx's contract inputs. */
  readonly contractInputs: ContractInstance[];
  readonly outputs: StagedOutput[];
  readonly events: EventRecord[];
  readonly debugMessages: { contractAddress: string; message: string }[];
}

const ZERO_ID = '00'.repeat(32);

/** Runs a script on the VM; a VM failure throws {@link ScriptVmError} with the node's words for it. */
export function runOnVm(host: VmHost, request: VmRunRequest): Stage {
  const world = new MemoryWorldState((address) => {
    const c = host.contracts.get(address);
    return c === undefined ? undefined : (host.stateOf(c) as unknown as NodeContractState);
  });
  const now = host.now();
  const run = runTxScript({
    script: request.script,
    world,
    caller: lockupScriptFromAddress(request.caller),
    callerAssets: { alph: request.provided.alph, tokens: [...request.provided.tokens].sort() },
    txId: hexToBytes(request.txId),
    networkId: NETWORK_ID,
    timeStamp: now,
    hardFork: hardForkAt(DEVNET_FORKS, now),
    group: groupOfAddress(request.caller),
    fixedOutputsLength: request.fixedOutputCount,
    gasAmount: request.gasAmount,
    gasPrice: request.gasPrice,
  });
  if (run.outcome.status !== 'completed') {
    const failure = run.outcome.status === 'failed' ? run.outcome.failure : undefined;
    throw new ScriptVmError(failure?.message ?? 'Aborted');
  }
  return stageOf(host, request, run, world);
}

const vals = (values: readonly Parameters<typeof valToNode>[0][]): Val[] => values.map(valToNode) as Val[];

function stageOf(host: VmHost, request: VmRunRequest, run: TxRunResult, world: MemoryWorldState): Stage {
  const byId = new Map([...host.contracts.values()].map((c) => [c.contractId, c]));
  const updated = new Map<string, ContractInstance>();
  const removed: string[] = [];
  const created: ContractInstance[] = [];
  const live = new Map<string, ContractInstance>();
  for (const id of world.changedIds()) {
    const record = world.getContract(id);
    const orig = byId.get(id);
    if (record === undefined) {
      if (orig) removed.push(orig.address);
      continue;
    }
    const next =
      run.createdContracts.has(id) || !orig ? newInstance(host, request, record) : copyOf(host, orig, record);
    live.set(id, next);
    if (run.createdContracts.has(id) || !orig) created.push(next);
    else updated.set(orig.address, next);
  }
  const outputs = run.generatedOutputs.map((o, i): StagedOutput => {
    const key = outputKey(request.txId, request.fixedOutputCount + i);
    if (o.lockupScript[0] === 3) {
      const id = bytesToHex(o.lockupScript.subarray(1));
      const c = live.get(id) ?? copyInstance(byId.get(id) as ContractInstance);
      c.outputKey = key;
      if (!live.has(id)) {
        live.set(id, c);
        updated.set(c.address, c);
      }
      return { kind: 'contract', c };
    }
    const u: Utxo = {
      hint: scriptHintOfLockupScript(o.lockupScript),
      key,
      address: addressFromLockupScript(o.lockupScript),
      amount: o.alph,
      tokens: o.tokens.map(([id, amount]) => ({ id, amount })),
      lockTime: Number(o.lockTime),
      message: '',
      txId: request.txId,
    };
    return { kind: 'asset', u };
  });
  const events = run.logs.flatMap((log) => {
    const [index, ...fields] = log.fields;
    if (log.contractId === undefined || index?.type !== 'I256') return [];
    const address = addressFromContractId(log.contractId);
    return [host.pendingEvent(address, Number(index.value), vals(fields), request.txId)];
  });
  return {
    returns: vals(run.returns),
    gas: run.gasUsed,
    touched: run.loadedContracts.flatMap((id) => byId.get(id) ?? []),
    updated,
    removed,
    created,
    contractInputs: run.contractInputs.flatMap((i) => byId.get(i.contractId) ?? []),
    outputs,
    events,
    debugMessages: run.debugMessages.map((d) => ({
      contractAddress: addressFromContractId(d.contractId ?? ZERO_ID),
      message: d.message,
    })),
  };
}

function fieldsOf(host: VmHost, record: ContractRecord) {
  return host.defForCode(bytesToHex(record.bytecode), vals(record.immFields), vals(record.mutFields));
}

function copyOf(host: VmHost, orig: ContractInstance, record: ContractRecord): ContractInstance {
  const { def, fields } = fieldsOf(host, record);
  return {
    ...orig,
    def: bytesToHex(record.bytecode) === orig.def.artifact.bytecode ? orig.def : def,
    fields,
    alph: record.asset.alph,
    tokens: new Map(record.asset.tokens),
  };
}

function newInstance(host: VmHost, request: VmRunRequest, record: ContractRecord): ContractInstance {
  const { def, fields } = fieldsOf(host, record);
  const hash =
    record.initialStateHash ??
    initialStateHashOf(blake2b256(record.bytecode), record.immFields, record.mutFields);
  return {
    def,
    address: addressFromContractId(record.contractId),
    contractId: record.contractId,
    group: groupOfAddress(request.caller),
    deployTxId: request.txId,
    fields,
    alph: record.asset.alph,
    tokens: new Map(record.asset.tokens),
    initialStateHash: bytesToHex(hash),
    outputKey: '',
  };
}
