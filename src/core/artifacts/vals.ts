/**
 * Values between the node's Val JSON and artifact signatures.
 *
 * The node returns state fields, call returns and event fields FLATTENED into primitives: a `[U256;2]`
 * field is two U256 Vals, a struct is its fields in declaration order, recursively; a contract-typed value
 * is the contract id as a ByteVec. Only arguments may use the nested `{type: 'Array', value: Val[]}` form.
 * Re-nesting therefore needs the signature's types (and the structs file), and a count that does not add
 * up means the artifact does not describe this contract: we then refuse to guess and return the raw values
 * with an error, because a silently shifted decoding would show plausible but wrong numbers.
 */
import { contractIdFromAddress, isValidAddress, parseAddress } from '../protocol';
import { ArgumentError, ArtifactError } from './errors';
import { isList } from '../util/guards';

/** A Val in the node's JSON shape. Nested arrays only appear in arguments. */
export type ApiVal = { type: string; value: string | boolean | ApiVal[] };

/** What the node sends back; values are checked before use, so nothing is assumed about them. */
export type InputVal = { readonly type: string; readonly value: unknown };

export const PRIMITIVE_TYPES = ['U256', 'I256', 'Bool', 'ByteVec', 'Address'] as const;
export type PrimitiveType = (typeof PRIMITIVE_TYPES)[number];

/** One entry of `structs.ral.json`. */
export interface StructSig {
  readonly name: string;
  readonly fieldNames: readonly string[];
  readonly fieldTypes: readonly string[];
  readonly isMutable: readonly boolean[];
}

/** Structs by name; a plain array is accepted wherever this is. */
export type StructsLike = ReadonlyMap<string, StructSig> | readonly StructSig[] | undefined;

export type TypeNode =
  | { readonly kind: 'primitive'; readonly type: PrimitiveType }
  /** A contract-typed value: its contract id, a ByteVec on the wire. */
  | { readonly kind: 'contract'; readonly name: string }
  | { readonly kind: 'array'; readonly element: TypeNode; readonly size: number; readonly text: string }
  /** `(U256,Bool)`: compilers from v4.5 write tuples (map values, multiple returns); flattened in order. */
  | { readonly kind: 'tuple'; readonly elements: readonly TypeNode[]; readonly text: string }
  | {
      readonly kind: 'struct';
      readonly name: string;
      readonly fields: readonly { name: string; type: TypeNode; isMutable: boolean }[];
    };

export interface DecodedStruct {
  readonly struct: string;
  readonly fields: readonly DecodedField[];
}

/**
 * U256/I256 as decimal strings, ByteVec as hex, Address as base58, Bool as boolean; a value that failed its
 * type is its raw text followed by `⚠ not a valid <type>` (`markedRaw`), so no consumer can show it as one.
 */
export type DecodedValue = string | boolean | readonly DecodedValue[] | DecodedStruct;

export interface DecodedField {
  readonly name: string;
  /** The signature's type string, e.g. `[U256;2]` or `Pair`. */
  readonly type: string;
  readonly value: DecodedValue;
}

export type FieldsDecoding =
  | {
      readonly ok: true;
      readonly fields: DecodedField[];
      /** Values that are not what their type says (each shown raw and marked), e.g. `owner is not a valid Address`. */
      readonly problems?: readonly string[];
    }
  | {
      readonly ok: false;
      /** Why the values could not be matched to the signature (shown next to the raw values). */
      readonly error: string;
      /** The values as received, one per Val, named `#0`, `#1`... */
      readonly raw: DecodedField[];
    };

const MAX_TYPE_DEPTH = 16;
const U256_MAX = (1n << 256n) - 1n;
const I256_MIN = -(1n << 255n);
const I256_MAX = (1n << 255n) - 1n;

function structMap(structs: StructsLike): ReadonlyMap<string, StructSig> {
  if (!structs) return new Map();
  if (structs instanceof Map) return structs;
  return new Map((structs as readonly StructSig[]).map((s) => [s.name, s]));
}

export function isPrimitiveType(type: string): type is PrimitiveType {
  return (PRIMITIVE_TYPES as readonly string[]).includes(type);
}

/**
 * Parses a signature type string. Names that are neither primitives nor known structs are contract
 * types (the compiler only emits those three kinds), so a missing structs file shows up as a wrong
 * flattened count rather than as an error here; `requireStructs` makes that case explicit instead.
 */
