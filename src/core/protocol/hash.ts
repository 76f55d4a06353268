import { blake2b } from '@noble/hashes/blake2.js';

/** Plain (unkeyed) Blake2b with a 32-byte digest: Alephium's hash for txIds, pubkey hashes and ids. */
export function blake2b256(bytes: Uint8Array): Uint8Array {
  return blake2b(bytes, { dkLen: 32 });
}

/**
 * DJB2 over bytes in signed 32-bit arithmetic, exactly as the node's `Bytes.xorByte`-era hint code
 * folds it (h = h*33 + byte). The result is a signed int32 because the node reports hints as Int.
 */
export function djb2(bytes: Uint8Array): number {
  let h = 5381;
  for (let i = 0; i < bytes.length; i++) h = (Math.imul(h, 33) + (bytes[i] as number)) | 0;
  return h;
}

/** XOR of the four bytes of an int32: the node derives the group from this fold. */
export function xorFold(value: number): number {
  return ((value >>> 24) ^ (value >>> 16) ^ (value >>> 8) ^ value) & 0xff;
}
