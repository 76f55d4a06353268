/**
 * Gas as `GasSchedule.scala` prices it. Most instructions cost a fixed tier (`GasSimple`); the rest
 * use a formula of a size the instruction knows only while it runs (`GasFormula`): bytes hashed,
 * compared, concatenated, sliced, encoded, converted or logged, or the exponent's length.
 */
import { forkVersion, type HardFork } from './forks';

export const GAS_ZERO = 0;
export const GAS_BASE = 2;
export const GAS_VERY_LOW = 3;
export const GAS_LOW = 5;
export const GAS_MID = 8;
export const GAS_HIGH = 10;
export const GAS_BALANCE = 30;
export const GAS_SIGNATURE = 2000;
export const GAS_EC_RECOVER = 2500;
export const GAS_MUL_MOD_N = 13;
export const GAS_ADD_MOD_N = 8;
export const GAS_CREATE = 32000;
export const GAS_COPY_CREATE = 24000;
export const GAS_CONTRACT_EXISTS = 800;
/** `GasDestroy` is `txInputBaseGas`. */
export const GAS_DESTROY = 2000;
export const GAS_MIGRATE = GAS_CREATE;

/** `GasSchedule.callGas`: charged by every CallLocal and external call before the callee's frame. */
export const CALL_GAS = 200;
export const TX_BASE_GAS = 1000;
export const TX_INPUT_BASE_GAS = 2000;
export const TX_OUTPUT_BASE_GAS = 4500;
export const CONTRACT_STATE_UPDATE_BASE_GAS = 5000;

/** `GasFormula.wordLength`: 8-byte words, rounded up. */
export function wordLength(byteLength: number): number {
  return Math.floor((byteLength + 7) / 8);
}

/** `GasToByte`: 1 per word of the bytes produced or read (conversions, ToString, ByteVecToAddress). */
export const gasToByte = (byteLength: number): number => wordLength(byteLength);
/** `GasHash`: 30 + 6 per word of the input. */
export const gasHash = (byteLength: number): number => 30 + 6 * wordLength(byteLength);
/** `GasExp`: 10 + 50 per byte of the exponent. */
export const gasExp = (exponentByteLength: number): number => 10 + 50 * exponentByteLength;
/** `GasBytesSlice` (and `GasEncode`): 3 + 1 per byte of the result. */
export const gasBytesSlice = (byteLength: number): number => GAS_VERY_LOW + byteLength;
/** `GasLog`: 100 + 20 per field logged. */
export const gasLog = (fieldCount: number): number => 100 + 20 * fieldCount;
/** `GasUniqueAddress`: 3 + 1 per tx input (`callerAddress!()` in a script frame). */
export const gasUniqueAddress = (inputCount: number): number => GAS_VERY_LOW + inputCount;
/** `GasCall.scriptBaseGas`: the script's bytes + 200, charged before a TxScript runs. */
export const scriptBaseGas = (byteLength: number): number => byteLength + CALL_GAS;
/** `GasSchedule.contractLoadGas`: 800 + 1 per word of the contract's estimated size. */
export const contractLoadGas = (estimatedSize: number): number => 800 + wordLength(estimatedSize);
/** `GasSchedule.selectorCallSearchGas`: 8 per method probed by CallExternalBySelector. */
export const selectorCallSearchGas = (probes: number): number => probes * GAS_MID;

/**
 * `GasBytesEq` (ByteVecEq, ByteVecNeq; Zeros uses the Leman formula): 3 + 1 per word since Leman, the
 * per-word part alone before (`gasDeprecated`, chosen by `chargeGasWithSizeLeman`).
 */
export function gasBytesEq(byteLength: number, fork: HardFork = 'Leman'): number {
  const perWord = wordLength(byteLength);
  return forkVersion(fork) >= forkVersion('Leman') ? GAS_VERY_LOW + perWord : perWord;
}

/** `GasBytesConcat`: 3 + 1 per byte of the result since Leman, 1 per byte before. */
export function gasBytesConcat(byteLength: number, fork: HardFork = 'Leman'): number {
  return forkVersion(fork) >= forkVersion('Leman') ? GAS_VERY_LOW + byteLength : byteLength;
}

/** `SubContractIdBase.gas`: concatenating the parent id and the path, then hashing it twice. */
export function gasSubContractId(pathLength: number): number {
  const byteLength = 32 + pathLength;
  return gasBytesConcat(byteLength) + gasHash(byteLength) + gasHash(32);
}

