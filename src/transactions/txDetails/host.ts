import type * as vscode from 'vscode';
import { decodeEvent } from '../../core/artifacts';
import { errorMessage } from '../../core/util/errors';
import type { EventByTxId, TxDetails, TxStatus } from '../../core/gateway';
import { groupsOfUnsignedTx, txIdFromUnsignedTx } from '../../core/protocol';
import { checkUnsignedTx, type DecodeCheck } from '../../core/signing/decodeCheck';
import {
  buildTxDetailsModel,
  tokenIdsOf,
  type DecodedEventLike,
  type TxDetailsSources,
} from '../../core/transactions/txDetailsModel';
import { shortTxId } from '../../core/protocol';
import {
  TX_DETAILS_VIEW_TYPE,
  adoptPageState,
  parseTxDetailsState,
  parseWebviewMessage,
  type HostToWebviewMessage,
  type TxDetailsModel,
  type TxDetailsState,
  type WebviewToHostMessage,
  type WhatHappenedView,
} from '../../core/transactions/txDetailsProtocol';
import * as config from '../../platform/config';
import type { WebviewPage } from '../../platform/webview/host';
import { PanelHost, PanelManager } from '../../platform/webview/panelHost';
import type { Services } from '../../services';

export type EventDecoder = (event: EventByTxId) => DecodedEventLike | undefined;

export type TxDetailsDeps = Pick<Services, 'extensionUri' | 'connection' | 'tracked' | 'log' | 'redactor'> & {
  /** Names events with the workspace's artifacts, as the Watched Contracts view does. */
  readonly eventDecoder: () => Promise<EventDecoder>;
  /** What tokens are called (the connection's token catalog); without it tokens are shown raw. */
  readonly tokenNames?: (tokenIds: readonly string[]) => Promise<TokenNames>;
  /** Explain Transaction's answers ("What happened"), kept by the debugging feature. */
  readonly explanations?: TxExplanationsView;
  /** The explorer of the active profile, if any: the page's Open in Explorer button. */
  readonly explorer?: { known(): boolean; open(txId: string): void };
};

/** What the panel needs of the explanations: read one, hear of new ones, ask for one, open its line. */
export interface TxExplanationsView {
  of(txId: string): WhatHappenedView | undefined;
  onDidChange(listener: (txId: string) => void): vscode.Disposable;
  /** Runs Explain Transaction on a transaction (the command says its cost). */
  explain(txId: string): void;
  /** Opens the Ralph line of a transaction's explained failure. */
  openFailure(txId: string): void;
}

type TokenNames = NonNullable<TxDetailsSources['tokens']>;

/** What the last panel showed: for the extension's API (tests), never anything secret. */
export interface TxDetailsSnapshot {
  readonly txId: string;
  readonly html: string;
  readonly model?: TxDetailsModel;
  /** The page's own rendered text, reported back after each render. */
  readonly text?: string;
  /** Every message posted to the page, as JSON. */
  readonly posted: readonly string[];
}

const TXID_RE = /^[0-9a-f]{64}$/;

function validGroup(g: unknown): number | undefined {
  return typeof g === 'number' && Number.isInteger(g) && g >= 0 && g <= 3 ? g : undefined;
}

/**
 * The state of a panel VS Code revives after a reload: what its page kept, so it is parsed exactly and
 * bounded (core/transactions/txDetailsProtocol.ts). An unsigned transaction is kept only when its bytes are the
 * transaction the panel is about (their txId), as Decode Unsigned Transaction opened it; otherwise the
 * panel shows the txId as a transaction.
 */
export function revivedState(raw: unknown): TxDetailsState | undefined {
  const state = parseTxDetailsState(raw);
  if (!state?.unsignedTx || txIdFromUnsignedTx(state.unsignedTx) === state.txId) return state;
  const { unsignedTx: _dropped, ...rest } = state;
  return rest;
}

/** Normalises what arrives from commands (a pasted transaction, a txId and its groups). */
export function toState(value: unknown): TxDetailsState | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const txId = typeof v.txId === 'string' ? v.txId.trim().toLowerCase() : '';
  if (!TXID_RE.test(txId)) return undefined;
  const fromGroup = validGroup(v.fromGroup);
  const toGroup = validGroup(v.toGroup);
  return {
    txId,
    ...(fromGroup !== undefined ? { fromGroup } : {}),
    ...(toGroup !== undefined ? { toGroup } : {}),
    ...(v.showRaw === true ? { showRaw: true } : {}),
    ...(typeof v.unsignedTx === 'string' && /^[0-9a-fA-F]+$/.test(v.unsignedTx)
      ? { unsignedTx: v.unsignedTx }
      : {}),
  };
}

