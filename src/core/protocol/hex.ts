import { ProtocolError, preview } from './errors';

const HEX_RE = /^[0-9a-fA-F]*$/;

/** Is `s` an even-length hex string (optionally of exactly `byteLength` bytes)? Accepts either case. */
export function isHex(s: unknown, byteLength?: number): s is string {
  if (typeof s !== 'string' || s.length % 2 !== 0 || !HEX_RE.test(s)) return false;
  return byteLength === undefined || s.length === byteLength * 2;
}

/**
 * 32 bytes of hex, either case, no prefix: the shape of a txId, a block hash, a token id and a contract
 * id. The one check of that shape; callers that want lowercase lowercase first.
 */
export function isHash32(s: unknown): s is string {
  return isHex(s, 32);
}

/** A transaction id: 32 bytes of hex ({@link isHash32}). */
export const isTxId = isHash32;

/**
 * Decodes hex (either case, no `0x` prefix: the node never sends one, so accepting it would hide mistakes).
 * `what` names the field in error messages.
 */
export function hexToBytes(hex: string, what = 'Hex string'): Uint8Array {
  if (typeof hex !== 'string') throw new ProtocolError(`${what} must be a string`);
  if (hex.length % 2 !== 0) {
    throw new ProtocolError(`${what} '${preview(hex)}' has an odd number of characters (${hex.length})`);
  }
  if (!HEX_RE.test(hex)) {
    const bad = hex.search(/[^0-9a-fA-F]/);
    throw new ProtocolError(`${what} '${preview(hex)}' has a non-hex character at position ${bad}`);
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Like {@link hexToBytes} but also requires an exact byte length (ids, keys, signatures). */
export function hexToFixedBytes(hex: string, byteLength: number, what: string): Uint8Array {
  const bytes = hexToBytes(hex, what);
  if (bytes.length !== byteLength) {
    throw new ProtocolError(
      `${what} must be ${byteLength} bytes (${byteLength * 2} hex chars), got ${bytes.length} bytes`,
    );
  }
  return bytes;
}

const HEX_DIGITS = '0123456789abcdef';

/** Lowercase hex, as the node API uses. */
export function bytesToHex(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i++) {
    const v = b[i] as number;
    s += HEX_DIGITS[v >> 4]! + HEX_DIGITS[v & 15]!;
  }
  return s;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
