/**
 * The script we generate for a single call, and a structural reading of any script.
 *
 * `buildMethodCallScript` emits what the Ralph compiler emits for
 *
 *     @using(preapprovedAssets = <approve?>)
 *     TxScript Main { Contract(#<id>).<method>{@<from> -> ALPH: <a>, #<token>: <n>...}(<args>...) }
 *
 * (the layout of the real compiled TxScripts and script transactions we checked it against):
 *
 *     one public method, argsLength = localsLength = returnLength = 0,
 *     asset modifier 3 (preapproved assets) when there is an approval, 0 otherwise;
 *     instrs:
 *       [approval]  AddressConst <from>, Dup × (number of assets - 1),
 *                   then per asset in order: ALPH  -> U256Const <amount>, ApproveAlph
 *                                            token -> BytesConst <id>, U256Const <amount>, ApproveToken
 *       args        one push per flattened argument (arrays, tuples and structs flattened in order),
 *                   the same instructions as script template fields
 *       U256Const <number of flattened args>, U256Const <number of flattened return values>
 *       BytesConst <contract id>, CallExternal <method index>
 *       Pop × (number of flattened return values)   -- results are discarded
 *
 * U256 constants 0..5 use their one-byte forms (U256Const0..5), as the compiler and the SDK do.
 * The ALPH approval is left out when its amount is 0 and tokens are approved; an approval of nothing
 * (0 ALPH, no tokens) is no approval at all, so the script then does not use preapproved assets.
 */
import { ArgumentError } from '../artifacts/errors';
import type { StructsLike } from '../artifacts/vals';
import { flattenedSize } from '../artifacts/vals';
import {
  ProtocolError,
  addressFromLockupScript,
  attoToAlph,
  bytesToHex,
  contractIdFromAddress,
  hexToBytes,
  lockupScriptFromAddress,
} from '../protocol';
import { flattenValues, pushInstr, typeNodes } from './fields';
import {
  type Instr,
  type Method,
  addressConst,
  bytesConst,
  callExternal,
  constValue,
  decodeScript,
  encodeScript,
  simple,
  u256Const,
} from './instructions';

export interface TokenAmount {
  readonly id: string;
  readonly amount: bigint;
}

export interface MethodCallScriptOptions {
  /** 32-byte contract id (hex); a contract address is accepted too. */
  readonly contractId: string;
  readonly methodIndex: number;
  readonly paramTypes: readonly string[];
  /** Same value forms as contract fields (bigint/decimal string, boolean, hex, base58, arrays, objects). */
  readonly args: readonly unknown[];
  readonly structs?: StructsLike;
  /** The method's return types; the results are popped. */
  readonly returnTypes: readonly string[];
  readonly approve?: {
    /** The signer's address (base58), whose assets are approved. */
    readonly from: string;
    readonly attoAlphAmount: bigint;
    readonly tokens: readonly TokenAmount[];
  };
}

function normalizeContractId(input: string, what: string): string {
  if (typeof input === 'string' && /^[0-9a-fA-F]{64}$/.test(input)) return input.toLowerCase();
  try {
    return contractIdFromAddress(input);
  } catch {
    throw new ArgumentError(`${what}: expected a 32-byte contract id in hex or a contract address`, what);
  }
}

function amount(value: unknown, what: string): bigint {
  if (typeof value !== 'bigint' || value < 0n || value >= 1n << 256n) {
    throw new ArgumentError(
      `${what}: expected a non-negative bigint below 2^256, got ${String(value)}`,
      what,
    );
  }
  return value;
}

/** The approval instructions (`{@from -> ALPH: a, #t: n}`), or none. */
function approvalInstrs(approve: MethodCallScriptOptions['approve']): Instr[] {
  if (!approve) return [];
  let from: string;
  try {
    from = bytesToHex(lockupScriptFromAddress(approve.from));
  } catch (e) {
    throw new ArgumentError(`approve.from: ${(e as Error).message}`, 'approve.from');
  }
  const alph = amount(approve.attoAlphAmount, 'approve.attoAlphAmount');
  const seen = new Set<string>();
  const assets: Instr[][] = [];
  approve.tokens.forEach((t, i) => {
    const what = `approve.tokens[${i}]`;
    if (typeof t.id !== 'string' || !/^[0-9a-fA-F]{64}$/.test(t.id)) {
      throw new ArgumentError(`${what}.id: expected a 32-byte token id in hex`, `${what}.id`);
    }
    const id = t.id.toLowerCase();
    // Two approvals of one token would both be spent from the same balance; almost surely a mistake.
    if (seen.has(id)) throw new ArgumentError(`${what}.id: token ${id} is approved twice`, `${what}.id`);
    seen.add(id);
    assets.push([bytesConst(id), u256Const(amount(t.amount, `${what}.amount`)), simple('ApproveToken')]);
  });
  if (alph > 0n) assets.unshift([u256Const(alph), simple('ApproveAlph')]);
  if (assets.length === 0) return [];
  return [addressConst(from), ...assets.slice(1).map(() => simple('Dup')), ...assets.flat()];
}

