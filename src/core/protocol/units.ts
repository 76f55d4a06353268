import { ProtocolError, preview } from './errors';

/** 1 ALPH in atto (10^18). */
export const ONE_ALPH = 10n ** 18n;
/** Minimum ALPH per output since Leman (0.001 ALPH); a token-carrying output holds exactly this. */
export const DUST_ATTO = 10n ** 15n;
/** Minimal gas per transaction, which is also the SDK/node default. */
export const DEFAULT_GAS_AMOUNT = 20000;
/** Minimal (and default) gas price for non-coinbase transactions: 100 nanoALPH. */
export const DEFAULT_GAS_PRICE = 10n ** 11n;
/** Max gas per transaction since Rhone. */
export const MAX_GAS_PER_TX = 5_000_000;
/** Largest value a u256 compact integer can hold. */
export const U256_MAX = (1n << 256n) - 1n;

const ALPH_DECIMALS = 18;
const DECIMAL_RE = /^(\d+)(?:\.(\d*))?$|^\.(\d+)$/;

/**
 * Parses a human ALPH amount ("1", "1.5", "0.000000000000000001") into atto, exactly.
 * Floats are never involved: 0.1 + 0.2 style rounding would silently change what the user sends.
 */
export function alphToAtto(text: string): bigint {
  if (typeof text !== 'string') throw new ProtocolError('ALPH amount must be a string');
  const s = text.trim();
  if (s === '') throw new ProtocolError('ALPH amount is empty');
  if (s.startsWith('-')) throw new ProtocolError(`ALPH amount '${preview(s)}' is negative`);
  if (s.startsWith('+')) throw new ProtocolError(`ALPH amount '${preview(s)}' must not have a sign`);
  if (/[eE]/.test(s))
    throw new ProtocolError(`ALPH amount '${preview(s)}' uses an exponent; write the digits out`);
  if (s.includes(',')) {
    throw new ProtocolError(
      `ALPH amount '${preview(s)}' contains a comma; use '.' as the decimal point and no separators`,
    );
  }
  const m = DECIMAL_RE.exec(s);
  if (!m) throw new ProtocolError(`ALPH amount '${preview(s)}' is not a decimal number`);
  const whole = m[1] ?? '0';
  const frac = m[2] ?? m[3] ?? '';
  if (frac.length > ALPH_DECIMALS) {
    throw new ProtocolError(
      `ALPH amount '${preview(s)}' has ${frac.length} decimals; at most ${ALPH_DECIMALS} are allowed (1 atto = 1e-18 ALPH)`,
    );
  }
  const atto = BigInt(whole) * ONE_ALPH + BigInt(frac.padEnd(ALPH_DECIMALS, '0') || '0');
  if (atto > U256_MAX) throw new ProtocolError(`ALPH amount '${preview(s)}' is too large`);
  return atto;
}

/**
 * The dust rule, said once: every output carries at least {@link DUST_ATTO} (0.001 ALPH), also one that
 * carries tokens, or the node refuses the transaction. A sentence for the user, or undefined.
 */
export function dustProblem(atto: bigint): string | undefined {
  if (atto < 0n) return `${atto} atto is negative`;
  if (atto >= DUST_ATTO) return undefined;
  return `${attoToAlph(atto)} ALPH is below the dust minimum of ${attoToAlph(DUST_ATTO)} ALPH (${DUST_ATTO} atto); every output must carry at least that.`;
}

/** Formats atto as an exact ALPH decimal string without trailing zeros ("0" for zero). */
export function attoToAlph(atto: bigint | string): string {
  const v = typeof atto === 'bigint' ? atto : parseAtto(atto, 'atto amount');
  if (v < 0n) throw new ProtocolError(`atto amount ${v} is negative`);
  return unitsToDecimal(v, ALPH_DECIMALS);
}

/**
 * A non-negative integer amount in units of 10^-decimals as an exact decimal, trailing zeros dropped
 * (ALPH's 18 decimals here, a token's own in core/tokens). The caller checks sign and decimals.
 */
export function unitsToDecimal(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString();
  const scale = 10n ** BigInt(decimals);
  const whole = amount / scale;
  const fraction = (amount % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}

/**
 * Validates a non-negative integer string (the node's amount format) and returns it as bigint.
 * `field` names the JSON field in the error, e.g. "fixedOutputs[2].attoAlphAmount".
 */
export function parseAtto(text: string, field: string): bigint {
  if (typeof text !== 'string')
    throw new ProtocolError(`${field} must be a decimal string, got ${typeof text}`);
  if (!/^\d+$/.test(text)) {
    throw new ProtocolError(`${field} '${preview(text)}' is not a non-negative integer`);
  }
  const v = BigInt(text);
  if (v > U256_MAX) throw new ProtocolError(`${field} '${preview(text)}' exceeds the u256 range`);
  return v;
}
