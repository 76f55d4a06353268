// Loaded on first use (a mnemonic typed into Import Signer Key): esbuild builds it as dist/keyDerivation.js.
export { deriveKeyFromMnemonic, mnemonicProblem } from '../core/protocol/mnemonic';
