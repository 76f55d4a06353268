/**
 * What `testContract` reports (`TestContractResult` of the node's API, built by
 * `ServerUtils.fromRunTestContractResult`): the returns, the gas, the contracts after the run (created
 * ones first, then the existing ones not destroyed, then the contract under test unless destroyed,
 * whose code hash is the original's unless it migrated), the contract inputs and generated outputs,
 * the events and the debug messages. A failure is reported as the node words it: the debug messages,
 * one a line, then `VM execution error: ` and the failure's text.
 */
import {
  addressFromContractId,
  addressFromLockupScript,
  blake2b256,
  bytesToHex,
  contractIdFromAddress,
  equalBytes,
  hexToBytes,
} from '../protocol';
import { DEBUG_EVENT_INDEX } from './instructions/environment';
import type { Outcome } from './machine';
import { valToNode, type NodeContractState, type NodeVal } from './nodeJson';
import type { StatefulContext } from './statefulContext';
import type { MemoryWorldState } from './worldState';

type Token = { id: string; amount: string };
type Event = { contractAddress: string; eventIndex: number; fields: NodeVal[] };
type DebugMessage = { contractAddress: string; message: string };

export type TestContractResult =
  | {
      readonly ok: true;
      readonly address: string;
      readonly codeHash: string;
      readonly returns: NodeVal[];
      readonly gasUsed: number;
      readonly contracts: NodeContractState[];
      readonly txInputs: string[];
      readonly txOutputs: Array<{ address: string; attoAlphAmount: string; tokens: Token[] }>;
      readonly events: Event[];
      readonly debugMessages: DebugMessage[];
    }
  | {
      readonly ok: false;
      readonly error: string;
      readonly gasUsed: number;
      readonly debugMessages: DebugMessage[];
    };

export interface TestMeta {
  readonly contractId: string;
  readonly original: Uint8Array;
  readonly code: Uint8Array;
  readonly existing: readonly NodeContractState[];
}

const ZERO_ID = '00'.repeat(32);

function stateOf(world: MemoryWorldState, contractId: string): NodeContractState | undefined {
  const record = world.getContract(contractId);
  if (record === undefined) return undefined;
  const tokens = record.asset.tokens.map(([id, amount]) => ({ id, amount: amount.toString() }));
  return {
    address: addressFromContractId(contractId),
    bytecode: bytesToHex(record.bytecode),
    codeHash: bytesToHex(blake2b256(record.bytecode)),
    immFields: record.immFields.map(valToNode),
    mutFields: record.mutFields.map(valToNode),
    asset: { attoAlphAmount: record.asset.alph.toString(), tokens },
  };
}

/** Every log with an I256 index that fits a byte, as the node's log state keeps them. */
function eventsOf(ctx: StatefulContext): Event[] {
  return ctx.logs.flatMap((log) => {
    const [index, ...fields] = log.fields;
    if (log.contractId === undefined || index?.type !== 'I256' || index.value < -128n || index.value > 127n)
      return [];
    return [
      {
        contractAddress: addressFromContractId(log.contractId),
        eventIndex: Number(index.value),
        fields: fields.map(valToNode),
      },
    ];
  });
}

/** The contract a ContractCreated (-1) or ContractDestroyed (-2) event names in its first field. */
function idOf(e: Event): string | undefined {
  const v = e.fields[0]?.value;
  return typeof v === 'string' ? contractIdFromAddress(v) : undefined;
}

function contractsAfter(
  world: MemoryWorldState,
  meta: TestMeta,
  events: readonly Event[],
): NodeContractState[] {
  const created = events.filter((e) => e.eventIndex === -1).flatMap((e) => idOf(e) ?? []);
  const destroyed = new Set(events.filter((e) => e.eventIndex === -2).flatMap((e) => idOf(e) ?? []));
  const existing = meta.existing
    .map((s) => contractIdFromAddress(s.address))
    .filter((id) => !destroyed.has(id));
  const ids = [...created, ...existing];
  if (!destroyed.has(meta.contractId)) ids.push(meta.contractId);
  return ids.flatMap((id) => {
    const state = stateOf(world, id);
    if (state === undefined) return [];
    // The code under test may differ from the original (a private method made public); a migration
    // replaces it, and then its own hash is reported.
    if (id !== meta.contractId || !equalBytes(hexToBytes(state.bytecode), meta.code)) return [state];
    return [{ ...state, codeHash: bytesToHex(blake2b256(meta.original)) }];
  });
}

export function testResultOf(
  outcome: Outcome,
  ctx: StatefulContext,
  world: MemoryWorldState,
  meta: TestMeta,
): TestContractResult {
  const all = eventsOf(ctx);
  const debugMessages = ctx.debugMessages.map((d) => ({
    contractAddress: addressFromContractId(d.contractId ?? ZERO_ID),
    message: d.message,
  }));
  if (outcome.status !== 'completed') {
    const failure = outcome.status === 'failed' ? outcome.failure.message : 'aborted';
    const shown = debugMessages.map((d) => `> Contract @ ${d.contractAddress} - ${d.message}\n`).join('');
    return {
      ok: false,
      error: `${shown}VM execution error: ${failure}`,
      gasUsed: outcome.gasUsed,
      debugMessages,
    };
  }
  const events = all.filter((e) => BigInt(e.eventIndex) !== DEBUG_EVENT_INDEX);
  const contracts = contractsAfter(world, meta, events);
  const self = contracts.find((c) => c.address === addressFromContractId(meta.contractId));
  return {
    ok: true,
    address: addressFromContractId(meta.contractId),
    codeHash: self?.codeHash ?? bytesToHex(blake2b256(meta.original)),
    returns: outcome.returns.map(valToNode),
    gasUsed: outcome.gasUsed,
    contracts,
    txInputs: ctx.contractInputs.map((i) => addressFromContractId(i.contractId)),
    txOutputs: ctx.generatedOutputs.map((o) => ({
      address: addressFromLockupScript(o.lockupScript),
      attoAlphAmount: o.alph.toString(),
      tokens: o.tokens.map(([id, amount]) => ({ id, amount: amount.toString() })),
    })),
    events,
    debugMessages,
  };
}
