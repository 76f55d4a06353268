/**
 * Alephium's compact integer encodings and a small byte Reader/Writer.
 *
 * The top two bits of the first byte select the width: 00 = 1 byte, 01 = 2 bytes, 10 = 4 bytes,
 * 11 = multi-byte with (b0 & 0x3f) + 4 big-endian bytes following. Signed values use bit 0x20 of the
 * first byte as the sign in the fixed-width modes and two's complement in multi-byte mode.
 * Lengths and gasAmount are *signed* (32 -> 4020); amounts are unsigned. Mixing them up produces
 * bytes the node decodes differently, so both are explicit here.
 */
import { ProtocolError } from './errors';
import { bytesToHex } from './hex';

const U256_BOUND = 1n << 256n;
const I256_BOUND = 1n << 255n;
const I32_MIN = -(2 ** 31);
const I32_MAX = 2 ** 31 - 1;

function bigToBytesUnsigned(v: bigint): number[] {
  const out: number[] = [];
  while (v > 0n) {
    out.unshift(Number(v & 0xffn));
    v >>= 8n;
  }
  return out;
}

/** Minimal big-endian two's complement (like Java's BigInteger.toByteArray, which the node uses). */
function bigToBytesSigned(v: bigint): number[] {
  let len = 1;
  while (v < -(1n << BigInt(len * 8 - 1)) || v >= 1n << BigInt(len * 8 - 1)) len++;
  const mod = v < 0n ? (1n << BigInt(len * 8)) + v : v;
  const out: number[] = [];
  let m = mod;
  for (let i = 0; i < len; i++) {
    out.unshift(Number(m & 0xffn));
    m >>= 8n;
  }
  return out;
}

function multiByte(body: number[]): Uint8Array {
  // The node never needs fewer than 4 body bytes in multi-byte mode; pad to keep the header math valid.
  if (body.length > 68) throw new ProtocolError('Compact integer is too large to encode');
  return Uint8Array.from([0xc0 | (body.length - 4), ...body]);
}

