import { setMaxListeners } from 'node:events';
import { Emitter, type Disposable, type Event } from '../util/emitter';
import type { GatewayClient } from '../gateway';
import type { BackgroundScheduler } from '../scheduling/backgroundScheduler';
import type { JobHandle, JobRun } from '../scheduling/jobs';
import { clientScheduler } from '../scheduling/clientScheduler';
import { systemTimers, type Timers } from '../util/clock';
import {
  fetchChainHeights,
  fetchNodeStatus,
  NODE_SYNC_CHECK_MS,
  syncStateOfError,
  type NodeStatus,
} from './nodeStatus';

export interface NodeStatusModelOptions {
  /** Time and its one-shot timers (the scheduler's and the watcher's type); real ones by default. */
  readonly timers?: Timers;
  /** Between probes while the node is synced (every probe costs about 20 requests). */
  readonly refreshMs?: number;
  /** Between probes while it is not (syncing, unreachable, error): one self-clique, so it can be sooner. */
  readonly recheckMs?: number;
  /**
   * Between the scheduled self-clique checks while synced and visible: one request each, at a fixed pace
   * (the budget plans around it, never stretches it), so a node that starts syncing shows within 45 s
   * (the chain heights keep `refreshMs`). Default {@link NODE_SYNC_CHECK_MS}.
   */
  readonly syncCheckMs?: number;
  /**
   * The background scheduler of a client. While synced and visible, the view's checks are its jobs: a
   * self-clique every `syncCheckMs`, and the 16 chain heights only while the Chains node is open,
   * both planned inside the plan's share with everything else in the background. Default: the scheduler
   * shared by everything using that client. `null`: the model's own timer every `refreshMs` (tests).
   */
  readonly scheduler?: ((client: GatewayClient) => BackgroundScheduler) | null;
  /**
   * A person looking (the window focused, the view shown) reads again what is older than this, so what
   * they see is fresh even when the budget checks it only every few minutes. Default 30 s.
   */
  readonly lookStaleMs?: number;
}

/**
 * What the Node view shows, as one observable value: the status of the active client's node, probed
 * while someone looks (`setVisible`), and on every `refresh()`.
 *
 * Two rules make it impossible to wedge: a probe never waits for the node to sync (a 503 *is* the answer
 * "syncing", shown at once, and re-checked every `recheckMs` until the node reports synced), and every
 * refresh sends a fresh probe, abandoning one still in flight, whose late answer is then dropped.
 */
export class NodeStatusModel implements Disposable {
  private readonly changed = new Emitter<NodeStatus | undefined>();
  readonly onDidChange: Event<NodeStatus | undefined> = this.changed.event;
  private status: NodeStatus | undefined;
  private client: GatewayClient | undefined;
  private clientSubscription: Disposable | undefined;
  private inFlight: AbortController | undefined;
  private generation = 0;
  private next: Disposable | undefined;
  private visible = false;
  private disposed = false;
  private readonly timers: Timers;
  private readonly refreshMs: number;
  private readonly recheckMs: number;
  private readonly syncCheckMs: number;
  private readonly schedulerOf: ((client: GatewayClient) => BackgroundScheduler) | null;
  private statusJob: JobHandle | undefined;
  private chainsJob: JobHandle | undefined;
  private chainsExpanded = false;
  private readonly lookStaleMs: number;

  /** Runs `run` once after `ms`; the handle cancels it. */
  private after(ms: number, run: () => void): Disposable {
    const handle = this.timers.setTimeout(run, ms);
    return { dispose: () => this.timers.clearTimeout(handle) };
  }

  constructor(options: NodeStatusModelOptions = {}) {
    this.timers = options.timers ?? systemTimers;
    this.refreshMs = options.refreshMs ?? 60_000;
    this.recheckMs = options.recheckMs ?? 10_000;
    this.syncCheckMs = options.syncCheckMs ?? NODE_SYNC_CHECK_MS;
    this.lookStaleMs = options.lookStaleMs ?? 30_000;
    this.schedulerOf = options.scheduler === undefined ? clientScheduler : options.scheduler;
  }

  /**
   * The Chains node is open (heights are read now, then at the budgeted interval) or closed (they are
   * not read at all: nobody sees them).
   */
  setChainsExpanded(expanded: boolean): void {
    if (expanded === this.chainsExpanded) return;
    this.chainsExpanded = expanded;
    if (expanded) void this.refreshHeights();
    else this.dropJob('chains');
  }

