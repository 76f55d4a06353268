/**
 * The core's documented functions in one place: the entry docs/core-api.md describes and the public-API tests
 * (test/unit/core/publicApi.test.ts, test/unit/bytecode/publicApi.test.ts) check. Everything here runs under
 * plain Node, without VS Code. It is no API for other extensions: the extension ships as one bundle, so nothing
 * outside it can import the core, and the extension's own code imports each module directly.
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
} from './debugging/failureExplanation';
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
