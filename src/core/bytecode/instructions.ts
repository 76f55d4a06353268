/**
 * A minimal codec for Ralph VM instructions, methods and TxScripts: encode and decode.
 *
 * Only the instructions our generated scripts use (constants, approvals, external calls, contract
 * creation, stack and local-variable moves) get typed objects; every other valid opcode decodes to
 * `{name: 'Other'}` with its raw operand bytes, so a real script can still be walked and re-encoded
 * byte for byte. Names follow the SDK's `codec/instr-codec.ts`, which the tests use as the oracle.
 *
 * Layouts (node `vm/Method.scala`, `vm/Instr.scala`; SDK `codec/method-codec.ts`):
 *   script = i32 method count ‖ method*
 *   method = isPublic (1 byte, 0/1) ‖ asset modifier (1 byte) ‖ i32 argsLength ‖ i32 localsLength ‖
 *            i32 returnLength ‖ i32 instruction count ‖ instr*
 *   asset modifier: bits 0-1 = 0 none, 1 preapproved+contract assets, 2 contract assets only,
 *                   3 preapproved only; bit 2 = payToContractOnly
 *   instr  = opcode (1 byte) ‖ operand (see OPERANDS)
 */
import {
  ProtocolError,
  Reader,
  Writer,
  bytesToHex,
  equalBytes,
  hexToBytes,
  isKnownOpcode,
  readLockupScriptBytes,
} from '../protocol';

/** Opcodes without operands that our scripts use, by name. */
export const SIMPLE_OPCODES = {
  ConstTrue: 0x03,
  ConstFalse: 0x04,
  I256Const0: 0x05,
  I256Const1: 0x06,
  I256Const2: 0x07,
  I256Const3: 0x08,
  I256Const4: 0x09,
  I256Const5: 0x0a,
  I256ConstN1: 0x0b,
  U256Const0: 0x0c,
  U256Const1: 0x0d,
  U256Const2: 0x0e,
  U256Const3: 0x0f,
  U256Const4: 0x10,
  U256Const5: 0x11,
  Pop: 0x18,
  Dup: 0x7a,
  ApproveAlph: 0xa2,
  ApproveToken: 0xa3,
  TransferAlph: 0xa7,
  CreateContract: 0xad,
  CreateContractWithToken: 0xae,
  CallerAddress: 0xb4,
  CreateContractAndTransferToken: 0xc6,
} as const;
export type SimpleName = keyof typeof SIMPLE_OPCODES;

/** Opcodes with a one-byte index operand. */
const INDEX_OPCODES = { CallLocal: 0x00, CallExternal: 0x01, LoadLocal: 0x16, StoreLocal: 0x17 } as const;
export type IndexName = keyof typeof INDEX_OPCODES;

const I256_CONST = 0x12;
const U256_CONST = 0x13;
const BYTES_CONST = 0x14;
const ADDRESS_CONST = 0x15;

export type Instr =
  | { readonly name: SimpleName }
  | { readonly name: IndexName; readonly index: number }
  | { readonly name: 'I256Const'; readonly value: bigint }
  | { readonly name: 'U256Const'; readonly value: bigint }
  /** `value` is the byte string's content (hex, without its length prefix). */
  | { readonly name: 'BytesConst'; readonly value: string }
  /** `value` is the serialized lockup script (hex); `addressFromLockupScript` turns it into an address. */
  | { readonly name: 'AddressConst'; readonly value: string }
  /** Any other valid opcode; `operand` is its operand bytes exactly as found (hex, often empty). */
  | { readonly name: 'Other'; readonly code: number; readonly operand: string };

/** What a method's first two bytes say about calling it: whether it is public, and its asset modifier. */
export interface MethodHeader {
  readonly isPublic: boolean;
  readonly usePreapprovedAssets: boolean;
  readonly useContractAssets: boolean;
  readonly usePayToContractOnly: boolean;
}

