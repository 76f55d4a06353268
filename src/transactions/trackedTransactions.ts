import * as vscode from 'vscode';
import { systemClock, type TxStatus } from '../core/gateway';
import type { Logger } from '../core/util/log';
import type { DecodedUnsignedTx } from '../core/protocol';
import {
  TxTracker,
  parseRecord,
  type TrackRequest,
  type TrackedTxRecord,
} from '../core/transactions/txTracker';
import * as config from '../platform/config';
import type { ConnectionManager } from '../platform/connection';
import { DisposableBase } from '../platform/lifecycle';
import { StorageKeys } from '../constants';
import { mergeLegacyRecords, trackingScopeKey } from '../core/transactions/trackingScope';

/** The list older versions kept for every profile at once: moved into the active profile's scope once. */
const LEGACY_KEY = StorageKeys.trackedTransactions;
/** Finished records kept for display; older ones are dropped so the state stays small. */
const MAX_FINISHED = 100;

/**
 * The tracked transactions of this workspace: the core TxTracker does the polling (spec rules, grace
 * period, backoff); this class persists its plain-JSON records in workspaceState, restores them after a
 * reload and resumes polling lazily, i.e. only once something shows them and a client exists.
 *
 * Records belong to the active profile and its network (core/transactions/trackingScope.ts): switching
 * profile stops the old scope's polling and shows the new scope's records, never the other's.
 */
export class TrackedTransactions extends DisposableBase {
  private readonly changed = this.register(new vscode.EventEmitter<string | undefined>());
  /** Fires with the txId that changed (undefined: the whole list). */
  readonly onDidChange = this.changed.event;
  private tracker: TxTracker | undefined;
  private restored = false;
  private readonly lifetime = new AbortController();
  private readonly running = new Map<string, AbortController>();
  /** The bytes we signed, per txId, so a pending tx can be shown before the gateway has details. */
  private readonly signedBytes = new Map<string, DecodedUnsignedTx>();

  constructor(
    private readonly memento: vscode.Memento,
    private readonly connection: ConnectionManager,
    private readonly log: Logger,
  ) {
    super();
    this.register({ dispose: () => this.lifetime.abort() });
    this.register({ dispose: () => this.dropTracker() });
    // A profile appearing later (or changing) is the moment restored records can be polled; another
    // profile or network is another scope.
    this.register(
      connection.onDidChange(() => {
        if (this.scopeKey() !== this.loadedScope) this.switchScope();
        this.ensureRestored();
      }),
    );
  }

  /** The scope loaded into the tracker (undefined before the first restore). */
  private loadedScope: string | undefined;
  private trackerSubscription: vscode.Disposable | undefined;

  /** The storage key of the active profile's records, or undefined without a profile. */
  private scopeKey(): string | undefined {
    const profile = this.connection.state.profile;
    return profile ? trackingScopeKey(LEGACY_KEY, profile) : undefined;
  }

  /** The stored records of the active scope (the legacy list is moved in at the first restore). */
  private stored(): unknown[] {
    const key = this.scopeKey();
    if (key === undefined) return [];
    // Before the move, the legacy list shows as the active profile's: the same list the move will make.
    return mergeLegacyRecords(this.memento.get<unknown[]>(key), this.memento.get<unknown[]>(LEGACY_KEY))
      .records;
  }

  /** Stops the old scope's polling and forgets its tracker; the next look restores the new scope. */
  private switchScope(): void {
    for (const controller of this.running.values()) controller.abort();
    this.running.clear();
    this.dropTracker();
    this.restored = false;
    this.changed.fire(undefined);
  }

  private dropTracker(): void {
    this.trackerSubscription?.dispose();
    this.trackerSubscription = undefined;
    this.tracker?.dispose();
    this.tracker = undefined;
  }

  /** Moves the single list of older versions into the active scope, once (nothing is lost); the merged list. */
  private migrateLegacy(key: string): unknown[] | undefined {
    const legacy = this.memento.get<unknown[]>(LEGACY_KEY);
    if (legacy === undefined) return undefined;
    const { records, moved } = mergeLegacyRecords(this.memento.get<unknown[]>(key), legacy);
    void this.memento.update(key, records).then(() => this.memento.update(LEGACY_KEY, undefined));
    if (moved > 0) this.log.info(`Moved ${moved} tracked transaction(s) to the active profile's list`);
    return records;
  }

  private core(): TxTracker {
    if (!this.tracker) {
      this.tracker = new TxTracker({
        // Always the current profile's client: a rebuilt client (new profile, proxy) is picked up.
        client: {
          getTxStatus: (txId, groups, options) =>
            this.connection.requireClient().getTxStatus(txId, groups, options),
          getTxDetails: (txId, groups, options) =>
            this.connection.requireClient().getTxDetails(txId, groups, options),
        },
        clock: systemClock,
        options: {
          requiredConfirmations: config.requiredConfirmations(),
          notFoundGraceMs: config.notFoundGraceSeconds() * 1000,
        },
      });
      const tracker = this.tracker;
      this.trackerSubscription = tracker.onDidChange((change) => {
        if (tracker !== this.tracker) return; // a scope left behind writes nothing
        this.persist();
        this.changed.fire(change.txId);
      });
    }
    return this.tracker;
  }

