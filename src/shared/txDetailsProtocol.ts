/**
 * The transaction details webview's model and messages. Plain data only (strings, numbers, booleans):
 * the host builds the model in src/core, posts it, and the page renders every string as text. This file
 * imports nothing, so the host (Node), the core and the page (DOM) can all share it.
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
  readonly amount: string;
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
  | { readonly type: 'render'; readonly model: TxDetailsModel; readonly state: TxDetailsState }
  | { readonly type: 'loading'; readonly txId: string }
  | { readonly type: 'error'; readonly message: string };

export type WebviewToHostMessage =
  | { readonly type: 'ready'; readonly state?: TxDetailsState }
  | { readonly type: 'refresh' }
  | { readonly type: 'rendered'; readonly text: string };

export function isWebviewToHostMessage(value: unknown): value is WebviewToHostMessage {
  if (typeof value !== 'object' || value === null) return false;
  const type = (value as { type?: unknown }).type;
  return type === 'ready' || type === 'refresh' || type === 'rendered';
}