/** The instructions of a single call (approvals, args, counts, contract id, CallExternal, Pops). */
export function methodCallInstrs(opts: MethodCallScriptOptions): Instr[] {
  const contractId = normalizeContractId(opts.contractId, 'contractId');
  if (!Number.isInteger(opts.methodIndex) || opts.methodIndex < 0 || opts.methodIndex > 255) {
    throw new ArgumentError(`methodIndex: ${opts.methodIndex} is not a method index (0..255)`, 'methodIndex');
  }
  if (opts.args.length !== opts.paramTypes.length) {
    throw new ArgumentError(
      `args: expected ${opts.paramTypes.length} argument(s) (${opts.paramTypes.join(', ') || 'none'}), got ${opts.args.length}`,
      'args',
    );
  }
  const names = opts.paramTypes.map((_, i) => String(i));
  const values: Record<string, unknown> = {};
  opts.args.forEach((a, i) => (values[String(i)] = a));
  // Paths read `args[1].x`: flattenValues writes `args.1.x`, rewritten once here.
  let flat;
  try {
    flat = flattenValues(names, opts.paramTypes, undefined, values, opts.structs, 'args');
  } catch (e) {
    if (e instanceof ArgumentError) {
      const fix = (s: string): string => s.replace(/^args\.(\d+)/, 'args[$1]');
      throw new ArgumentError(fix(e.message), fix(e.param));
    }
    throw e;
  }
  const returnCount = typeNodes(opts.returnTypes, opts.structs, 'returnTypes').reduce(
    (n, t) => n + flattenedSize(t),
    0,
  );
  return [
    ...approvalInstrs(opts.approve),
    ...flat.map((f) => pushInstr(f.value)),
    u256Const(BigInt(flat.length)),
    u256Const(BigInt(returnCount)),
    bytesConst(contractId),
    callExternal(opts.methodIndex),
    ...Array.from({ length: returnCount }, () => simple('Pop')),
  ];
}

/** A TxScript (hex) that calls one public method of one contract; layout in the file comment. */
export function buildMethodCallScript(opts: MethodCallScriptOptions): string {
  const instrs = methodCallInstrs(opts);
  const method: Method = {
    isPublic: true,
    usePreapprovedAssets: instrs.some((i) => i.name === 'ApproveAlph' || i.name === 'ApproveToken'),
    useContractAssets: false,
    usePayToContractOnly: false,
    argsLength: 0,
    localsLength: 0,
    returnLength: 0,
    instrs,
  };
  return encodeScript([method]);
}

// ---- reading scripts -----------------------------------------------------------------------------------

/** A value the decoder could follow: a constant, or something computed at run time. */
export type ScriptValue =
  | { readonly kind: 'U256' | 'I256'; readonly value: bigint }
  | { readonly kind: 'Bool'; readonly value: boolean }
  | { readonly kind: 'ByteVec'; readonly value: string }
  /** `value` is the base58 address (groupless addresses with their `:g` suffix). */
  | { readonly kind: 'Address'; readonly value: string }
  /** Computed by an instruction the decoder does not follow (a local, a call result, CallerAddress...). */
  | { readonly kind: 'unknown'; readonly from: string };

export interface ScriptApproval {
  readonly from: ScriptValue;
  /** `undefined` for ALPH. */
  readonly tokenId: ScriptValue | undefined;
  readonly amount: ScriptValue;
}

export interface ScriptCall {
  /** Index of the CallExternal instruction in its method. */
  readonly instrIndex: number;
  readonly contractId: ScriptValue;
  readonly methodIndex: number;
  readonly args: readonly ScriptValue[];
  /** How many return values the call declares (from the pushed count), when it is a constant. */
  readonly returnCount: number | undefined;
  /** Approvals made since the previous call of the method: the assets this call can spend. */
  readonly approvals: readonly ScriptApproval[];
}

