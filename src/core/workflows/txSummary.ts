/**
 * A transaction's details reduced to what a person reads: who received what, who signed, the fee and
 * the chain. Plain data of strings and numbers for the webview (no HTML: the webview escapes and lays
 * out; the host never builds markup from chain data).
 *
 * Inputs in `/transactions/details` carry no amounts, only output references, so what an address spent
 * is unknown unless the caller supplies the spent outputs (e.g. from the details of the transactions
 * that created them). Rather than guess, every figure that depends on them says whether it is known.
 */
import {
  UNLOCK_SCRIPT_TAGS,
  addressFromPublicKey,
  attoToAlph,
  groupOfHint,
  groupOfAddress,
  publicKeyOfUnlockScript,
} from '../protocol';

/** The node's details shape, structurally (the gateway's TxDetails fits it). */
export interface TxDetailsInput {
  readonly unsigned: {
    readonly txId: string;
    readonly scriptOpt?: string;
    readonly gasAmount: number;
    readonly gasPrice: string;
    readonly inputs: readonly {
      readonly outputRef: { readonly hint: number; readonly key: string };
      readonly unlockScript: string;
    }[];
    readonly fixedOutputs: readonly OutputInput[];
  };
  readonly scriptExecutionOk?: boolean;
  readonly contractInputs: readonly { readonly hint: number; readonly key: string }[];
  readonly generatedOutputs: readonly (OutputInput & { readonly type?: string })[];
  readonly inputSignatures: readonly string[];
  readonly scriptSignatures: readonly string[];
}

interface OutputInput {
  readonly key: string;
  readonly attoAlphAmount: string;
  readonly address: string;
  readonly tokens: readonly { readonly id: string; readonly amount: string }[];
  readonly lockTime?: number;
  readonly message?: string;
}

/** A spent output's content, by output key, when the caller knows it. */
export interface SpentOutput {
  readonly address: string;
  readonly attoAlphAmount: string;
  readonly tokens?: readonly { readonly id: string; readonly amount: string }[];
}

export interface SummaryOptions {
  readonly spentOutputs?: Readonly<Record<string, SpentOutput>>;
  /** Groups from the status/submit answer, used when the tx has no asset inputs to derive them. */
  readonly fromGroup?: number;
  readonly toGroup?: number;
}

export interface AmountSummary {
  readonly atto: string;
  readonly alph: string;
}

export interface TokenChange {
  readonly id: string;
  readonly received: string;
  /** Undefined when the inputs' tokens are unknown. */
  readonly spent?: string;
  /** received − spent, signed ("-5", "12"); undefined when unknown. */
  readonly net?: string;
}

export interface AddressBalanceChange {
  readonly address: string;
  readonly isContract: boolean;
  readonly received: AmountSummary;
  /** What this address's spent inputs held; undefined when not every one of them is known. */
  readonly spent?: AmountSummary;
  /** Signed ALPH change (received − spent), e.g. "-1.002"; undefined when `spent` is unknown. */
  readonly netAlph?: string;
  readonly netAtto?: string;
  /** How many inputs this address spent (known from unlock scripts even when amounts are not). */
  readonly inputCount: number;
  readonly tokens: readonly TokenChange[];
}

export interface OutputSummary {
  readonly key: string;
  readonly address: string;
  readonly amount: AmountSummary;
  readonly tokens: readonly { readonly id: string; readonly amount: string }[];
  readonly kind: 'fixed' | 'generated';
  readonly lockTime?: number;
  readonly message?: string;
}

export interface InputSummary {
  readonly key: string;
  readonly hint: number;
  /** Known from a P2PKH unlock (or the previous input for SameAsPrevious); undefined otherwise. */
  readonly address?: string;
  readonly unlockType: string;
  readonly amount?: AmountSummary;
}

export interface TxSummary {
  readonly txId: string;
  readonly chain: { readonly fromGroup?: number; readonly toGroup?: number };
  /** gasAmount × gasPrice: what a transfer pays; for a script tx an upper bound (unused gas is refunded). */
  readonly fee: AmountSummary & {
    readonly gasAmount: number;
    readonly gasPrice: string;
    readonly isUpperBound: boolean;
  };
  readonly hasScript: boolean;
  readonly scriptExecutionOk?: boolean;
  readonly signers: readonly string[];
  readonly inputs: readonly InputSummary[];
  readonly contractInputCount: number;
  readonly outputs: readonly OutputSummary[];
  readonly balanceChanges: readonly AddressBalanceChange[];
  /** True when every input's amount was supplied, so every `spent`/`net` figure is present. */
  readonly inputAmountsKnown: boolean;
  readonly totalOutput: AmountSummary;
}

function amount(atto: bigint): AmountSummary {
  return { atto: atto.toString(), alph: atto < 0n ? `-${attoToAlph(-atto)}` : attoToAlph(atto) };
}

function groupOf(address: string): number | undefined {
  try {
    return groupOfAddress(address);
  } catch {
    return undefined;
  }
}

function signed(v: bigint): string {
  return v.toString();
}

const UNLOCK_NAMES = Object.fromEntries(Object.entries(UNLOCK_SCRIPT_TAGS).map(([k, v]) => [v, k])) as Record<
  number,
  string
>;

interface Acc {
  received: bigint;
  spent: bigint;
  spentKnown: boolean;
  inputCount: number;
  isContract: boolean;
  tokensIn: Map<string, bigint>;
  tokensOut: Map<string, bigint>;
}

