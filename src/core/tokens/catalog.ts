/**
 * One place that knows what each token is called: the token list first (offline, vetted), then the
 * token's own contract (one multicall for up to six tokens, `getSymbol`/`getName`/`getDecimals`), each
 * answer cached for good (a standard token's metadata is immutable fields). A contract that does not
 * answer as a fungible token is remembered as such for the session, so it is asked once.
 */
import type { ContractCall } from '../gateway/client';
import type { CallOutcome } from '../gateway/batching';
import { MAX_MULTICALL } from '../gateway/requests';
import { addressFromContractId } from '../protocol/address';
import { cleanTokenLabel, MAX_NAME_CHARS, MAX_SYMBOL_CHARS, type TokenMeta } from './metadata';
import type { TokenList } from './tokenList';
import { MAX_TOKEN_DECIMALS } from './units';

/** Runs contract calls as multicalls and gives one outcome per call (core/gateway/batching.ts `callContracts`). */
export type TokenCallPort = (calls: readonly ContractCall[], signal?: AbortSignal) => Promise<CallOutcome[]>;

/** Where contract-read metadata is kept between sessions (e.g. VS Code's globalState, per network). */
export interface TokenMetaStore {
  load(): Readonly<Record<string, TokenMeta>> | undefined;
  save(record: Readonly<Record<string, TokenMeta>>): void;
}

/** `getSymbol`, `getName`, `getDecimals` of the standard fungible token interface (IFungibleToken, #0001). */
const METADATA_METHODS = [0, 1, 2] as const;
/** The most tokens whose metadata is cached from contracts (each entry is under 100 bytes). */
const MAX_CACHED = 2000;

export class TokenCatalog {
  private readonly fromContracts = new Map<string, TokenMeta>();
  private readonly notTokens = new Set<string>();

  constructor(
    private readonly list: TokenList,
    private readonly call: TokenCallPort | undefined,
    private readonly store?: TokenMetaStore,
  ) {
    for (const [id, meta] of Object.entries(store?.load() ?? {})) {
      if (this.fromContracts.size >= MAX_CACHED) break;
      const checked = checkedStoredMeta(meta);
      if (/^[0-9a-f]{64}$/.test(id) && checked) this.fromContracts.set(id, checked);
    }
  }

  /** What is known now, without a request. */
  known(tokenId: string): TokenMeta | undefined {
    const id = tokenId.toLowerCase();
    return this.list.get(id) ?? this.fromContracts.get(id);
  }

  /** The ids that `resolve` would ask a contract about. */
  unknown(tokenIds: readonly string[]): string[] {
    const ids = new Set(tokenIds.map((t) => t.toLowerCase()));
    return [...ids].filter(
      (id) => this.known(id) === undefined && !this.notTokens.has(id) && /^[0-9a-f]{64}$/.test(id),
    );
  }

  /** How many requests `resolve(tokenIds)` sends (0 when everything is known). */
  requestsFor(tokenIds: readonly string[]): number {
    if (this.call === undefined) return 0;
    return Math.ceil((this.unknown(tokenIds).length * METADATA_METHODS.length) / MAX_MULTICALL);
  }

  /**
   * The metadata of each id: known ones at once, the others read from their contracts. A failed request
   * leaves its tokens unknown (shown raw) without remembering them as not tokens.
   */
  async resolve(
    tokenIds: readonly string[],
    signal?: AbortSignal,
  ): Promise<Map<string, TokenMeta | undefined>> {
    const ask = this.call === undefined ? [] : this.unknown(tokenIds);
    if (ask.length > 0 && this.call) {
      const calls = ask.flatMap((id) =>
        METADATA_METHODS.map((methodIndex) => ({ address: addressFromContractId(id), methodIndex })),
      );
      const outcomes = await this.call(calls, signal);
      ask.forEach((id, i) => this.learn(id, outcomes.slice(i * 3, i * 3 + 3)));
      this.persist();
    }
    return new Map(tokenIds.map((t) => [t.toLowerCase(), this.known(t)]));
  }

  private learn(id: string, outcomes: readonly CallOutcome[]): void {
    if (outcomes.some((o) => !o.ok && !isContractAnswer(o.error))) return; // the request failed: ask again later
    const meta = metaFromOutcomes(outcomes);
    if (meta === undefined) this.notTokens.add(id);
    else if (this.fromContracts.size < MAX_CACHED) this.fromContracts.set(id, meta);
  }

  private persist(): void {
    this.store?.save(Object.fromEntries(this.fromContracts));
  }
}

/** A failed call the contract answered (not a failed request): the method is missing or reverted. */
function isContractAnswer(error: Error): boolean {
  return error.name === 'ContractCallFailedError';
}

function returned(outcome: CallOutcome | undefined, type: string): string | undefined {
  if (!outcome?.ok) return undefined;
  const first = outcome.result.returns[0] as { type?: unknown; value?: unknown } | undefined;
  return first?.type === type && typeof first.value === 'string' ? first.value : undefined;
}

/** The metadata the three calls returned, or undefined when they are not a fungible token's answers. */
export function metaFromOutcomes(outcomes: readonly CallOutcome[]): TokenMeta | undefined {
  const symbolHex = returned(outcomes[0], 'ByteVec');
  const nameHex = returned(outcomes[1], 'ByteVec');
  const decimalsText = returned(outcomes[2], 'U256');
  if (symbolHex === undefined || decimalsText === undefined || !/^\d{1,3}$/.test(decimalsText))
    return undefined;
  const decimals = Number(decimalsText);
  if (decimals > MAX_TOKEN_DECIMALS) return undefined;
  const symbol = cleanTokenLabel(utf8OfHex(symbolHex, MAX_SYMBOL_CHARS * 4), MAX_SYMBOL_CHARS);
  if (symbol === undefined) return undefined;
  const name = cleanTokenLabel(utf8OfHex(nameHex ?? '', MAX_NAME_CHARS * 4), MAX_NAME_CHARS) ?? symbol;
  return { symbol, name, decimals, source: 'contract' };
}

/** The UTF-8 text of at most `maxBytes` bytes of `hex`; bad sequences become U+FFFD (dropped later). */
function utf8OfHex(hex: string, maxBytes: number): string {
  const even = hex.slice(0, Math.min(hex.length, maxBytes * 2) & ~1);
  if (!/^[0-9a-fA-F]*$/.test(even)) return '';
  return Buffer.from(even, 'hex').toString('utf8');
}

function checkedStoredMeta(meta: unknown): TokenMeta | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const { symbol, name, decimals } = meta as Record<string, unknown>;
  if (typeof symbol !== 'string' || typeof name !== 'string' || typeof decimals !== 'number')
    return undefined;
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_TOKEN_DECIMALS) return undefined;
  const cleanSymbol = cleanTokenLabel(symbol, MAX_SYMBOL_CHARS);
  if (cleanSymbol === undefined) return undefined;
  return {
    symbol: cleanSymbol,
    name: cleanTokenLabel(name, MAX_NAME_CHARS) ?? cleanSymbol,
    decimals,
    source: 'contract',
  };
}
