/**
 * Turns what the gateway says about a transaction (status, details, events) or a decoded unsigned
 * transaction into the plain model the details webview and the Transactions view render. Pure: no I/O,
 * no VS Code, no clock (the caller passes `now`), so every rule is unit-tested.
 *
 * The gateway's details do not carry the amounts of the inputs (only output references), so balance
 * changes are derived from what is known: for a transfer whose inputs are all unlocked by one address
 * and that touches no contract, ALPH is conserved (inputs = outputs + fee), which gives the spender's
 * change exactly. Anything else is shown as credits only, with a note saying why.
 */
import type {
  TxTokenView,
  TxBalanceChangeView,
  TxDetailsModel,
  TxEventView,
  TxInputView,
  TxOutputView,
  TxStatusKind,
} from './txDetailsProtocol';
import type { EventByTxId, TxDetails, TxStatus } from '../gateway/schemas';
import {
  AssetTally,
  UNLOCK_SCRIPT_TAGS,
  addressFromPublicKey,
  attoToAlph,
  isHex,
  publicKeyOfUnlockScript,
  shortTxId,
  type DecodedUnsignedTx,
} from '../protocol';
import type { TrackOutcome, TrackState, TrackedTxRecord } from './txTracker';
import { scriptFailedReason } from './trackRun';
import type { TokenMeta } from '../tokens';
import { formatTokenAmount } from '../tokens/units';
import { asOfSuffix, nextAgeChange } from '../text/age';

export interface StatusView {
  readonly kind: TxStatusKind;
  readonly text: string;
  readonly confirmations?: number;
  readonly required?: number;
  readonly blockHash?: string;
}

/** A decoded event as the artifacts decoder returns it (structural, so core/artifacts stays optional). */
export interface DecodedEventLike {
  readonly name: string;
  readonly fields: readonly { readonly name: string; readonly type: string; readonly value: unknown }[];
  readonly warning?: string;
}

export interface TxDetailsSources {
  readonly txId: string;
  readonly now: number;
  /** The tracker's view (preferred: it knows the required confirmations and the grace period). */
  readonly tracked?: Pick<TrackedTxRecord, 'state' | 'outcome' | 'requiredConfirmations'>;
  /** The gateway's status answer, when it was asked directly. */
  readonly status?: TxStatus;
  readonly requiredConfirmations?: number;
  /** Present once the tx is in a block. */
  readonly details?: TxDetails;
  /** The unsigned tx decoded locally (a tx we sent and is still pending, or a pasted one). */
  readonly unsigned?: DecodedUnsignedTx;
  readonly groups?: { readonly fromGroup?: number; readonly toGroup?: number };
  readonly events?: readonly EventByTxId[];
  readonly decodeEvent?: (event: EventByTxId) => DecodedEventLike | undefined;
  readonly notes?: readonly string[];
  /** Marks the model as a decoded unsigned transaction (Decode Unsigned Transaction). */
  readonly kind?: 'transaction' | 'unsigned';
  /** What the tokens are called, by lower-case id (core/tokens), resolved before the model is built. */
  readonly tokens?: ReadonlyMap<string, TokenMeta | undefined>;
}

type TokenNames = TxDetailsSources['tokens'];

/**
 * A token amount of the page: always the raw amount (signed in balance changes) and the whole id; the
 * symbol, the decimal amount with the same sign and the symbol's source beside them when known.
 */
export function tokenView(id: string, amount: string, names: TokenNames): TxTokenView {
  const meta = names?.get(id.toLowerCase());
  if (!meta) return { id, amount };
  const sign = amount.startsWith('-') || amount.startsWith('+') ? amount[0] : '';
  const decimal = formatTokenAmount(sign ? amount.slice(1) : amount, meta.decimals);
  return { id, amount, symbol: meta.symbol, decimalAmount: `${sign}${decimal}`, source: meta.source };
}

/** Every token id the transaction's outputs carry (what the host resolves before building the model). */
export function tokenIdsOf(
  unsigned:
    { readonly fixedOutputs: readonly { readonly tokens: readonly { readonly id: string }[] }[] } | undefined,
  generated: readonly { readonly tokens?: readonly { readonly id: string }[] }[] = [],
): string[] {
  const ids = new Set<string>();
  for (const o of [...(unsigned?.fixedOutputs ?? []), ...generated])
    for (const t of o.tokens ?? []) ids.add(t.id.toLowerCase());
  return [...ids];
}