export function parseType(type: string, structs?: StructsLike, depth = 0): TypeNode {
  const map = structMap(structs);
  if (depth > MAX_TYPE_DEPTH)
    throw new ArtifactError(`type '${type}' nests too deeply`, undefined, undefined);
  const t = type.trim();
  if (isPrimitiveType(t)) return { kind: 'primitive', type: t };
  if (t.startsWith('(')) {
    if (!t.endsWith(')')) throw new ArtifactError(`malformed tuple type '${type}'`, undefined, undefined);
    const parts = splitTopLevel(t.slice(1, -1));
    if (parts.length === 0 || parts.some((p) => p.trim() === '')) {
      throw new ArtifactError(`malformed tuple type '${type}'`, undefined, undefined);
    }
    return { kind: 'tuple', elements: parts.map((p) => parseType(p, map, depth + 1)), text: t };
  }
  if (t.startsWith('[')) {
    // `[[U256;2];3]`: the size belongs to the outermost brackets, so split at the LAST ';'.
    const semi = t.lastIndexOf(';');
    if (!t.endsWith(']') || semi < 0) {
      throw new ArtifactError(`malformed array type '${type}' (expected [T;N])`, undefined, undefined);
    }
    const sizeText = t.slice(semi + 1, -1).trim();
    if (!/^\d+$/.test(sizeText) || Number(sizeText) < 1) {
      throw new ArtifactError(`array type '${type}' has an invalid size '${sizeText}'`, undefined, undefined);
    }
    const element = parseType(t.slice(1, semi), map, depth + 1);
    return { kind: 'array', element, size: Number(sizeText), text: t };
  }
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(t)) {
    throw new ArtifactError(`'${type}' is not a valid type`, undefined, undefined);
  }
  const struct = map.get(t);
  if (struct) {
    return {
      kind: 'struct',
      name: t,
      fields: struct.fieldNames.map((name, i) => ({
        name,
        type: parseType(struct.fieldTypes[i] ?? '?', map, depth + 1),
        isMutable: struct.isMutable[i] ?? false,
      })),
    };
  }
  return { kind: 'contract', name: t };
}

/** Splits `a,(b,c),[d;2]` at the commas that are not inside brackets or parentheses. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
    if (depth < 0) throw new ArtifactError(`unbalanced brackets in '${text}'`, undefined, undefined);
  }
  if (depth !== 0) throw new ArtifactError(`unbalanced brackets in '${text}'`, undefined, undefined);
  parts.push(text.slice(start));
  return parts;
}

/** How many primitive Vals a value of this type flattens into. */
export function flattenedSize(node: TypeNode): number {
  switch (node.kind) {
    case 'primitive':
    case 'contract':
      return 1;
    case 'array':
      return node.size * flattenedSize(node.element);
    case 'tuple':
      return node.elements.reduce((n, e) => n + flattenedSize(e), 0);
    case 'struct':
      return node.fields.reduce((n, f) => n + flattenedSize(f.type), 0);
  }
}

function typeText(node: TypeNode): string {
  switch (node.kind) {
    case 'primitive':
      return node.type;
    case 'contract':
    case 'struct':
      return node.name;
    case 'array':
    case 'tuple':
      return node.text;
  }
}

interface Leaf {
  readonly wire: PrimitiveType;
  readonly mutable: boolean;
}

/**
 * The primitives a value flattens into, with their mutability. A struct field is mutable only when the
 * field holding the struct is `mut` AND the struct declares that field `mut` (the compiler stores the
 * rest with the immutable fields), which is why immFields/mutFields cannot be split per top-level field.
 */
function leaves(node: TypeNode, mutable: boolean, out: Leaf[]): void {
  switch (node.kind) {
    case 'primitive':
      out.push({ wire: node.type, mutable });
      return;
    case 'contract':
      out.push({ wire: 'ByteVec', mutable });
      return;
    case 'array':
      for (let i = 0; i < node.size; i++) leaves(node.element, mutable, out);
      return;
    case 'tuple':
      for (const e of node.elements) leaves(e, mutable, out);
      return;
    case 'struct':
      for (const f of node.fields) leaves(f.type, mutable && f.isMutable, out);
      return;
  }
}

class Mismatch extends Error {}

