/**
 * Decoding of instructions, methods, scripts and contracts as the node's serde reads them
 * (`Instr.statelessSerde` / `statefulSerde`, `Method.serdeGen`, `StatefulScript.serde`,
 * `StatefulContract.HalfDecoded.serde`, all in `protocol/vm/`).
 *
 * method   = isPublic (bool byte) ‖ asset modifier (byte) ‖ argsLength ‖ localsLength ‖ returnLength
 *            (compact i32 each) ‖ instruction count (compact i32) ‖ instr*
 * modifier = bits 0-1: 0 none, 1 preapproved + contract assets, 2 contract assets, 3 preapproved;
 *            bit 2 (mask 4): payToContractOnly; any other value is a serde error
 * script   = method count (compact i32) ‖ method*
 * contract = fieldLength (compact i32) ‖ method end offsets (compact i32 count ‖ compact i32*) ‖ methods
 */
import { ProtocolError, Reader } from '../protocol';
import { opcodeByCode, type OpcodeInfo } from './opcodes';
import { readAddressBytes } from './values';

export type Operand =
  | { readonly kind: 'none' }
  | { readonly kind: 'byte'; readonly value: number }
  | { readonly kind: 'i256'; readonly value: bigint }
  | { readonly kind: 'u256'; readonly value: bigint }
  | { readonly kind: 'bytes'; readonly value: Uint8Array }
  | { readonly kind: 'address'; readonly value: Uint8Array }
  | { readonly kind: 'offset'; readonly value: number }
  | { readonly kind: 'bytesArray'; readonly value: readonly Uint8Array[] }
  | { readonly kind: 'twoBytes'; readonly value: readonly [number, number] }
  | { readonly kind: 'selector'; readonly value: number }
  | { readonly kind: 'devInstr'; readonly value: number };

export interface Instr {
  readonly code: number;
  readonly name: string;
  readonly info: OpcodeInfo;
  readonly operand: Operand;
}

export interface Method {
  readonly isPublic: boolean;
  readonly usePreapprovedAssets: boolean;
  readonly useContractAssets: boolean;
  readonly usePayToContractOnly: boolean;
  readonly argsLength: number;
  readonly localsLength: number;
  readonly returnLength: number;
  readonly instrs: readonly Instr[];
}

export interface Contract {
  readonly fieldLength: number;
  readonly methodIndexes: readonly number[];
  readonly methods: readonly Method[];
}

/** Which instruction table applies: asset scripts see only stateless codes (`statelessSerde`). */
export type CodeContext = 'stateless' | 'stateful';

/** Jump offsets beyond +-2^16 are a serde error (`ControlCompanion.validate`). */
const MAX_JUMP_OFFSET = 1 << 16;
const DEV_INSTR_COUNT = 8;
const PAY_TO_CONTRACT_ONLY_MASK = 4;

function readOperand(r: Reader, info: OpcodeInfo): Operand {
  switch (info.operand) {
    case 'none':
      return { kind: 'none' };
    case 'byte':
      return { kind: 'byte', value: r.u8(`${info.name} operand`) };
    case 'i256':
      return { kind: 'i256', value: r.i256(`${info.name} operand`) };
    case 'u256':
      return { kind: 'u256', value: r.u256(`${info.name} operand`) };
    case 'bytes':
      return { kind: 'bytes', value: r.byteString(`${info.name} operand`) };
    case 'address':
      return { kind: 'address', value: readAddressBytes(r, `${info.name} operand`) };
    case 'offset': {
      const value = r.i32(`${info.name} offset`);
      if (value > MAX_JUMP_OFFSET || value < -MAX_JUMP_OFFSET) {
        throw new ProtocolError(`Invalid offset ${value}`);
      }
      return { kind: 'offset', value };
    }
    case 'bytesArray': {
      const count = r.length(`${info.name} parts`);
      const value: Uint8Array[] = [];
      for (let i = 0; i < count; i++) value.push(r.byteString(`${info.name} part ${i}`));
      return { kind: 'bytesArray', value };
    }
    case 'twoBytes':
      return { kind: 'twoBytes', value: [r.u8(`${info.name} first`), r.u8(`${info.name} second`)] };
    case 'selector':
      return { kind: 'selector', value: r.int4(`${info.name} selector`) };
    case 'devInstr': {
      const value = r.u8('DevInstr kind');
      if (value >= DEV_INSTR_COUNT) throw new ProtocolError(`Invalid dev instr prefix ${value}`);
      return { kind: 'devInstr', value };
    }
  }
}