export interface DecodedScriptMethod extends Method {
  readonly calls: readonly ScriptCall[];
}

function toScriptValue(instr: Instr): ScriptValue | undefined {
  const c = constValue(instr);
  if (!c) return undefined;
  if (c.type === 'Address') {
    try {
      return { kind: 'Address', value: addressFromLockupScript(hexToBytes(c.value)) };
    } catch {
      return { kind: 'unknown', from: 'an unreadable AddressConst' };
    }
  }
  return { kind: c.type, value: c.value } as ScriptValue;
}

/**
 * Follows one method's operand stack over the instructions we know, and records every external call
 * with its arguments and the approvals before it. Anything else (locals, arithmetic, jumps) makes the
 * stack unknown from there on: the calls are still listed, with `unknown` values where needed.
 */
function analyzeCalls(instrs: readonly Instr[]): ScriptCall[] {
  const calls: ScriptCall[] = [];
  let stack: ScriptValue[] = [];
  let approvals: ScriptApproval[] = [];
  const pop = (why: string): ScriptValue => stack.pop() ?? { kind: 'unknown', from: why };
  instrs.forEach((instr, i) => {
    const v = toScriptValue(instr);
    if (v) {
      stack.push(v);
      return;
    }
    switch (instr.name) {
      case 'Dup': {
        const top = pop(`Dup at ${i}`);
        stack.push(top, top);
        return;
      }
      case 'Pop':
        stack.pop();
        return;
      case 'ApproveAlph': {
        const amt = pop(`instruction ${i}`);
        approvals.push({ amount: amt, tokenId: undefined, from: pop(`instruction ${i}`) });
        return;
      }
      case 'ApproveToken': {
        const amt = pop(`instruction ${i}`);
        const tokenId = pop(`instruction ${i}`);
        approvals.push({ amount: amt, tokenId, from: pop(`instruction ${i}`) });
        return;
      }
      case 'CallExternal': {
        const contractId = pop(`instruction ${i}`);
        const ret = pop(`instruction ${i}`);
        const argc = pop(`instruction ${i}`);
        const returnCount = ret.kind === 'U256' && ret.value < 256n ? Number(ret.value) : undefined;
        let args: ScriptValue[];
        if (argc.kind === 'U256' && argc.value <= BigInt(stack.length)) {
          args = stack.splice(stack.length - Number(argc.value));
        } else {
          args = [];
          stack = [];
        }
        calls.push({ instrIndex: i, contractId, methodIndex: instr.index, args, returnCount, approvals });
        approvals = [];
        for (let k = 0; k < (returnCount ?? 0); k++) stack.push({ kind: 'unknown', from: `call at ${i}` });
        return;
      }
      case 'StoreLocal':
        stack.pop();
        return;
      // Pushes of run-time values: the stack below them is still known.
      case 'LoadLocal':
        stack.push({ kind: 'unknown', from: `local ${instr.index}` });
        return;
      case 'CallerAddress':
        stack.push({ kind: 'unknown', from: 'the caller address' });
        return;
      default:
        // An instruction we do not follow: its inputs and outputs are unknown, so is the whole stack.
        stack = stack.map(() => ({ kind: 'unknown', from: `instruction ${i}` }));
        stack.push({ kind: 'unknown', from: `instruction ${i}` });
    }
  });
  return calls;
}

/** Best-effort structural reading of a script: per method its instructions and the calls it makes. */
export function decodeScriptCalls(scriptHex: string): DecodedScriptMethod[] {
  return decodeScript(scriptHex).map((m) => ({ ...m, calls: analyzeCalls(m.instrs) }));
}

// ---- comparing scripts ---------------------------------------------------------------------------------

/** A script value as it is shown to a person (in a difference, in an explained call). */
export function showValue(v: ScriptValue): string {
  switch (v.kind) {
    case 'U256':
    case 'I256':
      return v.value.toString();
    case 'Bool':
      return String(v.value);
    case 'ByteVec':
      return v.value === '' ? 'the empty ByteVec' : `#${v.value}`;
    case 'Address':
      return v.value;
    case 'unknown':
      return `a value computed at run time (${v.from})`;
  }
}

