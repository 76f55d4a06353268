/**
 * The official token list (`@alephium/token-list`, shipped with the extension): symbol, name and decimals
 * of the tokens the Alephium community vetted, per network, offline. Parsed defensively: an entry that is
 * not a 32-byte id with sane decimals and a printable symbol is left out, not trusted in part.
 */
import { cleanTokenLabel, MAX_NAME_CHARS, MAX_SYMBOL_CHARS, type TokenMeta } from './metadata';
import { MAX_TOKEN_DECIMALS } from './units';

/** The list of one network: token id (lower-case hex) → metadata. */
export type TokenList = ReadonlyMap<string, TokenMeta>;

const TOKEN_ID = /^[0-9a-f]{64}$/;
/** The most entries read from a list (the mainnet list has about 225). */
const MAX_ENTRIES = 5000;

/** The tokens of `json` (the list's file) when it is the list of `networkId`; an empty list otherwise. */
export function parseTokenList(json: unknown, networkId: number): TokenList {
  const list = new Map<string, TokenMeta>();
  if (typeof json !== 'object' || json === null) return list;
  const { networkId: listNetwork, tokens } = json as { networkId?: unknown; tokens?: unknown };
  if (listNetwork !== networkId || !Array.isArray(tokens)) return list;
  for (const entry of tokens.slice(0, MAX_ENTRIES) as unknown[]) {
    const meta = tokenEntry(entry);
    if (meta && !list.has(meta.id)) list.set(meta.id, meta.meta);
  }
  return list;
}

function tokenEntry(entry: unknown): { id: string; meta: TokenMeta } | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { id, symbol, name, decimals } = entry as Record<string, unknown>;
  if (typeof id !== 'string' || !TOKEN_ID.test(id.toLowerCase())) return undefined;
  if (
    typeof decimals !== 'number' ||
    !Number.isInteger(decimals) ||
    decimals < 0 ||
    decimals > MAX_TOKEN_DECIMALS
  )
    return undefined;
  const cleanSymbol = typeof symbol === 'string' ? cleanTokenLabel(symbol, MAX_SYMBOL_CHARS) : undefined;
  if (cleanSymbol === undefined) return undefined;
  const cleanName =
    (typeof name === 'string' ? cleanTokenLabel(name, MAX_NAME_CHARS) : undefined) ?? cleanSymbol;
  return {
    id: id.toLowerCase(),
    meta: { symbol: cleanSymbol, name: cleanName, decimals, source: 'token list' },
  };
}
