import * as vscode from 'vscode';
import { formatEventSummary, decodeEvent } from '../core/artifacts';
import { errorMessage } from '../core/util/errors';
import { limitsOf, type ContractEvent, type GatewayClient } from '../core/gateway';
import type { Logger } from '../core/util/log';
import type { EventWatcher } from '../core/contracts/watching/eventWatcher';
import { eventKey, type CursorStore } from '../core/contracts/watching/watcherTypes';
import { inert } from '../core/text/inert';
import { showInfo } from '../platform/notify';
import * as config from '../platform/config';
import type { ConnectionManager } from '../platform/connection';
import { DisposableBase, lazyModule } from '../platform/lifecycle';
import { StorageKeys } from '../constants';
import type { WatchedContractsModel } from '../core/contracts/watching/watchedContractsModel';

/** What the watcher delivered in this session (bounded), for the API's read-only view. */
export interface DeliveredEvent {
  readonly address: string;
  readonly key: string;
  readonly txId: string;
  readonly eventIndex: number;
}

const DELIVERED_LIMIT = 1000;

/**
 * The polling engine (the watcher, its scan of the chain's blocks): a chunk of its own, loaded when the
 * first contract is watched on a client rather than with activation.
 */
const watcherEngine = lazyModule(() => import('../core/contracts/watching/eventWatcher'));
/** More than this many matching events in one batch are summarised in one notification. */
const NOTIFY_LIMIT = 3;

/**
 * Owns the core EventWatcher of the active connection. It is rebuilt (from the cursors persisted in
 * workspaceState) whenever the connection or a watch setting changes, which is also exactly what a
 * window reload does; so the "nothing missed, nothing repeated" promise is exercised on every rebuild.
 */
export class EventWatch extends DisposableBase {
  private watcher: EventWatcher | undefined;
  private lastUsed: number | undefined;
  private readonly delivered: DeliveredEvent[] = [];
  /** Contracts whose state or events the user looks at (expanded in the visible view): polled first. */
  private lookedAt: readonly string[] = [];
  /** Counts rebuilds and stops: an engine that finishes loading after a later one is not used. */
  private generation = 0;
  /** Contracts the user changed while the engine was loading: polled soon once it runs. */
  private readonly soon = new Set<string>();
  private readonly watcherEvents = this.register(
    new vscode.EventEmitter<{ address: string; events: readonly ContractEvent[] }>(),
  );
  /** Every watcher delivery, loaded feed or not: the `.ral` lenses count events from it at no request. */
  readonly onWatcherEvents = this.watcherEvents.event;

