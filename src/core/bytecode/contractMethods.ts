/**
 * The method table of contract bytecode, read in one place: `fieldLength`, the method count, the end
 * offset of each method, then the methods back to back (as the node's `StatefulContract` serde and the
 * SDK's `contract-codec`). Artifacts do not say which methods are public or what they do; the code does,
 * and every reading of a contract's methods starts here.
 */
import { Reader, hexToBytes } from '../protocol';
import { readMethod, readMethodHeader, type Method, type MethodHeader } from './instructions';

/** Each method's bytes, in order. Throws when the bytes are not contract bytecode. */
export function contractMethodBytes(bytecode: string): Uint8Array[] {
  const r = new Reader(hexToBytes(bytecode, 'contract bytecode'));
  r.i32('fieldLength');
  const count = r.length('methods');
  const ends: number[] = [];
  for (let i = 0; i < count; i++) ends.push(r.i32(`method ${i} end offset`));
  const body = r.data.subarray(r.offset);
  const methods: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < count; i++) {
    const end = ends[i]!;
    if (end < start || end > body.length)
      throw new Error(`method ${i} spans bytes ${start}..${end} of ${body.length}: not contract bytecode`);
    methods.push(body.subarray(start, end));
    start = end;
  }
  if (start !== body.length)
    throw new Error(`${body.length - start} byte(s) after the last method: not contract bytecode`);
  return methods;
}

/** Each method's header (public, asset modifier), without decoding its instructions. */
export function contractMethodHeaders(bytecode: string): MethodHeader[] {
  return contractMethodBytes(bytecode).map((bytes, i) => readMethodHeader(new Reader(bytes), `method ${i}`));
}

/** Each method decoded, instructions included. */
export function contractMethods(bytecode: string): Method[] {
  return contractMethodBytes(bytecode).map((bytes, i) => readMethod(new Reader(bytes), `method ${i}`));
}