const TX_DETAILS_PAGE: WebviewPage = {
  script: 'txDetails',
  style: 'txDetails',
  title: 'Transaction details',
};

/**
 * Owns the transaction details panels (one per txId) and revives them after a reload. Each panel gets
 * its model by message; the HTML carries no chain data at all, and the page renders text only.
 */
export class TxDetailsPanels extends PanelManager<string, TxDetailsPanel> {
  private last: TxDetailsSnapshot | undefined;

  /** `registerSerializer: false` when activation registers it (this module loads on first use). */
  constructor(
    private readonly deps: TxDetailsDeps,
    registerSerializer = true,
  ) {
    super(TX_DETAILS_VIEW_TYPE, deps.extensionUri, {}, registerSerializer);
  }

  show(state: TxDetailsState): TxDetailsPanel {
    const existing = this.panels.get(state.txId);
    if (existing) {
      existing.reveal();
      void existing.load();
      return existing;
    }
    return this.adopt(this.createPanel(`Tx ${shortTxId(state.txId)}`), state);
  }

  /** A decoded unsigned transaction: the model is computed by the command (it may hold the gateway's view). */
  showUnsigned(state: TxDetailsState, check: DecodeCheck): TxDetailsPanel {
    const panel = this.show(state);
    panel.setUnsignedCheck(check);
    return panel;
  }

  protected keyOfState(raw: unknown): string | undefined {
    return revivedState(raw)?.txId;
  }

  protected revive(panel: vscode.WebviewPanel, _txId: string, raw: unknown): Promise<void> {
    const state = revivedState(raw);
    if (state) this.adopt(panel, state);
    return Promise.resolve();
  }

  snapshot(): TxDetailsSnapshot | undefined {
    return this.last && { ...this.last, posted: [...this.last.posted] };
  }

  /** @internal for panels */
  record(update: Partial<TxDetailsSnapshot> & { txId: string }): void {
    const base =
      this.last?.txId === update.txId ? this.last : { txId: update.txId, html: '', posted: [] as string[] };
    this.last = { ...base, ...update, posted: update.posted ?? base.posted };
  }

  get details(): TxDetailsDeps {
    return this.deps;
  }

  private adopt(panel: vscode.WebviewPanel, state: TxDetailsState): TxDetailsPanel {
    const host = new TxDetailsPanel(panel, state, this);
    this.panels.set(state.txId, host);
    return host;
  }

  /**
   * What the tokens of a transaction are called: the token list, else their contracts (one multicall per
   * six tokens, once). A failed lookup leaves them raw and adds a note saying so.
   */
  async tokenNames(tokenIds: readonly string[], notes: string[]): Promise<TokenNames | undefined> {
    if (tokenIds.length === 0 || !this.deps.tokenNames) return undefined;
    try {
      return await this.deps.tokenNames(tokenIds);
    } catch (error) {
      notes.push(
        `Token names could not be read (shown raw): ${this.deps.redactor.redact(errorMessage(error))}`,
      );
      return undefined;
    }
  }

  /** The decoder for this load; without one (it failed), system events still decode by index. */
  async eventDecoder(): Promise<EventDecoder> {
    try {
      return await this.deps.eventDecoder();
    } catch (error) {
      this.deps.log.warn(`Event decoder unavailable: ${errorMessage(error)}`);
      return (event) => decodeEvent(event, undefined, {});
    }
  }
}

/** A page older than this is read again when the person looks at it. */
const LOOK_STALE_MS = 30_000;

function isPendingKind(kind: TxDetailsModel['status']['kind']): boolean {
  return kind === 'not-found-yet' || kind === 'mempool' || kind === 'confirming' || kind === 'unknown';
}

function isPending(status: TxStatus, required: number): boolean {
  if (status.type === 'MemPooled' || status.type === 'TxNotFound') return true;
  if (status.type === 'Confirmed')
    return (
      Math.min(status.chainConfirmations, status.fromGroupConfirmations, status.toGroupConfirmations) <
      required
    );
  return false;
}

