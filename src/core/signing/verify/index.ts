/**
 * What callers use of verify-before-sign, from one place: the checks' request and result types, the
 * brand (../verified.ts) and the signing step (../sign.ts).
 */
export {
  DEFAULT_FEE_CAP_ATTO,
  transferGasBound,
  type BuildResponse,
  type GatewayDecodeResponse,
  type VerifyOptions,
} from './envelope';
export {
  TransferVerificationError,
  type VerificationCheck,
  type VerificationProblem,
  type VerifiedOutput,
  type VerifiedScript,
  type VerifiedToken,
} from './result';
export type { ScriptTxRequest } from './script';
export type { SweepRequestToVerify, SweepTxToVerify } from './sweep';
export type { TokenAmountRequest, TransferDestinationRequest, TransferRequest } from './transfer';
export {
  VerifiedTransfer,
  isVerifiedTransfer,
  verifyScriptTx,
  verifySweep,
  verifyTransfer,
  type VerifiedSweep,
} from '../verified';
export { NotVerifiedError, signVerifiedTransfer, type SignedTransfer } from '../sign';
