/**
 * The human confirmation of what will be signed. Built only from a {@link VerifiedTransfer} (the decoded
 * bytes), never from the request or the gateway's claims, so what the user approves is what gets signed.
 * Pure functions returning plain data (strings, no HTML): the glue shows it in a modal, the webview
 * renders it, and tests read it.
 */
import { DEFAULT_GAS_AMOUNT, DEFAULT_GAS_PRICE, attoToAlph, groupOfAddress } from '../protocol';
import { networkText, type NetworkText } from './confirmPolicy';
import { formatTokenAmount, tokenAmountText, type TokenMeta } from '../tokens';

export { networkText, type NetworkText } from './confirmPolicy';
import type { Confirmation } from './signingPath';
import type { VerifiedOutput, VerifiedSweep, VerifiedToken, VerifiedTransfer } from './verify';

export interface AmountText {
  /** Exact decimal ALPH, e.g. "1.5". */
  readonly alph: string;
  /** Integer atto, e.g. "1500000000000000000". */
  readonly atto: string;
}

export interface TokenText {
  readonly id: string;
  /** The raw integer amount, always shown. */
  readonly amount: string;
  /** Present when the token is known: its symbol, the decimal amount, and where the name came from. */
  readonly symbol?: string;
  readonly decimalAmount?: string;
  readonly source?: TokenMeta['source'];
  /** The whole line (core/tokens `tokenAmountText`): decimal amount and symbol, raw amount, full id. */
  readonly text: string;
}

/** Token metadata by lower-case token id, resolved before the confirmation is built (never during it). */
export type TokenMetadata = ReadonlyMap<string, TokenMeta | undefined>;

export interface RecipientText {
  readonly address: string;
  readonly group: number;
  readonly amount: AmountText;
  readonly tokens: readonly TokenText[];
  /** ISO time when the output unlocks; absent when spendable at once. */
  readonly lockedUntil?: string;
  /** Hex of the output message; absent when empty. */
  readonly message?: string;
}

export interface ConfirmationSummary extends Confirmation {
  readonly kind: 'transfer' | 'sweep';
  readonly title: string;
  readonly network: NetworkText;
  readonly from: { readonly address: string; readonly group: number };
  readonly recipients: readonly RecipientText[];
  /** ALPH returning to the sender (transfers); zero for sweeps. */
  readonly change: AmountText;
  readonly fee: AmountText & { readonly gasAmount: number; readonly gasPrice: string };
  /** Everything that leaves the sender: recipients' ALPH + fee. */
  readonly total: AmountText;
  readonly tokensTotal: readonly TokenText[];
  /** The txIds that will be signed, in order. */
  readonly txIds: readonly string[];
  readonly chain: { readonly fromGroup: number; readonly toGroup: number };
  /** Mainnet (real money) or above the configured value threshold: ask twice. */
  readonly requiresSecondConfirmation: boolean;
  /** Why a second confirmation is needed, or undefined. */
  readonly secondConfirmationReason?: string;
  /** One line per fact, in reading order, for a modal's detail text. */
  readonly lines: readonly string[];
  readonly text: string;
}

export interface ConfirmationOptions {
  /**
   * The profile's network name as the user set it. The bytes' network id wins when they disagree
   * (mainnet bytes are mainnet whatever the profile says), but a "mainnet" profile also counts.
   */
  readonly profileNetwork?: string;
  /** Ask a second time when the total leaves more than this (atto), on any network. */
  readonly secondConfirmationAboveAtto?: bigint;
  /**
   * What each token is called (core/tokens `TokenCatalog.resolve`), looked up before the modal. A token
   * missing here is shown by its raw amount and id only.
   */
  readonly tokens?: TokenMetadata;
}

export function amountText(atto: bigint): AmountText {
  return { alph: attoToAlph(atto), atto: atto.toString() };
}

/** "1.5 ALPH (1500000000000000000 atto)". */
export function formatAmount(a: AmountText): string {
  return `${a.alph} ALPH (${a.atto} atto)`;
}

/** A token amount in the words of core/tokens: never without its raw amount and its whole id. */
export function tokenText(id: string, amount: bigint, meta: TokenMeta | undefined): TokenText {
  return {
    id,
    amount: amount.toString(),
    ...(meta
      ? {
          symbol: meta.symbol,
          decimalAmount: formatTokenAmount(amount, meta.decimals),
          source: meta.source,
        }
      : {}),
    text: tokenAmountText(id, amount, meta),
  };
}

