/**
 * secp256k1 keys and transaction signatures, as the node expects them.
 *
 * The node verifies ECDSA over the 32 txId bytes *as they are*: no SHA-256 first. noble v3 hashes by
 * default, so every call passes `prehash: false`; forgetting it yields signatures the node rejects.
 */
import * as secp from '@noble/secp256k1';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist as english } from '@scure/bip39/wordlists/english.js';
import { addressFromPublicKey } from './address';
import { ProtocolError } from './errors';
import { bytesToHex, hexToBytes, isHex } from './hex';

// Sync sign/verify need these hooks; the async variants would use WebCrypto instead.
secp.hashes.sha256 = sha256;
secp.hashes.hmacSha256 = (key, msg) => hmac(sha256, key, msg);

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
  const sig = secp.sign(txIdBytes(txIdHex), privateKeyBytes(privateKeyHex), { prehash: false, lowS: true });
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
    return secp.verify(sig, hexToBytes(txIdHex), hexToBytes(publicKeyHex), { prehash: false, lowS: true });
  } catch {
    return false;
  }
}

/** A fresh random private key (hex) from the platform CSPRNG. */
export function randomPrivateKey(): string {
  return bytesToHex(secp.utils.randomSecretKey());
}

export interface DerivedKey {
  privateKey: string;
  publicKey: string;
  address: string;
}

/**
 * What is wrong with a BIP39 English mnemonic (word count, unknown word, checksum), or undefined. The
 * message never repeats the words. Used to refuse a phrase as it is typed, before any other prompt.
 */
export function mnemonicProblem(mnemonic: string): string | undefined {
  const normalized = typeof mnemonic === 'string' ? mnemonic.trim().split(/\s+/).join(' ').toLowerCase() : '';
  if (normalized === '') return 'Mnemonic is empty';
  const words = normalized.split(' ');
  if (![12, 15, 18, 21, 24].includes(words.length))
    return `Mnemonic has ${words.length} words; expected 12, 15, 18, 21 or 24`;
  const unknown = words.findIndex((w) => !english.includes(w));
  if (unknown >= 0) return `Mnemonic word ${unknown + 1} is not in the BIP39 English wordlist`;
  if (!validateMnemonic(normalized, english))
    return 'Mnemonic checksum is invalid (a word is wrong or the words are out of order)';
  return undefined;
}

/**
 * Derives the P2PKH key at m/44'/1234'/0'/0/index from a BIP39 English mnemonic (no passphrase),
 * which is what Alephium wallets use for the default key type.
 */
export function deriveKeyFromMnemonic(mnemonic: string, index = 0, passphrase = ''): DerivedKey {
  if (!Number.isInteger(index) || index < 0 || index >= 0x80000000) {
    throw new ProtocolError(`Derivation index ${index} must be an integer in 0..2^31-1`);
  }
  const problem = mnemonicProblem(mnemonic);
  if (problem) throw new ProtocolError(problem);
  const normalized = mnemonic.trim().split(/\s+/).join(' ').toLowerCase();
  const seed = mnemonicToSeedSync(normalized, passphrase);
  const node = HDKey.fromMasterSeed(seed).derive(alephiumDerivationPath(index));
  if (!node.privateKey) throw new ProtocolError('Key derivation produced no private key');
  const privateKey = bytesToHex(node.privateKey);
  const publicKey = publicKeyFromPrivateKey(privateKey);
  return { privateKey, publicKey, address: addressFromPublicKey(publicKey) };
}