export interface Method extends MethodHeader {
  readonly argsLength: number;
  readonly localsLength: number;
  readonly returnLength: number;
  readonly instrs: readonly Instr[];
}

const SIMPLE_BY_CODE = new Map<number, SimpleName>(
  Object.entries(SIMPLE_OPCODES).map(([n, c]) => [c, n as SimpleName]),
);
const INDEX_BY_CODE = new Map<number, IndexName>(
  Object.entries(INDEX_OPCODES).map(([n, c]) => [c, n as IndexName]),
);

/**
 * Operand layouts of the opcodes we do not type (the same table as `protocol/script.ts`, which only
 * skips them). Every opcode not listed here and not typed above is a single byte.
 */
type OtherOperand = 'byte' | 'i32' | 'bytesArray' | 'twoBytes' | 'int4';
const OTHER_OPERANDS: ReadonlyMap<number, OtherOperand> = new Map<number, OtherOperand>([
  [0x4a, 'i32'], // Jump
  [0x4b, 'i32'], // IfTrue
  [0x4c, 'i32'], // IfFalse
  [0x7e, 'bytesArray'], // DEBUG
  [0x8f, 'byte'], // DevInstr
  [0xa0, 'byte'], // LoadMutField
  [0xa1, 'byte'], // StoreMutField
  [0xce, 'byte'], // LoadImmField
  [0xd2, 'twoBytes'], // CreateMapEntry
  [0xd3, 'int4'], // MethodSelector
  [0xd4, 'int4'], // CallExternalBySelector
]);

// ---- constructors --------------------------------------------------------------------------------------

export function simple(name: SimpleName): Instr {
  return { name };
}

/**
 * The constant instruction the Ralph compiler and the SDK (`toU256`) emit for a U256: the one-byte
 * forms for 0..5, `U256Const` otherwise. The short forms matter: the script's bytes, not its meaning,
 * are what we compare.
 */
export function u256Const(value: bigint): Instr {
  if (value < 0n || value >= 1n << 256n) throw new ProtocolError(`${value} is not a U256`);
  if (value <= 5n) return { name: `U256Const${Number(value)}` as SimpleName };
  return { name: 'U256Const', value };
}

/** Like `u256Const` for I256 (`toI256`): one-byte forms for -1..5. */
export function i256Const(value: bigint): Instr {
  if (value < -(1n << 255n) || value >= 1n << 255n) throw new ProtocolError(`${value} is not an I256`);
  if (value === -1n) return { name: 'I256ConstN1' };
  if (value >= 0n && value <= 5n) return { name: `I256Const${Number(value)}` as SimpleName };
  return { name: 'I256Const', value };
}

export function bytesConst(hex: string): Instr {
  return { name: 'BytesConst', value: bytesToHex(hexToBytes(hex, 'BytesConst value')) };
}

export function addressConst(lockupScriptHex: string): Instr {
  return { name: 'AddressConst', value: bytesToHex(hexToBytes(lockupScriptHex, 'AddressConst value')) };
}

export function callExternal(index: number): Instr {
  return { name: 'CallExternal', index };
}

/** The value a constant-pushing instruction pushes, or undefined for any other instruction. */
export function constValue(
  instr: Instr,
):
  | { type: 'U256' | 'I256'; value: bigint }
  | { type: 'Bool'; value: boolean }
  | { type: 'ByteVec' | 'Address'; value: string }
  | undefined {
  switch (instr.name) {
    case 'U256Const':
      return { type: 'U256', value: instr.value };
    case 'I256Const':
      return { type: 'I256', value: instr.value };
    case 'BytesConst':
      return { type: 'ByteVec', value: instr.value };
    case 'AddressConst':
      return { type: 'Address', value: instr.value };
    case 'ConstTrue':
      return { type: 'Bool', value: true };
    case 'ConstFalse':
      return { type: 'Bool', value: false };
    case 'I256ConstN1':
      return { type: 'I256', value: -1n };
    default: {
      const m = /^(U256|I256)Const([0-5])$/.exec(instr.name);
      if (m) return { type: m[1] as 'U256' | 'I256', value: BigInt(m[2] as string) };
      return undefined;
    }
  }
}

