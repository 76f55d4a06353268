/**
 * Reading the node's VM failure text. The spec says an error's `detail` is for logs, so this is
 * best-effort: known shapes become a name, the contract address, the error code and a plain sentence;
 * anything else is kept as the raw text with the name `Unknown`. It never throws.
 *
 * Shapes come from the node's ExeFailure messages (its `toString`, e.g. `Assertion Failed in Contract
 * @ <address>, Error Code: 7`), behind whatever prefix the endpoint adds (`VM execution error: `,
 * `Execution error when estimating gas for tx script or contract: `), and from the case-class form
 * (`AssertionFailedWithErrorCode(<address>,7)`) that older nodes and local test nodes print.
 *
 * The text comes from a gateway, so it is cleaned and cut to {@link MAX_FAILURE_CHARS} first, and every
 * pattern runs in linear time: wherever two neighbouring parts could match the same characters (`(B58)?`
 * then `[^)]*`) or a part could run to the end of the text on every repeat of its prefix, the part is
 * bounded (`[^)]{0,200}`), so no failed match retries every split of a long run.
 */
import { cleanText } from '../text/inert';
import { errorMessage } from '../util/errors';

export interface VmFailure {
  /** The node's failure name (`AssertionFailedWithErrorCode`, `ExpectAContract`, …) or `Unknown`. */
  readonly name: string;
  /** The contract the failure names (an assertion's contract, a missing contract, …). */
  readonly contractAddress?: string;
  /** An assertion's error code. */
  readonly errorCode?: number;
  /** The assertion failed in the transaction's script, not in a contract. */
  readonly inTxScript?: boolean;
  /** One sentence saying what went wrong, in the user's terms. */
  readonly summary: string;
  /** The text as received (trimmed). */
  readonly raw: string;
}

/** The longest failure text read and kept; the node's texts are a line, a gateway may send megabytes. */
export const MAX_FAILURE_CHARS = 4096;

const B58 = '[1-9A-HJ-NP-Za-km-z]{20,}';
/** A base58 address at the start of a failure's argument text (`NotEnoughBalance(<address>, …)`). */
const LEADING_ADDRESS = new RegExp(`^${B58}`);

/** The arithmetic instruction names the node prints, in words. */
const ARITHMETIC: Record<string, string> = {
  Add: 'addition overflowed',
  Sub: 'subtraction went below zero',
  Mul: 'multiplication overflowed',
  Div: 'division by zero',
  Mod: 'modulo by zero',
  Exp: 'exponentiation overflowed',
  ModAdd: 'modular addition failed',
  ModSub: 'modular subtraction failed',
  ModMul: 'modular multiplication failed',
  ModExp: 'modular exponentiation failed',
  SHL: 'shift overflowed',
  SHR: 'shift failed',
};

interface Rule {
  readonly name: string;
  readonly re: RegExp;
  readonly build: (m: RegExpExecArray) => Omit<VmFailure, 'name' | 'raw'>;
}