/** Longer than any address the node can produce (a multisig of many keys); beyond it, no base58 pass. */
const MAX_ADDRESS_CHARS = 2048;
/** 2^256 has 78 decimal digits; a longer text is out of range without a BigInt pass over it. */
const MAX_INTEGER_DIGITS = 80;
/** How much of a value that failed its type is kept for display. */
const MAX_RAW_CHARS = 200;

/**
 * Whether `value` is a well-formed value of the primitive `type` as the node writes it, and, when it is,
 * its display value. This is the one check of chain values against declared types: a gateway can send
 * anything, and a value shown under a type it does not have (a non-address as an Address) is read, by a
 * user or a chat model, as something it is not.
 */
export function checkPrimitive(
  type: PrimitiveType,
  value: unknown,
): { readonly ok: true; readonly value: string | boolean } | { readonly ok: false } {
  switch (type) {
    case 'Bool':
      if (typeof value === 'boolean') return { ok: true, value };
      if (value === 'true' || value === 'false') return { ok: true, value: value === 'true' };
      break;
    case 'U256':
      if (
        typeof value === 'string' &&
        value.length <= MAX_INTEGER_DIGITS &&
        /^\d+$/.test(value) &&
        BigInt(value) <= U256_MAX
      )
        return { ok: true, value };
      break;
    case 'I256':
      if (typeof value === 'string' && value.length <= MAX_INTEGER_DIGITS + 1 && /^-?\d+$/.test(value)) {
        const v = BigInt(value);
        if (v >= I256_MIN && v <= I256_MAX) return { ok: true, value };
      }
      break;
    case 'ByteVec':
      if (typeof value === 'string' && value.length % 2 === 0 && /^[0-9a-fA-F]*$/.test(value))
        return { ok: true, value: value.toLowerCase() };
      break;
    case 'Address':
      if (typeof value === 'string' && value.length <= MAX_ADDRESS_CHARS && isValidAddress(value))
        return { ok: true, value };
      break;
  }
  return { ok: false };
}

/** The mark a value carries when it is not what its type says (shown instead of the typed value). */
export function notValidMark(type: string): string {
  return `⚠ not a valid ${type}`;
}

/** A value that failed its type: the raw text, capped, and the mark; never a value of that type. */
export function markedRaw(value: unknown, type: string): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const shown = text.length > MAX_RAW_CHARS ? `${text.slice(0, MAX_RAW_CHARS)}…` : text;
  return `${shown} ${notValidMark(type)}`;
}

/**
 * Checks one flattened Val against the primitive it must be, and returns its display value. A Val of
 * another wire type means the signature does not describe these values (the whole decoding is refused);
 * a Val of the right wire type whose value is malformed is one bad value: it is shown raw and marked,
 * and `problems` says where, so the other values still show.
 */
function primitiveValue(
  val: InputVal,
  wire: PrimitiveType,
  where: string,
  problems: string[],
): string | boolean {
  if (val.type !== wire) throw new Mismatch(`${where}: expected ${wire}, got ${String(val.type)}`);
  const checked = checkPrimitive(wire, val.value);
  if (checked.ok) return checked.value;
  problems.push(`${where} is not a valid ${wire}`);
  return markedRaw(val.value, wire);
}

function build(
  node: TypeNode,
  vals: readonly InputVal[],
  pos: { i: number },
  where: string,
  problems: string[],
): DecodedValue {
  switch (node.kind) {
    case 'primitive':
    case 'contract': {
      const val = vals[pos.i++];
      if (!val) throw new Mismatch(`${where}: missing value`);
      return primitiveValue(val, node.kind === 'contract' ? 'ByteVec' : node.type, where, problems);
    }
    case 'array': {
      const out: DecodedValue[] = [];
      for (let k = 0; k < node.size; k++)
        out.push(build(node.element, vals, pos, `${where}[${k}]`, problems));
      return out;
    }
    case 'tuple':
      return node.elements.map((e, k) => build(e, vals, pos, `${where}.${k}`, problems));
    case 'struct':
      return {
        struct: node.name,
        fields: node.fields.map((f) => ({
          name: f.name,
          type: typeText(f.type),
          value: build(f.type, vals, pos, `${where}.${f.name}`, problems),
        })),
      };
  }
}

/** The values as received, for display when they cannot be matched to a signature. */
export function rawFields(vals: readonly InputVal[]): DecodedField[] {
  return vals.map((v, i) => ({ name: `#${i}`, type: String(v.type), value: rawValue(v) }));
}