  /** Records as last persisted or as the tracker holds them, newest first. */
  records(): TrackedTxRecord[] {
    const list = this.restored
      ? this.core().records()
      : this.stored()
          .map(parseRecord)
          .filter((r): r is TrackedTxRecord => r !== undefined);
    return list.sort((a, b) => b.submittedAt - a.submittedAt);
  }

  record(txId: string): TrackedTxRecord | undefined {
    const id = txId.toLowerCase();
    return this.records().find((r) => r.txId === id);
  }

  isTracked(txId: string): boolean {
    return this.record(txId) !== undefined;
  }

  /**
   * A status the details page just read: a finished record takes its newer confirmations (persisted,
   * and the row re-renders), so the row and the page never disagree.
   */
  observeStatus(txId: string, status: TxStatus): void {
    if (!this.restored || !this.tracker) return;
    this.tracker.observe(txId, status);
  }

  signedBytesOf(txId: string): DecodedUnsignedTx | undefined {
    return this.signedBytes.get(txId.toLowerCase());
  }

  /**
   * Restores persisted records into the tracker once, when a client can poll them. Finished ones are
   * kept for display; the others resume polling with their original submit time, so the grace period
   * is not restarted by a reload.
   */
  ensureRestored(): void {
    const key = this.scopeKey();
    if (this.restored || this.isDisposed || !this.connection.state.client || key === undefined) return;
    this.restored = true;
    this.loadedScope = key;
    const raw = this.migrateLegacy(key) ?? this.memento.get<unknown[]>(key, []);
    const records = raw.map(parseRecord).filter((r): r is TrackedTxRecord => r !== undefined);
    const tracker = this.core();
    void tracker.restore(records.filter((r) => r.outcome !== undefined));
    for (const r of records) if (r.outcome === undefined) this.start(r);
    if (records.length > 0) this.log.info(`Restored ${records.length} tracked transaction(s)`);
    this.changed.fire(undefined);
  }

  /** Starts tracking (no-op when it is already being polled). */
  track(request: TrackRequest, signedBytes?: DecodedUnsignedTx): string {
    const txId = request.txId.toLowerCase();
    // Polling needs a client; failing here says so plainly instead of a tracker giving up later.
    this.connection.requireClient();
    if (signedBytes) this.signedBytes.set(txId, signedBytes);
    this.ensureRestored();
    if (this.running.has(txId)) return txId;
    this.start({
      ...request,
      // A script tx in a block may still have failed: the tracker reads its details once to know.
      ...(signedBytes?.scriptOpt ? { hasScript: true } : {}),
      txId,
      requiredConfirmations: request.requiredConfirmations ?? config.requiredConfirmations(),
    });
    this.changed.fire(txId);
    return txId;
  }

  private start(request: TrackRequest | TrackedTxRecord): void {
    const txId = request.txId.toLowerCase();
    const controller = new AbortController();
    const onLifetimeEnd = () => controller.abort();
    this.lifetime.signal.addEventListener('abort', onLifetimeEnd, { once: true });
    this.running.set(txId, controller);
    this.core()
      .track(request, controller.signal)
      .then(
        (outcome) => {
          if (outcome.kind === 'cancelled') return;
          this.log.info(
            `Transaction ${txId}: ${outcome.kind}${'reason' in outcome ? ` (${outcome.reason})` : ''}`,
          );
          // The outcome is set after the last change event: persist it, or a reload would poll again.
          this.persist();
          this.changed.fire(txId);
        },
        (error: unknown) => this.log.error(`Tracking ${txId} failed: ${String(error)}`),
      )
      .finally(() => {
        this.lifetime.signal.removeEventListener('abort', onLifetimeEnd);
        if (this.running.get(txId) === controller) this.running.delete(txId);
      });
  }

  untrack(txId: string): boolean {
    const id = txId.toLowerCase();
    this.ensureRestored();
    const known = this.isTracked(id);
    this.running.get(id)?.abort();
    this.running.delete(id);
    this.signedBytes.delete(id);
    if (this.tracker) this.tracker.forget(id);
    const key = this.scopeKey();
    if (this.restored) this.persist();
    else if (key !== undefined) {
      // records() holds the legacy list merged in: written whole, so the legacy list may go.
      const kept = this.records().filter((r) => r.txId !== id);
      void this.memento.update(key, kept).then(() => this.memento.update(LEGACY_KEY, undefined));
    }
    this.changed.fire(undefined);
    return known;
  }

  private persist(): void {
    const key = this.loadedScope;
    if (this.isDisposed || !this.tracker || key === undefined) return;
    const all = this.tracker.records().sort((a, b) => b.submittedAt - a.submittedAt);
    let finished = 0;
    const kept = all.filter((r) => r.outcome === undefined || ++finished <= MAX_FINISHED);
    void this.memento.update(key, kept);
  }
}
