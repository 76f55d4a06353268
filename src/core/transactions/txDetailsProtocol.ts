/**
 * The transaction details webview's model and messages, shared by the host (src/transactions/txDetails/host.ts),
 * the page (src/transactions/txDetails/page.ts) and the core models that build them (txDetailsModel.ts,
 * core/debugging/transactionExplanation.ts). Plain data only (strings, numbers, booleans): the page renders every
 * string as text. This file imports nothing, so Node and the DOM page can both use it.
 */

export const TX_DETAILS_VIEW_TYPE = 'alephium.txDetails';

export type TxStatusKind =
  'unsigned' | 'not-found-yet' | 'mempool' | 'confirming' | 'confirmed' | 'failed' | 'unknown';

export interface TxAmountView {
  /** Exact decimal ALPH. */
  readonly alph: string;
  /** Exact integer atto. */
  readonly atto: string;
}

export interface TxTokenView {
  readonly id: string;
  /** The raw integer amount (signed in balance changes), always shown. */
  readonly amount: string;
  /** When the token is known: its symbol and the amount in its decimals (same sign as `amount`). */
  readonly symbol?: string;
  readonly decimalAmount?: string;
  /** Where the symbol came from: the shipped token list, or the token's own contract (its claim). */
  readonly source?: 'token list' | 'contract';
}

export interface TxInputView {
  readonly outputRefKey: string;
  readonly hint: number;
  /** The spender's address when the unlock script reveals it (P2PKH); otherwise absent. */
  readonly address?: string;
  /** "P2PKH", "SameAsPrevious", "P2SH"... */
  readonly unlockType: string;
}

export interface TxOutputView {
  readonly index: number;
  readonly address: string;
  readonly amount: TxAmountView;
  readonly tokens: readonly TxTokenView[];
  /** ISO time when the output unlocks; absent when spendable at once. */
  readonly lockedUntil?: string;
  readonly messageHex?: string;
  /** The message as UTF-8 text when it is printable text; still only ever rendered as text. */
  readonly messageText?: string;
  /** The output goes back to an address that also spends inputs of this transaction. */
  readonly isChange: boolean;
  /** For generated outputs: AssetOutput or ContractOutput. */
  readonly type?: string;
}

export interface TxBalanceChangeView {
  readonly address: string;
  /** Signed exact ALPH, e.g. "-1.0021" or "+1". */
  readonly alph: string;
  readonly atto: string;
  readonly tokens: readonly TxTokenView[];
}

export interface TxEventFieldView {
  readonly name: string;
  readonly type: string;
  readonly value: string;
}

export interface TxEventView {
  readonly contractAddress: string;
  readonly eventIndex: number;
  readonly name: string;
  readonly fields: readonly TxEventFieldView[];
  readonly warning?: string;
}

/** "What happened": an explanation of the transaction (Explain Transaction), in plain lines. */
export interface WhatHappenedView {
  /** One line: "The script failed in its block…", "The script succeeded.", "No script: a transfer." */
  readonly outcome: string;
  readonly calls: readonly string[];
  readonly events: readonly string[];
  readonly debug: readonly string[];
  readonly stateChanges: readonly { readonly contract: string; readonly lines: readonly string[] }[];
  /** The reproduced failure: the explainer's message and, when the sources have it, its Ralph line. */
  readonly failure?: { readonly message: string; readonly where?: string };
  /** The block state the explanation read ("the state just before block …"). */
  readonly stateBlock?: string;
  readonly notes: readonly string[];
}

export interface TxDetailsModel {
  readonly kind: 'transaction' | 'unsigned';
  readonly txId: string;
  readonly status: {
    readonly kind: TxStatusKind;
    /** One line for people: "Confirmed (3 confirmations)", "Failed: not found...". */
    readonly text: string;
    readonly confirmations?: number;
    readonly required?: number;
    readonly blockHash?: string;
  };
  readonly chain?: { readonly fromGroup: number; readonly toGroup: number };
  readonly networkId?: number;
  readonly gas?: {
    readonly amount: number;
    readonly priceAtto: string;
    readonly fee: TxAmountView;
  };
  readonly inputs: readonly TxInputView[];
  readonly outputs: readonly TxOutputView[];
  readonly contractInputs: readonly string[];
  readonly generatedOutputs: readonly TxOutputView[];
  readonly balanceChanges: readonly TxBalanceChangeView[];
  /** Why the balance changes may be incomplete (contract inputs, unknown spenders). */
  readonly balanceNote?: string;
  readonly inputSignatures: readonly string[];
  readonly scriptSignatures: readonly string[];
  readonly scriptExecutionOk?: boolean;
  readonly hasScript: boolean;
  readonly events: readonly TxEventView[];
  /** Set once Explain Transaction ran for this transaction (in this session). */
  readonly whatHappened?: WhatHappenedView;
  /** Facts worth a line of their own (pending details, decode cross-checks, errors while loading). */
  readonly notes: readonly string[];
  /** Pretty JSON of what the gateway answered (status, details, events), for the raw toggle. */
  readonly raw: string;
  /** ISO time of this model. */
  readonly updatedAt: string;
}

/** What the page keeps with getState/setState; the serializer revives a panel from it. */
export interface TxDetailsState {
  readonly txId: string;
  readonly fromGroup?: number;
  readonly toGroup?: number;
  readonly showRaw?: boolean;
  /** Hex of a pasted unsigned transaction (public data), so a decoded view survives a reload. */
  readonly unsignedTx?: string;
}