/** Compact unsigned (u256; also used for u32). */
export function encodeCompactUnsigned(value: bigint | number): Uint8Array {
  const v = BigInt(value);
  if (v < 0n || v >= U256_BOUND) throw new ProtocolError(`Value ${v} is out of the u256 range`);
  const n = Number(v);
  if (v < 0x40n) return Uint8Array.of(n);
  if (v < 0x4000n) return Uint8Array.of(0x40 | (n >> 8), n & 0xff);
  if (v < 0x40000000n) return Uint8Array.of(0x80 | (n >>> 24), (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
  const body = bigToBytesUnsigned(v);
  while (body.length < 4) body.unshift(0);
  return multiByte(body);
}

/** Compact signed (i256; also used for i32 such as lengths and gasAmount). */
export function encodeCompactSigned(value: bigint | number): Uint8Array {
  const v = BigInt(value);
  if (v < -I256_BOUND || v >= I256_BOUND) throw new ProtocolError(`Value ${v} is out of the i256 range`);
  if (v >= -0x20n && v < 0x20n) return Uint8Array.of(Number(v) & 0xff & 0x3f);
  if (v >= -0x2000n && v < 0x2000n) {
    const n = Number(v);
    return Uint8Array.of(0x40 | ((n >> 8) & 0x3f), n & 0xff);
  }
  if (v >= -0x20000000n && v < 0x20000000n) {
    const n = Number(v);
    return Uint8Array.of(0x80 | ((n >> 24) & 0x3f), (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
  }
  const body = bigToBytesSigned(v);
  const pad = v < 0n ? 0xff : 0;
  while (body.length < 4) body.unshift(pad);
  return multiByte(body);
}

export function encodeI32(value: number): Uint8Array {
  if (!Number.isInteger(value) || value < I32_MIN || value > I32_MAX) {
    throw new ProtocolError(`Value ${value} is not a 32-bit signed integer`);
  }
  return encodeCompactSigned(value);
}

export function encodeU32(value: number): Uint8Array {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
    throw new ProtocolError(`Value ${value} is not a 32-bit unsigned integer`);
  }
  return encodeCompactUnsigned(value);
}

/** Accumulates bytes; cheaper and clearer than repeated concatenation. */
export class Writer {
  private chunks: Uint8Array[] = [];
  private size = 0;

  bytes(b: Uint8Array): this {
    this.chunks.push(b);
    this.size += b.length;
    return this;
  }
  u8(v: number): this {
    if (!Number.isInteger(v) || v < 0 || v > 255)
      throw new ProtocolError(`Byte value ${v} is out of range 0..255`);
    return this.bytes(Uint8Array.of(v));
  }
  i32(v: number): this {
    return this.bytes(encodeI32(v));
  }
  u256(v: bigint): this {
    return this.bytes(encodeCompactUnsigned(v));
  }
  i256(v: bigint): this {
    return this.bytes(encodeCompactSigned(v));
  }
  /** Raw 4-byte big-endian int (hints), not compact. */
  int4(v: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setInt32(0, v | 0, false);
    return this.bytes(b);
  }
  /** 8-byte big-endian unsigned (lockTime in ms). */
  u64(v: bigint | number): this {
    const x = BigInt(v);
    if (x < 0n || x >= 1n << 64n) throw new ProtocolError(`Value ${x} is out of the u64 range`);
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, x, false);
    return this.bytes(b);
  }
  /** i32 length prefix followed by the bytes. */
  byteString(b: Uint8Array): this {
    return this.i32(b.length).bytes(b);
  }
  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let off = 0;
    for (const c of this.chunks) {
      out.set(c, off);
      off += c.length;
    }
    return out;
  }
}

/**
 * Reads from a byte array, throwing a ProtocolError that names the field and offset on truncation,
 * so "decoding failed" messages point at the exact spot in a gateway response.
 */
export class Reader {
  offset = 0;
  constructor(readonly data: Uint8Array) {}

  get remaining(): number {
    return this.data.length - this.offset;
  }
  atEnd(): boolean {
    return this.offset >= this.data.length;
  }

  bytes(n: number, what = 'bytes'): Uint8Array {
    if (n < 0 || this.offset + n > this.data.length) {
      throw new ProtocolError(
        `Unexpected end of data reading ${what} at byte ${this.offset}: need ${n} byte(s), ${this.remaining} left`,
      );
    }
    const out = this.data.slice(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }
  u8(what = 'byte'): number {
    return this.bytes(1, what)[0] as number;
  }
  int4(what = 'int'): number {
    const b = this.bytes(4, what);
    return new DataView(b.buffer, b.byteOffset, 4).getInt32(0, false);
  }
  u64(what = 'u64'): bigint {
    const b = this.bytes(8, what);
    return new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0, false);
  }

  private compact(what: string): { mode: 0 | 1 | 2 | 3; body: Uint8Array } {
    const start = this.offset;
    const b0 = this.u8(what);
    const mode = (b0 >> 6) as 0 | 1 | 2 | 3;
    const extra = mode === 0 ? 0 : mode === 1 ? 1 : mode === 2 ? 3 : (b0 & 0x3f) + 4;
    this.offset = start;
    return { mode, body: this.bytes(1 + extra, what) };
  }

  u256(what = 'u256'): bigint {
    const { mode, body } = this.compact(what);
    if (mode === 3) {
      let v = 0n;
      for (let i = 1; i < body.length; i++) v = (v << 8n) | BigInt(body[i] as number);
      if (v >= U256_BOUND)
        throw new ProtocolError(`${what} at byte ${this.offset - body.length} exceeds u256`);
      return v;
    }
    let v = (body[0] as number) & 0x3f;
    for (let i = 1; i < body.length; i++) v = v * 256 + (body[i] as number);
    return BigInt(v);
  }

  i256(what = 'i256'): bigint {
    const { mode, body } = this.compact(what);
    if (mode === 3) {
      const n = body.length - 1;
      if (n > 32) throw new ProtocolError(`${what} at byte ${this.offset - body.length} exceeds i256`);
      let v = 0n;
      for (let i = 1; i < body.length; i++) v = (v << 8n) | BigInt(body[i] as number);
      if (((body[1] as number) & 0x80) !== 0) v -= 1n << BigInt(n * 8);
      return v;
    }
    const b0 = body[0] as number;
    // Sign-extend the 6 payload bits of the first byte.
    let v = b0 & 0x20 ? (b0 & 0x3f) - 0x40 : b0 & 0x3f;
    for (let i = 1; i < body.length; i++) v = v * 256 + (body[i] as number);
    return BigInt(v);
  }

  i32(what = 'i32'): number {
    const start = this.offset;
    const v = this.i256(what);
    if (v < BigInt(I32_MIN) || v > BigInt(I32_MAX)) {
      throw new ProtocolError(`${what} at byte ${start} is not a 32-bit signed integer (${v})`);
    }
    return Number(v);
  }

  /** An i32 used as an array/bytestring length: must be non-negative and plausible for the data left. */
  length(what: string, minItemSize = 1): number {
    const start = this.offset;
    const n = this.i32(`${what} length`);
    if (n < 0) throw new ProtocolError(`${what} length at byte ${start} is negative (${n})`);
    if (n * minItemSize > this.remaining) {
      throw new ProtocolError(
        `${what} length at byte ${start} is ${n}, but only ${this.remaining} byte(s) remain`,
      );
    }
    return n;
  }

  byteString(what = 'byte string'): Uint8Array {
    return this.bytes(this.length(what), what);
  }

  hex(n: number, what: string): string {
    return bytesToHex(this.bytes(n, what));
  }
}
