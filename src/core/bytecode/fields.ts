/**
 * Contract fields and script template fields as bytes, with the meaning of @alephium/web3's
 * `ralph.buildScriptByteCode`, `ralph.encodeContractFields` and `ralph.buildContractByteCode`.
 *
 * Both start by FLATTENING the fields in declaration order: a fixed array is its elements, a tuple its
 * elements, a struct its members (recursively); a contract-typed value is its contract id, a ByteVec.
 * A flattened primitive is mutable only when its top-level field is `mut` AND every struct member on the
 * way to it is declared mutable, so one struct field can put primitives on both sides.
 *
 * - Script templates (`bytecodeTemplate`) hold `{N}` where the N-th flattened field goes, as the
 *   instruction that pushes it: ConstTrue/ConstFalse, U256Const0..5 / U256Const, I256ConstN1 / I256Const0..5 /
 *   I256Const, AddressConst ‖ lockup script, BytesConst ‖ byte string (ByteVec and contract ids).
 * - Contract fields are two Val lists, immutable then mutable: i32 count ‖ (type tag ‖ value)* with tags
 *   Bool 0 (one byte), I256 1 (compact signed), U256 2 (compact unsigned), ByteVec 3 (i32 length ‖ bytes),
 *   Address 4 (lockup script). Deploy bytecode is the contract code followed by both lists.
 */
import { ArgumentError, ArtifactError } from '../artifacts/errors';
import {
  type FieldsSig,
  type PrimitiveType,
  type StructSig,
  type StructsLike,
  type TypeNode,
  parseType,
} from '../artifacts/vals';
import {
  Writer,
  bytesToHex,
  contractIdFromAddress,
  hexToBytes,
  lockupScriptFromAddress,
  parseAddress,
} from '../protocol';
import {
  type Instr,
  addressConst,
  bytesConst,
  i256Const,
  simple,
  u256Const,
  writeInstr,
} from './instructions';

export type { FieldsSig, StructsLike };

const U256_MAX = (1n << 256n) - 1n;
const I256_MIN = -(1n << 255n);
const I256_MAX = (1n << 255n) - 1n;

/** One flattened primitive, checked and in canonical form. */
export type FlatValue =
  | { readonly type: 'U256' | 'I256'; readonly value: bigint }
  | { readonly type: 'Bool'; readonly value: boolean }
  /** ByteVec and contract ids: lowercase hex. */
  | { readonly type: 'ByteVec'; readonly value: string }
  /** The address as given, and its serialized lockup script (hex). */
  | { readonly type: 'Address'; readonly value: string; readonly lockupScript: string };

export interface FlatField {
  /** Where the value came from, e.g. `fields.pair.reserves[1]`. */
  readonly path: string;
  readonly value: FlatValue;
  readonly isMutable: boolean;
}

function structMap(structs: StructsLike): ReadonlyMap<string, StructSig> {
  if (!structs) return new Map();
  if (structs instanceof Map) return structs;
  return new Map((structs as readonly StructSig[]).map((s) => [s.name, s]));
}

function fail(path: string, message: string): never {
  throw new ArgumentError(`${path}: ${message}`, path);
}

