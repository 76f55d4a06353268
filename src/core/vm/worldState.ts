/**
 * The world a transaction reads and writes: contracts (code, fields, assets). The node keeps it in
 * tries (`WorldState.scala`); no instruction sees the trie, so an interface with an in-memory map is
 * enough. `MemoryWorldState` reads a contract it has not seen through a lazy reader (a gateway's
 * `/contracts/{address}/state`, or a test's fixture) and keeps every change in its own map, so that
 * the state before the run stays as it was.
 */
import { addressFromContractId, bytesToHex, hexToBytes } from '../protocol';
import { valFromNode, valToNode, type NodeContractState } from './nodeJson';
import type { Val } from './values';

export interface ContractAsset {
  readonly alph: bigint;
  /** Sorted by token id, non-zero amounts only (the node's `tokenVector`). */
  readonly tokens: ReadonlyArray<readonly [string, bigint]>;
}

export interface ContractRecord {
  readonly contractId: string;
  readonly bytecode: Uint8Array;
  readonly initialStateHash?: Uint8Array;
  readonly immFields: readonly Val[];
  readonly mutFields: readonly Val[];
  readonly asset: ContractAsset;
}

export interface WorldState {
  getContract(contractId: string): ContractRecord | undefined;
  putContract(record: ContractRecord): void;
  removeContract(contractId: string): void;
}

/** A node `ContractState` as a record (its address's contract id is the key). */
export function recordFromNode(contractId: string, state: NodeContractState): ContractRecord {
  const record = {
    contractId,
    bytecode: hexToBytes(state.bytecode, 'Contract bytecode'),
    immFields: state.immFields.map(valFromNode),
    mutFields: state.mutFields.map(valFromNode),
    asset: {
      alph: BigInt(state.asset.attoAlphAmount),
      tokens: (state.asset.tokens ?? []).map((t) => [t.id, BigInt(t.amount)] as const),
    },
  };
  return state.initialStateHash === undefined
    ? record
    : { ...record, initialStateHash: hexToBytes(state.initialStateHash, 'Initial state hash') };
}

export function recordToNodeFields(
  record: ContractRecord,
): Pick<NodeContractState, 'immFields' | 'mutFields'> {
  return { immFields: record.immFields.map(valToNode), mutFields: record.mutFields.map(valToNode) };
}

export class MemoryWorldState implements WorldState {
  /** Changes of this run: a record, or null for a removed contract. */
  private readonly changes = new Map<string, ContractRecord | null>();
  private readonly read = new Map<string, ContractRecord | undefined>();

  constructor(private readonly reader?: (address: string) => NodeContractState | undefined) {}

  getContract(contractId: string): ContractRecord | undefined {
    const changed = this.changes.get(contractId);
    if (changed !== undefined) return changed ?? undefined;
    return this.before(contractId);
  }

  /** The contract as it was before this run (read once through the reader). */
  before(contractId: string): ContractRecord | undefined {
    if (!this.read.has(contractId)) {
      const state = this.reader?.(addressFromContractId(contractId));
      this.read.set(contractId, state === undefined ? undefined : recordFromNode(contractId, state));
    }
    return this.read.get(contractId);
  }

  putContract(record: ContractRecord): void {
    this.changes.set(record.contractId, record);
  }

  removeContract(contractId: string): void {
    this.changes.set(contractId, null);
  }

  /** Every contract this run changed, created or removed, in the order first changed. */
  changedIds(): string[] {
    return [...this.changes.keys()];
  }
}

export const contractIdHex = (id: Uint8Array): string => bytesToHex(id);
