/**
 * Public surface of the core: everything here runs under plain Node, without VS Code.
 * Documented in docs/core-api.md. Other code (and other extensions) import from here.
 */
export {
  addressFromPublicKey,
  groupOfAddress,
  txIdFromUnsignedTx,
  encodeUnsignedTx,
  decodeUnsignedTx,
  alphToAtto,
  attoToAlph,
  parseAddress,
  isValidAddress,
  type DecodedUnsignedTx,
  type AddressType,
} from './protocol';
export { publicKeyFromPrivateKey, signTxId, verifyTxIdSignature } from './protocol/keys';
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
export {
  scanRalph,
  type RalphScan,
  type RalphDecl,
  type RalphCheckSite,
  type RalphEmitSite,
  type Span,
} from './ralph/scanner';
export { RalphSourceMap, type SourceText, type Located } from './ralph/sourceMap';
export { parseVmFailure, isVmFailureText, type VmFailure } from './debugging/vmError';
export {
  explainVmFailure,
  placeDebugMessages,
  errorCodeNames,
  type FailureContext,
  type FailureLookup,
  type FailureExplanation,
  type FailureSite,
  type DebugHint,
} from './debugging/explain';
export { Redactor, REDACTED } from './util/redact';
export {
  plainText,
  markdownText,
  codeSpan,
  cleanText,
  inert,
  safeMarkdown,
  Inert,
  SafeMarkdown,
} from './text/inert';
export {
  confirmationDecision,
  argumentsActForUser,
  isMainnet,
  type RunMode,
  type ConfirmationDecision,
  type ConfirmationFacts,
} from './signing/confirmPolicy';
export { scriptGasBound, scriptFeeWarning, type ScriptShape, type GasBound } from './signing/gasBounds';
export { type Logger, silentLogger, redactingLogger } from './util/log';
