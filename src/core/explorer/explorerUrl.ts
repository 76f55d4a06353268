/**
 * Where the Alephium explorer shows a transaction, an address (a contract's too) or a block: the one
 * builder of those URLs. Only a validated id or address goes into a URL, and only into the path of an
 * explorer that is known: Alephium's own for mainnet and testnet, or the one a profile names.
 *
 * The paths are those of the explorer's router (alephium/alephium-frontend, apps/explorer/src/App.tsx):
 * `/transactions/:id`, `/addresses/:id`, `/blocks/:id`.
 */
import { isValidAddress } from '../protocol/address';
import { isHash32 } from '../protocol/hex';
import { isLoopbackHost } from '../profiles/profile';

/** Alephium's explorers, by the profile network that means them. */
export const DEFAULT_EXPLORERS: Readonly<Record<string, string>> = {
  mainnet: 'https://explorer.alephium.org',
  testnet: 'https://testnet.alephium.org',
};

export type ExplorerTarget =
  | { readonly kind: 'transaction'; readonly txId: string }
  | { readonly kind: 'address'; readonly address: string }
  | { readonly kind: 'block'; readonly blockHash: string };

/**
 * What is wrong with a profile's `explorerUrl`, or undefined. It is opened in the user's browser, so it is
 * an absolute https URL (plain http only to this machine, e.g. a local explorer), with no user name or
 * password and no query or fragment for an id to be appended to.
 */
export function explorerUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname)))
    return 'must use https:// (plain http:// only for this machine)';
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.search || url.hash) return 'must not carry a query or fragment';
  return undefined;
}

/**
 * The explorer of a profile: its own `explorerUrl` when it gives a valid one, else Alephium's for mainnet
 * and testnet, else none (a devnet's or an unknown network's chain is on no public explorer).
 */
export function explorerFor(network: string, explorerUrl?: string): string | undefined {
  if (explorerUrl !== undefined && explorerUrl.trim() !== '')
    return explorerUrlProblem(explorerUrl.trim()) ? undefined : explorerUrl.trim().replace(/\/+$/, '');
  return DEFAULT_EXPLORERS[network.trim().toLowerCase()];
}

/** The path of a target on the explorer; throws when the id or address is not one. */
function pathOf(target: ExplorerTarget): string {
  switch (target.kind) {
    case 'transaction':
      if (!isHash32(target.txId)) throw new RangeError('A transaction id is 64 hex digits.');
      return `transactions/${target.txId.toLowerCase()}`;
    case 'block':
      if (!isHash32(target.blockHash)) throw new RangeError('A block hash is 64 hex digits.');
      return `blocks/${target.blockHash.toLowerCase()}`;
    case 'address':
      if (!isValidAddress(target.address)) throw new RangeError('Not a valid Alephium address.');
      return `addresses/${target.address}`;
  }
}

/** The explorer URL of a target (validated: hex ids, a base58 address that decodes). */
export function explorerUrl(explorer: string, target: ExplorerTarget): string {
  const base = explorer.replace(/\/+$/, '');
  if (explorerUrlProblem(base)) throw new RangeError(`Not an explorer URL: ${base.slice(0, 200)}`);
  // Hex and base58 need no escaping; the URL parser still normalises the result.
  return new URL(`${base}/${pathOf(target)}`).toString();
}

function field(value: unknown, name: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = (value as Record<string, unknown>)[name];
  return typeof v === 'string' ? v.trim() : undefined;
}

/**
 * What a command's argument points at: a Transactions row (`txId`), a Watched Contracts row (`address`),
 * an event row (its `txId`), or an object a page, hover or caller gives (`txId`, `address`, `blockHash`).
 * An event row's transaction wins over its contract's address: the row is about that event.
 */
export function explorerTargetOf(args: unknown): ExplorerTarget | undefined {
  const txId = field(args, 'txId');
  if (txId !== undefined) return { kind: 'transaction', txId };
  const blockHash = field(args, 'blockHash');
  if (blockHash !== undefined) return { kind: 'block', blockHash };
  const address = field(args, 'address');
  if (address !== undefined) return { kind: 'address', address };
  return undefined;
}

/**
 * What a person typed, as a target: an address, or 64 hex digits that are a transaction id or a block
 * hash (`hexAs` says which; the same digits name either).
 */
export function explorerTargetOfText(text: string, hexAs: 'transaction' | 'block'): ExplorerTarget {
  const t = text.trim();
  if (isHash32(t))
    return hexAs === 'transaction' ? { kind: 'transaction', txId: t } : { kind: 'block', blockHash: t };
  return { kind: 'address', address: t };
}

/** Why `text` is neither an address nor 64 hex digits (for the prompt while the user types). */
export function explorerTextProblem(text: string): string | undefined {
  const t = text.trim();
  return isHash32(t) || isValidAddress(t)
    ? undefined
    : 'A transaction id or block hash (64 hex digits), or an address (base58).';
}
