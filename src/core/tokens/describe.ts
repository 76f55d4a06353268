/**
 * How a token amount is written wherever amounts appear (the confirmation, tx details, Address Info):
 * the decimal amount and symbol first, then always the raw amount and the full token id, so a symbol
 * can never stand in for the id the user signs. A symbol read from the token's own contract says so.
 */
import type { TokenMeta } from './metadata';
import { formatTokenAmount } from './units';

/** `12.5 USDT`, or undefined when the token is not known. */
export function tokenAmountShort(raw: bigint | string, meta: TokenMeta | undefined): string | undefined {
  if (meta === undefined) return undefined;
  return `${formatTokenAmount(raw, meta.decimals)} ${meta.symbol}`;
}

/**
 * `12.5 USDT (12500000 raw) of token <id>`; a contract's own name adds "as the token names itself";
 * an unknown token is `12500000 (raw; unknown token) of token <id>`.
 */
export function tokenAmountText(tokenId: string, raw: bigint | string, meta: TokenMeta | undefined): string {
  const rawText = raw.toString();
  const short = tokenAmountShort(raw, meta);
  if (short === undefined || meta === undefined) return `${rawText} (raw; unknown token) of token ${tokenId}`;
  const claim = meta.source === 'contract' ? ', as the token names itself' : '';
  return `${short} (${rawText} raw${claim}) of token ${tokenId}`;
}
