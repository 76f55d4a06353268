/**
 * TxScripts in the sandbox: decoding and encoding call and deploy scripts, building deploy scripts as the
 * node does, and splitting a deploy request's bytecode into code and fields. (Running them is the VM's:
 * `vmRun.ts`.)
 *
 * Decoded and built with @alephium/web3's codec, never with the extension's protocol core (src/core), so a
 * bug in the extension's script building or verification cannot be mirrored here and go unnoticed.
 */
import { addressFromLockupScript, base58ToBytes, binToHex, codec, hexToBinUnsafe } from '@alephium/web3';
import { blake2b } from '@noble/hashes/blake2.js';
import type { Val } from './projectContracts';

type Instr = codec.Instr;
export type Method = codec.Method;
type CodecVal = codec.val.Val;
type LockupScript = codec.lockupScript.LockupScript;

/** A request the sandbox refuses as the node would: a 400 with this detail. */
export class ScriptRejected extends Error {}

/** A VM failure during execution; the message is the VM's words (e.g. `Assertion Failed in Contract @ a, Error Code: 1`). */
export class ScriptVmError extends Error {}

export const NODE_ESTIMATE_PREFIX = 'Execution error when estimating gas for tx script or contract: ';

export interface Assets {
  alph: bigint;
  tokens: Map<string, bigint>;
}

export const noAssets = (): Assets => ({ alph: 0n, tokens: new Map() });

export function addAssets(to: Assets, from: Assets): void {
  to.alph += from.alph;
  for (const [id, a] of from.tokens) to.tokens.set(id, (to.tokens.get(id) ?? 0n) + a);
}

// ------------------------------------------------------------------ conversions

export function lockupOfAddress(address: string): LockupScript {
  return codec.lockupScript.lockupScriptCodec.decode(base58ToBytes(address));
}

export function toSandboxVal(v: CodecVal): Val {
  switch (v.kind) {
    case 'Bool':
      return { type: 'Bool', value: v.value };
    case 'I256':
      return { type: 'I256', value: v.value.toString() };
    case 'U256':
      return { type: 'U256', value: v.value.toString() };
    case 'ByteVec':
      return { type: 'ByteVec', value: binToHex(v.value) };
    case 'Address':
      return { type: 'Address', value: addressFromLockupScript(v.value) };
  }
}

export function toCodecVal(v: Val): CodecVal {
  switch (v.type) {
    case 'Bool':
      return { kind: 'Bool', value: v.value === true };
    case 'I256':
      return { kind: 'I256', value: BigInt(String(v.value)) };
    case 'U256':
      return { kind: 'U256', value: BigInt(String(v.value)) };
    case 'ByteVec':
      return { kind: 'ByteVec', value: hexToBinUnsafe(String(v.value)) };
    case 'Address':
      return { kind: 'Address', value: lockupOfAddress(String(v.value)) };
  }
}

/** The constant instruction the Ralph compiler emits for a value (small numbers get their own opcodes). */
export function constInstr(v: Val): Instr {
  const c = toCodecVal(v);
  switch (c.kind) {
    case 'Bool':
      return c.value ? codec.ConstTrue : codec.ConstFalse;
    case 'I256':
      return codec.toI256(c.value);
    case 'U256':
      return codec.toU256(c.value);
    case 'ByteVec':
      return codec.BytesConst(c.value);
    case 'Address':
      return codec.AddressConst(c.value);
  }
}

/** A TxScript's `main` as the Ralph compiler emits it: public, preapproved assets, no arguments. */
export function mainMethod(instrs: Instr[], returnLength = 0): Method {
  return {
    isPublic: true,
    usePreapprovedAssets: true,
    useContractAssets: false,
    usePayToContractOnly: false,
    argsLength: 0,
    localsLength: 0,
    returnLength,
    instrs,
  };
}

/**
 * `contract.method(args)` as compiled Ralph calls it: the arguments, their count and the count of returned
 * values (U256 constants), the contract id, then `CallExternal`.
 */
export function externalCall(
  contractId: string,
  methodIndex: number,
  args: Val[],
  returnLength: number,
): Instr[] {
  return [
    ...args.map(constInstr),
    codec.toU256(BigInt(args.length)),
    codec.toU256(BigInt(returnLength)),
    codec.BytesConst(hexToBinUnsafe(contractId)),
    codec.CallExternal(methodIndex),
  ];
}