const TAG_NAMES = new Map<number, string>(
  Object.entries(UNLOCK_SCRIPT_TAGS).map(([name, tag]) => [tag as number, name]),
);

function confirmationsOf(s: {
  chainConfirmations: number;
  fromGroupConfirmations: number;
  toGroupConfirmations: number;
}): number {
  // Same rule as the tracker: the least confirmed of the chains involved is what counts.
  return Math.min(s.chainConfirmations, s.fromGroupConfirmations, s.toGroupConfirmations);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The status of a tracked transaction, in words. */
export function statusOfTracked(
  state: TrackState | undefined,
  outcome: TrackOutcome | undefined,
  required: number,
  now: number,
): StatusView {
  if (outcome?.kind === 'final')
    return {
      kind: 'confirmed',
      text: `Confirmed (${plural(outcome.confirmations, 'confirmation')})`,
      confirmations: outcome.confirmations,
      required,
      blockHash: outcome.blockHash,
    };
  if (outcome?.kind === 'failed') return { kind: 'failed', text: `Failed: ${outcome.reason}` };
  if (outcome?.kind === 'gave-up') return { kind: 'unknown', text: `Tracking stopped: ${outcome.reason}` };
  switch (state?.kind) {
    case undefined:
      return { kind: 'not-found-yet', text: 'Waiting for the first status…' };
    case 'pending-not-found': {
      const left = Math.max(0, Math.ceil((state.graceEndsAt - now) / 1000));
      return {
        kind: 'not-found-yet',
        text: `Not found yet (a failure only if still unknown in ${left} s)`,
      };
    }
    case 'mempool':
      return { kind: 'mempool', text: 'MemPooled (waiting for a block)' };
    case 'confirmed':
      return {
        kind: 'confirming',
        text: `Confirmations ${state.confirmations}/${state.required}`,
        confirmations: state.confirmations,
        required: state.required,
        blockHash: state.blockHash,
      };
    case 'final':
      return {
        kind: 'confirmed',
        text: `Confirmed (${plural(state.confirmations, 'confirmation')})`,
        confirmations: state.confirmations,
        required,
        blockHash: state.blockHash,
      };
    case 'failed':
      return { kind: 'failed', text: `Failed: ${state.reason}` };
    case 'unknown':
      return { kind: 'unknown', text: `Unknown status '${state.rawType}'` };
  }
}

/** The status of a gateway answer (a transaction nobody tracks: no grace period is running). */
export function statusOfGateway(status: TxStatus, required: number): StatusView {
  switch (status.type) {
    case 'MemPooled':
      return { kind: 'mempool', text: 'MemPooled (waiting for a block)' };
    case 'TxNotFound':
      return {
        kind: 'not-found-yet',
        text: 'Not found (a just-submitted transaction may not be visible yet)',
      };
    case 'Confirmed': {
      const n = confirmationsOf(status);
      return n >= required
        ? {
            kind: 'confirmed',
            text: `Confirmed (${plural(n, 'confirmation')})`,
            confirmations: n,
            required,
            blockHash: status.blockHash,
          }
        : {
            kind: 'confirming',
            text: `Confirmations ${n}/${required}`,
            confirmations: n,
            required,
            blockHash: status.blockHash,
          };
    }
    case 'Conflicted':
      return {
        kind: 'failed',
        text: `Failed: conflicted (in block ${status.blockHash}, but its inputs were spent by another transaction)`,
        blockHash: status.blockHash,
      };
    default:
      return { kind: 'unknown', text: `Unknown status '${status.rawType}'` };
  }
}

/** What a row of the Transactions view shows for a tracked record. */
export interface TrackedTxView {
  readonly txId: string;
  readonly label: string;
  readonly description: string;
  readonly tooltip: string;
  readonly status: StatusView;
  /** Still polled (for the context value: pending rows can be untracked while running). */
  readonly active: boolean;
  /** What a screen reader says: the row's status is otherwise told by its icon and colour. */
  readonly accessibilityLabel: string;
}

/**
 * The confirmations of a finished record were counted when tracking ended (or when the details page
 * last read them): tracking no longer polls it, so the row says how old that count is.
 */
function countAge(record: TrackedTxRecord, status: StatusView, now: number): string {
  if (status.kind !== 'confirmed' || record.outcome === undefined) return '';
  return asOfSuffix(record.lastSeenAt, now);
}

/** When the Transactions rows' words change by themselves (an age moves): render again then. */
export function trackedRowsChangeAt(records: readonly TrackedTxRecord[], now: number): number | undefined {
  return nextAgeChange(
    records.map((r) => (r.outcome?.kind === 'final' ? r.lastSeenAt : undefined)),
    now,
  );
}

export function trackedTxView(record: TrackedTxRecord, now: number): TrackedTxView {
  const counted = statusOfTracked(record.state, record.outcome, record.requiredConfirmations, now);
  const age = countAge(record, counted, now);
  const status: StatusView =
    age && counted.confirmations !== undefined
      ? { ...counted, text: `Confirmed (${plural(counted.confirmations, 'confirmation')}${age})` }
      : counted;
  const label = record.label ?? shortTxId(record.txId);
  const groups =
    record.fromGroup !== undefined && record.toGroup !== undefined
      ? `chain ${record.fromGroup} → ${record.toGroup}`
      : 'groups unknown';
  return {
    txId: record.txId,
    label,
    description: status.text,
    tooltip: [
      label,
      `txId: ${record.txId}`,
      `Status: ${status.text}`,
      `Required confirmations: ${record.requiredConfirmations}`,
      groups,
      `Submitted or tracked at ${new Date(record.submittedAt).toISOString()}`,
      ...(status.blockHash ? [`Block: ${status.blockHash}`] : []),
    ].join('\n'),
    status,
    active: record.outcome === undefined,
    accessibilityLabel: `Transaction ${label}, ${status.text}`,
  };
}

function amount(atto: bigint): { alph: string; atto: string } {
  return { alph: attoToAlph(atto), atto: atto.toString() };
}

function signedAmount(atto: bigint): { alph: string; atto: string } {
  const sign = atto < 0n ? '-' : atto > 0n ? '+' : '';
  const abs = atto < 0n ? -atto : atto;
  return { alph: `${sign}${attoToAlph(abs)}`, atto: `${sign}${abs.toString()}` };
}

const FATAL_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** UTF-8 text of a message when it is printable text (no control characters); undefined otherwise. */
export function messageText(hex: string): string | undefined {
  if (hex === '' || !isHex(hex)) return undefined;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  let text: string;
  try {
    text = FATAL_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text) ? undefined : text;
}

function lockedUntil(lockTime: number | undefined): string | undefined {
  if (!lockTime || lockTime <= 0) return undefined;
  const d = new Date(lockTime);
  return Number.isNaN(d.getTime()) ? String(lockTime) : d.toISOString();
}

interface RawOutput {
  address: string;
  attoAlphAmount: string;
  tokens: readonly { id: string; amount: string }[];
  lockTime?: number;
  message?: string;
  type?: string;
}

function outputView(
  o: RawOutput,
  index: number,
  spenders: ReadonlySet<string>,
  names?: TokenNames,
): TxOutputView {
  const message = typeof o.message === 'string' && o.message !== '' ? o.message : undefined;
  const text = message ? messageText(message) : undefined;
  const until = lockedUntil(o.lockTime);
  return {
    index,
    address: o.address,
    amount: amount(BigInt(o.attoAlphAmount)),
    tokens: o.tokens.map((t) => tokenView(t.id, t.amount, names)),
    ...(until ? { lockedUntil: until } : {}),
    ...(message ? { messageHex: message } : {}),
    ...(text !== undefined ? { messageText: text } : {}),
    isChange: spenders.has(o.address),
    ...(o.type ? { type: o.type } : {}),
  };
}

function inputViews(inputs: readonly { outputRef: { hint: number; key: string }; unlockScript: string }[]): {
  views: TxInputView[];
  /** Undefined when some input's owner cannot be told from its unlock script. */
  spenders: Set<string> | undefined;
} {
  const views: TxInputView[] = [];
  const spenders = new Set<string>();
  let unknown = false;
  let previous: string | undefined;
  for (const input of inputs) {
    const tag = parseInt(input.unlockScript.slice(0, 2), 16);
    const unlockType = TAG_NAMES.get(tag) ?? `unknown (tag ${input.unlockScript.slice(0, 2)})`;
    let address: string | undefined;
    if (tag === UNLOCK_SCRIPT_TAGS.P2PKH) {
      const pub = publicKeyOfUnlockScript(input.unlockScript);
      try {
        address = pub ? addressFromPublicKey(pub) : undefined;
      } catch {
        address = undefined;
      }
    } else if (tag === UNLOCK_SCRIPT_TAGS.SameAsPrevious) {
      address = previous;
    }
    if (address) spenders.add(address);
    else unknown = true;
    previous = address;
    views.push({
      outputRefKey: input.outputRef.key,
      hint: input.outputRef.hint,
      ...(address ? { address } : {}),
      unlockType,
    });
  }
  return { views, spenders: unknown ? undefined : spenders };
}

/**
 * Per-address changes. Exact for a single spender without contract inputs (ALPH and tokens are
 * conserved there); otherwise only credits are shown and `note` says why.
 */
export function balanceChanges(
  outputs: readonly RawOutput[],
  spenders: ReadonlySet<string> | undefined,
  fee: bigint,
  contractInputs: number,
  names?: TokenNames,
): { changes: TxBalanceChangeView[]; note?: string } {
  const tally = new AssetTally();
  const exact = spenders !== undefined && spenders.size === 1 && contractInputs === 0;
  const spender = exact ? ([...spenders][0] as string) : undefined;
  if (spender) tally.touch(spender);
  for (const o of outputs) tally.add(o.address, BigInt(o.attoAlphAmount), o.tokens);
  if (spender) {
    // Everything that left the spender: all outputs plus the fee (inputs = outputs + fee).
    const totalOut = outputs.reduce((s, o) => s + BigInt(o.attoAlphAmount), 0n);
    tally.add(spender, totalOut + fee, [], -1n);
    for (const o of outputs) tally.add(spender, 0n, o.tokens, -1n);
  }
  const changes = tally
    .entries()
    .filter((c) => c.atto !== 0n || c.tokens.length > 0)
    .map((c) => ({
      address: c.address,
      ...signedAmount(c.atto),
      tokens: c.tokens.map((t) =>
        tokenView(t.id, t.amount > 0n ? `+${t.amount}` : t.amount.toString(), names),
      ),
    }));
  if (exact) return { changes };
  const note =
    contractInputs > 0
      ? 'The transaction spends contract inputs whose amounts the gateway does not report: only the amounts received are shown.'
      : spenders === undefined
        ? 'Some inputs do not reveal their owner (P2SH or other unlock scripts): only the amounts received are shown.'
        : 'Several addresses spend inputs and the gateway does not report input amounts: only the amounts received are shown.';
  return { changes, note };
}

function eventView(event: EventByTxId, decode: TxDetailsSources['decodeEvent']): TxEventView {
  let decoded: DecodedEventLike | undefined;
  try {
    decoded = decode?.(event);
  } catch {
    decoded = undefined;
  }
  const raw = event.fields.map((f, i) => ({
    name: `#${i}`,
    type: String(f.type),
    value: typeof f.value === 'string' ? f.value : JSON.stringify(f.value),
  }));
  return {
    contractAddress: event.contractAddress,
    eventIndex: event.eventIndex,
    name: decoded?.name ?? `Event #${event.eventIndex}`,
    fields: decoded
      ? decoded.fields.map((f) => ({
          name: f.name,
          type: f.type,
          value: typeof f.value === 'string' ? f.value : JSON.stringify(f.value),
        }))
      : raw,
    ...(decoded?.warning ? { warning: decoded.warning } : {}),
  };
}

function jsonReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/**
 * A transaction in a block whose script failed is a failure, however many confirmations it has: the
 * gateway's status says only Confirmed, its details say whether the script ran (as the tracker reads them).
 */
function withScriptOutcome(status: StatusView, scriptExecutionOk: boolean | undefined): StatusView {
  if (scriptExecutionOk !== false || (status.kind !== 'confirmed' && status.kind !== 'confirming'))
    return status;
  const counted =
    status.confirmations !== undefined ? ` (${plural(status.confirmations, 'confirmation')})` : '';
  return {
    ...status,
    kind: 'failed',
    text: `Failed: ${scriptFailedReason(status.blockHash)}${counted}`,
  };
}

/** Builds the model of the details webview. */
export function buildTxDetailsModel(src: TxDetailsSources): TxDetailsModel {
  const required = src.tracked?.requiredConfirmations ?? src.requiredConfirmations ?? 1;
  const kind = src.kind ?? 'transaction';
  const counted: StatusView =
    kind === 'unsigned'
      ? { kind: 'unsigned', text: 'Not signed: decoded from the pasted bytes' }
      : src.tracked && (src.tracked.state || src.tracked.outcome)
        ? statusOfTracked(src.tracked.state, src.tracked.outcome, required, src.now)
        : src.status
          ? statusOfGateway(src.status, required)
          : { kind: 'not-found-yet', text: 'Status not loaded yet' };
  const status = withScriptOutcome(counted, src.details?.scriptExecutionOk);

  const unsigned = src.details?.unsigned ?? src.unsigned;
  const notes: string[] = [...(src.notes ?? [])];
  const { views: inputs, spenders } = inputViews(unsigned?.inputs ?? []);
  const spenderSet = spenders ?? new Set(inputs.flatMap((i) => (i.address ? [i.address] : [])));
  const fixed: RawOutput[] = unsigned?.fixedOutputs ?? [];
  const generated: RawOutput[] = src.details?.generatedOutputs ?? [];
  const outputs = fixed.map((o, i) => outputView(o, i, spenderSet, src.tokens));
  const generatedOutputs = generated.map((o, i) => outputView(o, fixed.length + i, spenderSet, src.tokens));
  const gasPrice = unsigned ? BigInt(unsigned.gasPrice) : undefined;
  const fee = unsigned && gasPrice !== undefined ? BigInt(unsigned.gasAmount) * gasPrice : undefined;
  const contractInputs = (src.details?.contractInputs ?? []).map((r) => r.key);
  const balance =
    unsigned && fee !== undefined
      ? balanceChanges([...fixed, ...generated], spenders, fee, contractInputs.length, src.tokens)
      : { changes: [] };
  if (!unsigned && kind === 'transaction') {
    notes.push(
      status.kind === 'failed'
        ? 'The gateway has no details for this transaction.'
        : 'Inputs and outputs appear once the transaction is in a block.',
    );
  } else if (!src.details && kind === 'transaction') {
    notes.push('Shown from the bytes that were signed; the gateway reports details once it is in a block.');
  }
  const chain =
    src.groups?.fromGroup !== undefined && src.groups.toGroup !== undefined
      ? { fromGroup: src.groups.fromGroup, toGroup: src.groups.toGroup }
      : undefined;
  const raw = JSON.stringify(
    {
      ...(src.status ? { status: src.status } : {}),
      ...(src.tracked ? { tracked: src.tracked } : {}),
      ...(src.details ? { details: src.details } : unsigned ? { unsigned } : {}),
      ...(src.events ? { events: src.events } : {}),
    },
    jsonReplacer,
    2,
  );
  return {
    kind,
    txId: src.txId.toLowerCase(),
    status,
    ...(chain ? { chain } : {}),
    ...(unsigned ? { networkId: unsigned.networkId } : {}),
    ...(unsigned && gasPrice !== undefined && fee !== undefined
      ? { gas: { amount: unsigned.gasAmount, priceAtto: gasPrice.toString(), fee: amount(fee) } }
      : {}),
    inputs,
    outputs,
    contractInputs,
    generatedOutputs,
    balanceChanges: balance.changes,
    ...(balance.note ? { balanceNote: balance.note } : {}),
    inputSignatures: [...(src.details?.inputSignatures ?? [])],
    scriptSignatures: [...(src.details?.scriptSignatures ?? [])],
    ...(src.details?.scriptExecutionOk !== undefined
      ? { scriptExecutionOk: src.details.scriptExecutionOk }
      : {}),
    hasScript: typeof unsigned?.scriptOpt === 'string' && unsigned.scriptOpt !== '',
    events: (src.events ?? []).map((e) => eventView(e, src.decodeEvent)),
    notes,
    raw,
    updatedAt: new Date(src.now).toISOString(),
  };
}