  /**
   * A person looks at the view (the window got focus, the view was shown, the connection changed): what
   * is older than `lookStaleMs` (or not a synced answer) is read again now, the open Chains' heights
   * included. Costs nothing when everything shown is fresh.
   */
  looked(): void {
    // A probe on its way answers the look.
    if (!this.visible || this.disposed || !this.client || this.inFlight) return;
    const s = this.status;
    const now = this.timers.now();
    const stale = (at: number | undefined) => at === undefined || now - at >= this.lookStaleMs;
    if (!s || s.sync !== 'synced' || stale(s.fetchedAt)) void this.probe();
    else if (this.chainsExpanded && stale(s.heightsAt)) void this.refreshHeights();
  }

  /** Reads the chain heights now (the user opened the Chains node), then schedules them. */
  private async refreshHeights(): Promise<void> {
    const client = this.client;
    if (!client || this.disposed || !this.status || this.status.sync !== 'synced') return;
    const generation = this.generation;
    const heights = await fetchChainHeights(client, { priority: 'user', purpose: 'node' });
    if (generation !== this.generation || this.disposed || !this.status) return;
    this.set({ ...this.status, heights, heightsAt: this.timers.now() });
    this.scheduleNext();
  }

  get current(): NodeStatus | undefined {
    return this.status;
  }

  /** A new client (profile, key or settings changed): what was known is about another connection. */
  setClient(client: GatewayClient | undefined): void {
    if (client === this.client) return;
    this.abandon();
    this.stopJobs();
    this.clientSubscription?.dispose();
    this.client = client;
    const subscriptions = client
      ? [
          client.onSyncState((e) => {
            if (e.state === 'syncing') this.markSyncing('The node answered 503: still syncing.');
            // Other requests saw the node come back: probe now instead of at the next tick (a probe on
            // its way, whose own self-clique may be what said so, answers it).
            else if (e.state === 'synced' && this.status?.sync !== 'synced' && !this.inFlight)
              void this.probe();
          }),
          // Named at once, whoever met the used-up month; and read again as soon as it lifts.
          client.onQuotaExhausted(({ until }) => this.markQuota(until)),
          client.onQuotaLifted(() => {
            if (this.visible && this.status?.sync !== 'synced') void this.probe();
          }),
        ]
      : [];
    this.clientSubscription = { dispose: () => subscriptions.forEach((d) => d.dispose()) };
    this.set(undefined);
    if (this.visible) void this.probe();
  }

  /** Probing happens only while the view is visible (each probe costs requests). */
  setVisible(visible: boolean): void {
    if (visible === this.visible) return;
    this.visible = visible;
    if (visible) void this.probe();
    else {
      this.cancelTimer();
      this.stopJobs();
    }
  }

  /**
   * Sends a probe now and settles when its answer is applied (or dropped because a newer refresh, a new
   * client or disposal superseded it). Never rejects: failures are statuses.
   */
  refresh(): Promise<void> {
    // The user asked for everything: the chain heights too, open or not, at the user's priority.
    return this.probe(true, 'user');
  }

  /**
   * A probe: sync state, version, params, hashrate, and the chain heights when asked for or while the
   * Chains node is open (otherwise the last ones read are kept: nobody is looking at them).
   */
  private async probe(
    heights = this.chainsExpanded,
    priority: 'user' | 'background' = 'background',
  ): Promise<void> {
    if (this.disposed) return;
    this.abandon();
    const client = this.client;
    if (!client) {
      this.set(undefined);
      return;
    }
    const generation = ++this.generation;
    const controller = new AbortController();
    // One probe is about 20 requests on this signal, each listening for its abort: not a leak.
    setMaxListeners(64, controller.signal);
    this.inFlight = controller;
    let status: NodeStatus;
    try {
      status = await fetchNodeStatus(client, () => this.timers.now(), controller.signal, {
        heights,
        priority,
      });
      // Heights not read this time are kept with the time they were read: the row says how old they are.
      if (!heights && this.status?.heights.length)
        status = {
          ...status,
          heights: this.status.heights,
          ...(this.status.heightsAt !== undefined ? { heightsAt: this.status.heightsAt } : {}),
        };
    } catch (error) {
      // fetchNodeStatus turns request failures into statuses; anything else is a bug worth showing.
      status = {
        sync: 'error',
        problem: error instanceof Error ? error.message : String(error),
        heights: [],
        fetchedAt: this.timers.now(),
      };
    }
    if (generation !== this.generation || this.disposed) return;
    this.inFlight = undefined;
    this.set(status);
    this.scheduleNext();
  }

