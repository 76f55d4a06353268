/**
 * Test helpers: encode instructions, methods, scripts and contracts by the node's serde rules (the
 * layouts that `decode.ts` documents), and build unsigned txs around a script, so that the stateful
 * tests run bytes, as the chain would, rather than pre-decoded objects.
 */
import {
  addressFromLockupScript,
  blake2b256,
  bytesToHex,
  concatBytes,
  encodeCompactSigned,
  encodeCompactUnsigned,
  encodeI32,
  encodeUnsignedTx,
  hexToBytes,
  scriptHintOfLockupScript,
} from '../../../src/core/protocol';
import { publicKeyFromPrivateKey } from '../../../src/core/protocol/keys';
import { serializeVals, type Instr, type Method, type Val } from '../../../src/core/vm';

function operandBytes(instr: Instr): Uint8Array {
  const op = instr.operand;
  switch (op.kind) {
    case 'none':
      return new Uint8Array();
    case 'byte':
      return Uint8Array.of(op.value);
    case 'i256':
      return encodeCompactSigned(op.value);
    case 'u256':
      return encodeCompactUnsigned(op.value);
    case 'bytes':
      return concatBytes(encodeI32(op.value.length), op.value);
    case 'address':
      return op.value;
    case 'offset':
      return encodeI32(op.value);
    case 'twoBytes':
      return Uint8Array.of(...op.value);
    case 'selector':
      return Uint8Array.of(
        (op.value >>> 24) & 0xff,
        (op.value >>> 16) & 0xff,
        (op.value >>> 8) & 0xff,
        op.value & 0xff,
      );
    case 'devInstr':
      return Uint8Array.of(op.value);
    case 'bytesArray':
      return concatBytes(
        encodeI32(op.value.length),
        ...op.value.map((b) => concatBytes(encodeI32(b.length), b)),
      );
  }
}

export function encodeInstr(instr: Instr): Uint8Array {
  return concatBytes(Uint8Array.of(instr.code), operandBytes(instr));
}

/** Modifier bits: 1 preapproved + contract assets, 2 contract assets, 3 preapproved; 4 payToContractOnly. */
function modifier(m: Method): number {
  const base =
    m.usePreapprovedAssets && m.useContractAssets
      ? 1
      : m.useContractAssets
        ? 2
        : m.usePreapprovedAssets
          ? 3
          : 0;
  return base | (m.usePayToContractOnly ? 4 : 0);
}

export function encodeMethod(m: Method): Uint8Array {
  return concatBytes(
    Uint8Array.of(m.isPublic ? 1 : 0, modifier(m)),
    encodeI32(m.argsLength),
    encodeI32(m.localsLength),
    encodeI32(m.returnLength),
    encodeI32(m.instrs.length),
    ...m.instrs.map(encodeInstr),
  );
}

export function encodeScript(methods: readonly Method[]): Uint8Array {
  return concatBytes(encodeI32(methods.length), ...methods.map(encodeMethod));
}

export function encodeContract(fieldLength: number, methods: readonly Method[]): Uint8Array {
  const bodies = methods.map(encodeMethod);
  let end = 0;
  const ends = bodies.map((b) => (end += b.length));
  return concatBytes(encodeI32(fieldLength), encodeI32(ends.length), ...ends.map(encodeI32), ...bodies);
}

export const fieldsBytes = (fields: readonly Val[]): Uint8Array => serializeVals(fields);

/** A fixed signer (private key 1..1): its P2PKH lockup, address and the unlock script of its inputs. */
const PRIVATE_KEY = '01'.repeat(32);
export const SIGNER_PUBLIC_KEY = publicKeyFromPrivateKey(PRIVATE_KEY);
export const SIGNER_LOCKUP = concatBytes(Uint8Array.of(0), blake2b256(hexToBytes(SIGNER_PUBLIC_KEY)));
export const SIGNER_ADDRESS = addressFromLockupScript(SIGNER_LOCKUP);

export interface TxShape {
  readonly networkId?: number;
  readonly gasAmount?: number;
  readonly inputs?: number;
  readonly fixedOutputs?: number;
}

/** An unsigned tx spending `inputs` outputs of the signer, with change outputs back to it. */
export function unsignedTxOf(script: Uint8Array | undefined, shape: TxShape = {}): string {
  const hint = scriptHintOfLockupScript(SIGNER_LOCKUP);
  const inputs = Array.from({ length: shape.inputs ?? 1 }, (_, i) => ({
    outputRef: { hint, key: bytesToHex(new Uint8Array(32).fill(i + 1)) },
    unlockScript: i === 0 ? `00${SIGNER_PUBLIC_KEY}` : '03',
  }));
  const fixedOutputs = Array.from({ length: shape.fixedOutputs ?? 1 }, () => ({
    attoAlphAmount: '1000000000000000000',
    address: SIGNER_ADDRESS,
    tokens: [],
    lockTime: 0,
    message: '',
  }));
  return encodeUnsignedTx({
    version: 0,
    networkId: shape.networkId ?? 4,
    ...(script === undefined ? {} : { scriptOpt: bytesToHex(script) }),
    gasAmount: shape.gasAmount ?? 50_000,
    gasPrice: '100000000000',
    inputs,
    fixedOutputs,
  });
}
