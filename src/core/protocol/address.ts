/**
 * Alephium addresses <-> lockup scripts, groups and script hints.
 *
 * An address is base58 (Bitcoin alphabet) of the serialized lockup script, with no extra checksum,
 * except the Danube "groupless" types (P2PK, P2HMPK): they carry a 4-byte DJB2 checksum inside the
 * base58 part and their group byte travels outside it as a ":g" suffix.
 */
import { base58 } from '@scure/base';
import { Reader, encodeI32 } from './codec';
import { ProtocolError, preview } from './errors';
import { blake2b256, djb2, xorFold } from './hash';
import { bytesToHex, concatBytes, hexToBytes, hexToFixedBytes } from './hex';

export type AddressType = 'P2PKH' | 'P2MPKH' | 'P2SH' | 'P2C' | 'P2PK' | 'P2HMPK';

export const TOTAL_NUMBER_OF_GROUPS = 4;

const TYPE_BY_PREFIX: readonly AddressType[] = ['P2PKH', 'P2MPKH', 'P2SH', 'P2C', 'P2PK', 'P2HMPK'];
const PREFIX: Record<AddressType, number> = { P2PKH: 0, P2MPKH: 1, P2SH: 2, P2C: 3, P2PK: 4, P2HMPK: 5 };

/** PublicKeyLike kinds (Danube) and their key sizes: SecP256K1, SecP256R1, ED25519, WebAuthn. */
export const PUBLIC_KEY_LIKE_KINDS = ['SecP256K1', 'SecP256R1', 'ED25519', 'WebAuthn'] as const;
export type PublicKeyLikeKind = (typeof PUBLIC_KEY_LIKE_KINDS)[number];
const PUBLIC_KEY_LIKE_SIZE = [33, 33, 32, 33] as const;

export interface ParsedAddress {
  type: AddressType;
  /** The full serialized lockup script (for groupless types, including the group byte). */
  lockupScript: Uint8Array;
  group: number;
}

/** Structured view of a lockup script, for callers that need the parts (hash, key, m-of-n). */
export type LockupScriptInfo =
  | { type: 'P2PKH'; hash: Uint8Array }
  | { type: 'P2MPKH'; hashes: Uint8Array[]; m: number }
  | { type: 'P2SH'; hash: Uint8Array }
  | { type: 'P2C'; contractId: Uint8Array }
  | { type: 'P2PK'; kind: PublicKeyLikeKind; publicKey: Uint8Array; group: number }
  | { type: 'P2HMPK'; hash: Uint8Array; group: number };

function be4(v: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setInt32(0, v | 0, false);
  return b;
}

function checkGroup(group: number, where: string): number {
  if (!Number.isInteger(group) || group < 0 || group >= TOTAL_NUMBER_OF_GROUPS) {
    throw new ProtocolError(`${where}: group ${group} is out of range 0..${TOTAL_NUMBER_OF_GROUPS - 1}`);
  }
  return group;
}

/**
 * Reads one lockup script from `r`. `where` prefixes error messages. For groupless types the group
 * byte is read too unless `withGroup` is false (the base58 part of an address has no group byte).
 */
function readLockupScript(r: Reader, where: string, withGroup = true): LockupScriptInfo {
  if (r.atEnd()) throw new ProtocolError(`${where}: lockup script is empty`);
  const prefix = r.u8('lockup script type');
  const type = TYPE_BY_PREFIX[prefix];
  if (type === undefined) {
    throw new ProtocolError(
      `${where}: unknown lockup script type prefix 0x${prefix.toString(16).padStart(2, '0')}`,
    );
  }
  const need = (n: number, what: string): Uint8Array => {
    if (r.remaining < n) {
      throw new ProtocolError(
        `${where}: ${type} ${what} needs ${n} bytes, only ${r.remaining} present (wrong length)`,
      );
    }
    return r.bytes(n, what);
  };
  switch (type) {
    case 'P2PKH':
      return { type, hash: need(32, 'public key hash') };
    case 'P2SH':
      return { type, hash: need(32, 'script hash') };
    case 'P2C':
      return { type, contractId: need(32, 'contract id') };
    case 'P2MPKH': {
      const n = r.i32('P2MPKH key count');
      if (n <= 0)
        throw new ProtocolError(`${where}: P2MPKH has ${n} public key hashes; at least 1 is required`);
      if (n * 32 > r.remaining)
        throw new ProtocolError(`${where}: P2MPKH declares ${n} keys but is too short (wrong length)`);
      const hashes: Uint8Array[] = [];
      for (let i = 0; i < n; i++) hashes.push(r.bytes(32, `P2MPKH key hash ${i}`));
      const m = r.i32('P2MPKH threshold m');
      if (m <= 0 || m > n)
        throw new ProtocolError(`${where}: P2MPKH threshold m=${m} is invalid for n=${n} keys`);
      return { type, hashes, m };
    }
    case 'P2PK': {
      const kindByte = need(1, 'public key kind')[0] as number;
      const kind = PUBLIC_KEY_LIKE_KINDS[kindByte];
      const size = PUBLIC_KEY_LIKE_SIZE[kindByte as 0 | 1 | 2 | 3];
      if (kind === undefined || size === undefined) {
        throw new ProtocolError(`${where}: unknown P2PK public key kind ${kindByte}`);
      }
      const publicKey = need(size, `${kind} public key`);
      verifyChecksum(concatBytes(Uint8Array.of(kindByte), publicKey), need(4, 'checksum'), where);
      const group = withGroup ? checkGroup(need(1, 'group byte')[0] as number, where) : -1;
      return { type, kind, publicKey, group };
    }
    case 'P2HMPK': {
      const hash = need(32, 'multisig hash');
      verifyChecksum(hash, need(4, 'checksum'), where);
      const group = withGroup ? checkGroup(need(1, 'group byte')[0] as number, where) : -1;
      return { type, hash, group };
    }
  }
}