function show(input: unknown): string {
  if (typeof input === 'bigint') return `${input}`;
  const text =
    typeof input === 'string'
      ? `'${input}'`
      : JSON.stringify(input, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  return text === undefined ? String(input) : text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/**
 * An integer from a bigint, a safe integer number or a decimal string. Like the SDK, a string must be
 * the canonical decimal of its value: `'0x10'`, `'1e3'`, `' 7'` and `'007'` are refused rather than
 * read, because whatever they are read as is a guess.
 */
function integer(input: unknown, path: string, type: 'U256' | 'I256'): bigint {
  let v: bigint;
  if (typeof input === 'bigint') v = input;
  else if (typeof input === 'number') {
    if (!Number.isSafeInteger(input)) {
      fail(
        path,
        `${input} is not an exact integer (${type}); pass large numbers as bigint or decimal strings`,
      );
    }
    v = BigInt(input);
  } else if (typeof input === 'string') {
    if (!/^-?(0|[1-9][0-9]*)$/.test(input) || input === '-0') {
      fail(path, `${show(input)} is not a decimal integer (${type})`);
    }
    v = BigInt(input);
  } else fail(path, `expected an integer (${type}), got ${typeof input}`);
  if (type === 'U256' && (v < 0n || v > U256_MAX)) fail(path, `${v} is out of the U256 range 0 .. 2^256-1`);
  if (type === 'I256' && (v < I256_MIN || v > I256_MAX))
    fail(path, `${v} is out of the I256 range -2^255 .. 2^255-1`);
  return v;
}

function primitive(type: PrimitiveType, input: unknown, path: string): FlatValue {
  switch (type) {
    case 'U256':
    case 'I256':
      return { type, value: integer(input, path, type) };
    case 'Bool':
      if (typeof input !== 'boolean') fail(path, `expected true or false (Bool), got ${show(input)}`);
      return { type, value: input };
    case 'ByteVec':
      if (typeof input !== 'string' || input.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(input)) {
        fail(path, `expected an even-length hex string (ByteVec), got ${show(input)}`);
      }
      return { type, value: input.toLowerCase() };
    case 'Address': {
      if (typeof input !== 'string') fail(path, `expected a base58 address (Address), got ${show(input)}`);
      try {
        parseAddress(input);
      } catch (e) {
        fail(path, (e as Error).message);
      }
      return { type, value: input, lockupScript: bytesToHex(lockupScriptFromAddress(input)) };
    }
  }
}

/** A contract-typed value: its 32-byte contract id in hex, or (cheap to accept) its contract address. */
function contractId(input: unknown, path: string, name: string): FlatValue {
  if (typeof input === 'string') {
    if (/^[0-9a-fA-F]{64}$/.test(input)) return { type: 'ByteVec', value: input.toLowerCase() };
    try {
      return { type: 'ByteVec', value: contractIdFromAddress(input) };
    } catch {
      // fall through to the message that says what is accepted
    }
  }
  return fail(
    path,
    `expected a contract id (64 hex digits) or a contract address (${name}), got ${show(input)}`,
  );
}

function flattenNode(node: TypeNode, input: unknown, path: string, mutable: boolean, out: FlatField[]): void {
  switch (node.kind) {
    case 'primitive':
      out.push({ path, value: primitive(node.type, input, path), isMutable: mutable });
      return;
    case 'contract':
      out.push({ path, value: contractId(input, path, node.name), isMutable: mutable });
      return;
    case 'array':
      if (!Array.isArray(input) || input.length !== node.size) {
        const got = Array.isArray(input) ? `${input.length} element(s)` : show(input);
        fail(path, `expected an array of exactly ${node.size} elements (${node.text}), got ${got}`);
      }
      input.forEach((el, k) => flattenNode(node.element, el, `${path}[${k}]`, mutable, out));
      return;
    case 'tuple':
      if (!Array.isArray(input) || input.length !== node.elements.length) {
        fail(path, `expected an array of ${node.elements.length} values (${node.text}), got ${show(input)}`);
      }
      node.elements.forEach((e, k) => flattenNode(e, input[k], `${path}._${k}`, mutable, out));
      return;
    case 'struct': {
      if (typeof input !== 'object' || input === null || Array.isArray(input)) {
        fail(
          path,
          `expected an object with ${node.fields.map((f) => f.name).join(', ')} (${node.name}), got ${show(input)}`,
        );
      }
      const obj = input as Record<string, unknown>;
      const missing = node.fields.filter((f) => !(f.name in obj)).map((f) => f.name);
      if (missing.length > 0) fail(path, `${node.name} is missing ${missing.join(', ')}`);
      const extra = Object.keys(obj).filter((k) => !node.fields.some((f) => f.name === k));
      // The SDK ignores unknown members; we refuse them, because a misspelt member would otherwise
      // surface only as "missing" next to a value the user did type.
      if (extra.length > 0) fail(path, `${node.name} has no member(s) ${extra.join(', ')}`);
      for (const f of node.fields)
        flattenNode(f.type, obj[f.name], `${path}.${f.name}`, mutable && f.isMutable, out);
      return;
    }
  }
}

function parseSigType(type: string, structs: ReadonlyMap<string, StructSig>, path: string): TypeNode {
  try {
    return parseType(type, structs);
  } catch (e) {
    throw new ArtifactError(`${path}: ${(e as Error).message}`, undefined, path);
  }
}

/**
 * Flattens values by a signature (fields or parameters). `prefix` starts every path (`fields`, `args`).
 * Names missing from `values` are all listed in one error; names the signature does not declare are refused.
 */
export function flattenValues(
  names: readonly string[],
  types: readonly string[],
  isMutable: readonly boolean[] | undefined,
  values: Record<string, unknown>,
  structs: StructsLike,
  prefix: string,
): FlatField[] {
  if (names.length !== types.length) {
    throw new ArtifactError(
      `the signature has ${names.length} names but ${types.length} types`,
      undefined,
      prefix,
    );
  }
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    fail(prefix, `expected an object with ${names.join(', ') || 'no fields'}`);
  }
  const missing = names.filter((n) => !Object.prototype.hasOwnProperty.call(values, n));
  if (missing.length > 0) {
    const list = missing.map((n) => `${n}: ${types[names.indexOf(n)] as string}`).join(', ');
    throw new ArgumentError(`${prefix}: missing ${list}`, `${prefix}.${missing[0] as string}`);
  }
  const extra = Object.keys(values).filter((k) => !names.includes(k));
  if (extra.length > 0)
    fail(`${prefix}.${extra[0] as string}`, `the signature declares no ${extra.join(', ')}`);
  const map = structMap(structs);
  const out: FlatField[] = [];
  names.forEach((name, i) => {
    const path = `${prefix}.${name}`;
    const node = parseSigType(types[i] as string, map, path);
    flattenNode(node, values[name], path, isMutable?.[i] === true, out);
  });
  return out;
}

/** The flattened size and a readable form of a type list, for return values and error messages. */
export function typeNodes(types: readonly string[], structs: StructsLike, prefix: string): TypeNode[] {
  const map = structMap(structs);
  return types.map((t, i) => parseSigType(t, map, `${prefix}[${i}]`));
}

/** The instruction that pushes a flattened value (what the compiler emits for a literal of that type). */
export function pushInstr(v: FlatValue): Instr {
  switch (v.type) {
    case 'U256':
      return u256Const(v.value);
    case 'I256':
      return i256Const(v.value);
    case 'Bool':
      return simple(v.value ? 'ConstTrue' : 'ConstFalse');
    case 'ByteVec':
      return bytesConst(v.value);
    case 'Address':
      return addressConst(v.lockupScript);
  }
}

function checkSig(fieldsSig: FieldsSig): void {
  if (fieldsSig.isMutable.length !== fieldsSig.names.length) {
    throw new ArtifactError(
      `fieldsSig has ${fieldsSig.names.length} names but ${fieldsSig.isMutable.length} isMutable flags`,
      undefined,
      'fieldsSig.isMutable',
    );
  }
}

function flattenFields(
  fields: Record<string, unknown>,
  fieldsSig: FieldsSig,
  structs: StructsLike,
): FlatField[] {
  checkSig(fieldsSig);
  return flattenValues(fieldsSig.names, fieldsSig.types, fieldsSig.isMutable, fields, structs, 'fields');
}

/**
 * A script artifact's `bytecodeTemplate` with its `{N}` placeholders replaced by the instructions that
 * push the N-th flattened field. Returns hex.
 */
export function buildScriptBytecode(
  bytecodeTemplate: string,
  fields: Record<string, unknown>,
  fieldsSig: FieldsSig,
  structs?: StructsLike,
): string {
  const flat = flattenFields(fields, fieldsSig, structs);
  const out = bytecodeTemplate.replace(/\{([0-9]+)\}/g, (_, index: string) => {
    const field = flat[Number(index)];
    if (!field) {
      throw new ArtifactError(
        `bytecodeTemplate refers to field {${index}}, but the fields flatten to ${flat.length} value(s)`,
        undefined,
        'bytecodeTemplate',
      );
    }
    const w = new Writer();
    writeInstr(w, pushInstr(field.value));
    return bytesToHex(w.finish());
  });
  if (!/^[0-9a-fA-F]*$/.test(out) || out.length % 2 !== 0) {
    throw new ArtifactError(
      'bytecodeTemplate is not hex outside its {N} placeholders',
      undefined,
      'bytecodeTemplate',
    );
  }
  return out.toLowerCase();
}

/** Vals in the node's serialization: i32 count ‖ (tag ‖ value)*. */
export function encodeVals(values: readonly FlatValue[]): string {
  const w = new Writer();
  w.i32(values.length);
  for (const v of values) {
    switch (v.type) {
      case 'Bool':
        w.u8(0).u8(v.value ? 1 : 0);
        break;
      case 'I256':
        w.u8(1).i256(v.value);
        break;
      case 'U256':
        w.u8(2).u256(v.value);
        break;
      case 'ByteVec':
        w.u8(3).byteString(hexToBytes(v.value));
        break;
      case 'Address':
        w.u8(4).bytes(hexToBytes(v.lockupScript));
        break;
    }
  }
  return bytesToHex(w.finish());
}

/** The immutable and the mutable flattened fields, each as the node's Val list (hex). */
export function encodeContractFields(
  fields: Record<string, unknown>,
  fieldsSig: FieldsSig,
  structs?: StructsLike,
): { encodedImmFields: string; encodedMutFields: string } {
  const flat = flattenFields(fields, fieldsSig, structs);
  return {
    encodedImmFields: encodeVals(flat.filter((f) => !f.isMutable).map((f) => f.value)),
    encodedMutFields: encodeVals(flat.filter((f) => f.isMutable).map((f) => f.value)),
  };
}

/** Contract code followed by its encoded immutable and mutable fields: what a deployment carries. */
export function buildContractBytecode(
  bytecode: string,
  fields: Record<string, unknown>,
  fieldsSig: FieldsSig,
  structs?: StructsLike,
): string {
  const code = bytesToHex(hexToBytes(bytecode, 'Contract bytecode'));
  const { encodedImmFields, encodedMutFields } = encodeContractFields(fields, fieldsSig, structs);
  return code + encodedImmFields + encodedMutFields;
}
