import { setMaxListeners } from 'node:events';
import { Emitter, type Disposable, type Event } from '../gateway/emitter';
import type { GatewayClient } from '../gateway';
import { fetchNodeStatus, type NodeStatus } from './nodeStatus';

/** Runs `run` after `ms`; the returned handle cancels it. Injected so tests can drive time by hand. */
export type Schedule = (run: () => void, ms: number) => Disposable;

export const realSchedule: Schedule = (run, ms) => {
  const timer = setTimeout(run, ms);
  return { dispose: () => clearTimeout(timer) };
};

export interface NodeStatusModelOptions {
  readonly now?: () => number;
  readonly schedule?: Schedule;
  /** Between probes while the node is synced (every probe costs about 20 requests). */
  readonly refreshMs?: number;
  /** Between probes while it is not (syncing, unreachable, error): one self-clique, so it can be sooner. */
  readonly recheckMs?: number;
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
  private readonly now: () => number;
  private readonly schedule: Schedule;
  private readonly refreshMs: number;
  private readonly recheckMs: number;

  constructor(options: NodeStatusModelOptions = {}) {
    this.now = options.now ?? Date.now;
    this.schedule = options.schedule ?? realSchedule;
    this.refreshMs = options.refreshMs ?? 60_000;
    this.recheckMs = options.recheckMs ?? 10_000;
  }

  get current(): NodeStatus | undefined {
    return this.status;
  }

  /** A new client (profile, key or settings changed): what was known is about another connection. */
  setClient(client: GatewayClient | undefined): void {
    if (client === this.client) return;
    this.abandon();
    this.clientSubscription?.dispose();
    this.client = client;
    this.clientSubscription = client?.onSyncState((e) => {
      if (e.state === 'syncing') this.markSyncing('The node answered 503: still syncing.');
      // Other requests saw the node come back: probe now instead of at the next tick.
      else if (e.state === 'synced' && this.status?.sync !== 'synced') void this.refresh();
    });
    this.set(undefined);
    if (this.visible) void this.refresh();
  }

  /** Probing happens only while the view is visible (each probe costs requests). */
  setVisible(visible: boolean): void {
    if (visible === this.visible) return;
    this.visible = visible;
    if (visible) void this.refresh();
    else this.cancelTimer();
  }

  /**
   * Sends a probe now and settles when its answer is applied (or dropped because a newer refresh, a new
   * client or disposal superseded it). Never rejects: failures are statuses.
   */
  async refresh(): Promise<void> {
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
      status = await fetchNodeStatus(client, this.now, controller.signal);
    } catch (error) {
      // fetchNodeStatus turns request failures into statuses; anything else is a bug worth showing.
      status = {
        sync: 'error',
        problem: error instanceof Error ? error.message : String(error),
        heights: [],
        fetchedAt: this.now(),
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
    this.clientSubscription?.dispose();
    this.changed.dispose();
  }

  private markSyncing(problem: string): void {
    if (!this.status || this.status.sync === 'syncing') return;
    this.set({ ...this.status, sync: 'syncing', problem });
    this.scheduleNext();
  }

  private scheduleNext(): void {
    this.cancelTimer();
    if (!this.visible || this.disposed) return;
    const ms = this.status?.sync === 'synced' ? this.refreshMs : this.recheckMs;
    this.next = this.schedule(() => void this.refresh(), ms);
  }

  private abandon(): void {
    this.generation++;
    this.inFlight?.abort();
    this.inFlight = undefined;
    this.cancelTimer();
  }

  private cancelTimer(): void {
    this.next?.dispose();
    this.next = undefined;
  }

  private set(status: NodeStatus | undefined): void {
    this.status = status;
    this.changed.fire(status);
  }
}
