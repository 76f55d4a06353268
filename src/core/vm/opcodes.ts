/**
 * The opcode table: all 201 instructions of `Instr.scala` (`statelessInstrs0`, `statefulInstrs0`,
 * `toCode`), each with its code, the hard fork whose check it runs (`LemanInstr`, `RhoneInstr`,
 * `DanubeInstr` or none) and the layout of its operand.
 *
 * Codes: CallLocal, CallExternal and Return take 0, 1 and 2; the other stateless instructions follow
 * from 3 in list order, and the other stateful ones from 160 (`Instr.toCode`).
 */
import type { HardFork } from './forks';

/**
 * Operand layouts in the node's serde: `byte` one raw byte (read as 0..255, `Bytes.toPosInt`), `i256`
 * and `u256` compact integers, `bytes` a compact length and the bytes, `address` a lockup script,
 * `offset` a compact i32 jump offset within +-65536, `bytesArray` a compact count of byte strings,
 * `twoBytes` two raw bytes, `selector` four big-endian bytes, `devInstr` one byte 0..7.
 */
export type OperandKind =
  | 'none'
  | 'byte'
  | 'i256'
  | 'u256'
  | 'bytes'
  | 'address'
  | 'offset'
  | 'bytesArray'
  | 'twoBytes'
  | 'selector'
  | 'devInstr';

export interface OpcodeInfo {
  readonly code: number;
  readonly name: string;
  /** The fork that introduced it: the instruction fails with `InactiveInstr` before that fork. */
  readonly since: HardFork;
  /** Stateless instructions run in asset scripts too; stateful ones only in TxScripts and contracts. */
  readonly stateful: boolean;
  readonly operand: OperandKind;
}

const OPERANDS: Readonly<Record<string, OperandKind>> = {
  CallLocal: 'byte',
  CallExternal: 'byte',
  I256Const: 'i256',
  U256Const: 'u256',
  BytesConst: 'bytes',
  AddressConst: 'address',
  LoadLocal: 'byte',
  StoreLocal: 'byte',
  Jump: 'offset',
  IfTrue: 'offset',
  IfFalse: 'offset',
  DEBUG: 'bytesArray',
  DevInstr: 'devInstr',
  LoadMutField: 'byte',
  StoreMutField: 'byte',
  LoadImmField: 'byte',
  CreateMapEntry: 'twoBytes',
  MethodSelector: 'selector',
  CallExternalBySelector: 'selector',
};

/** Stateless instructions from code 3, in `statelessInstrs0` order, grouped by the fork that added them. */
// prettier-ignore
const STATELESS_FROM_3: ReadonlyArray<readonly [HardFork, readonly string[]]> = [
  [
    'Genesis',
    [
      'ConstTrue', 'ConstFalse',
      'I256Const0', 'I256Const1', 'I256Const2', 'I256Const3', 'I256Const4', 'I256Const5', 'I256ConstN1',
      'U256Const0', 'U256Const1', 'U256Const2', 'U256Const3', 'U256Const4', 'U256Const5',
      'I256Const', 'U256Const', 'BytesConst', 'AddressConst',
      'LoadLocal', 'StoreLocal', 'Pop',
      'BoolNot', 'BoolAnd', 'BoolOr', 'BoolEq', 'BoolNeq', 'BoolToByteVec',
      'I256Add', 'I256Sub', 'I256Mul', 'I256Div', 'I256Mod', 'I256Eq', 'I256Neq', 'I256Lt', 'I256Le', 'I256Gt', 'I256Ge',
      'U256Add', 'U256Sub', 'U256Mul', 'U256Div', 'U256Mod', 'U256Eq', 'U256Neq', 'U256Lt', 'U256Le', 'U256Gt', 'U256Ge',
      'U256ModAdd', 'U256ModSub', 'U256ModMul', 'NumericBitAnd', 'NumericBitOr', 'NumericXor', 'NumericSHL', 'NumericSHR',
      'I256ToU256', 'I256ToByteVec', 'U256ToI256', 'U256ToByteVec',
      'ByteVecEq', 'ByteVecNeq', 'ByteVecSize', 'ByteVecConcat', 'AddressEq', 'AddressNeq', 'AddressToByteVec',
      'IsAssetAddress', 'IsContractAddress',
      'Jump', 'IfTrue', 'IfFalse',
      'Assert',
      'Blake2b', 'Keccak256', 'Sha256', 'Sha3', 'VerifyTxSignature', 'VerifySecP256K1', 'VerifyED25519',
      'NetworkId', 'BlockTimeStamp', 'BlockTarget', 'TxId', 'TxInputAddressAt', 'TxInputsSize',
      'VerifyAbsoluteLocktime', 'VerifyRelativeLocktime',
      'Log1', 'Log2', 'Log3', 'Log4', 'Log5',
    ],
  ],
  [
    'Leman',
    [
      'ByteVecSlice', 'ByteVecToAddress', 'Encode', 'Zeros',
      'U256To1Byte', 'U256To2Byte', 'U256To4Byte', 'U256To8Byte', 'U256To16Byte', 'U256To32Byte',
      'U256From1Byte', 'U256From2Byte', 'U256From4Byte', 'U256From8Byte', 'U256From16Byte', 'U256From32Byte',
      'EthEcRecover',
      'Log6', 'Log7', 'Log8', 'Log9',
      'ContractIdToAddress',
      'LoadLocalByIndex', 'StoreLocalByIndex', 'Dup', 'AssertWithErrorCode', 'Swap',
      'BlockHash', 'DEBUG', 'TxGasPrice', 'TxGasAmount', 'TxGasFee',
      'I256Exp', 'U256Exp', 'U256ModExp', 'VerifyBIP340Schnorr', 'GetSegregatedSignature', 'MulModN', 'AddModN',
      'U256ToString', 'I256ToString', 'BoolToString',
    ],
  ],
  ['Rhone', ['GroupOfAddress']],
  [
    'Danube',
    ['VerifySignature', 'GetSegregatedWebAuthnSignature', 'DevInstr', 'I256RoundInfinityDiv', 'U256RoundInfinityDiv'],
  ],
];