/** Summarizes `/transactions/details` as plain data; never throws on odd unlock scripts. */
export function summarizeTx(details: TxDetailsInput, options: SummaryOptions = {}): TxSummary {
  const u = details.unsigned;
  const spentOutputs = options.spentOutputs ?? {};
  const accounts = new Map<string, Acc>();
  const acc = (address: string, isContract = false): Acc => {
    let a = accounts.get(address);
    if (!a) {
      a = {
        received: 0n,
        spent: 0n,
        spentKnown: true,
        inputCount: 0,
        isContract,
        tokensIn: new Map(),
        tokensOut: new Map(),
      };
      accounts.set(address, a);
    }
    a.isContract ||= isContract;
    return a;
  };

  const signers: string[] = [];
  let previous: string | undefined;
  let allKnown = true;
  const inputs: InputSummary[] = u.inputs.map((input) => {
    const unlock = input.unlockScript.toLowerCase();
    const tag = parseInt(unlock.slice(0, 2), 16);
    let address: string | undefined;
    if (tag === UNLOCK_SCRIPT_TAGS.SameAsPrevious) {
      address = previous;
    } else {
      const pub = tag === UNLOCK_SCRIPT_TAGS.P2PKH ? publicKeyOfUnlockScript(unlock) : undefined;
      try {
        address = pub ? addressFromPublicKey(pub) : undefined;
      } catch {
        address = undefined;
      }
      if (address && !signers.includes(address)) signers.push(address);
    }
    previous = address;
    const spent = spentOutputs[input.outputRef.key.toLowerCase()] ?? spentOutputs[input.outputRef.key];
    // A supplied spent output is authoritative about its owner (P2SH/P2PK unlocks do not reveal it).
    const owner = spent?.address ?? address;
    if (owner) {
      const a = acc(owner);
      a.inputCount++;
      if (spent) {
        a.spent += BigInt(spent.attoAlphAmount);
        for (const t of spent.tokens ?? [])
          a.tokensIn.set(t.id, (a.tokensIn.get(t.id) ?? 0n) + BigInt(t.amount));
      } else {
        a.spentKnown = false;
      }
    }
    if (!spent) allKnown = false;
    return {
      key: input.outputRef.key,
      hint: input.outputRef.hint,
      ...(owner ? { address: owner } : {}),
      unlockType: UNLOCK_NAMES[tag] ?? `unknown (0x${unlock.slice(0, 2)})`,
      ...(spent ? { amount: amount(BigInt(spent.attoAlphAmount)) } : {}),
    };
  });
  // Contract inputs are spent contract outputs: their amounts are never in the details.
  if (details.contractInputs.length > 0) allKnown = false;

  const outputs: OutputSummary[] = [];
  const addOutput = (o: OutputInput & { type?: string }, kind: 'fixed' | 'generated'): void => {
    const atto = BigInt(o.attoAlphAmount);
    const a = acc(o.address, o.type === 'ContractOutput');
    a.received += atto;
    for (const t of o.tokens) a.tokensOut.set(t.id, (a.tokensOut.get(t.id) ?? 0n) + BigInt(t.amount));
    outputs.push({
      key: o.key,
      address: o.address,
      amount: amount(atto),
      tokens: o.tokens.map((t) => ({ id: t.id, amount: t.amount })),
      kind,
      ...(o.lockTime ? { lockTime: o.lockTime } : {}),
      ...(o.message ? { message: o.message } : {}),
    });
  };
  for (const o of u.fixedOutputs) addOutput(o, 'fixed');
  for (const o of details.generatedOutputs) addOutput(o, 'generated');

  const balanceChanges: AddressBalanceChange[] = [...accounts].map(([address, a]) => {
    const known = a.spentKnown && !(a.isContract && details.contractInputs.length > 0);
    const ids = [...new Set([...a.tokensIn.keys(), ...a.tokensOut.keys()])].sort();
    return {
      address,
      isContract: a.isContract,
      received: amount(a.received),
      ...(known
        ? {
            spent: amount(a.spent),
            netAtto: signed(a.received - a.spent),
            netAlph: amount(a.received - a.spent).alph,
          }
        : {}),
      inputCount: a.inputCount,
      tokens: ids.map((id) => {
        const received = a.tokensOut.get(id) ?? 0n;
        const spentT = a.tokensIn.get(id) ?? 0n;
        return {
          id,
          received: received.toString(),
          ...(known ? { spent: spentT.toString(), net: signed(received - spentT) } : {}),
        };
      }),
    };
  });

  // Node rule: fromGroup from inputs[0]'s hint, toGroup from the first fixed output in another group.
  let chain: { fromGroup?: number; toGroup?: number } = {};
  const first = u.inputs[0];
  if (first) {
    const fromGroup = groupOfHint(first.outputRef.hint);
    let toGroup = fromGroup;
    for (const o of u.fixedOutputs) {
      const g = groupOf(o.address);
      if (g !== undefined && g !== fromGroup) {
        toGroup = g;
        break;
      }
    }
    chain = { fromGroup, toGroup };
  }
  if (options.fromGroup !== undefined) chain = { ...chain, fromGroup: chain.fromGroup ?? options.fromGroup };
  if (options.toGroup !== undefined) chain = { ...chain, toGroup: chain.toGroup ?? options.toGroup };

  const hasScript = u.scriptOpt !== undefined && u.scriptOpt !== '';
  const fee = BigInt(u.gasAmount) * BigInt(u.gasPrice);
  return {
    txId: u.txId,
    chain,
    fee: { ...amount(fee), gasAmount: u.gasAmount, gasPrice: u.gasPrice, isUpperBound: hasScript },
    hasScript,
    ...(details.scriptExecutionOk !== undefined ? { scriptExecutionOk: details.scriptExecutionOk } : {}),
    signers,
    inputs,
    contractInputCount: details.contractInputs.length,
    outputs,
    balanceChanges,
    inputAmountsKnown: allKnown,
    totalOutput: amount(outputs.reduce((s, o) => s + BigInt(o.amount.atto), 0n)),
  };
}
