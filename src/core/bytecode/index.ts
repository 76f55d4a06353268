/**
 * Script and contract bytecode: fields, the instruction codec, the single-call TxScript and the
 * deploy-contract TxScript. Pure encoding, no I/O; documented in docs/core-api.md.
 */
export {
  buildScriptBytecode,
  encodeContractFields,
  buildContractBytecode,
  encodeVals,
  flattenValues,
  type FlatField,
  type FlatValue,
  type FieldsSig,
  type StructsLike,
} from './fields';
export {
  type Instr,
  type Method,
  type SimpleName,
  type IndexName,
  encodeInstr,
  encodeScript,
  decodeScript,
  constValue,
  u256Const,
  i256Const,
  bytesConst,
  addressConst,
  callExternal,
  simple,
} from './instructions';
export {
  buildMethodCallScript,
  methodCallInstrs,
  decodeScriptCalls,
  describeScriptDifference,
  singleCallMismatch,
  type MethodCallScriptOptions,
  type TokenAmount,
  type ScriptValue,
  type ScriptApproval,
  type ScriptCall,
  type DecodedScriptMethod,
} from './callScript';
export {
  buildDeployScript,
  parseDeployScript,
  DEPLOY_DUST_ATTO,
  type DeployScriptParams,
  type ParsedDeployScript,
} from './deployScript';