/** A value as received; one that claims a primitive type it does not have is marked, not shown as one. */
function rawValue(v: InputVal): DecodedValue {
  const type = String(v.type);
  if (isPrimitiveType(type)) {
    const checked = checkPrimitive(type, v.value);
    return checked.ok ? checked.value : markedRaw(v.value, type);
  }
  return typeof v.value === 'boolean' || typeof v.value === 'string' ? v.value : JSON.stringify(v.value);
}

function parseAll(names: readonly string[], types: readonly string[], structs: StructsLike): TypeNode[] {
  if (names.length !== types.length) {
    throw new Mismatch(`the signature has ${names.length} names but ${types.length} types`);
  }
  const map = structMap(structs);
  return types.map((t, i) => {
    try {
      return parseType(t, map);
    } catch (e) {
      throw new Mismatch(`${names[i]}: ${(e as Error).message}`);
    }
  });
}

function countText(n: number): string {
  return `${n} value${n === 1 ? '' : 's'}`;
}

/**
 * Re-nests flattened values (event fields, call returns, or one of the state halves) by the signature.
 * Every Val must be consumed exactly and have the expected primitive type; otherwise `{ok: false}`.
 */
export function decodeFields(
  names: readonly string[],
  types: readonly string[],
  vals: readonly InputVal[],
  structs?: StructsLike,
): FieldsDecoding {
  try {
    const nodes = parseAll(names, types, structs);
    const expected = nodes.reduce((n, t) => n + flattenedSize(t), 0);
    if (expected !== vals.length) {
      throw new Mismatch(
        `the signature (${types.join(', ') || 'no fields'}) flattens to ${countText(expected)}, got ${vals.length}`,
      );
    }
    const pos = { i: 0 };
    const problems: string[] = [];
    const fields = nodes.map((node, k) => {
      const name = names[k] as string;
      return { name, type: types[k] as string, value: build(node, vals, pos, name, problems) };
    });
    return problems.length > 0 ? { ok: true, fields, problems } : { ok: true, fields };
  } catch (e) {
    if (e instanceof Mismatch) return { ok: false, error: e.message, raw: rawFields(vals) };
    throw e;
  }
}

export interface FieldsSig {
  readonly names: readonly string[];
  readonly types: readonly string[];
  readonly isMutable: readonly boolean[];
}

/**
 * Decodes a contract state: `immFields` hold the immutable primitives and `mutFields` the mutable ones,
 * each in declaration order (structs split by their own `isMutable`). The primitives are put back in
 * declaration order, then re-nested.
 */
export function decodeState(
  sig: FieldsSig,
  immFields: readonly InputVal[],
  mutFields: readonly InputVal[],
  structs?: StructsLike,
): FieldsDecoding {
  const raw = (): DecodedField[] => [
    ...rawFields(immFields).map((f) => ({ ...f, name: `imm${f.name}` })),
    ...rawFields(mutFields).map((f) => ({ ...f, name: `mut${f.name}` })),
  ];
  let nodes: TypeNode[];
  try {
    nodes = parseAll(sig.names, sig.types, structs);
    if (sig.isMutable.length !== sig.names.length) {
      throw new Mismatch(
        `fieldsSig has ${sig.names.length} names but ${sig.isMutable.length} isMutable flags`,
      );
    }
  } catch (e) {
    if (e instanceof Mismatch) return { ok: false, error: e.message, raw: raw() };
    throw e;
  }
  const all: Leaf[] = [];
  nodes.forEach((n, i) => leaves(n, sig.isMutable[i] === true, all));
  const immCount = all.filter((l) => !l.mutable).length;
  const mutCount = all.length - immCount;
  if (immCount !== immFields.length || mutCount !== mutFields.length) {
    return {
      ok: false,
      error:
        `the artifact's fields flatten to ${countText(immCount)} immutable and ${countText(mutCount)} mutable, ` +
        `the contract has ${immFields.length} and ${mutFields.length}`,
      raw: raw(),
    };
  }
  let ii = 0;
  let mi = 0;
  const merged = all.map((l) => (l.mutable ? mutFields[mi++] : immFields[ii++]) as InputVal);
  return decodeFields(sig.names, sig.types, merged, structs);
}

// ---- arguments ------------------------------------------------------------------------------------------