export type HostToWebviewMessage =
  | {
      readonly type: 'render';
      readonly model: TxDetailsModel;
      readonly state: TxDetailsState;
      /** Whether the active profile has an explorer: the page offers Open in Explorer only then. */
      readonly explorer?: boolean;
    }
  | { readonly type: 'loading'; readonly txId: string }
  | { readonly type: 'error'; readonly message: string };

export type WebviewToHostMessage =
  | { readonly type: 'ready'; readonly state?: TxDetailsState }
  | { readonly type: 'refresh' }
  /** Run Explain Transaction on this panel's transaction. */
  | { readonly type: 'explain' }
  /** Open the Ralph line of this panel's explained failure (the host knows which; the page names none). */
  | { readonly type: 'openFailure' }
  /** Open this panel's transaction in the explorer (the host knows which; the page names none). */
  | { readonly type: 'openInExplorer' }
  | { readonly type: 'rendered'; readonly text: string };

/** Bounds the host holds every message from the page to (the page is not trusted to respect them). */
export const TX_DETAILS_LIMITS = {
  /**
   * Hex characters of an unsigned transaction in the page's state: 64 KiB of bytes. A contract's code is
   * at most 32 KB, so every real transaction fits; a page cannot make the host decode megabytes.
   */
  unsignedTxHexChars: 131_072,
  /** Characters of the rendered text the page reports back (for tests). */
  renderedChars: 200_000,
} as const;

function plainRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Only these keys, each allowed at most once (an object literal cannot repeat one anyway). */
function hasOnlyKeys(v: Record<string, unknown>, allowed: readonly string[]): boolean {
  return Object.keys(v).every((k) => allowed.includes(k));
}

function isHexDigits(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const digit = c >= 48 && c <= 57;
    const lower = c >= 97 && c <= 102;
    const upper = c >= 65 && c <= 70;
    if (!digit && !lower && !upper) return false;
  }
  return true;
}

function group(value: unknown): number | undefined | false {
  if (value === undefined) return undefined;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 3 ? value : false;
}

/**
 * The page's state (what it keeps with setState, and what VS Code hands back to revive a panel), parsed
 * exactly: the known keys only, a 64-hex txId, groups 0-3, a boolean raw toggle, and an unsigned
 * transaction of even-length hex within {@link TX_DETAILS_LIMITS}. Anything else is no state at all.
 */
export function parseTxDetailsState(value: unknown): TxDetailsState | undefined {
  const v = plainRecord(value);
  if (!v || !hasOnlyKeys(v, ['txId', 'fromGroup', 'toGroup', 'showRaw', 'unsignedTx'])) return undefined;
  if (typeof v.txId !== 'string' || v.txId.length !== 64 || !isHexDigits(v.txId)) return undefined;
  const fromGroup = group(v.fromGroup);
  const toGroup = group(v.toGroup);
  if (fromGroup === false || toGroup === false) return undefined;
  if (v.showRaw !== undefined && typeof v.showRaw !== 'boolean') return undefined;
  const hex = v.unsignedTx;
  if (
    hex !== undefined &&
    (typeof hex !== 'string' ||
      hex.length === 0 ||
      hex.length > TX_DETAILS_LIMITS.unsignedTxHexChars ||
      hex.length % 2 !== 0 ||
      !isHexDigits(hex))
  )
    return undefined;
  return {
    txId: v.txId.toLowerCase(),
    ...(fromGroup !== undefined ? { fromGroup } : {}),
    ...(toGroup !== undefined ? { toGroup } : {}),
    ...(v.showRaw === true ? { showRaw: true } : {}),
    ...(typeof hex === 'string' ? { unsignedTx: hex.toLowerCase() } : {}),
  };
}

/**
 * A message from the page, parsed exactly (the contract panel's `parseWebviewMessage` does the same):
 * one of the three shapes with no other keys, strings bounded. A `ready` whose state does not parse is
 * still a `ready` (the page may hold a stale state), without it. Anything else is undefined: ignored.
 */
export function parseWebviewMessage(value: unknown): WebviewToHostMessage | undefined {
  const v = plainRecord(value);
  if (!v) return undefined;
  switch (v.type) {
    case 'ready': {
      if (!hasOnlyKeys(v, ['type', 'state'])) return undefined;
      const state = parseTxDetailsState(v.state);
      return state ? { type: 'ready', state } : { type: 'ready' };
    }
    case 'refresh':
    case 'explain':
    case 'openFailure':
    case 'openInExplorer':
      return hasOnlyKeys(v, ['type']) ? { type: v.type } : undefined;
    case 'rendered':
      if (!hasOnlyKeys(v, ['type', 'text']) || typeof v.text !== 'string') return undefined;
      return { type: 'rendered', text: v.text.slice(0, TX_DETAILS_LIMITS.renderedChars) };
    default:
      return undefined;
  }
}

/**
 * What the host takes from the page's state when the page says `ready`: the raw toggle of this panel's
 * own transaction, nothing else. Which transaction it shows, its groups and an unsigned transaction's
 * bytes are the host's (a Decode Unsigned Transaction command put them there); a page never switches a
 * panel to other bytes.
 */
export function adoptPageState(current: TxDetailsState, page: TxDetailsState | undefined): TxDetailsState {
  if (page?.txId !== current.txId || page.showRaw !== true || current.showRaw === true) return current;
  return { ...current, showRaw: true };
}