// prettier-ignore
const TIERS: ReadonlyArray<readonly [number, readonly string[]]> = [
  [GAS_ZERO, ['Return', 'DEBUG', 'DevInstr']],
  [
    GAS_BASE,
    [
      'ConstTrue', 'ConstFalse', 'I256Const0', 'I256Const1', 'I256Const2', 'I256Const3', 'I256Const4',
      'I256Const5', 'I256ConstN1', 'U256Const0', 'U256Const1', 'U256Const2', 'U256Const3', 'U256Const4',
      'U256Const5', 'I256Const', 'U256Const', 'BytesConst', 'AddressConst', 'Pop', 'Dup', 'Swap',
      'ByteVecSize', 'BlockHash', 'TxGasPrice', 'TxGasAmount', 'TxGasFee', 'NullContractAddress',
      'ALPHTokenId', 'MinimalContractDeposit',
    ],
  ],
  [
    GAS_VERY_LOW,
    [
      'LoadLocal', 'StoreLocal', 'BoolNot', 'BoolAnd', 'BoolOr', 'BoolEq', 'BoolNeq',
      'I256Add', 'I256Sub', 'I256Eq', 'I256Neq', 'I256Lt', 'I256Le', 'I256Gt', 'I256Ge',
      'U256Add', 'U256Sub', 'U256Eq', 'U256Neq', 'U256Lt', 'U256Le', 'U256Gt', 'U256Ge',
      'I256ToU256', 'U256ToI256', 'AddressEq', 'AddressNeq', 'IsAssetAddress', 'IsContractAddress',
      'Assert', 'AssertWithErrorCode', 'NetworkId', 'BlockTimeStamp', 'BlockTarget', 'TxId',
      'TxInputAddressAt', 'TxInputsSize', 'GetSegregatedSignature', 'LoadMutField', 'StoreMutField',
      'LoadImmField', 'SelfContractId', 'SelfAddress',
    ],
  ],
  [
    GAS_LOW,
    [
      'I256Mul', 'I256Div', 'I256Mod', 'U256Mul', 'U256Div', 'U256Mod', 'NumericBitAnd', 'NumericBitOr',
      'NumericXor', 'NumericSHL', 'NumericSHR', 'VerifyAbsoluteLocktime', 'ContractIdToAddress',
      'LoadLocalByIndex', 'StoreLocalByIndex', 'GroupOfAddress', 'I256RoundInfinityDiv',
      'U256RoundInfinityDiv', 'LoadMutFieldByIndex', 'StoreMutFieldByIndex', 'LoadImmFieldByIndex',
      'CallerContractId', 'CallerAddress', 'IsCalledFromTxScript', 'CallerInitialStateHash',
      'CallerCodeHash', 'ContractInitialStateHash', 'ContractCodeHash', 'ExternalCallerContractId',
      'ExternalCallerAddress',
    ],
  ],
  [
    GAS_MID,
    ['U256ModAdd', 'U256ModSub', 'U256ModMul', 'Jump', 'IfTrue', 'IfFalse', 'VerifyRelativeLocktime', 'GetSegregatedWebAuthnSignature'],
  ],
  [GAS_HIGH, ['MethodSelector']],
  [GAS_ADD_MOD_N, ['AddModN']],
  [GAS_MUL_MOD_N, ['MulModN']],
  [
    GAS_BALANCE,
    [
      'ApproveAlph', 'ApproveToken', 'AlphRemaining', 'TokenRemaining', 'IsPaying', 'TransferAlph',
      'TransferAlphFromSelf', 'TransferAlphToSelf', 'TransferToken', 'TransferTokenFromSelf',
      'TransferTokenToSelf', 'BurnToken', 'LockApprovedAssets', 'PayGasFee',
    ],
  ],
  [GAS_SIGNATURE, ['VerifyTxSignature', 'VerifySecP256K1', 'VerifyED25519', 'VerifyBIP340Schnorr', 'VerifySignature']],
  [GAS_EC_RECOVER, ['EthEcRecover']],
  [
    GAS_CREATE,
    [
      'CreateContract', 'CreateContractWithToken', 'CreateSubContract', 'CreateSubContractWithToken',
      'CreateContractAndTransferToken', 'CreateSubContractAndTransferToken', 'CreateMapEntry',
    ],
  ],
  [
    GAS_COPY_CREATE,
    [
      'CopyCreateContract', 'CopyCreateContractWithToken', 'CopyCreateSubContract',
      'CopyCreateSubContractWithToken', 'CopyCreateContractAndTransferToken',
      'CopyCreateSubContractAndTransferToken',
    ],
  ],
  [GAS_DESTROY, ['DestroySelf']],
  [GAS_MIGRATE, ['MigrateSimple', 'MigrateWithFields']],
  [GAS_CONTRACT_EXISTS, ['ContractExists']],
];

const SIMPLE_GAS = new Map<string, number>(
  TIERS.flatMap(([gas, names]) => names.map((n) => [n, gas] as const)),
);

/** The fixed gas of an instruction with `GasSimple`, or undefined when it uses a size formula (or a call). */
export function simpleGas(name: string): number | undefined {
  return SIMPLE_GAS.get(name);
}