export interface EncodeOptions {
  /** Names used in error messages (`#i` when absent). */
  readonly paramNames?: readonly string[];
  readonly structs?: StructsLike;
}

function describe(node: TypeNode): string {
  if (node.kind === 'array') return `a JSON array of exactly ${node.size} ${typeText(node.element)} values`;
  if (node.kind === 'tuple')
    return `a JSON array of ${node.elements.length} values (${node.elements.map(typeText).join(', ')})`;
  if (node.kind === 'struct') return `a JSON object with ${node.fields.map((f) => f.name).join(', ')}`;
  return typeText(node);
}

function integerText(input: unknown, param: string, type: string): string {
  if (typeof input === 'bigint') return input.toString();
  if (typeof input === 'number') {
    if (!Number.isSafeInteger(input)) {
      throw new ArgumentError(
        `parameter '${param}' (${type}): ${input} is not an exact integer; pass large numbers as strings`,
        param,
      );
    }
    return String(input);
  }
  if (typeof input === 'string') return input.trim().replace(/_/g, '');
  throw new ArgumentError(`parameter '${param}' (${type}): expected an integer, got ${typeof input}`, param);
}

function encodePrimitive(
  type: PrimitiveType | 'contract',
  input: unknown,
  param: string,
  name: string,
): ApiVal {
  switch (type) {
    case 'U256': {
      const s = integerText(input, param, 'U256');
      if (!/^\d+$/.test(s)) {
        throw new ArgumentError(
          `parameter '${param}' (U256): '${s.slice(0, 80)}' is not a non-negative integer`,
          param,
        );
      }
      const v = BigInt(s);
      if (v > U256_MAX) throw new ArgumentError(`parameter '${param}' (U256): must be below 2^256`, param);
      return { type: 'U256', value: v.toString() };
    }
    case 'I256': {
      const s = integerText(input, param, 'I256');
      if (!/^[-+]?\d+$/.test(s)) {
        throw new ArgumentError(`parameter '${param}' (I256): '${s.slice(0, 80)}' is not an integer`, param);
      }
      const v = BigInt(s);
      if (v < I256_MIN || v > I256_MAX) {
        throw new ArgumentError(`parameter '${param}' (I256): must be within -2^255 .. 2^255-1`, param);
      }
      return { type: 'I256', value: v.toString() };
    }
    case 'Bool': {
      const s = typeof input === 'string' ? input.trim() : input;
      if (s === true || s === 'true') return { type: 'Bool', value: true };
      if (s === false || s === 'false') return { type: 'Bool', value: false };
      throw new ArgumentError(`parameter '${param}' (Bool): expected true or false`, param);
    }
    case 'ByteVec': {
      if (typeof input !== 'string') {
        throw new ArgumentError(`parameter '${param}' (ByteVec): expected a hex string`, param);
      }
      // Users paste hex from many tools; a 0x prefix is unambiguous here, so it is accepted and dropped.
      const hex = input.trim().replace(/^0x/i, '');
      if (!/^[0-9a-fA-F]*$/.test(hex)) {
        throw new ArgumentError(`parameter '${param}' (ByteVec): '${hex.slice(0, 80)}' is not hex`, param);
      }
      if (hex.length % 2 !== 0) {
        throw new ArgumentError(
          `parameter '${param}' (ByteVec): hex needs an even number of digits, got ${hex.length}`,
          param,
        );
      }
      return { type: 'ByteVec', value: hex.toLowerCase() };
    }
    case 'Address': {
      const a = typeof input === 'string' ? input.trim() : '';
      if (!isValidAddress(a)) {
        let why = 'expected a base58 address';
        try {
          parseAddress(a);
        } catch (e) {
          why = (e as Error).message;
        }
        throw new ArgumentError(`parameter '${param}' (Address): ${why}`, param);
      }
      return { type: 'Address', value: a };
    }
    case 'contract': {
      // A contract-typed parameter is the contract id on the wire; a contract address is friendlier to
      // type, so both are accepted.
      const s = typeof input === 'string' ? input.trim().replace(/^0x/i, '') : '';
      if (/^[0-9a-fA-F]{64}$/.test(s)) return { type: 'ByteVec', value: s.toLowerCase() };
      try {
        return { type: 'ByteVec', value: contractIdFromAddress(s) };
      } catch {
        throw new ArgumentError(
          `parameter '${param}' (${name}): expected a contract address or a 32-byte contract id in hex`,
          param,
        );
      }
    }
  }
}

