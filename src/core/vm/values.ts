/**
 * The VM's five value types (`Val.scala`): Bool, I256, U256, ByteVec and Address (a serialized lockup
 * script), with their serde (`Val.serde`: a type id byte, then the content), their byte-vector form
 * (`toByteVec`), their debug text (`toDebugString`) and their estimated size (`estimateByteSize`, which
 * field-size and concatenation gas use).
 */
import { base58 } from '@scure/base';
import type { Reader } from '../protocol';
import {
  ProtocolError,
  bytesToHex,
  concatBytes,
  decodeLockupScript,
  encodeCompactSigned,
  encodeCompactUnsigned,
  encodeI32,
  equalBytes,
  readLockupScriptBytes,
} from '../protocol';

export type Val =
  | { readonly type: 'Bool'; readonly value: boolean }
  | { readonly type: 'I256'; readonly value: bigint }
  | { readonly type: 'U256'; readonly value: bigint }
  | { readonly type: 'ByteVec'; readonly value: Uint8Array }
  | { readonly type: 'Address'; readonly value: Uint8Array };

export type ValType = Val['type'];
export type ValOf<T extends ValType> = Extract<Val, { type: T }>;

/** Type ids in `Val.Type.types` order; they prefix every serialized value. */
export const VAL_TYPE_IDS: Readonly<Record<ValType, number>> = {
  Bool: 0,
  I256: 1,
  U256: 2,
  ByteVec: 3,
  Address: 4,
};
const TYPE_BY_ID: readonly ValType[] = ['Bool', 'I256', 'U256', 'ByteVec', 'Address'];

export const vBool = (value: boolean): ValOf<'Bool'> => ({ type: 'Bool', value });
export const vI256 = (value: bigint): ValOf<'I256'> => ({ type: 'I256', value });
export const vU256 = (value: bigint): ValOf<'U256'> => ({ type: 'U256', value });
export const vByteVec = (value: Uint8Array): ValOf<'ByteVec'> => ({ type: 'ByteVec', value });
export const vAddress = (lockupScript: Uint8Array): ValOf<'Address'> => ({
  type: 'Address',
  value: lockupScript,
});

/** Structural equality, as the node's case-class `==` (AddressEq, ByteVecEq, BoolEq, testEqual!). */
export function valEquals(a: Val, b: Val): boolean {
  if (a.type !== b.type) return false;
  if (a.type === 'ByteVec' || a.type === 'Address') return equalBytes(a.value, b.value as Uint8Array);
  return a.value === b.value;
}

/** The value's content serialized without its type id (what `toByteVec` returns). */
export function serializeValContent(v: Val): Uint8Array {
  switch (v.type) {
    case 'Bool':
      return Uint8Array.of(v.value ? 1 : 0);
    case 'I256':
      return encodeCompactSigned(v.value);
    case 'U256':
      return encodeCompactUnsigned(v.value);
    case 'ByteVec':
      return concatBytes(encodeI32(v.value.length), v.value);
    case 'Address':
      return v.value;
  }
}

/** `Val.serde.serialize`: the type id, then the content. */
export function serializeVal(v: Val): Uint8Array {
  return concatBytes(Uint8Array.of(VAL_TYPE_IDS[v.type]), serializeValContent(v));
}

/** `AVector[Val]` serde (what `Encode` pushes): a compact length, then each value. */
export function serializeVals(values: readonly Val[]): Uint8Array {
  return concatBytes(encodeI32(values.length), ...values.map(serializeVal));
}

/** `toByteVec`: Bool, I256 and U256 in their serde form, a ByteVec as it is, an Address as its lockup. */
export function toByteVec(v: Val): Uint8Array {
  return v.type === 'ByteVec' ? v.value : serializeValContent(v);
}

/** `estimateByteSize`: 1 for Bool, 32 for numbers, the length of a ByteVec, 32 per key of an Address. */
export function estimateByteSize(v: Val): number {
  switch (v.type) {
    case 'Bool':
      return 1;
    case 'I256':
    case 'U256':
      return 32;
    case 'ByteVec':
      return v.value.length;
    case 'Address': {
      if (v.value[0] !== 1) return 32;
      const info = decodeLockupScript(v.value);
      return info.type === 'P2MPKH' ? info.hashes.length * 32 : 32;
    }
  }
}

/** `toDebugString`, which `DEBUG` interpolates: numbers in decimal, bytes in hex, addresses in base58. */
export function toDebugString(v: Val): string {
  switch (v.type) {
    case 'Bool':
    case 'I256':
    case 'U256':
      return v.value.toString();
    case 'ByteVec':
      return bytesToHex(v.value);
    case 'Address':
      return base58.encode(v.value);
  }
}

/**
 * The Scala `toString` of a Val as failure texts print it (`U256(5)`, `Bool(true)`); ByteVec and
 * Address print their content the way this project shows bytes (hex, base58), not pekko's
 * `ByteString(1, 2)` list, so such texts differ from the node's in that part only.
 */
export function valToString(v: Val): string {
  return `${v.type}(${toDebugString(v)})`;
}

/** The lockup-script bytes of an `Address` value read from `r`, validated as the node's serde does. */
export function readAddressBytes(r: Reader, where: string): Uint8Array {
  return readLockupScriptBytes(r, where);
}

/** Reads one serialized Val (type id, then content). */
export function readVal(r: Reader): Val {
  const id = r.u8('value type');
  const type = TYPE_BY_ID[id];
  if (type === undefined) throw new ProtocolError(`Invalid type id: ${id}`);
  switch (type) {
    case 'Bool': {
      const b = r.u8('bool');
      if (b > 1) throw new ProtocolError(`Invalid bool byte ${b}`);
      return vBool(b === 1);
    }
    case 'I256':
      return vI256(r.i256('i256 value'));
    case 'U256':
      return vU256(r.u256('u256 value'));
    case 'ByteVec':
      return vByteVec(r.byteString('byte vector'));
    case 'Address':
      return vAddress(readAddressBytes(r, 'Address value'));
  }
}