// ---- encoding ------------------------------------------------------------------------------------------

function writeIndex(w: Writer, index: number, name: string): void {
  if (!Number.isInteger(index) || index < 0 || index > 255) {
    throw new ProtocolError(`${name} index ${index} does not fit in one byte (0..255)`);
  }
  w.u8(index);
}

export function writeInstr(w: Writer, instr: Instr): void {
  switch (instr.name) {
    case 'I256Const':
      w.u8(I256_CONST).i256(instr.value);
      return;
    case 'U256Const':
      w.u8(U256_CONST).u256(instr.value);
      return;
    case 'BytesConst':
      w.u8(BYTES_CONST).byteString(hexToBytes(instr.value, 'BytesConst value'));
      return;
    case 'AddressConst': {
      const bytes = hexToBytes(instr.value, 'AddressConst value');
      // Re-read to reject a value that is not exactly one lockup script: it has no length prefix.
      const r = new Reader(bytes);
      readLockupScriptBytes(r, 'AddressConst value');
      if (!r.atEnd())
        throw new ProtocolError('AddressConst value has trailing bytes after its lockup script');
      w.u8(ADDRESS_CONST).bytes(bytes);
      return;
    }
    case 'CallLocal':
    case 'CallExternal':
    case 'LoadLocal':
    case 'StoreLocal':
      w.u8(INDEX_OPCODES[instr.name]);
      writeIndex(w, instr.index, instr.name);
      return;
    case 'Other':
      if (!isKnownOpcode(instr.code)) {
        throw new ProtocolError(`opcode 0x${instr.code.toString(16)} is not a known instruction`);
      }
      w.u8(instr.code).bytes(hexToBytes(instr.operand, 'instruction operand'));
      return;
    default:
      w.u8(SIMPLE_OPCODES[instr.name]);
  }
}

export function encodeInstr(instr: Instr): string {
  const w = new Writer();
  writeInstr(w, instr);
  return bytesToHex(w.finish());
}

function assetModifier(m: Method): number {
  const base =
    !m.usePreapprovedAssets && !m.useContractAssets
      ? 0
      : m.usePreapprovedAssets && m.useContractAssets
        ? 1
        : m.useContractAssets
          ? 2
          : 3;
  return base | (m.usePayToContractOnly ? 4 : 0);
}

export function writeMethod(w: Writer, m: Method): void {
  w.u8(m.isPublic ? 1 : 0).u8(assetModifier(m));
  w.i32(m.argsLength).i32(m.localsLength).i32(m.returnLength).i32(m.instrs.length);
  for (const i of m.instrs) writeInstr(w, i);
}

/** A TxScript (or a contract's method list) as hex. */
export function encodeScript(methods: readonly Method[]): string {
  const w = new Writer();
  w.i32(methods.length);
  for (const m of methods) writeMethod(w, m);
  return bytesToHex(w.finish());
}

// ---- decoding ------------------------------------------------------------------------------------------

function readOther(r: Reader, code: number, where: string): string {
  const start = r.offset;
  switch (OTHER_OPERANDS.get(code)) {
    case undefined:
      break;
    case 'byte':
      r.u8(`${where} operand`);
      break;
    case 'twoBytes':
      r.bytes(2, `${where} operands`);
      break;
    case 'int4':
      r.bytes(4, `${where} selector`);
      break;
    case 'i32':
      r.i32(`${where} offset`);
      break;
    case 'bytesArray': {
      const n = r.length(`${where} DEBUG parts`);
      for (let i = 0; i < n; i++) r.byteString(`${where} DEBUG part ${i}`);
      break;
    }
  }
  return bytesToHex(r.data.subarray(start, r.offset));
}

