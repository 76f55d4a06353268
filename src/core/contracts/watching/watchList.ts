/**
 * The watch list of the Watched Contracts view: which contracts a workspace watches on a profile, checked
 * when read back from storage (the store is ours, but never trusted blindly), the storage keys, and which
 * artifact describes each watched contract.
 */
import * as z from 'zod';
import type { ArtifactRegistry, ResolvedContract } from '../../artifacts';
import { addressFromContractId, addressType, groupOfAddress, isValidAddress } from '../../protocol';

export interface WatchedContract {
  readonly address: string;
  readonly group: number;
  /** The name the user chose or the deployments file gave (`Counter`, `Counter:v2`). */
  readonly name?: string;
  /** The artifact chosen when the contract was added; otherwise the registry resolves it. */
  readonly artifactName?: string;
}

const WatchedSchema = z.object({
  address: z.string(),
  group: z.number().int().min(0).max(3),
  name: z.string().optional(),
  artifactName: z.string().optional(),
});

/** Why `text` is not a contract address, or undefined when it is one. Used while the user types. */
export function contractAddressProblem(text: string): string | undefined {
  const a = text.trim();
  if (!a) return 'Enter the base58 address of a deployed contract.';
  if (!isValidAddress(a)) return 'Not a valid Alephium address (base58, with a known type prefix).';
  const type = addressType(a);
  if (type !== 'P2C') return `This is a ${type} address; a contract address (P2C) is needed.`;
  return undefined;
}

/** A contract id as the CLI and the node print it: 32 bytes, 64 hex digits (an optional 0x is accepted). */
const CONTRACT_ID = /^(?:0x)?[0-9a-fA-F]{64}$/;

/**
 * Why `text` is neither a contract address nor a contract id, or undefined. Watch Contract's prompt takes
 * both: the CLI's deployments file and the node's events name contracts by address, but a contract id is
 * what a token id, a `subContractId` or a test log shows.
 */
export function contractReferenceProblem(text: string): string | undefined {
  if (CONTRACT_ID.test(text.trim())) return undefined;
  const problem = contractAddressProblem(text);
  return problem && /^Not a valid/.test(problem)
    ? 'Not a valid contract address (base58) or contract id (64 hex digits).'
    : problem;
}

/** The contract address `text` names: itself when it is an address, the id's P2C address when it is an id. */
export function contractAddressOf(text: string): string {
  const t = text.trim();
  if (CONTRACT_ID.test(t)) return addressFromContractId(t.replace(/^0x/, ''));
  const problem = contractAddressProblem(t);
  if (problem) throw new RangeError(problem);
  return t;
}

/**
 * The contract address a person typed or pasted into the Watch Contract picker, when it is one: a P2C
 * address as it is, or a contract id (64 hex digits, optionally 0x-prefixed) as its address. Anything
 * else is a filter of the picker's rows, and gets no "Watch …" row.
 */
export function typedContractAddress(text: string): string | undefined {
  const typed = text.trim();
  if (contractAddressProblem(typed) === undefined) return typed;
  const hex = typed.replace(/^0x/i, '');
  return /^[0-9a-fA-F]{64}$/.test(hex) ? addressFromContractId(hex.toLowerCase()) : undefined;
}

export function makeWatched(address: string, extra: { name?: string; artifactName?: string } = {}) {
  const a = address.trim();
  const problem = contractAddressProblem(a);
  if (problem) throw new RangeError(problem);
  return {
    address: a,
    group: groupOfAddress(a),
    ...(extra.name ? { name: extra.name } : {}),
    ...(extra.artifactName ? { artifactName: extra.artifactName } : {}),
  } satisfies WatchedContract;
}

/**
 * The stored list, validated entry by entry: a hand-edited or older entry that no longer parses is
 * dropped instead of breaking the whole view, and duplicates keep their first occurrence.
 */
export function parseWatchList(raw: unknown): WatchedContract[] {
  if (!Array.isArray(raw)) return [];
  const out: WatchedContract[] = [];
  for (const item of raw) {
    const r = WatchedSchema.safeParse(item);
    if (!r.success || contractAddressProblem(r.data.address)) continue;
    if (out.some((w) => w.address === r.data.address)) continue;
    out.push({
      address: r.data.address,
      group: groupOfAddress(r.data.address),
      ...(r.data.name ? { name: r.data.name } : {}),
      ...(r.data.artifactName ? { artifactName: r.data.artifactName } : {}),
    });
  }
  return out;
}

export function addToWatchList(list: readonly WatchedContract[], entry: WatchedContract): WatchedContract[] {
  const i = list.findIndex((w) => w.address === entry.address);
  if (i < 0) return [...list, entry];
  // Re-adding updates the name/artifact (the user may be fixing a wrong artifact choice).
  const next = [...list];
  next[i] = { ...list[i], ...entry };
  return next;
}

export function removeFromWatchList(list: readonly WatchedContract[], address: string): WatchedContract[] {
  return list.filter((w) => w.address !== address);
}

// ---- resolving artifacts --------------------------------------------------------------------------------

/**
 * Artifact and drift of a watched contract: an explicitly chosen artifact wins; otherwise the
 * deployments file of the profile's network, then the on-chain code hash.
 */
export function resolveWatched(
  registry: ArtifactRegistry,
  watched: WatchedContract,
  onChainCodeHash: string | undefined,
  network: string | undefined,
): ResolvedContract {
  const chosen = watched.artifactName ? registry.byName(watched.artifactName) : undefined;
  if (chosen) {
    const match = registry.matchAddress(watched.address, network);
    return {
      deployment: match?.deployment,
      network: match?.network,
      artifact: chosen,
      drift: registry.checkDrift(chosen, onChainCodeHash),
    };
  }
  return registry.resolve(watched.address, onChainCodeHash, network);
}
