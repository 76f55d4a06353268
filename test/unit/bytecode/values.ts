/**
 * Generated field and argument values, per signature type, in the forms both our encoders and
 * @alephium/web3's accept (bigint integers, booleans, hex ByteVecs and contract ids, base58 addresses,
 * arrays for fixed arrays and tuples, objects for structs). Seeded, so a failure reproduces.
 */
import bs58 from 'bs58';
import { type StructsLike, type TypeNode, parseType } from '../../../src/core/artifacts/vals';
import { Rng } from '../protocol/helpers';

export { Rng };

/** A random address of a type every encoder handles (P2PKH, P2SH, P2C, P2MPKH). */
export function randomAddress(rng: Rng, kind = rng.int(0, 3)): string {
  if (kind === 1) {
    const n = rng.int(1, 3);
    const bytes = [1, n, ...Array.from({ length: n }, () => [...rng.bytes(32)]).flat(), rng.int(1, n)];
    return bs58.encode(Uint8Array.from(bytes));
  }
  const prefix = kind === 0 ? 0 : kind === 2 ? 2 : 3;
  return bs58.encode(Uint8Array.from([prefix, ...rng.bytes(32)]));
}

/** A P2PKH address (the only signer kind the SDK's DappTransactionBuilder takes besides P2SH). */
export function randomSigner(rng: Rng): string {
  return bs58.encode(Uint8Array.from([0, ...rng.bytes(32)]));
}

function integer(rng: Rng, signed: boolean): bigint {
  // Small values hit the one-byte constant forms (0..5, -1), the rest every compact width.
  const small = rng.int(0, 3) === 0;
  let v = small ? BigInt(rng.int(0, 7)) : rng.bigint(rng.pick([6, 14, 30, 62, 200, 255]));
  if (signed) {
    if (rng.bool()) v = -v;
    if (v >= 1n << 255n) v = (1n << 255n) - 1n;
    if (v < -(1n << 255n)) v = -(1n << 255n);
  }
  return v;
}

export function valueFor(node: TypeNode, rng: Rng): unknown {
  switch (node.kind) {
    case 'primitive':
      switch (node.type) {
        case 'U256':
          return integer(rng, false);
        case 'I256':
          return integer(rng, true);
        case 'Bool':
          return rng.bool();
        case 'ByteVec':
          return rng.hex(rng.pick([0, 1, 5, 32, 33, 70]));
        case 'Address':
          return randomAddress(rng);
      }
      break;
    case 'contract':
      return rng.hex(32);
    case 'array':
      return Array.from({ length: node.size }, () => valueFor(node.element, rng));
    case 'tuple':
      return node.elements.map((e) => valueFor(e, rng));
    case 'struct': {
      const out: Record<string, unknown> = {};
      for (const f of node.fields) out[f.name] = valueFor(f.type, rng);
      return out;
    }
  }
  throw new Error('unreachable');
}

export function valuesFor(
  names: readonly string[],
  types: readonly string[],
  structs: StructsLike,
  rng: Rng,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  names.forEach((n, i) => (out[n] = valueFor(parseType(types[i] as string, structs), rng)));
  return out;
}