/** Stateful instructions from code 160, in `statefulInstrs0` order without CallExternal. */
// prettier-ignore
const STATEFUL_FROM_160: ReadonlyArray<readonly [HardFork, readonly string[]]> = [
  [
    'Genesis',
    [
      'LoadMutField', 'StoreMutField',
      'ApproveAlph', 'ApproveToken', 'AlphRemaining', 'TokenRemaining', 'IsPaying',
      'TransferAlph', 'TransferAlphFromSelf', 'TransferAlphToSelf', 'TransferToken', 'TransferTokenFromSelf', 'TransferTokenToSelf',
      'CreateContract', 'CreateContractWithToken', 'CopyCreateContract', 'DestroySelf', 'SelfContractId', 'SelfAddress',
      'CallerContractId', 'CallerAddress', 'IsCalledFromTxScript', 'CallerInitialStateHash', 'CallerCodeHash',
      'ContractInitialStateHash', 'ContractCodeHash',
    ],
  ],
  [
    'Leman',
    [
      'MigrateSimple', 'MigrateWithFields', 'CopyCreateContractWithToken', 'BurnToken', 'LockApprovedAssets',
      'CreateSubContract', 'CreateSubContractWithToken', 'CopyCreateSubContract', 'CopyCreateSubContractWithToken',
      'LoadMutFieldByIndex', 'StoreMutFieldByIndex', 'ContractExists', 'CreateContractAndTransferToken',
      'CopyCreateContractAndTransferToken', 'CreateSubContractAndTransferToken', 'CopyCreateSubContractAndTransferToken',
      'NullContractAddress', 'SubContractId', 'SubContractIdOf', 'ALPHTokenId',
      'LoadImmField', 'LoadImmFieldByIndex',
    ],
  ],
  ['Rhone', ['PayGasFee', 'MinimalContractDeposit', 'CreateMapEntry', 'MethodSelector', 'CallExternalBySelector']],
  ['Danube', ['ExternalCallerContractId', 'ExternalCallerAddress']],
];

function buildTable(): OpcodeInfo[] {
  const table: OpcodeInfo[] = [];
  const add = (code: number, name: string, since: HardFork, stateful: boolean): void => {
    table.push({ code, name, since, stateful, operand: OPERANDS[name] ?? 'none' });
  };
  add(0, 'CallLocal', 'Genesis', false);
  add(1, 'CallExternal', 'Genesis', true);
  add(2, 'Return', 'Genesis', false);
  let code = 3;
  for (const [fork, names] of STATELESS_FROM_3) for (const name of names) add(code++, name, fork, false);
  code = 160;
  for (const [fork, names] of STATEFUL_FROM_160) for (const name of names) add(code++, name, fork, true);
  return table;
}

/** All 201 instructions, ordered by code. */
export const OPCODES: readonly OpcodeInfo[] = buildTable();

const BY_CODE = new Map<number, OpcodeInfo>(OPCODES.map((info) => [info.code, info]));
const BY_NAME = new Map<string, OpcodeInfo>(OPCODES.map((info) => [info.name, info]));

export function opcodeByCode(code: number): OpcodeInfo | undefined {
  return BY_CODE.get(code);
}

export function opcodeByName(name: string): OpcodeInfo {
  const info = BY_NAME.get(name);
  if (info === undefined) throw new Error(`No instruction is named ${name}`);
  return info;
}
