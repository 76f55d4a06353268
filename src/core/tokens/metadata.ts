/**
 * What a token is called and how its amounts are written: from the official token list (offline) or
 * from the token's own contract (`getSymbol`, `getName`, `getDecimals` of the standard fungible token
 * interface, methods 0-2). Names from a contract are the contract's claim, not a fact: anyone can deploy
 * a token that calls itself USDT. So every piece of metadata says where it came from, symbols and names
 * are cut to a short single line of plain characters, and the raw id is always shown beside them.
 */

export type TokenSource = 'token list' | 'contract';

export interface TokenMeta {
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
  readonly source: TokenSource;
}

/** The longest symbol and name kept (real symbols are 2-8 characters, names under 40). */
export const MAX_SYMBOL_CHARS = 16;
export const MAX_NAME_CHARS = 48;

/**
 * A symbol or name as it may be shown: printable characters other than the ones that make links,
 * Markdown or HTML (`[ ] ( ) < > ` * _ \ |`) and other than whitespace runs; cut to `max`. Returns
 * undefined when nothing printable is left. Linear in the input (one pass, capped).
 */
export function cleanTokenLabel(text: string, max: number): string | undefined {
  let out = '';
  let lastSpace = true;
  for (const ch of text.slice(0, max * 4)) {
    if (out.length >= max) break;
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0) || (code >= 0x2000 && code <= 0x206f) || code === 0xfeff)
      continue;
    if ('[]()<>`*_\\|#!~'.includes(ch)) continue;
    if (ch === ' ') {
      if (!lastSpace) out += ' ';
      lastSpace = true;
      continue;
    }
    out += ch;
    lastSpace = false;
  }
  out = out.trim();
  return out === '' ? undefined : out;
}