function verifyChecksum(payload: Uint8Array, checksum: Uint8Array, where: string): void {
  const expected = be4(djb2(payload));
  for (let i = 0; i < 4; i++) {
    if (expected[i] !== checksum[i]) {
      throw new ProtocolError(
        `${where}: bad checksum (expected ${bytesToHex(expected)}, found ${bytesToHex(checksum)}); the address is mistyped or corrupted`,
      );
    }
  }
}

function serializeLockupScript(info: LockupScriptInfo, withGroup = true): Uint8Array {
  const p = Uint8Array.of(PREFIX[info.type]);
  switch (info.type) {
    case 'P2PKH':
    case 'P2SH':
      return concatBytes(p, info.hash);
    case 'P2C':
      return concatBytes(p, info.contractId);
    case 'P2MPKH':
      return concatBytes(p, encodeI32(info.hashes.length), ...info.hashes, encodeI32(info.m));
    case 'P2PK': {
      const kindKey = concatBytes(Uint8Array.of(PUBLIC_KEY_LIKE_KINDS.indexOf(info.kind)), info.publicKey);
      const g = withGroup ? Uint8Array.of(info.group) : new Uint8Array(0);
      return concatBytes(p, kindKey, be4(djb2(kindKey)), g);
    }
    case 'P2HMPK': {
      const g = withGroup ? Uint8Array.of(info.group) : new Uint8Array(0);
      return concatBytes(p, info.hash, be4(djb2(info.hash)), g);
    }
  }
}

/** Decodes a complete serialized lockup script; trailing bytes are an error. */
export function decodeLockupScript(bytes: Uint8Array, where = 'Lockup script'): LockupScriptInfo {
  const r = new Reader(bytes);
  const info = readLockupScript(r, where);
  if (!r.atEnd())
    throw new ProtocolError(`${where}: ${r.remaining} unexpected trailing byte(s) (wrong length)`);
  return info;
}

/** Reads a lockup script embedded in a larger structure (transaction outputs). */
export function readLockupScriptBytes(r: Reader, where: string): Uint8Array {
  const start = r.offset;
  readLockupScript(r, where);
  return r.data.slice(start, r.offset);
}

function groupOfInfo(info: LockupScriptInfo): number {
  switch (info.type) {
    case 'P2PKH':
    case 'P2SH':
      return xorFold(djb2(info.hash) | 1) % TOTAL_NUMBER_OF_GROUPS;
    case 'P2MPKH':
      // The node uses the first key's hash for the whole multisig.
      return xorFold(djb2(info.hashes[0] as Uint8Array) | 1) % TOTAL_NUMBER_OF_GROUPS;
    case 'P2C':
      // The node writes the group into the last byte of every contract id (Leman+).
      return (info.contractId[31] as number) % TOTAL_NUMBER_OF_GROUPS;
    case 'P2PK':
    case 'P2HMPK':
      return info.group % TOTAL_NUMBER_OF_GROUPS;
  }
}

/**
 * Hint for a hash whose lockup carries an explicit group: the top byte is adjusted so the hint's
 * xor-fold equals the group, which keeps "group = xorFold(hint) % 4" valid for groupless outputs.
 */
