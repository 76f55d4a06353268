/**
 * Contract state per block: what `worldStateBlockHash` reads. Every block keeps the contracts as they were
 * after it was mined; blocks mined while no transaction changed anything share the previous snapshot, so a
 * long-running sandbox keeps one copy per round that had transactions, not one per block.
 */
import type { ContractInstance } from './types';

export type ContractsSnapshot = ReadonlyMap<string, ContractInstance>;

/** A call pinned to a block the sandbox does not have (the node: the block's world state is not found). */
export class UnknownWorldState extends Error {
  constructor(readonly blockHash: string) {
    super(`Failed in loading world state of block ${blockHash}: KeyNotFound`);
  }
}

/** A copy that later commits (which replace `fields`, `alph`, `tokens` and `outputKey`) leave alone. */
export function copyInstance(c: ContractInstance): ContractInstance {
  return { ...c, fields: { ...c.fields }, tokens: new Map(c.tokens) };
}

export function snapshotOf(contracts: ReadonlyMap<string, ContractInstance>): ContractsSnapshot {
  return new Map([...contracts].map(([address, c]) => [address, copyInstance(c)]));
}

/** A 32-byte hex block hash given in a request body, or undefined when the field is absent. */
export function pinnedHash(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !/^[0-9a-f]{64}$/i.test(value)) {
    throw new TypeError(`Invalid value for: body (${field} must be a 32-byte hex string)`);
  }
  return value.toLowerCase();
}
