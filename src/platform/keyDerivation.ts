// Loaded on first use (a key imported, or a legacy signer key's public key derived): esbuild builds it as
// a chunk of dist/ of its own, so the secp256k1 and BIP39/BIP32 code stays out of the activation bundle.
export { deriveKeyFromMnemonic, mnemonicProblem } from '../core/protocol/mnemonic';
export { publicKeyFromPrivateKey } from '../core/protocol/keys';
export {
  DEVNET_TEST_KEY_LABEL,
  DEVNET_TEST_KEY_WARNING,
  DEVNET_TEST_KEY_WORD,
  devnetTestKeyChosen,
  devnetTestKeyOffered,
} from '../core/signing/devnetTestKey';