function sameValue(a: ScriptValue, b: ScriptValue): boolean {
  return (
    a.kind === b.kind &&
    (a.kind === 'unknown' || (a as { value: unknown }).value === (b as { value: unknown }).value)
  );
}

function showAmount(v: ScriptValue, tokenId: ScriptValue | undefined): string {
  if (tokenId === undefined)
    return v.kind === 'U256' ? `${attoToAlph(v.value)} ALPH` : `${showValue(v)} ALPH (atto)`;
  return `${showValue(v)} of token ${showValue(tokenId)}`;
}

function assetKey(a: ScriptApproval): string {
  return a.tokenId === undefined ? 'ALPH' : showValue(a.tokenId);
}

function describeApprovals(
  expected: readonly ScriptApproval[],
  actual: readonly ScriptApproval[],
): string | undefined {
  for (let k = 0; k < Math.min(expected.length, actual.length); k++) {
    const e = expected[k] as ScriptApproval;
    const a = actual[k] as ScriptApproval;
    if (!sameValue(e.from, a.from))
      return `approves assets of ${showValue(a.from)} instead of ${showValue(e.from)}`;
  }
  const byKey = (list: readonly ScriptApproval[]): Map<string, ScriptApproval> =>
    new Map(list.map((a) => [assetKey(a), a]));
  const exp = byKey(expected);
  const act = byKey(actual);
  for (const [key, a] of act) {
    const e = exp.get(key);
    if (!e) {
      return a.tokenId === undefined
        ? `approves ${showAmount(a.amount, undefined)} where no ALPH was to be approved`
        : `approves an extra token ${showValue(a.tokenId)} (amount ${showValue(a.amount)})`;
    }
    if (!sameValue(e.amount, a.amount)) {
      return `approves ${showAmount(a.amount, a.tokenId)} instead of ${showAmount(e.amount, e.tokenId)}`;
    }
  }
  for (const [key, e] of exp) {
    if (!act.has(key)) {
      return e.tokenId === undefined
        ? `does not approve the ${showAmount(e.amount, undefined)} that was to be approved`
        : `does not approve token ${showValue(e.tokenId)} (amount ${showValue(e.amount)})`;
    }
  }
  if (expected.length !== actual.length)
    return `makes ${actual.length} approval(s) instead of ${expected.length}`;
  const order = (l: readonly ScriptApproval[]): string => l.map(assetKey).join(',');
  if (order(expected) !== order(actual)) return 'approves the same assets in a different order';
  return undefined;
}

function describeCall(e: ScriptCall, a: ScriptCall, label: string): string | undefined {
  if (!sameValue(e.contractId, a.contractId)) {
    return `${label}calls contract ${showValue(a.contractId)} instead of ${showValue(e.contractId)}`;
  }
  if (e.methodIndex !== a.methodIndex)
    return `${label}calls method ${a.methodIndex} instead of ${e.methodIndex}`;
  const approvals = describeApprovals(e.approvals, a.approvals);
  if (approvals) return label + approvals;
  if (e.args.length !== a.args.length) {
    return `${label}passes ${a.args.length} argument value(s) instead of ${e.args.length}`;
  }
  for (let k = 0; k < e.args.length; k++) {
    const ea = e.args[k] as ScriptValue;
    const aa = a.args[k] as ScriptValue;
    if (!sameValue(ea, aa)) return `${label}argument ${k} is ${showValue(aa)} instead of ${showValue(ea)}`;
  }
  if (e.returnCount !== a.returnCount) {
    return `${label}declares ${a.returnCount ?? 'an unknown number of'} return value(s) instead of ${e.returnCount ?? 'an unknown number'}`;
  }
  return undefined;
}

function instrText(i: Instr | undefined): string {
  if (!i) return 'nothing';
  switch (i.name) {
    case 'U256Const':
    case 'I256Const':
      return `${i.name}(${i.value})`;
    case 'BytesConst':
    case 'AddressConst':
      return `${i.name}(${i.value})`;
    case 'CallLocal':
    case 'CallExternal':
    case 'LoadLocal':
    case 'StoreLocal':
      return `${i.name}(${i.index})`;
    case 'Other':
      return `opcode 0x${i.code.toString(16).padStart(2, '0')}${i.operand ? `(${i.operand})` : ''}`;
    default:
      return i.name;
  }
}