const RULES: readonly Rule[] = [
  {
    name: 'AssertionFailedWithErrorCode',
    re: new RegExp(`Assertion Failed in Contract @ (${B58}), Error Code: (\\d+)`),
    build: (m) => ({
      contractAddress: m[1]!,
      errorCode: Number(m[2]),
      summary: `an assertion failed with error code ${m[2]}`,
    }),
  },
  {
    name: 'AssertionFailedWithErrorCode',
    re: /Assertion Failed in TxScript, Error Code: (\d+)/,
    build: (m) => ({
      errorCode: Number(m[1]),
      inTxScript: true,
      summary: `an assertion in the transaction script failed with error code ${m[1]}`,
    }),
  },
  {
    name: 'AssertionFailedWithErrorCode',
    re: new RegExp(`AssertionFailedWithErrorCode\\(\\s*(?:Some\\()?(${B58})\\)?\\s*,\\s*(\\d+)\\s*\\)`),
    build: (m) => ({
      contractAddress: m[1]!,
      errorCode: Number(m[2]),
      summary: `an assertion failed with error code ${m[2]}`,
    }),
  },
  {
    name: 'AssertionFailedWithErrorCode',
    re: /AssertionFailedWithErrorCode\(\s*None\s*,\s*(\d+)\s*\)/,
    build: (m) => ({
      errorCode: Number(m[1]),
      inTxScript: true,
      summary: `an assertion in the transaction script failed with error code ${m[1]}`,
    }),
  },
  {
    name: 'ArithmeticError',
    re: /Arithmetic error: (I256|U256|I64|U64|Byte)?([A-Za-z]{1,40})\(([^)]{0,400})\)/,
    build: (m) => {
      const op = m[2]!;
      const words = ARITHMETIC[op] ?? ARITHMETIC[op.replace(/^Mod/, '')] ?? `${op} failed`;
      return { summary: `arithmetic error: ${m[1] ?? ''}${m[1] ? ' ' : ''}${words} (${m[3]!.trim()})` };
    },
  },
  {
    name: 'NotEnoughApprovedBalance',
    re: new RegExp(
      `Not enough approved balance for address (${B58}), tokenId: ([0-9a-fA-F]+|ALPH), expected: (\\d+), got: (\\d+)`,
    ),
    build: (m) => ({
      summary: `not enough ${m[2] === 'ALPH' ? 'ALPH' : `of token ${m[2]!.slice(0, 8)}…`} approved by ${m[1]}: expected ${m[3]}, got ${m[4]} (approve more assets to the call)`,
    }),
  },
  {
    name: 'NoAssetsApproved',
    re: new RegExp(`No assets approved from address (${B58})`),
    build: (m) => ({ summary: `the method needs approved assets but ${m[1]} approved none` }),
  },
  {
    name: 'NoBalanceAvailable',
    re: /No balance available/,
    build: () => ({
      summary:
        'the method spends assets without preapprovedAssets or assetsInContract in its @using annotation',
    }),
  },
  {
    name: 'ContractAssetUnloaded',
    re: new RegExp(`Assets for contract (${B58}) is not loaded`),
    build: (m) => ({
      contractAddress: m[1]!,
      summary: "the method uses the contract's assets without @using(assetsInContract = true)",
    }),
  },
  {
    name: 'NonExistContract',
    re: new RegExp(`Contract (${B58}) does not exist`),
    build: (m) => ({ contractAddress: m[1]!, summary: `no contract exists at ${m[1]}` }),
  },
  {
    name: 'ContractAlreadyExists',
    re: new RegExp(`Contract (${B58}) already exists`),
    build: (m) => ({ contractAddress: m[1]!, summary: `a contract already exists at ${m[1]}` }),
  },
  {
    name: 'InvalidMethodIndex',
    re: /Invalid method index (\d+), method length: (\d+)|InvalidMethodIndex\((\d+),\s*(\d+)\)/,
    build: (m) => {
      const index = m[1] ?? m[3];
      const length = m[2] ?? m[4];
      return {
        summary: `method index ${index} does not exist (the contract has ${length} methods): the artifact does not match the deployed code`,
      };
    },
  },
  {
    name: 'InvalidMethodArgLength',
    re: /Invalid number of method arguments, got: (\d+), expect: (\d+)|InvalidMethodArgLength\((\d+),\s*(\d+)\)/,
    build: (m) => ({
      summary: `${m[1] ?? m[3]} argument(s) were passed but the method takes ${m[2] ?? m[4]}`,
    }),
  },
  {
    name: 'InvalidType',
    re: /Invalid type, expected: ([^,]{1,200}), got: (.{1,500})$|InvalidType\((.{1,500})\)$/,
    build: (m) => ({
      summary: m[1]
        ? `an argument has the wrong type: expected ${m[1]}, got ${m[2]}`
        : `an argument has the wrong type: ${m[3]}`,
    }),
  },
  {
    name: 'ExternalPrivateMethodCall',
    re: /Private method can not be called from outside of the contract/,
    build: () => ({ summary: 'a private method was called from outside its contract (make it pub)' }),
  },
  {
    name: 'UnableToPayGasFee',
    re: /Not enough ALPH in the transaction to pay for gas fee/,
    build: () => ({ summary: 'the transaction does not carry enough ALPH to pay for gas' }),
  },
  {
    name: 'InvalidOutputBalances',
    re: new RegExp(`Invalid ALPH balance for address (${B58}), expected ([^,]{1,100}), got ([^,]{1,100})`),
    build: (m) => ({ summary: `an output to ${m[1]} needs ${m[2]} but got ${m[3]} (transfer more ALPH)` }),
  },
  {
    name: 'LowerThanContractMinimalBalance',
    re: /less than contract minimal balance/,
    build: () => ({ summary: 'the contract would hold less than the minimal contract balance' }),
  },
  {
    name: 'EmptyContractAsset',
    re: /The contract's asset\(s\) have been used up/,
    build: () => ({ summary: "the contract's assets were used up below the minimum it must keep" }),
  },
  {
    name: 'FunctionReentrancy',
    re: /can only be called once per transaction/,
    build: () => ({ summary: 'a function using contract assets was called twice in one transaction' }),
  },
  {
    name: 'NotEnoughBalance',
    // The argument text is read whole (bounded), then its leading address: `(B58)?[^)]*` would retry
    // every split of a long run of base58 characters.
    re: /NotEnoughBalance(?:\(([^)]{0,200})\))?/,
    build: (m) => {
      const address = m[1] !== undefined ? LEADING_ADDRESS.exec(m[1])?.[0] : undefined;
      return {
        ...(address ? { contractAddress: address } : {}),
        summary: `not enough balance${address ? ` in ${address}` : ''} for what the method transfers`,
      };
    },
  },
  {
    name: 'NoCaller',
    re: /The current method does not have a caller/,
    build: () => ({ summary: 'the method asked for its caller but was called directly by the script' }),
  },
];