function tokenTexts(tokens: readonly VerifiedToken[], metadata: TokenMetadata | undefined): TokenText[] {
  return tokens.map((t) => tokenText(t.id, t.amount, metadata?.get(t.id.toLowerCase())));
}

function recipientText(o: VerifiedOutput, metadata: TokenMetadata | undefined): RecipientText {
  return {
    address: o.address,
    group: groupOfAddress(o.address),
    amount: amountText(o.attoAlphAmount),
    tokens: tokenTexts(o.tokens, metadata),
    ...(o.lockTime > 0 ? { lockedUntil: new Date(o.lockTime).toISOString() } : {}),
    ...(o.message !== '' ? { message: o.message } : {}),
  };
}

function mergeTokens(lists: readonly (readonly VerifiedToken[])[]): VerifiedToken[] {
  const m = new Map<string, bigint>();
  for (const list of lists) for (const t of list) m.set(t.id, (m.get(t.id) ?? 0n) + t.amount);
  return [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, amount]) => ({ id, amount }));
}

interface Parts {
  kind: 'transfer' | 'sweep';
  title: string;
  txs: readonly VerifiedTransfer[];
  recipients: readonly VerifiedOutput[];
  change: bigint;
  tokens: readonly VerifiedToken[];
}

function summarize(parts: Parts, options: ConfirmationOptions): ConfirmationSummary {
  const first = parts.txs[0] as VerifiedTransfer;
  const network = networkText(first.networkId, options.profileNetwork);
  const feeAtto = parts.txs.reduce((s, t) => s + t.fee, 0n);
  const totalAtto = parts.txs.reduce((s, t) => s + t.totalAlphSpent, 0n);
  const recipients = parts.recipients.map((o) => recipientText(o, options.tokens));
  const tokensTotal = tokenTexts(parts.tokens, options.tokens);
  const highValue =
    options.secondConfirmationAboveAtto !== undefined && totalAtto > options.secondConfirmationAboveAtto;
  const secondConfirmationReason = network.isMainnet
    ? 'This spends real funds on mainnet.'
    : highValue
      ? `The total exceeds ${formatAmount(amountText(options.secondConfirmationAboveAtto))}.`
      : undefined;
  const fee = {
    ...amountText(feeAtto),
    gasAmount: parts.txs.reduce((s, t) => s + t.gasAmount, 0),
    // Sweep txs may differ in price; show the first one's (they share the node default in practice).
    gasPrice: first.gasPrice.toString(),
  };
  const total = amountText(totalAtto);
  const change = amountText(parts.change);

  const lines: string[] = [];
  if (parts.kind === 'sweep')
    lines.push(
      `This moves EVERYTHING ${first.fromAddress} holds (all its ALPH and every token) to ${parts.recipients[0]?.address ?? '?'}.`,
    );
  lines.push(`Network: ${network.name}${network.isMainnet ? ' (REAL FUNDS)' : ''}`);
  lines.push(`From: ${first.fromAddress} (group ${first.fromGroup})`);
  recipients.forEach((r, i) => {
    const label = recipients.length > 1 ? `To #${i + 1}` : 'To';
    lines.push(`${label}: ${r.address} (group ${r.group})`);
    lines.push(`  Amount: ${formatAmount(r.amount)}`);
    for (const t of r.tokens) lines.push(`  Token: ${t.text}`);
    if (r.lockedUntil) lines.push(`  Locked until: ${r.lockedUntil}`);
    if (r.message) lines.push(`  Message (hex): ${r.message}`);
  });
  if (parts.kind === 'transfer') lines.push(`Change back to you: ${formatAmount(change)}`);
  lines.push(
    `Fee: ${formatAmount(fee)}${parts.txs.length > 1 ? ` over ${parts.txs.length} transactions` : ` (gas ${fee.gasAmount} × ${fee.gasPrice} atto)`}`,
  );
  // Above twice the default fee (20,000 gas at the minimum price) is worth a second look per transaction.
  const usualFee = 2n * BigInt(DEFAULT_GAS_AMOUNT) * DEFAULT_GAS_PRICE;
  const costly = parts.txs.filter((t) => t.fee > usualFee);
  if (costly.length > 0)
    lines.push(
      `⚠ Fee above the usual ${attoToAlph(usualFee)} ALPH per transaction: ${costly.map((t) => `${attoToAlph(t.fee)} ALPH (gas ${t.gasAmount})`).join(', ')}`,
    );
  lines.push(`Total leaving your address: ${formatAmount(total)}`);
  for (const t of tokensTotal) lines.push(`Total token: ${t.text}`);
  if (parts.txs.length > 1) {
    lines.push(`Transactions (${parts.txs.length}):`);
    // Each transaction of a sweep is signed on its own: show what each one costs.
    for (const t of parts.txs)
      lines.push(`  ${t.txId}: gas ${t.gasAmount} × ${t.gasPrice} atto = ${attoToAlph(t.fee)} ALPH`);
  } else lines.push(`Transaction: ${first.txId}`);
  lines.push(`Chain: group ${first.fromGroup} → group ${first.toGroup}`);

  return {
    kind: parts.kind,
    title: parts.title,
    network,
    from: { address: first.fromAddress, group: first.fromGroup },
    recipients,
    change,
    fee,
    total,
    tokensTotal,
    txIds: parts.txs.map((t) => t.txId),
    chain: { fromGroup: first.fromGroup, toGroup: first.toGroup },
    requiresSecondConfirmation: secondConfirmationReason !== undefined,
    ...(secondConfirmationReason !== undefined ? { secondConfirmationReason } : {}),
    secondQuestion:
      `${secondConfirmationReason ?? ''} Really send ${formatAmount(total)} in total on ${network.name}?`.trim(),
    ...(parts.kind === 'sweep' ? { movesEverything: { to: parts.recipients[0]?.address ?? '' } } : {}),
    lines,
    text: [parts.title, ...lines].join('\n'),
  };
}