/**
 * The TxScript the Ralph compiler emits for `contract.method(args)` called from a script: the arguments,
 * their count and the count of returned values, the contract id, `CallExternal`, then a `Pop` per unused
 * return value. What the sandbox's own contract transactions carry (the event ticker, the control API's
 * calls), so a client decoding them reads the call they made. The counts are of values, which are stack
 * slots only for scalars: the sandbox's contracts take and return no arrays or structs.
 */
export function callScript(
  contractId: string,
  methodIndex: number,
  args: Val[],
  returnLength: number,
): string {
  return encodeScript([
    mainMethod([
      ...externalCall(contractId, methodIndex, args, returnLength),
      ...Array.from({ length: returnLength }, () => codec.Pop),
    ]),
  ]);
}

/** The value a constant instruction pushes, or undefined if it is not a constant. */
export function constValue(i: Instr | undefined): Val | undefined {
  if (!i) return undefined;
  const small: Record<string, Val> = {
    ConstTrue: { type: 'Bool', value: true },
    ConstFalse: { type: 'Bool', value: false },
    I256ConstN1: { type: 'I256', value: '-1' },
  };
  if (small[i.name]) return small[i.name];
  const m = /^(I256|U256)Const([0-5])$/.exec(i.name);
  if (m) return { type: m[1] as 'I256' | 'U256', value: m[2] as string };
  switch (i.name) {
    case 'I256Const':
      return { type: 'I256', value: i.value.toString() };
    case 'U256Const':
      return { type: 'U256', value: i.value.toString() };
    case 'BytesConst':
      return { type: 'ByteVec', value: binToHex(i.value) };
    case 'AddressConst':
      return { type: 'Address', value: addressFromLockupScript(i.value) };
    default:
      return undefined;
  }
}

// ------------------------------------------------------------------ decoding

/** Decodes a TxScript (hex) into its methods; a 400 if it is not a script the node would accept. */
export function decodeScript(hex: unknown, field = 'bytecode'): Method[] {
  if (typeof hex !== 'string' || !/^([0-9a-fA-F]{2})+$/.test(hex))
    throw new ScriptRejected(`Invalid value for: body (${field} must be non-empty hex)`);
  const bytes = hexToBinUnsafe(hex);
  let methods: Method[];
  try {
    methods = codec.script.scriptCodec.decode(bytes).methods;
  } catch (e) {
    throw new ScriptRejected(
      `Invalid value for: body (${field}: cannot decode the script: ${(e as Error).message})`,
    );
  }
  // The codec ignores trailing bytes; the node's deserializer does not.
  if (binToHex(codec.script.scriptCodec.encode({ methods })) !== hex.toLowerCase())
    throw new ScriptRejected(`Invalid value for: body (${field}: trailing bytes after the script)`);
  if (methods.length === 0)
    throw new ScriptRejected(`Invalid value for: body (${field}: the script has no method)`);
  return methods;
}

export function encodeScript(methods: Method[]): string {
  return binToHex(codec.script.scriptCodec.encode({ methods }));
}

/** The methods' flags of a contract's code (what artifacts omit: isPublic, asset modifiers). */
export function contractMethods(codeHex: string): Method[] {
  return codec.contract.contractCodec.decodeContract(hexToBinUnsafe(codeHex)).methods;
}

/**
 * Splits `code ‖ immFields ‖ mutFields` (what @alephium/web3's buildContractByteCode sends) the way the node
 * reads it: the contract's header says where its methods end; then two arrays of Vals.
 */
export function splitDeployBytecode(hex: unknown): {
  code: string;
  imm: Val[];
  mut: Val[];
  fieldLength: number;
} {
  if (typeof hex !== 'string' || !/^([0-9a-fA-F]{2})+$/.test(hex))
    throw new ScriptRejected('Invalid value for: body (bytecode must be non-empty hex)');
  const bytes = hexToBinUnsafe(hex);
  try {
    const fieldLength = codec.i32Codec.decode(bytes);
    let at = codec.i32Codec.encode(fieldLength).length;
    const idxCodec = new codec.ArrayCodec(codec.i32Codec);
    const indexes = idxCodec.decode(bytes.slice(at));
    at += idxCodec.encode(indexes).length;
    const methodsEnd = at + (indexes[indexes.length - 1] ?? 0);
    if (methodsEnd > bytes.length) throw new Error('the methods run past the end');
    const code = bytes.slice(0, methodsEnd);
    // Every method must decode: the node deserializes the whole contract.
    codec.contract.contractCodec.decodeContract(code);
    const valsCodec = codec.val.valsCodec;
    const imm = valsCodec.decode(bytes.slice(methodsEnd));
    const afterImm = methodsEnd + valsCodec.encode(imm).length;
    const mut = valsCodec.decode(bytes.slice(afterImm));
    const end = afterImm + valsCodec.encode(mut).length;
    if (end !== bytes.length) throw new Error(`${bytes.length - end} trailing bytes after the fields`);
    return { code: binToHex(code), imm: imm.map(toSandboxVal), mut: mut.map(toSandboxVal), fieldLength };
  } catch (e) {
    throw new ScriptRejected(`Invalid contract bytecode: ${(e as Error).message}`);
  }
}

