/**
 * Seeded randomness for the oracle tests: every failure reproduces from the printed seed, and the
 * same inputs are generated on every run, on every machine.
 */
import { strict as assert } from 'node:assert';
import { ProtocolError } from '../../../src/core/protocol';

export class Rng {
  private state: number;
  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }
  /** mulberry32: tiny, fast, and good enough to spread test inputs. */
  u32(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  /** Integer in [lo, hi] (inclusive, both within ±2^53). */
  int(lo: number, hi: number): number {
    const span = hi - lo + 1;
    const r = this.u32() * 2 ** 21 + (this.u32() >>> 11);
    return lo + (r % span);
  }
  bool(): boolean {
    return (this.u32() & 1) === 1;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)] as T;
  }
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.u32() & 0xff;
    return out;
  }
  hex(n: number): string {
    return Buffer.from(this.bytes(n)).toString('hex');
  }
  /** Random bigint with up to `bits` bits, biased toward every compact-int width boundary. */
  bigint(bits: number): bigint {
    const b = this.int(0, bits);
    if (b === 0) return 0n;
    let v = 0n;
    for (let i = 0; i < Math.ceil(b / 32); i++) v = (v << 32n) | BigInt(this.u32());
    return v & ((1n << BigInt(b)) - 1n);
  }
}

/** Values at and around every compact-encoding width boundary. */
export const UNSIGNED_EDGES: bigint[] = [
  0n,
  1n,
  63n,
  64n,
  0x3fffn,
  0x4000n,
  0x3fffffffn,
  0x40000000n,
  0xffffffffn,
  0x100000000n,
  10n ** 18n,
  (1n << 255n) - 1n,
  1n << 255n,
  (1n << 256n) - 1n,
];

export const SIGNED_EDGES: bigint[] = [
  0n,
  1n,
  -1n,
  31n,
  32n,
  -32n,
  -33n,
  0x1fffn,
  0x2000n,
  -0x2000n,
  -0x2001n,
  0x1fffffffn,
  0x20000000n,
  -0x20000000n,
  -0x20000001n,
  2147483647n,
  -2147483648n,
  (1n << 255n) - 1n,
  -(1n << 255n),
  -(1n << 127n),
  (1n << 127n) + 5n,
];

/** Asserts that `fn` throws a ProtocolError whose message matches `re`. */
export function assertProtocolError(fn: () => unknown, re: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof ProtocolError, `expected ProtocolError, got ${String(e)}`);
    assert.equal(e.name, 'ProtocolError');
    assert.match(e.message, re);
    return true;
  });
}

export function toHex(b: Uint8Array): string {
  return Buffer.from(b).toString('hex');
}
