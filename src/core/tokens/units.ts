/**
 * Token amounts in their own units: a raw integer amount and the token's decimals give the decimal
 * amount a person reads (`12500000` with 6 decimals is `12.5`). Exact (bigint arithmetic), never rounded.
 */

import { unitsToDecimal } from '../protocol/units';

/** The most decimals taken from anywhere (the token list or a contract's `getDecimals`). */
export const MAX_TOKEN_DECIMALS = 36;

/** `raw` (a non-negative integer as a string or bigint) in units of 10^-decimals, trailing zeros dropped. */
export function formatUnits(raw: bigint | string, decimals: number): string {
  const amount = typeof raw === 'bigint' ? raw : BigInt(raw);
  if (amount < 0n) throw new RangeError('a token amount is never negative');
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_TOKEN_DECIMALS)
    throw new RangeError(`decimals must be an integer from 0 to ${MAX_TOKEN_DECIMALS}`);
  return unitsToDecimal(amount, decimals);
}

/** `raw` as a person reads it: in its decimals, the whole part grouped by thousands (`1,234.5`). */
export function formatTokenAmount(raw: bigint | string, decimals: number): string {
  return groupThousands(formatUnits(raw, decimals));
}

/** Groups the whole part of a decimal amount by thousands (`1234567.5` → `1,234,567.5`). */
export function groupThousands(decimal: string): string {
  const [whole = '', fraction] = decimal.split('.');
  let grouped = '';
  for (let i = 0; i < whole.length; i++) {
    if (i > 0 && (whole.length - i) % 3 === 0) grouped += ',';
    grouped += whole[i];
  }
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}