export function encodeFields(vals: Val[]): string {
  return binToHex(codec.val.valsCodec.encode(vals.map(toCodecVal)));
}

// ------------------------------------------------------------------ building

/**
 * The deploy script the node builds (ServerUtils.buildDeployContractScriptRawWithParsedState), compiled as
 * the Ralph compiler compiles it: `TxScript Main { createContract!{@from -> ALPH: a[, #t: n]}(#code, #imm,
 * #mut) }`, createContractWithToken! with the issued amount, and with issueTokenTo the token goes there
 * followed by a dust ALPH transfer to it.
 */
export function buildDeployScript(p: {
  from: string;
  code: string;
  immHex: string;
  mutHex: string;
  alph: bigint;
  tokens: { id: string; amount: bigint }[];
  issueTokenAmount?: bigint;
  issueTokenTo?: string;
  dust: bigint;
}): string {
  const from = lockupOfAddress(p.from);
  const approvals: Instr[] = [codec.AddressConst(from)];
  for (let i = 0; i < p.tokens.length; i++) approvals.push(codec.Dup);
  approvals.push(codec.toU256(p.alph), codec.ApproveAlph);
  for (const t of p.tokens)
    approvals.push(codec.BytesConst(hexToBinUnsafe(t.id)), codec.toU256(t.amount), codec.ApproveToken);
  const args = [
    codec.BytesConst(hexToBinUnsafe(p.code)),
    codec.BytesConst(hexToBinUnsafe(p.immHex)),
    codec.BytesConst(hexToBinUnsafe(p.mutHex)),
  ];
  let create: Instr[];
  if (p.issueTokenAmount === undefined) create = [...args, codec.CreateContract, codec.Pop];
  else if (p.issueTokenTo === undefined)
    create = [...args, codec.toU256(p.issueTokenAmount), codec.CreateContractWithToken, codec.Pop];
  else {
    const to = lockupOfAddress(p.issueTokenTo);
    create = [
      ...args,
      codec.toU256(p.issueTokenAmount),
      codec.AddressConst(to),
      codec.CreateContractAndTransferToken,
      codec.Pop,
      codec.AddressConst(from),
      codec.AddressConst(to),
      codec.toU256(p.dust),
      codec.TransferAlph,
    ];
  }
  return encodeScript([mainMethod([...approvals, ...create])]);
}

/** The node's contract id (Leman+): Blake2b(txId ‖ 4-byte BE output index) with the last byte set to the group. */
export function nodeContractId(txId: string, outputIndex: number, group: number): string {
  const buf = new Uint8Array(36);
  buf.set(hexToBinUnsafe(txId), 0);
  new DataView(buf.buffer).setUint32(32, outputIndex, false);
  const h = blake2b(buf, { dkLen: 32 });
  h[31] = group;
  return binToHex(h);
}

// ------------------------------------------------------------------ interpreting

/** Index of the first instruction named `name`, or -1. */
export function findInstr(methods: Method[], name: string): number {
  return (methods[0] as Method).instrs.findIndex((i) => i.name === name);
}

/** A value that differs from `v` and has the same type (for tampering with arguments and fields). */
export function otherValue(v: Val, attacker: string): Val {
  switch (v.type) {
    case 'Bool':
      return { type: 'Bool', value: v.value !== true };
    case 'I256':
    case 'U256':
      return { type: v.type, value: String(BigInt(String(v.value)) + 1n) };
    case 'ByteVec':
      return { type: 'ByteVec', value: `${String(v.value)}00` };
    case 'Address':
      return { type: 'Address', value: attacker };
  }
}
