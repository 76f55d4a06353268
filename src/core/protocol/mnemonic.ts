/**
 * BIP39 mnemonics and BIP32 derivation of Alephium keys. Apart from keys.ts because the wordlist and the
 * HD wallet code (about 56 KB) are only needed when a mnemonic is imported: the extension loads this
 * lazily (src/profiles/keyDerivation.ts).
 */
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist as english } from '@scure/bip39/wordlists/english.js';
import { addressFromPublicKey } from './address';
import { ProtocolError } from './errors';
import { bytesToHex } from './hex';
import { alephiumDerivationPath, publicKeyFromPrivateKey } from './keys';

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