/**
 * What differs between the script that was expected and the one found (e.g. in a transaction the
 * gateway built), as one sentence about the found script: "calls method 3 instead of 1", "argument 1
 * is 7 instead of 5" (arguments count from 0, over flattened values), "approves 2 ALPH instead of 1 ALPH",
 * "approves an extra token …". `undefined` when the bytes are equal. A script that does not decode is
 * reported as such.
 */
export function describeScriptDifference(expectedHex: string, actualHex: string): string | undefined {
  if (expectedHex.toLowerCase() === actualHex.toLowerCase()) return undefined;
  let expected: DecodedScriptMethod[];
  let actual: DecodedScriptMethod[];
  try {
    expected = decodeScriptCalls(expectedHex);
  } catch (e) {
    throw new ProtocolError(`the expected script does not decode: ${(e as Error).message}`);
  }
  try {
    actual = decodeScriptCalls(actualHex);
  } catch (e) {
    return `the script is not a valid script: ${(e as Error).message}`;
  }
  if (expected.length !== actual.length)
    return `has ${actual.length} method(s) instead of ${expected.length}`;
  for (let m = 0; m < expected.length; m++) {
    const e = expected[m] as DecodedScriptMethod;
    const a = actual[m] as DecodedScriptMethod;
    const where = expected.length > 1 ? `method ${m} ` : '';
    const ec = e.calls;
    const ac = a.calls;
    if (ec.length !== ac.length) return `${where}makes ${ac.length} call(s) instead of ${ec.length}`;
    for (let c = 0; c < ec.length; c++) {
      const label = ec.length > 1 ? `${where}call ${c} ` : where;
      const d = describeCall(ec[c] as ScriptCall, ac[c] as ScriptCall, label);
      if (d) return d;
    }
    for (const flag of [
      'isPublic',
      'usePreapprovedAssets',
      'useContractAssets',
      'usePayToContractOnly',
    ] as const) {
      if (e[flag] !== a[flag]) return `${where}has ${flag} = ${a[flag]} instead of ${e[flag]}`;
    }
    for (const n of ['argsLength', 'localsLength', 'returnLength'] as const) {
      if (e[n] !== a[n]) return `${where}has ${n} = ${a[n]} instead of ${e[n]}`;
    }
    const len = Math.max(e.instrs.length, a.instrs.length);
    for (let k = 0; k < len; k++) {
      const ei = instrText(e.instrs[k]);
      const ai = instrText(a.instrs[k]);
      if (ei !== ai) return `${where}instruction ${k} is ${ai} instead of ${ei}`;
    }
  }
  // Equal structure but different bytes can only be a different hex spelling of the same bytes.
  return undefined;
}

/**
 * Why `candidateHex` (a workspace TxScript with its fields filled in) does not do exactly the one call
 * `generatedHex` (our single-call script for the same method and arguments) does, or `undefined` when it
 * does. A workspace script is chosen by its name and field types, which say nothing about its body: it
 * could call other methods, approve assets or move them. So it stands in for the generated script only
 * when it has one method whose instructions are constants, at most one external call and pops (nothing
 * that approves, transfers, branches or creates), and that call is to the same contract and method with
 * the same argument values and return count. Its asset flags may differ (the compiler's default
 * `preapprovedAssets = true` approves nothing by itself).
 */
export function singleCallMismatch(generatedHex: string, candidateHex: string): string | undefined {
  let candidate: DecodedScriptMethod[];
  try {
    candidate = decodeScriptCalls(candidateHex);
  } catch (e) {
    return `it does not decode (${(e as Error).message})`;
  }
  const generated = decodeScriptCalls(generatedHex);
  if (candidate.length !== 1) return `it has ${candidate.length} methods, not one`;
  const method = candidate[0] as DecodedScriptMethod;
  const other = method.instrs.findIndex(
    (i) => constValue(i) === undefined && i.name !== 'CallExternal' && i.name !== 'Pop',
  );
  if (other >= 0)
    return `instruction ${other} is ${instrText(method.instrs[other])}, not part of a single call`;
  const expected = generated[0]?.calls[0];
  if (!expected || generated.length !== 1 || generated[0]?.calls.length !== 1) {
    throw new ProtocolError('the generated script is not a single call');
  }
  if (method.calls.length !== 1) return `it makes ${method.calls.length} calls, not one`;
  return describeCall(expected, method.calls[0] as ScriptCall, '');
}