  dispose(): void {
    this.disposed = true;
    this.abandon();
    this.stopJobs();
    this.clientSubscription?.dispose();
    this.changed.dispose();
  }

  private markSyncing(problem: string): void {
    if (!this.status || this.status.sync === 'syncing') return;
    this.set({ ...this.status, sync: 'syncing', problem });
    this.scheduleNext();
  }

  private markQuota(until: number): void {
    if (!this.status || (this.status.sync === 'quota' && this.status.quotaUntil === until)) return;
    this.set({
      ...this.status,
      sync: 'quota',
      quotaUntil: until,
      problem: `The month's quota of this API key is used up until ${new Date(until).toISOString().slice(0, 10)}.`,
      fetchedAt: this.timers.now(),
    });
    this.scheduleNext();
  }

  private scheduleNext(): void {
    this.cancelTimer();
    if (!this.visible || this.disposed) return;
    const synced = this.status?.sync === 'synced';
    const scheduler = synced && this.client && this.schedulerOf ? this.schedulerOf(this.client) : undefined;
    if (!scheduler) {
      this.stopJobs();
      // Not synced: one self-clique every recheckMs until it is (short-lived, and the answer the user
      // waits for); synced without a scheduler: the whole probe every refreshMs.
      this.next = this.after(synced ? this.refreshMs : this.recheckMs, () => void this.probe());
      return;
    }
    this.statusJob ??= scheduler.add({
      kind: 'node',
      label: 'self-clique',
      minIntervalMs: this.syncCheckMs,
      // The view promises a time bound: the budget plans the other jobs around this one.
      fixedPace: true,
      run: (signal) => this.checkSync(signal),
    });
    if (this.chainsExpanded)
      this.chainsJob ??= scheduler.add({
        kind: 'chains',
        label: 'chain heights',
        minIntervalMs: this.refreshMs,
        expectedCost: 16,
        run: (signal) => this.readHeights(signal),
      });
    else this.dropJob('chains');
  }

  /** The scheduled check: one fresh self-clique; what else the view shows changes rarely or is cached. */
  private async checkSync(signal: AbortSignal): Promise<JobRun> {
    const client = this.client;
    if (!client || this.disposed || !this.visible) return { requests: 0, done: true };
    const generation = this.generation;
    let update: Partial<NodeStatus>;
    try {
      const clique = await client.getSelfClique({
        priority: 'background',
        purpose: 'node',
        fresh: true,
        waitForSync: false,
        signal,
      });
      update = clique.synced ? { sync: 'synced' } : { sync: 'syncing' };
    } catch (error) {
      update = syncStateOfError(error);
    }
    if (generation !== this.generation || this.disposed || !this.status) return { requests: 1 };
    const next: NodeStatus = { ...this.status, ...update, fetchedAt: this.timers.now() };
    // A problem belongs to the answer that reported it: a synced answer clears it.
    if (update.problem === undefined) delete (next as { problem?: string }).problem;
    if (update.quotaUntil === undefined) delete (next as { quotaUntil?: number }).quotaUntil;
    this.set(next);
    if (update.sync !== 'synced') {
      // Re-checked on the short timer until synced again; the job comes back then.
      this.dropJob('node');
      this.dropJob('chains');
      this.scheduleNext();
      return { requests: 1, done: true };
    }
    return { requests: 1 };
  }

  private async readHeights(signal: AbortSignal): Promise<JobRun> {
    const client = this.client;
    if (!client || this.disposed || !this.chainsExpanded) return { requests: 0, done: true };
    const generation = this.generation;
    const heights = await fetchChainHeights(client, { priority: 'background', purpose: 'node', signal });
    if (generation === this.generation && !this.disposed && this.status)
      this.set({ ...this.status, heights, heightsAt: this.timers.now() });
    return { requests: heights.length };
  }

  private dropJob(which: 'node' | 'chains'): void {
    if (which === 'node') {
      this.statusJob?.dispose();
      this.statusJob = undefined;
    } else {
      this.chainsJob?.dispose();
      this.chainsJob = undefined;
    }
  }

  private abandon(): void {
    this.generation++;
    this.inFlight?.abort();
    this.inFlight = undefined;
    this.cancelTimer();
  }

  /** Stops every scheduled check (hidden, a new client, disposed). */
  private cancelTimer(): void {
    this.next?.dispose();
    this.next = undefined;
  }

  private stopJobs(): void {
    this.dropJob('node');
    this.dropJob('chains');
  }

  private set(status: NodeStatus | undefined): void {
    this.status = status;
    this.changed.fire(status);
  }
}
