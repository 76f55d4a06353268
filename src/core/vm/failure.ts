/**
 * The node's execution failures, by the names `ExeFailure.scala` gives them (the Scala class or object
 * name, which is what the node's API puts in front of a failed dry run). A caller branches on
 * `failure`; `message` is the node's own wording where `ExeFailure.scala` overrides `toString`, and the
 * Scala default (`Name(args)` or `Name`) where it does not.
 */
export const FAILURE_NAMES = [
  'CodeSizeTooLarge',
  'FieldsSizeTooLarge',
  'ExpectStatefulFrame',
  'StackOverflow',
  'StackUnderflow',
  'NegativeArgumentInStack',
  'TooManySignatures',
  'InvalidPublicKey',
  'SignedDataIsNot32Bytes',
  'InvalidSignatureFormat',
  'InvalidSignature',
  'InvalidTxInputIndex',
  'NoTxInput',
  'TxInputAddressesAreNotIdentical',
  'AccessTxInputAddressInContract',
  'LockTimeOverflow',
  'InvalidLockTime',
  'AbsoluteLockTimeVerificationFailed',
  'RelativeLockTimeVerificationFailed',
  'RelativeLockTimeExpectPersistedUtxo',
  'ArithmeticError',
  'InvalidVarIndex',
  'InvalidMutFieldIndex',
  'InvalidImmFieldIndex',
  'InvalidFieldLength',
  'TooManyFields',
  'InvalidMutFieldType',
  'EmptyMethods',
  'InvalidType',
  'InvalidMethod',
  'InvalidMethodModifierBeforeLeman',
  'InvalidMethodModifierBeforeRhone',
  'InvalidMethodModifierSinceRhone',
  'InvalidMethodIndex',
  'InvalidMethodSelector',
  'InvalidMethodArgLength',
  'InvalidReturnLength',
  'InvalidExternalMethodReturnLength',
  'InvalidArgLength',
  'InvalidExternalMethodArgLength',
  'InvalidLengthForEncodeInstr',
  'ExternalPrivateMethodCall',
  'AssertionFailed',
  'InvalidInstrOffset',
  'PcOverflow',
  'NonEmptyReturnForMainFunction',
  'InvalidConversion',
  'SerdeErrorCreateContract',
  'NonExistContract',
  'ContractDestructionShouldNotBeCalledFromSelf',
  'PayToContractAddressNotInCallerTrace',
  'InvalidAddressTypeInContractDestroy',
  'ExpectNonPayableMethod',
  'ExpectStatefulContractObj',
  'NoBalanceAvailable',
  'TxCallerBalanceNotAvailable',
  'InsufficientFundsForUTXODustAmount',
  'NotEnoughApprovedBalance',
  'NoAssetsApproved',
  'ChainCallerOutputsFailed',
  'BalanceOverflow',
  'NoAlphBalanceForTheAddress',
  'NoTokenBalanceForTheAddress',
  'InvalidSelfTransfer',
  'InvalidBalances',
  'BalanceErrorWhenSwitchingBackFrame',
  'LowerThanContractMinimalBalance',
  'UnableToPayGasFee',
  'InvalidOutputBalances',
  'InvalidTokenNumForContractOutput',
  'InvalidTokenId',
  'InvalidContractId',
  'ExpectAContract',
  'OutOfGas',
  'GasOverflow',
  'GasOverPaid',
  'ContractPoolOverflow',
  'ContractFieldOverflow',
  'ContractLoadDisallowed',
  'ContractAssetAlreadyInUsing',
  'ContractAssetAlreadyFlushed',
  'FunctionReentrancy',
  'ContractAssetUnloaded',
  'EmptyContractAsset',
  'NoCaller',
  'ExternalCallerNotAvailable',
  'ExternalCallerIsNotContract',
  'CurrentFrameIsNotContract',
  'NegativeTimeStamp',
  'InvalidBlockTarget',
  'InvalidBytesSliceArg',
  'InvalidBytesSize',
  'InvalidSizeForZeros',
  'SerdeErrorByteVecToAddress',
  'FailedInRecoverEthAddress',
  'UnexpectedRecursiveCallInMigration',
  'UnableToMigratePreLemanContract',
  'InvalidAssetAddress',
  'ContractAlreadyExists',
  'NoBlockHashAvailable',
  'DebugIsNotSupportedForMainnet',
  'DebugMessageIsEmpty',
  'ZeroContractId',
  'BurningAlphNotAllowed',
  'UncaughtKeyNotFoundError',
  'UncaughtSerdeError',
  'InactiveInstr',
  'PartiallyActiveInstr',
  'InvalidErrorCode',
  'AssertionFailedWithErrorCode',
  'InvalidWebAuthnPayload',
  'InvalidPublicKeyType',
  'DevInstrIsOnlySupportedOnDevnet',
  'InvalidTestCheckInstr',
  'ExpectedAnExeFailure',
  'NotEqualInTest',
  'NotExpectedErrorInTest',
] as const;

export type FailureName = (typeof FAILURE_NAMES)[number];

/** What some failures carry besides their text, for a caller (a debugger, a test runner) to act on. */
export interface FailureCodes {
  /** `AssertionFailedWithErrorCode`: the code given to `assert!`. */
  readonly errorCode?: number;
  /** `AssertionFailedWithErrorCode`: the contract whose method failed (hex), absent in a TxScript. */
  readonly contractId?: string;
  /** `InsufficientFundsForUTXODustAmount`: the atto ALPH still missing, which test runs retry with. */
  readonly required?: bigint;
}

/**
 * A VM execution failure. It is an Error so that it can cross plain `throw`, which keeps every
 * instruction's happy path free of result wrapping; the interpreter catches it at the step boundary.
 */
export class VmFailure extends Error {
  readonly errorCode?: number;
  readonly contractId?: string;
  readonly required?: bigint;

  constructor(
    readonly failure: FailureName,
    message: string = failure,
    codes: FailureCodes = {},
  ) {
    super(message);
    this.name = 'VmFailure';
    if (codes.errorCode !== undefined) this.errorCode = codes.errorCode;
    if (codes.contractId !== undefined) this.contractId = codes.contractId;
    if (codes.required !== undefined) this.required = codes.required;
  }
}

/** Throws the failure; typed `never` so that `value ?? fail(...)` narrows. */
export function fail(failure: FailureName, message?: string, codes?: FailureCodes): never {
  throw new VmFailure(failure, message, codes);
}