function groupedHint(raw: Uint8Array, group: number): number {
  const h = djb2(raw) | 1;
  const top = ((h >>> 24) ^ xorFold(h) ^ group) & 0xff;
  return (top << 24) | (h & 0x00ffffff) | 1 | 0;
}

function hintOfInfo(info: LockupScriptInfo): number {
  switch (info.type) {
    case 'P2PKH':
    case 'P2SH':
      return djb2(info.hash) | 1;
    case 'P2MPKH':
      return djb2(info.hashes[0] as Uint8Array) | 1;
    case 'P2C':
      return djb2(info.contractId) | 1;
    case 'P2PK':
      return groupedHint(info.publicKey, info.group);
    case 'P2HMPK':
      return groupedHint(info.hash, info.group);
  }
}

/**
 * The script hint of a lockup script as a signed int32, as the node prints `hint` in JSON
 * (asset outputs and inputs). Contract outputs use this value XOR 1; see {@link contractHint}.
 */
export function scriptHintOfLockupScript(bytes: Uint8Array): number {
  return hintOfInfo(decodeLockupScript(bytes));
}

/** Hint of a contract output/input: the contract's script hint with the low bit cleared (even). */
export function contractHint(contractIdHex: string): number {
  const id = hexToFixedBytes(contractIdHex, 32, 'Contract id');
  return (djb2(id) | 1) ^ 1;
}

/** Group (0..3) of a serialized lockup script. */
export function groupOfLockupScript(bytes: Uint8Array): number {
  return groupOfInfo(decodeLockupScript(bytes));
}

/** Group encoded in a hint: the node derives fromGroup from inputs[0].hint this way. */
export function groupOfHint(hint: number): number {
  return xorFold(hint) % TOTAL_NUMBER_OF_GROUPS;
}

/**
 * Parses any address type. Groupless addresses (P2PK, P2HMPK) accept an explicit ":g" suffix;
 * without it the group defaults to the last byte of the raw key/hash mod 4, as the node's API does.
 */
export function parseAddress(address: string): ParsedAddress {
  if (typeof address !== 'string') throw new ProtocolError('Address must be a string');
  if (address.length === 0) throw new ProtocolError('Address is empty');
  const shown = preview(address);
  if (/\s/.test(address)) throw new ProtocolError(`Address '${shown}' contains whitespace`);
  const colon = address.indexOf(':');
  let base = address;
  let explicitGroup: number | undefined;
  if (colon >= 0) {
    base = address.slice(0, colon);
    const suffix = address.slice(colon + 1);
    if (!/^\d+$/.test(suffix))
      throw new ProtocolError(`Address '${shown}' has an invalid group suffix ':${preview(suffix, 10)}'`);
    explicitGroup = Number(suffix);
    if (explicitGroup >= TOTAL_NUMBER_OF_GROUPS) {
      throw new ProtocolError(
        `Address '${shown}': group ${suffix} is out of range 0..${TOTAL_NUMBER_OF_GROUPS - 1}`,
      );
    }
    if (base.length === 0) throw new ProtocolError(`Address '${shown}' is empty before the group suffix`);
  }
  let decoded: Uint8Array;
  try {
    decoded = base58.decode(base);
  } catch {
    const bad = [...base].find((c) => !BASE58_ALPHABET.includes(c));
    throw new ProtocolError(
      `Address '${shown}' is not valid base58${bad === undefined ? '' : ` (character '${bad}' is not allowed)`}`,
    );
  }
  const where = `Address '${shown}'`;
  const r = new Reader(decoded);
  const info = readLockupScript(r, where, false);
  if (!r.atEnd())
    throw new ProtocolError(`${where}: ${r.remaining} unexpected trailing byte(s) (wrong length)`);
  if (info.type === 'P2PK' || info.type === 'P2HMPK') {
    const raw = info.type === 'P2PK' ? info.publicKey : info.hash;
    info.group = explicitGroup ?? (raw[raw.length - 1] as number) % TOTAL_NUMBER_OF_GROUPS;
  } else if (explicitGroup !== undefined) {
    throw new ProtocolError(
      `${where}: only groupless (P2PK/P2HMPK) addresses take a ':group' suffix, this is ${info.type}`,
    );
  }
  return { type: info.type, lockupScript: serializeLockupScript(info), group: groupOfInfo(info) };
}

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function isValidAddress(address: string): boolean {
  try {
    parseAddress(address);
    return true;
  } catch {
    return false;
  }
}

export function addressType(address: string): AddressType {
  return parseAddress(address).type;
}

/** Group 0..3 of an address. For P2C it is the contract id's last byte mod 4 (the node stores the group there). */
export function groupOfAddress(address: string): number {
  return parseAddress(address).group;
}

