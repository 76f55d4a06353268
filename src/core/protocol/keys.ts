/**
 * secp256k1 keys and transaction signatures, as the node expects them.
 *
 * The node verifies ECDSA over the 32 txId bytes *as they are*: no SHA-256 first. noble v3 hashes by
 * default, so every call passes `prehash: false`; forgetting it yields signatures the node rejects.
 */
import * as secp from '@noble/secp256k1';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { ProtocolError } from './errors';
import { bytesToHex, hexToBytes, isHex } from './hex';

/**
 * secp256k1 with the hooks sync sign/verify need (the async variants would use WebCrypto instead). Set on
 * first use rather than at load: an assignment at module level is a side effect, which keeps this module
 * and the curve code in every bundle that imports the protocol barrel, the activation bundle included.
 */
function curve(): typeof secp {
  if (secp.hashes.sha256 !== sha256) {
    secp.hashes.sha256 = sha256;
    secp.hashes.hmacSha256 = (key, msg) => hmac(sha256, key, msg);
  }
  return secp;
}

/** Alephium's BIP44 coin type; the full path is m/44'/1234'/0'/0/index. */
export const ALEPHIUM_COIN_TYPE = 1234;
export function alephiumDerivationPath(index: number): string {
  return `m/44'/${ALEPHIUM_COIN_TYPE}'/0'/0/${index}`;
}

const CURVE_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = CURVE_N >> 1n;

function privateKeyBytes(privateKeyHex: string): Uint8Array {
  if (typeof privateKeyHex !== 'string' || !isHex(privateKeyHex)) {
    throw new ProtocolError('Private key must be hex (64 hex characters)');
  }
  if (privateKeyHex.length !== 64) {
    throw new ProtocolError(
      `Private key must be 32 bytes (64 hex characters), got ${privateKeyHex.length} characters`,
    );
  }
  const sk = hexToBytes(privateKeyHex, 'Private key');
  // Do not echo the key in the message: errors end up in logs.
  if (!secp.utils.isValidSecretKey(sk)) {
    throw new ProtocolError(
      'Private key is out of range (must be between 1 and the secp256k1 curve order - 1)',
    );
  }
  return sk;
}

function txIdBytes(txIdHex: string): Uint8Array {
  if (!isHex(txIdHex, 32)) throw new ProtocolError('Transaction id must be 32 bytes (64 hex characters)');
  return hexToBytes(txIdHex, 'Transaction id');
}

/** 33-byte compressed public key (hex) of a private key. */
export function publicKeyFromPrivateKey(privateKeyHex: string): string {
  return bytesToHex(secp.getPublicKey(privateKeyBytes(privateKeyHex), true));
}

/**
 * Signs a txId: RFC 6979 deterministic ECDSA over the raw 32 bytes, low-S, 64-byte r||s hex.
 * Byte-identical to the SDK's `transactionSign` and to what the node produces.
 */
export function signTxId(txIdHex: string, privateKeyHex: string): string {
  const sig = curve().sign(txIdBytes(txIdHex), privateKeyBytes(privateKeyHex), {
    prehash: false,
    lowS: true,
  });
  return bytesToHex(sig);
}

/**
 * Verifies a txId signature as the node does (high-S rejected). Never throws: malformed input of any
 * kind is simply "not a valid signature", which is the answer a UI needs.
 */
export function verifyTxIdSignature(txIdHex: string, signatureHex: string, publicKeyHex: string): boolean {
  try {
    if (!isHex(txIdHex, 32) || !isHex(signatureHex, 64) || !isHex(publicKeyHex, 33)) return false;
    const sig = hexToBytes(signatureHex);
    const s = BigInt(`0x${signatureHex.slice(64)}`);
    if (s === 0n || s > HALF_N) return false;
    return curve().verify(sig, hexToBytes(txIdHex), hexToBytes(publicKeyHex), { prehash: false, lowS: true });
  } catch {
    return false;
  }
}

/** A fresh random private key (hex) from the platform CSPRNG. */
export function randomPrivateKey(): string {
  return bytesToHex(secp.utils.randomSecretKey());
}
