/**
 * Delimiting Ralph scripts inside transaction bytes.
 *
 * A script has no length prefix: the only way to find where it ends (and where gasAmount starts) is
 * to walk every method and instruction. We do not interpret instructions, we only need each opcode's
 * operand layout, which is tiny: most opcodes have none. Valid opcodes up to Danube are 0x00-0x91 and
 * 0xa0-0xd6 (node `vm/Instr.scala`; SDK `codec/instr-codec.ts`). Unknown opcodes are rejected rather
 * than guessed, because a wrong guess would mis-decode every field after the script.
 */
import type { Reader } from './codec';
import { encodeCompactSigned, encodeCompactUnsigned } from './codec';
import { readLockupScriptBytes } from './address';
import { ProtocolError } from './errors';
import { equalBytes } from './hex';

type Operand = 'byte' | 'i256' | 'u256' | 'bytes' | 'lockup' | 'i32' | 'bytesArray' | 'twoBytes' | 'int4';

/** Opcodes that carry an operand; every other valid opcode is a single byte. */
const OPERANDS: ReadonlyMap<number, Operand> = new Map<number, Operand>([
  [0x00, 'byte'], // CallLocal(method index)
  [0x01, 'byte'], // CallExternal(method index)
  [0x12, 'i256'], // I256Const
  [0x13, 'u256'], // U256Const
  [0x14, 'bytes'], // BytesConst
  [0x15, 'lockup'], // AddressConst
  [0x16, 'byte'], // LoadLocal
  [0x17, 'byte'], // StoreLocal
  [0x4a, 'i32'], // Jump
  [0x4b, 'i32'], // IfTrue
  [0x4c, 'i32'], // IfFalse
  [0x7e, 'bytesArray'], // DEBUG(string parts)
  [0x8f, 'byte'], // DevInstr
  [0xa0, 'byte'], // LoadMutField
  [0xa1, 'byte'], // StoreMutField
  [0xce, 'byte'], // LoadImmField
  [0xd2, 'twoBytes'], // CreateMapEntry(immFields, mutFields)
  [0xd3, 'int4'], // MethodSelector
  [0xd4, 'int4'], // CallExternalBySelector
]);

export function isKnownOpcode(op: number): boolean {
  return (op >= 0x00 && op <= 0x91) || (op >= 0xa0 && op <= 0xd6);
}

/**
 * Compact ints are re-checked for canonical form: the node hashes its own re-serialization, so a
 * script with a padded integer would get a different txId on the node than Blake2b of our bytes.
 */
function canonicalI32(r: Reader, what: string): number {
  const start = r.offset;
  const v = r.i32(what);
  if (!equalBytes(encodeCompactSigned(v), r.data.subarray(start, r.offset))) {
    throw new ProtocolError(`${what} at byte ${start} is not canonically encoded`);
  }
  return v;
}

function skipCompact(r: Reader, signed: boolean, what: string): void {
  const start = r.offset;
  const v = signed ? r.i256(what) : r.u256(what);
  const enc = signed ? encodeCompactSigned(v) : encodeCompactUnsigned(v);
  if (!equalBytes(enc, r.data.subarray(start, r.offset))) {
    throw new ProtocolError(`${what} at byte ${start} is not canonically encoded`);
  }
}

function skipByteString(r: Reader, what: string): void {
  const start = r.offset;
  const n = r.length(what);
  if (!equalBytes(encodeCompactSigned(n), r.data.subarray(start, r.offset))) {
    throw new ProtocolError(`${what} length at byte ${start} is not canonically encoded`);
  }
  r.bytes(n, what);
}

function skipInstr(r: Reader, where: string): void {
  const at = r.offset;
  const op = r.u8(`${where} opcode`);
  if (!isKnownOpcode(op)) {
    throw new ProtocolError(
      `${where}: unknown instruction opcode 0x${op.toString(16).padStart(2, '0')} at byte ${at}`,
    );
  }
  switch (OPERANDS.get(op)) {
    case undefined:
      return;
    case 'byte':
      r.u8(`${where} operand`);
      return;
    case 'twoBytes':
      r.bytes(2, `${where} operands`);
      return;
    case 'int4':
      r.bytes(4, `${where} selector`);
      return;
    case 'i32':
      canonicalI32(r, `${where} jump offset`);
      return;
    case 'i256':
      skipCompact(r, true, `${where} I256 constant`);
      return;
    case 'u256':
      skipCompact(r, false, `${where} U256 constant`);
      return;
    case 'bytes':
      skipByteString(r, `${where} ByteVec constant`);
      return;
    case 'lockup':
      readLockupScriptBytes(r, `${where} Address constant`);
      return;
    case 'bytesArray': {
      const n = canonicalI32(r, `${where} DEBUG parts length`);
      if (n < 0) throw new ProtocolError(`${where}: negative DEBUG parts length at byte ${at}`);
      for (let i = 0; i < n; i++) skipByteString(r, `${where} DEBUG part ${i}`);
      return;
    }
  }
}

function nonNegativeCount(r: Reader, what: string): number {
  const start = r.offset;
  const n = canonicalI32(r, what);
  if (n < 0) throw new ProtocolError(`${what} at byte ${start} is negative (${n})`);
  return n;
}

/**
 * Reads a script (Array<Method>) at the reader's position and returns its exact bytes.
 * `where` names the field in errors, e.g. "scriptOpt" or "inputs[2] P2SH script".
 */
export function readScriptBytes(r: Reader, where: string): Uint8Array {
  const start = r.offset;
  const methods = nonNegativeCount(r, `${where} method count`);
  for (let m = 0; m < methods; m++) {
    const w = `${where} method ${m}`;
    const isPublic = r.u8(`${w} isPublic`);
    if (isPublic > 1) throw new ProtocolError(`${w}: isPublic byte ${isPublic} is not a boolean`);
    const modifier = r.u8(`${w} modifier`);
    if (modifier > 7) throw new ProtocolError(`${w}: asset modifier ${modifier} is invalid`);
    nonNegativeCount(r, `${w} argsLength`);
    nonNegativeCount(r, `${w} localsLength`);
    nonNegativeCount(r, `${w} returnLength`);
    const n = nonNegativeCount(r, `${w} instruction count`);
    if (n > r.remaining)
      throw new ProtocolError(`${w}: ${n} instructions cannot fit in ${r.remaining} remaining bytes`);
    for (let i = 0; i < n; i++) skipInstr(r, `${w} instr ${i}`);
  }
  return r.data.slice(start, r.offset);
}

/** Reads a P2SH unlock payload: Script || Array<Val> (Bool, I256, U256, ByteVec, Address). */
export function skipP2shParams(r: Reader, where: string): void {
  const n = nonNegativeCount(r, `${where} P2SH params count`);
  for (let i = 0; i < n; i++) {
    const w = `${where} P2SH param ${i}`;
    const tag = r.u8(`${w} type`);
    switch (tag) {
      case 0: {
        const b = r.u8(`${w} Bool`);
        if (b > 1) throw new ProtocolError(`${w}: Bool byte ${b} is not 0 or 1`);
        break;
      }
      case 1:
        skipCompact(r, true, `${w} I256`);
        break;
      case 2:
        skipCompact(r, false, `${w} U256`);
        break;
      case 3:
        skipByteString(r, `${w} ByteVec`);
        break;
      case 4:
        readLockupScriptBytes(r, `${w} Address`);
        break;
      default:
        throw new ProtocolError(`${w}: unknown value type tag ${tag}`);
    }
  }
}