  constructor(
    private readonly connection: ConnectionManager,
    private readonly workspaceState: vscode.Memento,
    private readonly model: WatchedContractsModel,
    private readonly log: Logger,
  ) {
    super();
    this.register(connection.onUsage((u) => (this.lastUsed = u.count)));
    this.register(
      vscode.window.onDidChangeWindowState((s) => this.watcher?.setFocused(this.focused(s.focused))),
    );
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        // Connection settings rebuild through the connection's own change event.
        if (e.affectsConfiguration(`${config.SECTION}.watch`) && !config.affectsConnection(e)) this.rebuild();
      }),
    );
    this.register({ dispose: () => this.stop() });
  }

  private focused(windowFocused: boolean): boolean {
    return config.unfocusedPolling() === 'continue' || windowFocused;
  }

  /** Expanded contracts of the visible view are what the user looks at: they are polled first. */
  setLookedAt(addresses: readonly string[]): void {
    this.lookedAt = addresses;
    this.watcher?.setVisible(addresses);
  }

  get deliveredEvents(): readonly DeliveredEvent[] {
    return this.delivered;
  }

  private stop(): void {
    this.generation++;
    this.watcher?.dispose();
    this.watcher = undefined;
  }

  /** Builds a watcher for the active client and the current watch list (nothing without a client). */
  rebuild(): void {
    this.stop();
    if (this.isDisposed) return;
    const { client, profile } = this.connection.state;
    if (!client || !profile) return;
    const generation = this.generation;
    void watcherEngine().then(
      (engine) => {
        if (this.isDisposed || generation !== this.generation) return;
        const watcher = this.create(engine.EventWatcher, client, profile.name);
        this.watcher = watcher;
        for (const w of this.model.watched) watcher.watch(w.address);
        watcher.start();
        for (const address of this.soon) watcher.pollSoon(address);
        this.soon.clear();
        this.log.info(`Watching ${this.model.watched.length} contract(s): ${watcher.explanation()}`);
      },
      (error: unknown) => this.log.error(`The event watcher did not load: ${errorMessage(error)}`),
    );
  }

  private create(Watcher: typeof EventWatcher, client: GatewayClient, profileName: string): EventWatcher {
    const store: CursorStore = {
      get: (key) => this.workspaceState.get(key),
      set: (key, value) => this.workspaceState.update(key, value),
    };
    const interval = config.watchIntervalSeconds();
    const whenUnfocused = config.unfocusedPolling();
    // Always within the plan's budget; an explicit interval only keeps each contract's polls further apart.
    const watcher = new Watcher({
      client,
      store,
      storeKeyPrefix: StorageKeys.eventCursorPrefix(profileName),
      // Only what happens from now on is news: the view reads recent history itself, and a backlog
      // would notify about old events.
      backlog: 0,
      pageSize: 100,
      whenUnfocused: whenUnfocused === 'pause' ? 'pause' : 'slow',
      ...(interval !== undefined ? { intervalMs: interval * 1000 } : {}),
      budget: {
        monthlyLimit: limitsOf(client.profile).perMonth,
        share: config.watchMonthlyShare() / 100,
        requestsUsedThisMonth: () => this.lastUsed,
      },
    });
    watcher.setFocused(this.focused(vscode.window.state.focused));
    const listed = new Set(this.model.watched.map((w) => w.address));
    watcher.setVisible(this.lookedAt.filter((a) => listed.has(a)));
    watcher.onEvents(({ address, events }) => this.onEvents(address, events));
    // A poll that found nothing new still says the listed events are complete as of now (their age).
    watcher.onPolled(({ address, count }) => this.model.watcherChecked(address, count));
    watcher.onError((e) =>
      this.log.warn(
        `Watching ${e.address}: ${errorMessage(e.error)} (failure ${e.failures}, retry in ${Math.round(e.retryInMs / 1000)} s)`,
      ),
    );
    watcher.onCursorReset((r) => this.log.warn(`Watching ${r.address}: ${r.reason}`));
    // Which way the watcher learns of events (one scan for all, or a poll per contract) and why.
    watcher.onWayChanged((w) => this.log.info(`Watching: ${w.reason}`));
    return watcher;
  }

  watch(address: string): void {
    if (this.watcher) this.watcher.watch(address);
    else this.rebuild();
  }

  /** Polls a watched contract ahead of its turn (the user just changed it). */
  pollSoon(address: string): void {
    if (this.watcher) this.watcher.pollSoon(address);
    else this.soon.add(address);
  }

  async unwatch(address: string): Promise<void> {
    if (this.watcher) await this.watcher.unwatch(address, { forget: true });
    else {
      const profile = this.connection.state.profile;
      if (profile)
        await this.workspaceState.update(
          `${StorageKeys.eventCursorPrefix(profile.name)}${address}`,
          undefined,
        );
    }
  }

  private onEvents(address: string, events: readonly ContractEvent[]): void {
    for (const e of events) {
      this.delivered.push({ address, key: eventKey(e), txId: e.txId, eventIndex: e.eventIndex });
    }
    this.delivered.splice(0, Math.max(0, this.delivered.length - DELIVERED_LIMIT));
    this.log.info(`${events.length} new event(s) from ${address}`);
    this.model.addWatcherEvents(address, events);
    if (events.length > 0) this.watcherEvents.fire({ address, events });
    void this.notify(address, events);
  }

  private async notify(address: string, events: readonly ContractEvent[]): Promise<void> {
    const wanted = config.notifyEvents();
    if (wanted.length === 0) return;
    const resolved = await this.model.resolved(address);
    const matching = events
      .map((e) => decodeEvent(e, resolved?.artifact, resolved?.drift ? { drift: resolved.drift } : {}))
      .filter((d) => wanted.includes(d.name));
    if (matching.length === 0) return;
    const name =
      this.model.watched.find((w) => w.address === address)?.name ?? resolved?.artifact?.name ?? address;
    for (const d of matching.slice(0, NOTIFY_LIMIT)) void showInfo(inert`${name}: ${formatEventSummary(d)}`);
    if (matching.length > NOTIFY_LIMIT)
      void showInfo(inert`${name}: ${matching.length - NOTIFY_LIMIT} more event(s)`);
  }
}
