/**
 * Unsigned transaction <-> bytes, in the node's JSON shape (`/transactions/decode-unsigned-tx`).
 *
 * Why decode locally at all: the gateway returns `unsignedTx` hex plus a `txId`, and the only thing
 * we sign is that txId. Recomputing txId = Blake2b(unsignedTx) and showing the decoded outputs is what
 * stops a compromised or buggy gateway from getting a signature for something else.
 */
import { Reader, Writer } from './codec';
import {
  TOTAL_NUMBER_OF_GROUPS,
  addressFromLockupScript,
  groupOfAddress,
  groupOfHint,
  parseAddress,
  readLockupScriptBytes,
  scriptHintOfLockupScript,
} from './address';
import { ProtocolError, preview } from './errors';
import { blake2b256 } from './hash';
import { bytesToHex, concatBytes, equalBytes, hexToBytes, hexToFixedBytes } from './hex';
import { readScriptBytes, skipP2shParams } from './script';
import { parseAtto } from './units';

export interface DecodedOutputRef {
  hint: number;
  key: string;
}

export interface DecodedInput {
  outputRef: DecodedOutputRef;
  /** Hex including the unlock script's tag byte (00 P2PKH, 01 P2MPKH, 02 P2SH, 03 SameAsPrevious...). */
  unlockScript: string;
}

export interface DecodedToken {
  id: string;
  amount: string;
}

export interface DecodedFixedOutput {
  hint: number;
  key: string;
  attoAlphAmount: string;
  address: string;
  tokens: DecodedToken[];
  lockTime: number;
  message: string;
}

export interface DecodedUnsignedTx {
  txId: string;
  version: number;
  networkId: number;
  /** Script hex *without* the Option tag, as the node API returns it; absent for transfers. */
  scriptOpt?: string;
  gasAmount: number;
  gasPrice: string;
  inputs: DecodedInput[];
  fixedOutputs: DecodedFixedOutput[];
}

/** What {@link encodeUnsignedTx} needs: output hint/key are derived data and are ignored if present. */
export type UnsignedTxInput = Omit<DecodedUnsignedTx, 'txId' | 'fixedOutputs'> & {
  txId?: string;
  fixedOutputs: (Omit<DecodedFixedOutput, 'hint' | 'key'> & { hint?: number; key?: string })[];
};

/** Unlock script tags (node `vm/UnlockScript.scala`). */
export const UNLOCK_SCRIPT_TAGS = {
  P2PKH: 0,
  P2MPKH: 1,
  P2SH: 2,
  SameAsPrevious: 3,
  PoLW: 4,
  P2PK: 5,
  P2HMPK: 6,
} as const;

const PUBLIC_KEY_LIKE_SIZE = [33, 33, 32, 33];

/** Reads an unlock script at the reader's position and returns its exact bytes (tag included). */
function readUnlockScript(r: Reader, where: string): Uint8Array {
  const start = r.offset;
  const tag = r.u8(`${where} unlock script tag`);
  switch (tag) {
    case UNLOCK_SCRIPT_TAGS.P2PKH:
    case UNLOCK_SCRIPT_TAGS.PoLW:
      r.bytes(33, `${where} public key`);
      break;
    case UNLOCK_SCRIPT_TAGS.P2MPKH: {
      const n = r.length(`${where} P2MPKH keys`, 34);
      for (let i = 0; i < n; i++) {
        r.bytes(33, `${where} P2MPKH public key ${i}`);
        r.i32(`${where} P2MPKH key index ${i}`);
      }
      break;
    }
    case UNLOCK_SCRIPT_TAGS.SameAsPrevious:
    case UNLOCK_SCRIPT_TAGS.P2PK:
      break;
    case UNLOCK_SCRIPT_TAGS.P2HMPK: {
      const n = r.length(`${where} P2HMPK public keys`, 33);
      for (let i = 0; i < n; i++) {
        const kind = r.u8(`${where} P2HMPK key kind ${i}`);
        const size = PUBLIC_KEY_LIKE_SIZE[kind];
        if (size === undefined)
          throw new ProtocolError(`${where}: unknown public key kind ${kind} in P2HMPK unlock script`);
        r.bytes(size, `${where} P2HMPK public key ${i}`);
      }
      const m = r.length(`${where} P2HMPK key indexes`);
      for (let i = 0; i < m; i++) r.i32(`${where} P2HMPK key index ${i}`);
      break;
    }
    case UNLOCK_SCRIPT_TAGS.P2SH:
      readScriptBytes(r, `${where} P2SH script`);
      skipP2shParams(r, where);
      break;
    default:
      throw new ProtocolError(
        `${where}: unknown unlock script tag 0x${tag.toString(16).padStart(2, '0')} at byte ${start}`,
      );
  }
  return r.data.slice(start, r.offset);
}