export function readInstr(r: Reader, where: string): Instr {
  const at = r.offset;
  const code = r.u8(`${where} opcode`);
  const simpleName = SIMPLE_BY_CODE.get(code);
  if (simpleName) return { name: simpleName };
  const indexName = INDEX_BY_CODE.get(code);
  if (indexName) return { name: indexName, index: r.u8(`${where} index`) };
  switch (code) {
    case I256_CONST:
      return { name: 'I256Const', value: r.i256(`${where} I256 constant`) };
    case U256_CONST:
      return { name: 'U256Const', value: r.u256(`${where} U256 constant`) };
    case BYTES_CONST:
      return { name: 'BytesConst', value: bytesToHex(r.byteString(`${where} ByteVec constant`)) };
    case ADDRESS_CONST:
      return {
        name: 'AddressConst',
        value: bytesToHex(readLockupScriptBytes(r, `${where} Address constant`)),
      };
  }
  if (!isKnownOpcode(code)) {
    throw new ProtocolError(
      `${where}: unknown instruction opcode 0x${code.toString(16).padStart(2, '0')} at byte ${at}`,
    );
  }
  return { name: 'Other', code, operand: readOther(r, code, where) };
}

function count(r: Reader, what: string): number {
  const at = r.offset;
  const n = r.i32(what);
  if (n < 0) throw new ProtocolError(`${what} at byte ${at} is negative (${n})`);
  return n;
}

/**
 * A method's isPublic byte and asset modifier (layout and modifier table as the node's `Method` serde and
 * the SDK's `method-codec`): bits 0-1 are 0 none, 1 preapproved + contract assets, 2 contract assets,
 * 3 preapproved only; bit 2 is pay-to-contract-only.
 */
export function readMethodHeader(r: Reader, where: string): MethodHeader {
  const isPublicByte = r.u8(`${where} isPublic`);
  if (isPublicByte > 1) throw new ProtocolError(`${where}: isPublic byte ${isPublicByte} is not a boolean`);
  const modifier = r.u8(`${where} asset modifier`);
  if (modifier > 7) throw new ProtocolError(`${where}: asset modifier ${modifier} is invalid`);
  const low = modifier & 3;
  return {
    isPublic: isPublicByte === 1,
    usePreapprovedAssets: low === 1 || low === 3,
    useContractAssets: low === 1 || low === 2,
    usePayToContractOnly: (modifier & 4) !== 0,
  };
}

export function readMethod(r: Reader, where: string): Method {
  const header = readMethodHeader(r, where);
  const argsLength = count(r, `${where} argsLength`);
  const localsLength = count(r, `${where} localsLength`);
  const returnLength = count(r, `${where} returnLength`);
  const n = count(r, `${where} instruction count`);
  if (n > r.remaining) {
    throw new ProtocolError(`${where}: ${n} instructions cannot fit in ${r.remaining} remaining bytes`);
  }
  const instrs: Instr[] = [];
  for (let i = 0; i < n; i++) instrs.push(readInstr(r, `${where} instr ${i}`));
  return { ...header, argsLength, localsLength, returnLength, instrs };
}

/**
 * Decodes a whole script; trailing bytes are an error. The result is re-encoded and compared, so a
 * non-canonical compact integer (which the node would re-serialize differently) is rejected too.
 */
export function decodeScript(hex: string, what = 'Script'): Method[] {
  const bytes = hexToBytes(hex, what);
  const r = new Reader(bytes);
  const n = count(r, `${what} method count`);
  if (n > r.remaining) throw new ProtocolError(`${what}: ${n} methods cannot fit in ${r.remaining} bytes`);
  const methods: Method[] = [];
  for (let m = 0; m < n; m++) methods.push(readMethod(r, `${what} method ${m}`));
  if (!r.atEnd()) {
    throw new ProtocolError(`${what}: ${r.remaining} unexpected trailing byte(s) after the last method`);
  }
  if (!equalBytes(hexToBytes(encodeScript(methods)), bytes)) {
    throw new ProtocolError(`${what} is not canonically encoded (a compact integer is padded)`);
  }
  return methods;
}
