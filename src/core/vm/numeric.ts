/**
 * 256-bit integer arithmetic as the node's `util/U256.scala` and `util/I256.scala` define it, on bigint.
 * Each checked operation returns `undefined` where the node's returns `None`; the instruction turns
 * that into the node's failure. JavaScript's bigint `/` and `%` truncate toward zero, as Java's
 * BigInteger `divide` and `remainder` do, and `&`, `|`, `^` use the same infinite two's complement.
 */

export const U256_MAX = (1n << 256n) - 1n;
const U256_BOUND = 1n << 256n;
export const I256_MAX = (1n << 255n) - 1n;
export const I256_MIN = -(1n << 255n);
const I32_MAX = 2147483647n;
/** Shift amounts of 3 bytes or more (>= 65536) short-circuit in the node (`n.byteLength() >= 3`). */
const SHIFT_SHORT_CIRCUIT = 1n << 16n;

/** Java's `BigInteger.bitLength()`: the minimal two's complement length without the sign bit. */
export function javaBitLength(v: bigint): number {
  const magnitude = v < 0n ? -v - 1n : v;
  return magnitude === 0n ? 0 : magnitude.toString(2).length;
}

/** `U256.byteLength()`: bytes needed for the unsigned value (0 for zero). */
export function u256ByteLength(v: bigint): number {
  return Math.floor((javaBitLength(v) + 7) / 8);
}

export function isU256(v: bigint): boolean {
  return v >= 0n && v <= U256_MAX;
}

export function isI256(v: bigint): boolean {
  return v >= I256_MIN && v <= I256_MAX;
}

function u256Checked(v: bigint): bigint | undefined {
  return isU256(v) ? v : undefined;
}

function i256Checked(v: bigint): bigint | undefined {
  return isI256(v) ? v : undefined;
}

/** `toInt` of both types: an exact 32-bit signed int, else undefined. */
export function toInt32(v: bigint): number | undefined {
  return v >= -I32_MAX - 1n && v <= I32_MAX ? Number(v) : undefined;
}

export const u256 = {
  add: (x: bigint, y: bigint) => u256Checked(x + y),
  sub: (x: bigint, y: bigint) => u256Checked(x - y),
  mul: (x: bigint, y: bigint) => u256Checked(x * y),
  div: (x: bigint, y: bigint) => (y === 0n ? undefined : x / y),
  mod: (x: bigint, y: bigint) => (y === 0n ? undefined : x % y),
  roundInfinityDiv: (x: bigint, y: bigint) => (y === 0n ? undefined : (x + y - 1n) / y),
  modAdd: (x: bigint, y: bigint) => (x + y) % U256_BOUND,
  modSub: (x: bigint, y: bigint) => (x - y + U256_BOUND) % U256_BOUND,
  modMul: (x: bigint, y: bigint) => (x * y) % U256_BOUND,
  mulModN: (x: bigint, y: bigint, n: bigint) => (n === 0n ? undefined : (x * y) % n),
  addModN: (x: bigint, y: bigint, n: bigint) => (n === 0n ? undefined : (x + y) % n),
  pow: (base: bigint, exp: bigint): bigint | undefined => {
    if (base === 0n) return exp === 0n ? 1n : 0n;
    if (base === 1n) return 1n;
    const n = toInt32(exp);
    if (n === undefined) return undefined;
    // The node's guard is `(bitLength - 1) * n > 256`; any base >= 2 with n > 256 overflows anyway, and
    // testing that first keeps a huge exponent from being computed.
    if (n > 256 || (javaBitLength(base) - 1) * n > 256) return undefined;
    return u256Checked(base ** BigInt(n));
  },
  modPow: (base: bigint, exp: bigint): bigint => {
    let result = 1n;
    let b = base % U256_BOUND;
    let e = exp;
    while (e > 0n) {
      if (e & 1n) result = (result * b) % U256_BOUND;
      b = (b * b) % U256_BOUND;
      e >>= 1n;
    }
    return result % U256_BOUND;
  },
  /** Pre-Danube `shlDeprecated`: wraps modulo 2^256, and a shift of 256 or more gives zero. */
  shlDeprecated: (x: bigint, n: bigint) => (n < 256n ? (x << n) % U256_BOUND : 0n),
  shl: (x: bigint, n: bigint): bigint | undefined => {
    if (x === 0n) return 0n;
    if (n >= SHIFT_SHORT_CIRCUIT || n >= 256n) return undefined;
    return u256Checked(x << n);
  },
  shr: (x: bigint, n: bigint) => (x === 0n || n >= SHIFT_SHORT_CIRCUIT ? 0n : x >> n),
  /** `toFixedSizeBytes`: big-endian in exactly `size` bytes, undefined when it does not fit. */
  toFixedSizeBytes: (x: bigint, size: number): Uint8Array | undefined => {
    if (javaBitLength(x) > size * 8) return undefined;
    const out = new Uint8Array(size);
    let v = x;
    for (let i = size - 1; i >= 0; i--) {
      out[i] = Number(v & 0xffn);
      v >>= 8n;
    }
    return out;
  },
  fromBytes: (bytes: Uint8Array): bigint => {
    let v = 0n;
    for (const b of bytes) v = (v << 8n) | BigInt(b);
    return v;
  },
};

function i256IsDivisionUndefined(x: bigint, y: bigint): boolean {
  return y === 0n || (y === -1n && x === I256_MIN);
}

export const i256 = {
  add: (x: bigint, y: bigint) => i256Checked(x + y),
  sub: (x: bigint, y: bigint) => i256Checked(x - y),
  mul: (x: bigint, y: bigint) => i256Checked(x * y),
  div: (x: bigint, y: bigint) => (i256IsDivisionUndefined(x, y) ? undefined : x / y),
  mod: (x: bigint, y: bigint) => (i256IsDivisionUndefined(x, y) ? undefined : x % y),
  roundInfinityDiv: (x: bigint, y: bigint): bigint | undefined => {
    if (i256IsDivisionUndefined(x, y)) return undefined;
    const sameSign = (x >= 0n && y > 0n) || (x <= 0n && y < 0n);
    const absX = x < 0n ? -x : x;
    const absY = y < 0n ? -y : y;
    const result = (absX + absY - 1n) / absY;
    return sameSign ? result : -result;
  },
  pow: (base: bigint, exp: bigint): bigint | undefined => {
    if (base === 0n) return exp === 0n ? 1n : 0n;
    if (base === 1n) return 1n;
    if (base === -1n) return exp & 1n ? -1n : 1n;
    const n = toInt32(exp);
    if (n === undefined) return undefined;
    // As for U256: |base| >= 2 with n > 256 is out of range whatever the node's guard computes.
    if (n > 256 || (javaBitLength(base) - 1) * n > 256) return undefined;
    return i256Checked(base ** BigInt(n));
  },
  shl: (x: bigint, n: bigint): bigint | undefined => {
    if (x === 0n) return 0n;
    if (n >= SHIFT_SHORT_CIRCUIT || n >= 256n) return undefined;
    return i256Checked(x << n);
  },
  /** Division by 2^n rounding toward zero: the node negates around the shift for negative values. */
  shr: (x: bigint, n: bigint): bigint => {
    if (x === 0n || n >= SHIFT_SHORT_CIRCUIT) return 0n;
    return x < 0n ? -(-x >> n) : x >> n;
  },
};