function validateUnlockScript(hex: string, where: string): Uint8Array {
  const bytes = hexToBytes(hex, `${where}.unlockScript`);
  if (bytes.length === 0) throw new ProtocolError(`${where}.unlockScript is empty`);
  const r = new Reader(bytes);
  readUnlockScript(r, where);
  if (!r.atEnd())
    throw new ProtocolError(`${where}.unlockScript has ${r.remaining} unexpected trailing byte(s)`);
  return bytes;
}

function int4Bytes(v: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, v >>> 0, false);
  return b;
}

/** Output key = Blake2b(txId || 4-byte big-endian output index). */
export function outputKey(txIdHex: string, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index > 0xffffffff)
    throw new ProtocolError(`Output index ${index} is invalid`);
  return bytesToHex(
    blake2b256(concatBytes(hexToFixedBytes(txIdHex, 32, 'Transaction id'), int4Bytes(index))),
  );
}

function checkInt(v: unknown, field: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new ProtocolError(`${field} must be an integer in ${min}..${max}, got ${String(v)}`);
  }
  return v;
}

/** Serializes a transaction (node JSON shape) to hex. Hints/keys of outputs are not part of the bytes. */
export function encodeUnsignedTx(tx: UnsignedTxInput): string {
  return bytesToHex(encodeUnsignedTxBytes(tx));
}

export function encodeUnsignedTxBytes(tx: UnsignedTxInput): Uint8Array {
  const w = new Writer();
  w.u8(checkInt(tx.version, 'version', 0, 255));
  w.u8(checkInt(tx.networkId, 'networkId', 0, 255));
  if (tx.scriptOpt === undefined || tx.scriptOpt === null || tx.scriptOpt === '') {
    w.u8(0);
  } else {
    // The API omits the Option tag; the script itself is self-delimiting, so it goes in verbatim
    // (not validated here, so a script with opcodes newer than ours can still be re-encoded).
    w.u8(1).bytes(hexToBytes(tx.scriptOpt, 'scriptOpt'));
  }
  w.i32(checkInt(tx.gasAmount, 'gasAmount', 0, 2 ** 31 - 1));
  w.u256(parseAtto(tx.gasPrice, 'gasPrice'));
  if (!Array.isArray(tx.inputs)) throw new ProtocolError('inputs must be an array');
  w.i32(tx.inputs.length);
  tx.inputs.forEach((input, i) => {
    const where = `inputs[${i}]`;
    w.int4(checkInt(input.outputRef?.hint, `${where}.outputRef.hint`, -(2 ** 31), 2 ** 31 - 1));
    w.bytes(hexToFixedBytes(input.outputRef.key, 32, `${where}.outputRef.key`));
    w.bytes(validateUnlockScript(input.unlockScript, where));
  });
  if (!Array.isArray(tx.fixedOutputs)) throw new ProtocolError('fixedOutputs must be an array');
  w.i32(tx.fixedOutputs.length);
  tx.fixedOutputs.forEach((o, i) => {
    const where = `fixedOutputs[${i}]`;
    w.u256(parseAtto(o.attoAlphAmount, `${where}.attoAlphAmount`));
    let parsed;
    try {
      parsed = parseAddress(o.address);
    } catch (e) {
      throw new ProtocolError(`${where}.address: ${(e as Error).message}`);
    }
    if (parsed.type === 'P2C')
      throw new ProtocolError(
        `${where}.address is a contract address; asset outputs cannot be locked to a contract`,
      );
    w.bytes(parsed.lockupScript);
    w.u64(checkInt(o.lockTime, `${where}.lockTime`, 0, Number.MAX_SAFE_INTEGER));
    if (!Array.isArray(o.tokens)) throw new ProtocolError(`${where}.tokens must be an array`);
    w.i32(o.tokens.length);
    o.tokens.forEach((t, j) => {
      w.bytes(hexToFixedBytes(t.id, 32, `${where}.tokens[${j}].id`));
      w.u256(parseAtto(t.amount, `${where}.tokens[${j}].amount`));
    });
    w.byteString(hexToBytes(o.message ?? '', `${where}.message`));
  });
  return w.finish();
}