/** Failures printed by their bare name, with what they mean. */
const NAMED: Record<string, string> = {
  ExpectAContract: 'the call expected a contract (a contract address or a caller that is a contract)',
  OutOfGas: 'the call ran out of gas (raise the gas amount)',
  GasOverflow: 'the gas computation overflowed',
  AssertionFailed: 'an assertion without an error code failed',
  StackOverflow: 'the VM stack overflowed (deep recursion?)',
  StackUnderflow: 'the VM stack underflowed',
  InvalidBalances: 'the balances of the transaction do not add up',
  BalanceOverflow: 'a balance overflowed',
  InvalidTokenId: 'a token id is not valid',
  InvalidContractId: 'a contract id is not valid',
  PcOverflow: 'the program counter overflowed',
  InvalidMethod: 'the method does not exist',
  InvalidReturnLength: 'the method returned the wrong number of values',
  InvalidArgLength: 'the wrong number of arguments was passed',
  NoTxInput: 'the transaction has no input',
  ContractPoolOverflow: 'the transaction loads too many contracts',
  ContractFieldOverflow: 'a contract has too many fields',
  DebugMessageIsEmpty: 'a debug message is empty',
  InvalidBytesSliceArg: 'a byte slice is out of range',
  InvalidBytesSize: 'a byte vector has the wrong size',
};

/**
 * The text as it is read and kept: control and bidi characters removed, one line, at most
 * {@link MAX_FAILURE_CHARS}. A cut text ends in a bare `…`: a "(N characters)" note would end it with
 * `)` and complete a pattern (`InvalidType(…)`) that the text itself does not.
 */
function cleanRaw(detail: unknown): string {
  const text = typeof detail === 'string' ? detail : detail === undefined ? '' : errorMessage(detail);
  const head = text.slice(0, 2 * MAX_FAILURE_CHARS);
  // Cleaning only removes characters, so with the head's own length as the cap nothing is cut here.
  const clean = cleanText(head, head.length);
  return clean.length > MAX_FAILURE_CHARS || text.length > head.length
    ? `${clean.slice(0, MAX_FAILURE_CHARS)}…`
    : clean;
}

/**
 * Parses a node error text. Never throws; unknown text comes back as `Unknown` with the raw text.
 * Linear in the text, which is cut to {@link MAX_FAILURE_CHARS} before any pattern runs.
 */
export function parseVmFailure(detail: unknown): VmFailure {
  const raw = cleanRaw(detail);
  for (const rule of RULES) {
    const m = rule.re.exec(raw);
    if (m) return { name: rule.name, raw, ...rule.build(m) };
  }
  for (const [name, summary] of Object.entries(NAMED)) {
    if (new RegExp(`(^|[^A-Za-z])${name}([^A-Za-z]|$)`).test(raw)) return { name, raw, summary };
  }
  // `VM execution error: SomeNewFailure(...)`: at least name it.
  const generic = /(?:VM execution error|Execution error[^:]{0,200}):\s*([A-Z][A-Za-z0-9]+)/.exec(raw);
  if (generic) return { name: generic[1]!, raw, summary: raw };
  return { name: 'Unknown', raw, summary: raw || 'the node gave no reason' };
}

/** Does the text look like a VM failure at all (as opposed to a network or a validation error)? */
export function isVmFailureText(detail: string): boolean {
  const f = parseVmFailure(detail);
  return f.name !== 'Unknown' || /VM execution error|Execution error|Script execution failed/i.test(f.raw);
}