/** The confirmation of one verified transfer. */
export function transferConfirmation(
  verified: VerifiedTransfer,
  options: ConfirmationOptions = {},
): ConfirmationSummary {
  const sent = verified.totalAlphSpent - verified.fee;
  const n = verified.outputs.length;
  const title = `Send ${attoToAlph(sent)} ALPH${verified.tokensSpent.length > 0 ? ' and tokens' : ''} to ${n === 1 ? (verified.outputs[0] as VerifiedOutput).address : `${n} recipients`}?`;
  return summarize(
    {
      kind: 'transfer',
      title,
      txs: [verified],
      recipients: verified.outputs,
      change: verified.change.reduce((s, o) => s + o.attoAlphAmount, 0n),
      tokens: verified.tokensSpent,
    },
    options,
  );
}

/** One confirmation for a whole sweep (every transaction is shown by txId; outputs merged). */
export function sweepConfirmation(
  sweep: VerifiedSweep,
  options: ConfirmationOptions = {},
): ConfirmationSummary {
  const tokens = mergeTokens(sweep.txs.map((t) => t.tokensSpent));
  const recipient: VerifiedOutput = {
    address: sweep.toAddress,
    attoAlphAmount: sweep.totalSwept,
    tokens,
    lockTime: sweep.txs[0]?.outputs[0]?.lockTime ?? 0,
    message: '',
  };
  return summarize(
    {
      kind: 'sweep',
      title: `Sweep ${attoToAlph(sweep.totalSwept)} ALPH${tokens.length > 0 ? ' and tokens' : ''} from ${sweep.fromAddress} to ${sweep.toAddress}${sweep.txs.length > 1 ? ` in ${sweep.txs.length} transactions` : ''}?`,
      txs: sweep.txs,
      recipients: [recipient],
      change: 0n,
      tokens,
    },
    options,
  );
}

/** The text of the second confirmation: short and explicit, so it is not clicked through by habit. */
export function secondConfirmationText(summary: ConfirmationSummary): string {
  return summary.secondQuestion ?? '';
}

/**
 * The confirmation of a verified script transaction (execute, deploy): the facts its builder listed
 * (method, arguments, script check, approvals, gas and fee, with a warning when the fee is far above the
 * usual), on the network its bytes carry; mainnet asks twice, as for transfers.
 */
export function scriptConfirmation(
  title: string,
  verified: VerifiedTransfer,
  lines: readonly string[],
  options: ConfirmationOptions = {},
): Confirmation {
  const network = networkText(verified.networkId, options.profileNetwork);
  const reason = network.isMainnet ? 'This spends real funds on mainnet.' : undefined;
  return {
    title,
    lines: [`Network: ${network.name}${network.isMainnet ? ' (REAL FUNDS)' : ''}`, ...lines],
    network,
    requiresSecondConfirmation: reason !== undefined,
    ...(reason !== undefined
      ? {
          secondConfirmationReason: reason,
          secondQuestion: `${reason} Really sign it, with a fee of ${formatAmount(amountText(verified.fee))}?`,
        }
      : {}),
  };
}