export function readInstr(r: Reader, context: CodeContext): Instr {
  const code = r.u8('instruction code');
  const info = opcodeByCode(code);
  if (info === undefined || (info.stateful && context === 'stateless')) {
    throw new ProtocolError(`Instruction - invalid code ${code}`);
  }
  return { code, name: info.name, info, operand: readOperand(r, info) };
}

function readAssetModifier(
  r: Reader,
): Pick<Method, 'usePreapprovedAssets' | 'useContractAssets' | 'usePayToContractOnly'> {
  const byte = r.u8('asset modifier');
  const usePayToContractOnly = (byte & PAY_TO_CONTRACT_ONLY_MASK) !== 0;
  switch (byte & ~PAY_TO_CONTRACT_ONLY_MASK) {
    case 0:
      return { usePreapprovedAssets: false, useContractAssets: false, usePayToContractOnly };
    case 1:
      return { usePreapprovedAssets: true, useContractAssets: true, usePayToContractOnly };
    case 2:
      return { usePreapprovedAssets: false, useContractAssets: true, usePayToContractOnly };
    case 3:
      return { usePreapprovedAssets: true, useContractAssets: false, usePayToContractOnly };
    default:
      throw new ProtocolError('Invalid assets modifier');
  }
}

function readBool(r: Reader, what: string): boolean {
  const byte = r.u8(what);
  if (byte > 1) throw new ProtocolError(`${what}: invalid bool byte ${byte}`);
  return byte === 1;
}

export function readMethod(r: Reader, context: CodeContext): Method {
  const isPublic = readBool(r, 'isPublic');
  const modifier = readAssetModifier(r);
  const argsLength = r.i32('argsLength');
  const localsLength = r.i32('localsLength');
  const returnLength = r.i32('returnLength');
  const count = r.length('instructions');
  const instrs: Instr[] = [];
  for (let i = 0; i < count; i++) instrs.push(readInstr(r, context));
  return { isPublic, ...modifier, argsLength, localsLength, returnLength, instrs };
}

/** `Method.validate`: lengths that a script or a contract must respect before it runs. */
export function isValidMethod(m: Method): boolean {
  return m.argsLength >= 0 && m.localsLength >= m.argsLength && m.returnLength >= 0;
}

function readAll<T>(bytes: Uint8Array, read: (r: Reader) => T, what: string): T {
  const r = new Reader(bytes);
  const value = read(r);
  if (!r.atEnd()) throw new ProtocolError(`${what}: ${r.remaining} redundant byte(s) at the end`);
  return value;
}

export function decodeMethod(bytes: Uint8Array, context: CodeContext = 'stateful'): Method {
  return readAll(bytes, (r) => readMethod(r, context), 'Method');
}

function readMethods(r: Reader, context: CodeContext): Method[] {
  const count = r.length('methods');
  const methods: Method[] = [];
  for (let i = 0; i < count; i++) methods.push(readMethod(r, context));
  return methods;
}

/**
 * A TxScript (`StatefulScript.serde`), or with `context: 'stateless'` an asset script
 * (`StatelessScript.serde`, which also forbids preapproved assets). Both require a first method that is
 * public and every method valid.
 */
export function decodeScript(bytes: Uint8Array, context: CodeContext = 'stateful'): Method[] {
  const methods = readAll(bytes, (r) => readMethods(r, context), 'Script');
  const valid =
    methods.length > 0 &&
    methods[0]?.isPublic === true &&
    methods.every((m) => isValidMethod(m) && (context === 'stateful' || !m.usePreapprovedAssets));
  if (!valid) throw new ProtocolError(context === 'stateful' ? 'Invalid TxScript' : 'Invalid script');
  return methods;
}

/** A contract's code: the methods are cut at the recorded end offsets and each is decoded alone. */
export function decodeContract(bytes: Uint8Array): Contract {
  const r = new Reader(bytes);
  const fieldLength = r.i32('fieldLength');
  const indexCount = r.length('method indexes');
  const methodIndexes: number[] = [];
  for (let i = 0; i < indexCount; i++) methodIndexes.push(r.i32(`method index ${i}`));
  const body = r.bytes(r.remaining, 'methods');
  const methods: Method[] = [];
  let start = 0;
  for (const end of methodIndexes) {
    if (end < start || end > body.length) {
      throw new ProtocolError(`Method end offset ${end} is out of range ${start}..${body.length}`);
    }
    methods.push(decodeMethod(body.subarray(start, end), 'stateful'));
    start = end;
  }
  if (start !== body.length) {
    throw new ProtocolError(`${body.length - start} byte(s) after the last method`);
  }
  return { fieldLength, methodIndexes, methods };
}
