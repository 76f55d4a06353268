/**
 * Public surface of the core: everything here runs under plain Node, without VS Code.
 * Documented in docs/core-api.md. Other code (and other extensions) import from here.
 */
export {
  publicKeyFromPrivateKey,
  addressFromPublicKey,
  groupOfAddress,
  txIdFromUnsignedTx,
  signTxId,
  verifyTxIdSignature,
  encodeUnsignedTx,
  decodeUnsignedTx,
  alphToAtto,
  attoToAlph,
  parseAddress,
  isValidAddress,
  type DecodedUnsignedTx,
  type AddressType,
} from './protocol';
export {
  buildScriptBytecode,
  encodeContractFields,
  buildContractBytecode,
  buildMethodCallScript,
  decodeScriptCalls,
  describeScriptDifference,
  buildDeployScript,
  parseDeployScript,
  decodeScript,
  encodeScript,
  type Instr,
  type Method,
  type MethodCallScriptOptions,
  type DeployScriptParams,
  type ParsedDeployScript,
  type DecodedScriptMethod,
} from './bytecode';
export { Redactor, REDACTED } from './util/redact';
export { type Logger, silentLogger, redactingLogger } from './log';