/** txId = Blake2b-256 of the exact unsigned-tx bytes. */
export function txIdFromUnsignedTx(hex: string): string {
  return bytesToHex(blake2b256(hexToBytes(hex, 'Unsigned transaction')));
}

/**
 * Decodes unsigned-tx hex into the node's JSON shape, computing txId, output hints and keys.
 * Script transactions and P2SH inputs are delimited by walking their instructions (see script.ts);
 * an unknown opcode is a ProtocolError rather than a guess.
 * The result is checked to re-encode to the same bytes: the node hashes its own re-serialization, so a
 * non-canonical encoding would make our txId differ from the node's.
 */
export function decodeUnsignedTx(hex: string): DecodedUnsignedTx {
  const bytes = hexToBytes(hex, 'Unsigned transaction');
  if (bytes.length === 0) throw new ProtocolError('Unsigned transaction is empty');
  if (bytes.length < MIN_UNSIGNED_TX_BYTES)
    throw new ProtocolError(
      `Not an unsigned transaction: ${bytes.length} byte(s), and the shortest one has ${MIN_UNSIGNED_TX_BYTES} (version, network id, script flag, gas amount, gas price, input and output counts)`,
    );
  try {
    return decodeFields(bytes);
  } catch (error) {
    // Bytes that end before the transaction does are something else pasted, or a transaction cut short.
    if (error instanceof ProtocolError && error.message.startsWith('Unexpected end of data'))
      throw new ProtocolError(`Not an unsigned transaction, or a truncated one: ${error.message}`);
    throw error;
  }
}

/**
 * The fewest bytes an unsigned transaction can have: version, network id and script flag (one byte each),
 * gas amount and gas price (one byte each at the least, compact integers), and the input and output counts.
 */
export const MIN_UNSIGNED_TX_BYTES = 7;

function decodeFields(bytes: Uint8Array): DecodedUnsignedTx {
  const r = new Reader(bytes);
  const version = r.u8('version');
  const networkId = r.u8('networkId');
  const scriptTag = r.u8('scriptOpt tag');
  if (scriptTag === 1) {
    // The script has no length prefix; walking its instructions is the only way to find its end.
    return decodeRest(r, bytes, version, networkId, bytesToHex(readScriptBytes(r, 'scriptOpt')));
  }
  if (scriptTag !== 0)
    throw new ProtocolError(
      `Unsigned transaction has an invalid scriptOpt tag 0x${scriptTag.toString(16)} at byte 2`,
    );
  return decodeRest(r, bytes, version, networkId, undefined);
}