/** One panel: HTML with a strict CSP, a model posted by message, reloaded while the tx is pending. */
export class TxDetailsPanel extends PanelHost<HostToWebviewMessage, WebviewToHostMessage> {
  private state: TxDetailsState;
  private model: TxDetailsModel | undefined;
  private unsignedCheck: DecodeCheck | undefined;
  private loadSeq = 0;
  /** When the model on the page was built (ms). */
  private loadedAt: number | undefined;
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    panel: vscode.WebviewPanel,
    state: TxDetailsState,
    private readonly manager: TxDetailsPanels,
  ) {
    // No chain data in the HTML: the page receives the model by message and renders text nodes only.
    super(panel, {
      extensionUri: manager.details.extensionUri,
      page: TX_DETAILS_PAGE,
      parse: parseWebviewMessage,
    });
    this.state = state;
    const deps = manager.details;
    // While the tx is pending the tracker polls; each change it sees reloads this panel. Once the page
    // shows an outcome, changes (this panel's own count handed to the row) need no reload.
    this.register(
      deps.tracked.onDidChange((txId) => {
        if (this.model && !isPendingKind(this.model.status.kind)) return;
        if (txId === undefined || txId === this.state.txId) this.scheduleReload();
      }),
    );
    // Looking at the page again reads it again when what it shows is older than half a minute.
    this.register(
      panel.onDidChangeViewState((e) => {
        if (
          e.webviewPanel.visible &&
          this.loadedAt !== undefined &&
          Date.now() - this.loadedAt >= LOOK_STALE_MS
        )
          void this.load();
      }),
    );
    this.register({ dispose: () => this.reloadTimer && clearTimeout(this.reloadTimer) });
    // An explanation of this transaction arrived: the page shows it without reading anything again.
    const explanations = deps.explanations;
    if (explanations)
      this.register(
        explanations.onDidChange((txId) => {
          if (txId === this.state.txId && this.model) this.post(this.renderMessage(this.model));
        }),
      );
    this.manager.record({ txId: state.txId, html: this.html, posted: this.posted });
  }

  protected pageReady(message: WebviewToHostMessage): void {
    if (message.type !== 'ready') return;
    // Only the raw toggle comes from the page: never the transaction or its bytes.
    this.state = adoptPageState(this.state, message.state);
    if (this.model) this.post(this.renderMessage(this.model));
    else void this.load();
  }

  /** The page's render message: the model, the page state, and whether an explorer is known. */
  private renderMessage(model: TxDetailsModel): HostToWebviewMessage {
    const explorer = this.manager.details.explorer?.known() === true;
    return { type: 'render', model, state: this.state, ...(explorer ? { explorer } : {}) };
  }

  protected received(message: WebviewToHostMessage): void {
    const explanations = this.manager.details.explanations;
    if (message.type === 'refresh') void this.load();
    else if (message.type === 'openInExplorer') this.manager.details.explorer?.open(this.state.txId);
    else if (message.type === 'explain') explanations?.explain(this.state.txId);
    else if (message.type === 'openFailure') explanations?.openFailure(this.state.txId);
    else if (message.type === 'rendered') this.manager.record({ txId: this.state.txId, text: message.text });
  }

  protected override panelClosed(): void {
    this.manager.forget(this.state.txId, this);
  }

  setUnsignedCheck(check: DecodeCheck): void {
    this.unsignedCheck = check;
    void this.load();
  }

  private scheduleReload(): void {
    if (this.isDisposed || this.state.unsignedTx) return;
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => void this.load(), 250);
  }

  protected override post(message: HostToWebviewMessage): void {
    if (this.isDisposed) return;
    const whatHappened =
      message.type === 'render' ? this.manager.details.explanations?.of(this.state.txId) : undefined;
    if (message.type === 'render' && whatHappened)
      message = { ...message, model: { ...message.model, whatHappened } };
    super.post(message);
    this.manager.record({
      txId: this.state.txId,
      posted: this.posted,
      ...(message.type === 'render' ? { model: message.model } : {}),
    });
  }

  /** Fetches status, details and events, builds the model in the core and posts it. */
  async load(): Promise<void> {
    const seq = ++this.loadSeq;
    const deps = this.manager.details;
    const txId = this.state.txId;
    try {
      let model: TxDetailsModel;
      let read: TxStatus | undefined;
      if (this.state.unsignedTx) {
        const check = this.unsignedCheck ?? checkUnsignedTx(this.state.unsignedTx);
        const notes: string[] = [];
        const tokens = await this.manager.tokenNames(tokenIdsOf(check.decoded), notes);
        model = unsignedModel(check, tokens, notes);
      } else {
        const client = deps.connection.requireClient();
        const rec = deps.tracked.record(txId);
        const groups = {
          ...((this.state.fromGroup ?? rec?.fromGroup) !== undefined
            ? { fromGroup: this.state.fromGroup ?? rec?.fromGroup }
            : {}),
          ...((this.state.toGroup ?? rec?.toGroup) !== undefined
            ? { toGroup: this.state.toGroup ?? rec?.toGroup }
            : {}),
        };
        const required = rec?.requiredConfirmations ?? config.requiredConfirmations();
        const status = await client.getTxStatus(txId, groups, { priority: 'user', fresh: true });
        read = status;
        const notes: string[] = [];
        let details: TxDetails | undefined;
        let events: EventByTxId[] | undefined;
        if (status.type === 'Confirmed' || status.type === 'Conflicted') {
          details = await client.getTxDetails(txId, groups, { priority: 'user' }).catch((e: unknown) => {
            notes.push(`Details could not be loaded: ${deps.redactor.redact(errorMessage(e))}`);
            return undefined;
          });
          events = await client.getEventsByTxId(txId, { priority: 'user' }).catch((e: unknown) => {
            notes.push(`Events could not be loaded: ${deps.redactor.redact(errorMessage(e))}`);
            return undefined;
          });
        }
        const signed = details ? undefined : deps.tracked.signedBytesOf(txId);
        const unsigned = details?.unsigned ?? signed;
        if (
          (groups.fromGroup === undefined || groups.toGroup === undefined) &&
          unsigned &&
          unsigned.inputs.length > 0
        ) {
          Object.assign(groups, groupsOfUnsignedTx(unsigned));
        }
        const decode = events && events.length > 0 ? await this.manager.eventDecoder() : undefined;
        const tokens = await this.manager.tokenNames(tokenIdsOf(unsigned, details?.generatedOutputs), notes);
        model = buildTxDetailsModel({
          txId,
          now: Date.now(),
          status,
          // The tracker knows the grace period, which a bare TxNotFound does not.
          ...(rec && status.type === 'TxNotFound' ? { tracked: rec } : {}),
          requiredConfirmations: required,
          ...(details ? { details } : {}),
          ...(signed ? { unsigned: signed } : {}),
          groups,
          ...(events ? { events } : {}),
          ...(decode ? { decodeEvent: decode } : {}),
          ...(tokens ? { tokens } : {}),
          notes,
        });
        if (isPending(status, required) && !deps.tracked.isTracked(txId)) {
          // Keeps the panel live without a second poller: the tracker's changes reload it.
          deps.tracked.track({
            txId,
            ...groups,
            requiredConfirmations: required,
            label: `Shown ${shortTxId(txId)}`,
          });
        }
      }
      if (seq !== this.loadSeq || this.isDisposed) return;
      this.model = model;
      this.loadedAt = Date.now();
      // What this page just read is newer than a finished row's count: the row takes it.
      if (read) deps.tracked.observeStatus(txId, read);
      this.panel.title = `${model.kind === 'unsigned' ? 'Unsigned' : 'Tx'} ${shortTxId(txId)}`;
      this.post(this.renderMessage(model));
    } catch (error) {
      if (seq !== this.loadSeq) return;
      const message = deps.redactor.redact(errorMessage(error));
      deps.log.warn(`Transaction details of ${txId}: ${message}`);
      this.post({ type: 'error', message });
    }
  }
}

/** The model of a pasted unsigned transaction, with what the cross-check found. */
export function unsignedModel(
  check: DecodeCheck,
  tokens?: TokenNames,
  extraNotes: readonly string[] = [],
): TxDetailsModel {
  const notes = [
    ...extraNotes,
    `txId recomputed from the bytes: ${check.txId}`,
    check.gateway === 'agrees'
      ? "The gateway's decoding re-encodes to exactly these bytes."
      : check.gateway === 'not-asked'
        ? 'Decoded locally only (the gateway was not asked).'
        : `Warning: ${check.problems.join('; ')}`,
    ...(check.decoded.scriptOpt ? ['This transaction runs a script: review it before signing.'] : []),
  ];
  return buildTxDetailsModel({
    kind: 'unsigned',
    txId: check.txId,
    now: Date.now(),
    unsigned: check.decoded,
    ...(check.groups ? { groups: check.groups } : {}),
    ...(tokens ? { tokens } : {}),
    notes,
  });
}
