/**
 * Input validation before any request: a wrong input costs no request (and no rate-limit headroom), and
 * the error names the field so the UI can point at it.
 */
import { DUST_ATTO, U256_MAX, parseAddress, type AddressType } from '../protocol';
import { ValidationError } from './errors';

export const MAX_EVENT_PAGE = 100;
export const MAX_MULTICALL = 20;
/** Below this a "millisecond" timestamp is almost surely in seconds (10^11 ms is March 1973). */
const MIN_PLAUSIBLE_MS = 100_000_000_000;
const MAX_MS = 8_640_000_000_000_000;

export function required<T>(field: string, value: T | undefined | null): T {
  if (value === undefined || value === null || (typeof value === 'string' && value.length === 0)) {
    throw new ValidationError(field, 'is required');
  }
  return value;
}

export const ASSET_ADDRESS_TYPES: readonly AddressType[] = ['P2PKH', 'P2MPKH', 'P2SH', 'P2PK', 'P2HMPK'];
export const CONTRACT_ADDRESS_TYPES: readonly AddressType[] = ['P2C'];

/** A base58 address of a known type; `allowed` narrows the types (e.g. contracts only). */
export function validateAddress(field: string, value: unknown, allowed?: readonly AddressType[]): string {
  if (typeof value !== 'string' || value.length === 0) throw new ValidationError(field, 'is required');
  let type: AddressType;
  try {
    type = parseAddress(value).type;
  } catch (error) {
    throw new ValidationError(field, error instanceof Error ? error.message : 'is not a valid address');
  }
  if (allowed && !allowed.includes(type)) {
    const want = allowed === CONTRACT_ADDRESS_TYPES ? 'a contract address' : `one of ${allowed.join(', ')}`;
    throw new ValidationError(field, `must be ${want}, got a ${type} address`);
  }
  return value;
}

export function validateGroup(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 3) {
    throw new ValidationError(field, `must be an integer group 0 to 3, got ${String(value)}`);
  }
  return value;
}

export function validateInt(
  field: string,
  value: unknown,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ValidationError(field, `must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

export function validateLimit(field: string, value: unknown): number {
  return validateInt(field, value, 1, MAX_EVENT_PAGE);
}

export function validateTimestamp(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_MS) {
    throw new ValidationError(field, `must be an integer Unix time in milliseconds, got ${String(value)}`);
  }
  if (value < MIN_PLAUSIBLE_MS) {
    throw new ValidationError(field, `${value} looks like seconds; timestamps are in milliseconds`);
  }
  return value;
}

export function validateTimeRange(fromTs: unknown, toTs: unknown): { fromTs: number; toTs: number } {
  const from = validateTimestamp('fromTs', fromTs);
  const to = validateTimestamp('toTs', toTs);
  if (from >= to) throw new ValidationError('toTs', `must be greater than fromTs (${from}), got ${to}`);
  return { fromTs: from, toTs: to };
}

/** Hex of exactly `bytes` bytes (or any non-empty even length when `bytes` is undefined). */
export function validateHex(field: string, value: unknown, bytes?: number): string {
  if (typeof value !== 'string' || value.length === 0) throw new ValidationError(field, 'is required');
  if (!/^[0-9a-fA-F]*$/.test(value)) throw new ValidationError(field, 'must be a hex string');
  if (value.length % 2 !== 0) throw new ValidationError(field, 'must have an even number of hex digits');
  if (bytes !== undefined && value.length !== bytes * 2) {
    throw new ValidationError(
      field,
      `must be ${bytes} bytes (${bytes * 2} hex digits), got ${value.length / 2}`,
    );
  }
  return value;
}

export const validateTxId = (field: string, value: unknown): string => validateHex(field, value, 32);
export const validateBlockHash = (field: string, value: unknown): string => validateHex(field, value, 32);
export const validatePublicKey = (field: string, value: unknown): string => validateHex(field, value, 33);
export const validateSignature = (field: string, value: unknown): string => validateHex(field, value, 64);

/** A non-negative integer amount as a decimal string (no sign, no decimals, no exponent), within U256. */
export function validateAmount(field: string, value: unknown): bigint {
  if (typeof value !== 'string' || value.length === 0) {
    throw new ValidationError(field, 'is required as an integer string of smallest units');
  }
  if (!/^\d+$/.test(value)) {
    throw new ValidationError(
      field,
      `must be a non-negative integer string of smallest units, got "${value}"`,
    );
  }
  const amount = BigInt(value);
  if (amount > U256_MAX) throw new ValidationError(field, 'exceeds the U256 range');
  return amount;
}

export interface TokenTransfer {
  readonly id: string;
  readonly amount: string;
}

export interface Destination {
  readonly address: string;
  /** Smallest units of the native coin (the spec's name for the node's `attoAlphAmount`). */
  readonly attoCoinAmount: string;
  readonly tokens?: readonly TokenTransfer[];
  /** Optional node extras, passed through when set. */
  readonly lockTime?: number;
  readonly message?: string;
}

/** Every destination: a valid address, an amount at or above dust (also for token outputs), valid tokens. */
export function validateDestinations(field: string, value: unknown): readonly Destination[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new ValidationError(field, 'must be a non-empty array of destinations');
  }
  value.forEach((d: Partial<Destination> | undefined, i) => {
    const at = `${field}[${i}]`;
    if (typeof d !== 'object' || d === null) throw new ValidationError(at, 'must be an object');
    validateAddress(`${at}.address`, d.address);
    const amount = validateAmount(`${at}.attoCoinAmount`, d.attoCoinAmount);
    if (amount < DUST_ATTO) {
      throw new ValidationError(
        `${at}.attoCoinAmount`,
        `${amount} is below the dust minimum of ${DUST_ATTO} (0.001 coin); the node would reject the build`,
      );
    }
    if (d.tokens !== undefined) {
      if (!Array.isArray(d.tokens)) throw new ValidationError(`${at}.tokens`, 'must be an array');
      d.tokens.forEach((t: Partial<TokenTransfer> | undefined, j) => {
        validateHex(`${at}.tokens[${j}].id`, t?.id, 32);
        validateAmount(`${at}.tokens[${j}].amount`, t?.amount);
      });
    }
    if (d.lockTime !== undefined) validateInt(`${at}.lockTime`, d.lockTime, 0);
    if (d.message !== undefined && d.message !== '') validateHex(`${at}.message`, d.message);
  });
  return value as readonly Destination[];
}