function decodeRest(
  r: Reader,
  bytes: Uint8Array,
  version: number,
  networkId: number,
  scriptOpt: string | undefined,
): DecodedUnsignedTx {
  const gasAmount = r.i32('gasAmount');
  if (gasAmount < 0) throw new ProtocolError(`gasAmount is negative (${gasAmount})`);
  const gasPrice = r.u256('gasPrice').toString();
  const inputs: DecodedInput[] = [];
  const nIn = r.length('inputs', 37);
  for (let i = 0; i < nIn; i++) {
    const where = `inputs[${i}]`;
    const hint = r.int4(`${where} hint`);
    const key = r.hex(32, `${where} key`);
    const unlockScript = bytesToHex(readUnlockScript(r, where));
    inputs.push({ outputRef: { hint, key }, unlockScript });
  }
  const raw: Omit<DecodedFixedOutput, 'hint' | 'key'>[] = [];
  const hints: number[] = [];
  const nOut = r.length('fixedOutputs', 15);
  for (let i = 0; i < nOut; i++) {
    const where = `fixedOutputs[${i}]`;
    const amount = r.u256(`${where} amount`);
    const lockup = readLockupScriptBytes(r, where);
    if (lockup[0] === 3)
      throw new ProtocolError(`${where}: asset outputs cannot be locked to a contract (P2C)`);
    const lockTime = r.u64(`${where} lockTime`);
    if (lockTime > BigInt(Number.MAX_SAFE_INTEGER))
      throw new ProtocolError(`${where}: lockTime ${lockTime} is out of range`);
    const tokens: DecodedToken[] = [];
    const nTok = r.length(`${where} tokens`, 33);
    for (let j = 0; j < nTok; j++) {
      const id = r.hex(32, `${where} token ${j} id`);
      tokens.push({ id, amount: r.u256(`${where} token ${j} amount`).toString() });
    }
    const message = bytesToHex(r.byteString(`${where} message`));
    hints.push(scriptHintOfLockupScript(lockup));
    raw.push({
      attoAlphAmount: amount.toString(),
      address: addressFromLockupScript(lockup),
      tokens,
      lockTime: Number(lockTime),
      message,
    });
  }
  if (!r.atEnd())
    throw new ProtocolError(
      `Unsigned transaction has ${r.remaining} unexpected trailing byte(s) at byte ${r.offset}`,
    );

  const txId = bytesToHex(blake2b256(bytes));
  const fixedOutputs = raw.map((o, i) => ({
    hint: hints[i] as number,
    key: outputKey(txId, i),
    attoAlphAmount: o.attoAlphAmount,
    address: o.address,
    tokens: o.tokens,
    lockTime: o.lockTime,
    message: o.message,
  }));
  const decoded: DecodedUnsignedTx = {
    txId,
    version,
    networkId,
    ...(scriptOpt === undefined ? {} : { scriptOpt }),
    gasAmount,
    gasPrice,
    inputs,
    fixedOutputs,
  };
  if (!equalBytes(encodeUnsignedTxBytes(decoded), bytes)) {
    throw new ProtocolError(
      'Unsigned transaction uses a non-canonical encoding (re-encoding gives different bytes), so its txId would not match the node',
    );
  }
  return decoded;
}

/**
 * fromGroup = group of inputs[0]'s hint; toGroup = group of the first fixed output in another group,
 * else fromGroup (node `UnsignedTransaction.fromGroup/toGroup`).
 */
export function groupsOfUnsignedTx(decoded: Pick<DecodedUnsignedTx, 'inputs' | 'fixedOutputs'>): {
  fromGroup: number;
  toGroup: number;
} {
  const first = decoded.inputs[0];
  if (first === undefined) throw new ProtocolError('Transaction has no inputs, so it has no source group');
  const fromGroup = groupOfHint(first.outputRef.hint);
  for (const o of decoded.fixedOutputs) {
    const g = groupOfAddress(o.address);
    if (g !== fromGroup) return { fromGroup, toGroup: g % TOTAL_NUMBER_OF_GROUPS };
  }
  return { fromGroup, toGroup: fromGroup };
}

/** Unlock script of a P2PKH input: tag 00 followed by the 33-byte compressed public key. */
export function p2pkhUnlockScript(publicKeyHex: string): string {
  const pub = hexToFixedBytes(publicKeyHex, 33, 'Public key');
  if (pub[0] !== 2 && pub[0] !== 3)
    throw new ProtocolError(`Public key '${preview(publicKeyHex)}' is not a compressed secp256k1 key`);
  return `00${bytesToHex(pub)}`;
}

/** The public key revealed by a P2PKH unlock script, or undefined for other unlock types. */
export function publicKeyOfUnlockScript(hex: string): string | undefined {
  if (typeof hex !== 'string' || hex.length !== 68 || !hex.startsWith('00')) return undefined;
  try {
    return bytesToHex(hexToBytes(hex.slice(2)));
  } catch {
    return undefined;
  }
}