export function lockupScriptFromAddress(address: string): Uint8Array {
  return parseAddress(address).lockupScript;
}

/** Address string of a serialized lockup script; groupless types get their ":g" suffix. */
export function addressFromLockupScript(bytes: Uint8Array): string {
  const info = decodeLockupScript(bytes);
  if (info.type === 'P2PK' || info.type === 'P2HMPK') {
    return `${base58.encode(serializeLockupScript(info, false))}:${info.group}`;
  }
  return base58.encode(bytes);
}

function compressedSecp256k1(publicKeyHex: string): Uint8Array {
  const pub = hexToFixedBytes(publicKeyHex, 33, 'Public key');
  if (pub[0] !== 2 && pub[0] !== 3) {
    throw new ProtocolError(
      `Public key must be a compressed secp256k1 key starting with 02 or 03, got ${bytesToHex(pub.slice(0, 1))}`,
    );
  }
  return pub;
}

/** P2PKH address of a 33-byte compressed secp256k1 public key (the default key type). */
export function addressFromPublicKey(publicKeyHex: string): string {
  return base58.encode(concatBytes(Uint8Array.of(0), blake2b256(compressedSecp256k1(publicKeyHex))));
}

/**
 * Groupless P2PK (`gl-secp256k1`) address of a compressed secp256k1 key, with an explicit group
 * suffix when `group` is given and the node's default group otherwise.
 */
export function grouplessAddressFromPublicKey(publicKeyHex: string, group?: number): string {
  const pub = compressedSecp256k1(publicKeyHex);
  const g =
    group === undefined
      ? (pub[32] as number) % TOTAL_NUMBER_OF_GROUPS
      : checkGroup(group, 'Groupless address');
  const base = base58.encode(
    serializeLockupScript({ type: 'P2PK', kind: 'SecP256K1', publicKey: pub, group: g }, false),
  );
  return group === undefined ? base : `${base}:${g}`;
}

/** P2SH address of a serialized stateless script. */
export function addressFromScript(scriptBytes: Uint8Array): string {
  return base58.encode(concatBytes(Uint8Array.of(2), blake2b256(scriptBytes)));
}

export function addressFromContractId(contractIdHex: string): string {
  return base58.encode(concatBytes(Uint8Array.of(3), hexToFixedBytes(contractIdHex, 32, 'Contract id')));
}

/** Contract id (hex) of a P2C address; a token id equals its contract id. */
export function contractIdFromAddress(address: string): string {
  const parsed = parseAddress(address);
  if (parsed.type !== 'P2C') {
    throw new ProtocolError(
      `Address '${preview(address)}' is a ${parsed.type} address, not a contract (P2C) address`,
    );
  }
  return bytesToHex(parsed.lockupScript.slice(1));
}

/**
 * Contract id the node assigns to a contract created by tx `txIdHex` at output `outputIndex`
 * (fixedOutputs.length + generated outputs so far): Blake2b(txId || 4-byte BE index) with the last
 * byte replaced by the group. The SDK's `contractIdFromTx` hashes one index byte and is wrong.
 */
export function contractIdFromTx(txIdHex: string, outputIndex: number, group: number): string {
  checkGroup(group, 'Contract id');
  const h = txOutputHash(txIdHex, outputIndex);
  h[31] = group;
  return bytesToHex(h);
}

/** The id before Leman (`ContractId.deprecatedFrom`): the same hash, without the group byte. */
export function contractIdFromTxBeforeLeman(txIdHex: string, outputIndex: number): string {
  return bytesToHex(txOutputHash(txIdHex, outputIndex));
}

function txOutputHash(txIdHex: string, outputIndex: number): Uint8Array {
  return blake2b256(concatBytes(hexToFixedBytes(txIdHex, 32, 'Transaction id'), be4(outputIndex)));
}

/** Sub-contract id: Blake2b(Blake2b(parentId || path)) with the last byte set to the group. */
export function subContractId(parentContractIdHex: string, pathHex: string, group: number): string {
  checkGroup(group, 'Sub-contract id');
  const data = concatBytes(
    hexToFixedBytes(parentContractIdHex, 32, 'Parent contract id'),
    hexToBytes(pathHex, 'Path'),
  );
  const h = blake2b256(blake2b256(data));
  h[31] = group;
  return bytesToHex(h);
}

/** Decodes an address into its parts (hash, key, threshold...). */
export function lockupScriptInfoOfAddress(address: string): LockupScriptInfo {
  return decodeLockupScript(parseAddress(address).lockupScript);
}