function encodeNode(node: TypeNode, input: unknown, param: string, out: ApiVal[]): void {
  if (
    (node.kind === 'array' || node.kind === 'tuple' || node.kind === 'struct') &&
    typeof input === 'string'
  ) {
    try {
      input = JSON.parse(input);
    } catch {
      throw new ArgumentError(`parameter '${param}' (${typeText(node)}): expected ${describe(node)}`, param);
    }
  }
  switch (node.kind) {
    case 'primitive':
      out.push(encodePrimitive(node.type, input, param, node.type));
      return;
    case 'contract':
      out.push(encodePrimitive('contract', input, param, node.name));
      return;
    case 'array': {
      if (!Array.isArray(input) || input.length !== node.size) {
        const got = Array.isArray(input) ? `${input.length} element(s)` : typeof input;
        throw new ArgumentError(
          `parameter '${param}' (${node.text}): expected ${describe(node)}, got ${got}`,
          param,
        );
      }
      const inner: ApiVal[] = [];
      input.forEach((el, k) => encodeNode(node.element, el, `${param}[${k}]`, inner));
      out.push({ type: 'Array', value: inner });
      return;
    }
    case 'tuple': {
      if (!Array.isArray(input) || input.length !== node.elements.length) {
        throw new ArgumentError(`parameter '${param}' (${node.text}): expected ${describe(node)}`, param);
      }
      // Like a struct, a tuple has no Val of its own: its elements, flattened in order.
      node.elements.forEach((e, k) => encodeNode(e, input[k], `${param}.${k}`, out));
      return;
    }
    case 'struct': {
      if (typeof input !== 'object' || input === null || Array.isArray(input)) {
        throw new ArgumentError(`parameter '${param}' (${node.name}): expected ${describe(node)}`, param);
      }
      const obj = input as Record<string, unknown>;
      const extra = Object.keys(obj).filter((k) => !node.fields.some((f) => f.name === k));
      if (extra.length > 0) {
        throw new ArgumentError(
          `parameter '${param}' (${node.name}): unknown field(s) ${extra.join(', ')}`,
          param,
        );
      }
      // The node's Val has no struct form: a struct argument is its fields, flattened in order.
      for (const f of node.fields) {
        if (!(f.name in obj)) {
          throw new ArgumentError(`parameter '${param}' (${node.name}): missing field '${f.name}'`, param);
        }
        encodeNode(f.type, obj[f.name], `${param}.${f.name}`, out);
      }
      return;
    }
  }
}

/**
 * Turns user input (strings typed in a prompt, or already-typed JSON values) into call arguments.
 * Errors name the parameter and what was expected, so the prompt can say exactly what to fix.
 */
export function encodeArgs(
  paramTypes: readonly string[],
  inputs: readonly unknown[],
  options: EncodeOptions = {},
): ApiVal[] {
  if (inputs.length !== paramTypes.length) {
    throw new ArgumentError(
      `expected ${paramTypes.length} argument(s) (${paramTypes.join(', ') || 'none'}), got ${inputs.length}`,
      '(arguments)',
    );
  }
  const map = structMap(options.structs);
  const out: ApiVal[] = [];
  paramTypes.forEach((type, i) => {
    const param = options.paramNames?.[i] ?? `#${i}`;
    let node: TypeNode;
    try {
      node = parseType(type, map);
    } catch (e) {
      throw new ArgumentError(`parameter '${param}': ${(e as Error).message}`, param);
    }
    encodeNode(node, inputs[i], param, out);
  });
  return out;
}

/** Renders a decoded value on one line (arrays `[a, b]`, structs `Name{x: 1}`). */
export function formatValue(value: DecodedValue, maxLength = Infinity): string {
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'string') {
    if (value.length <= maxLength || maxLength < 10) return value;
    // Keep both ends: addresses and ids are recognised by their start and end.
    const keep = Math.max(3, Math.floor((maxLength - 1) / 2));
    return `${value.slice(0, keep)}…${value.slice(-keep)}`;
  }
  if (isList(value)) return `[${value.map((v) => formatValue(v, maxLength)).join(', ')}]`;
  const s = value;
  return `${s.struct}{${s.fields.map((f) => `${f.name}: ${formatValue(f.value, maxLength)}`).join(', ')}}`;
}
