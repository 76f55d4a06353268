/**
 * The polling engine behind "watched contracts". Plain Node with injected client, store and timers, so
 * the VS Code side only wires it (focus, settings, tree refresh) and tests drive it with `pollOnce()`.
 *
 * The spec's polling rules (docs/ARCHITECTURE.md, "The spec's polling rules"), and how they are kept:
 * - `current-count` at most once per 16 s per contract: every contract remembers when it was last polled,
 *   and the interval is clamped to 16 s whatever the settings or the budget say.
 * - Events are fetched ONLY when the count grew (or a previous fetch was cut short by the page cap).
 * - Pages are chained with `nextStart`, never `start + limit`: the indexer may have gaps (hidden Debug
 *   events take a counter slot), and only the server knows where the next page begins.
 * - Nothing missed or repeated across reloads: the cursor (nextStart, lastCount, recent event keys) is
 *   persisted after every page, and events are deduplicated by (txId, eventIndex, fields) against keys of
 *   earlier pages. Events are emitted BEFORE the cursor is saved: if the process dies in between, the
 *   page is read again and the saved keys are one page behind, so the worst case is a repeat of that page,
 *   never a loss; an orderly reload loses and repeats nothing.
 * - Polls run at background priority, so user actions go first through the client's pacing.
 * - Errors never end the loop: the contract backs off (interval × 2^(failures − 1), capped) and the error
 *   is surfaced through `onError`.
 */
// The namespace import lets esbuild leave out zod's locales (about 360 KB of the bundle).
import * as z from 'zod';
import { isValidAddress } from '../protocol';
import { Emitter, type Event } from '../gateway/emitter';
import { GatewayClient, type RequestOptions } from '../gateway/client';
import { clientScheduler } from '../scheduling/clientScheduler';
import type { ContractEvent, ContractEventsPage } from '../gateway/schemas';
import { chooseInterval, DEFAULT_FETCH_RATIO, MIN_POLL_INTERVAL_MS, type BudgetChoice } from './budget';
import {
  BackgroundScheduler,
  SCHEDULER_MONTH_MS,
  sharedScheduler,
  type JobHandle,
  type JobRun,
} from '../scheduling/backgroundScheduler';

/** Weight of the latest poll in the learned fetch ratio: about the last 10 polls count. */
const FETCH_RATIO_SMOOTHING = 0.1;

export { chooseInterval, msUntilNextUtcMonth, MIN_POLL_INTERVAL_MS, BUDGET_MONTH_MS } from './budget';
export type { BudgetInput, BudgetChoice } from './budget';

/** The two GatewayClient methods the watcher uses (a GatewayClient fits as is). */
export interface WatcherClient {
  getContractEventCount(address: string, options?: RequestOptions): Promise<number>;
  getContractEvents(
    address: string,
    page: { start: number; limit?: number },
    options?: RequestOptions,
  ): Promise<ContractEventsPage>;
}

/** Persistent JSON storage (VS Code's Memento fits: `get` and `update` as `set`). */
export interface CursorStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void | PromiseLike<void>;
}

/** Time and timers, injected so tests never wait. */
export interface WatcherTimers {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemTimers: WatcherTimers = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const t = setTimeout(callback, ms);
    // A pending poll must not keep a test runner or a CLI alive.
    t.unref?.();
    return t;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface EventCursor {
  /** Where the next fetch starts (the last page's `nextStart`). */
  readonly nextStart: number;
  /** The `current-count` at the last completed check: a fetch happens only when the count exceeds it. */
  readonly lastCount: number;
  /** Keys of recently emitted events (bounded), for deduplication across re-read pages. */
  readonly seen: readonly string[];
  /** The last fetch stopped at the page cap; the next poll continues even if the count did not grow. */
  readonly pending: boolean;
}

const CursorSchema = z.object({
  nextStart: z.number().int().min(0),
  lastCount: z.number().int().min(0),
  seen: z.array(z.string()),
  pending: z.boolean(),
});

export interface NewEvents {
  readonly address: string;
  /** In chain order; each is emitted once. */
  readonly events: readonly ContractEvent[];
}

export interface WatchError {
  readonly address: string;
  readonly error: unknown;
  /** Consecutive failures of this contract. */
  readonly failures: number;
  /** When this contract is tried again. */
  readonly retryInMs: number;
}

export interface CursorReset {
  readonly address: string;
  readonly reason: string;
}

export interface PollReport {
  /** Contracts whose count was read in this round. */
  readonly polled: readonly string[];
  readonly newEvents: number;
  readonly failed: readonly string[];
  /** Why nothing was polled, when the watcher is paused. */
  readonly skipped?: 'paused' | 'disposed';
}

export interface WatcherBudget {
  readonly monthlyLimit: number | undefined;
  /** Fraction of the monthly limit for watching, (0, 1]. */
  readonly share: number;
  /** Requests the key used this month (e.g. from the client's usage tracker). */
  readonly requestsUsedThisMonth?: () => number | undefined;
  readonly fetchRatio?: number;
}

export interface EventWatcherOptions {
  readonly client: WatcherClient;
  readonly store: CursorStore;
  readonly timers?: WatcherTimers;
  /** Desired interval per contract; raised to 16 s and to the budget's interval (default 16 s). */
  readonly intervalMs?: number;
  readonly budget?: WatcherBudget;
  /** While VS Code is unfocused: poll `unfocusedFactor` times slower (default), or not at all. */
  readonly whenUnfocused?: 'slow' | 'pause';
  readonly unfocusedFactor?: number;
  /** Events per page, 1..100 (default 100, the node's maximum). */
  readonly pageSize?: number;
  /** Pages fetched per contract per poll, so a huge backlog cannot starve the others (default 10). */
  readonly maxPagesPerPoll?: number;
  /** How many past events a newly watched contract shows: a number, or 'all' (default 20). */
  readonly backlog?: number | 'all';
  /** Event keys remembered per contract for deduplication (default 500). */
  readonly seenLimit?: number;
  /** Longest backoff after errors (default 15 min). */
  readonly maxBackoffMs?: number;
  /** Store keys are this prefix + the address. */
  readonly storeKeyPrefix?: string;
  /**
   * The background scheduler polls run through (one job per contract, planned against the plan's share
   * together with every other background request). Default with a `budget`: the one shared by
   * everything using the same client; without a budget (an explicit interval, a node profile) the
   * watcher keeps its own loop at that interval.
   */
  readonly scheduler?: BackgroundScheduler;
}

interface Watched {
  readonly address: string;
  cursor: EventCursor | undefined;
  loaded: boolean;
  lastPolledAt: number;
  failures: number;
  /** The contract's job in the background scheduler (scheduler mode only). */
  job?: JobHandle;
}

/** The dedupe key of an event: what identifies it independently of where a page starts. */
export function eventKey(event: Pick<ContractEvent, 'txId' | 'eventIndex' | 'fields'>): string {
  return `${event.txId}:${event.eventIndex}:${JSON.stringify(event.fields.map((f) => [f.type, f.value]))}`;
}

function httpStatus(error: unknown): number | undefined {
  const s = (error as { status?: unknown } | null)?.status;
  return typeof s === 'number' ? s : undefined;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'CancelledError');
}

export class EventWatcher {
  private readonly client: WatcherClient;
  private readonly store: CursorStore;
  private readonly timers: WatcherTimers;
  private readonly whenUnfocused: 'slow' | 'pause';
  private readonly unfocusedFactor: number;
  private readonly pageSize: number;
  private readonly maxPages: number;
  private readonly backlog: number | 'all';
  private readonly seenLimit: number;
  private readonly maxBackoffMs: number;
  private readonly prefix: string;
  private budget: WatcherBudget | undefined;
  private fetchRatio = DEFAULT_FETCH_RATIO;
  private configuredIntervalMs: number;
  private focused = true;
  private running = false;
  private disposed = false;
  private timer: unknown;
  private inFlight: Promise<PollReport> | undefined;
  private readonly contracts = new Map<string, Watched>();
  private readonly lifetime = new AbortController();
  private readonly scheduler: BackgroundScheduler | undefined;

  private readonly eventsEmitter = new Emitter<NewEvents>();
  private readonly errorEmitter = new Emitter<WatchError>();
  private readonly resetEmitter = new Emitter<CursorReset>();
  private readonly pollEmitter = new Emitter<{ address: string; count: number }>();

  /** New events of a contract, exactly once. */
  readonly onEvents: Event<NewEvents> = this.eventsEmitter.event;
  /** A poll failed; the loop goes on after a backoff. */
  readonly onError: Event<WatchError> = this.errorEmitter.event;
  /** The count went down or the stored cursor was unreadable; the cursor was reset. */
  readonly onCursorReset: Event<CursorReset> = this.resetEmitter.event;
  /** A count was read (for "last checked" in the UI). */
  readonly onPolled: Event<{ address: string; count: number }> = this.pollEmitter.event;

  constructor(options: EventWatcherOptions) {
    this.client = options.client;
    this.store = options.store;
    this.timers = options.timers ?? systemTimers;
    this.configuredIntervalMs = options.intervalMs ?? MIN_POLL_INTERVAL_MS;
    this.budget = options.budget;
    this.whenUnfocused = options.whenUnfocused ?? 'slow';
    this.unfocusedFactor = Math.max(1, options.unfocusedFactor ?? 4);
    const pageSize = options.pageSize ?? 100;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) {
      throw new RangeError('pageSize must be an integer from 1 to 100 (the node maximum)');
    }
    this.pageSize = pageSize;
    this.maxPages = Math.max(1, options.maxPagesPerPoll ?? 10);
    this.backlog = options.backlog ?? 20;
    this.seenLimit = Math.max(this.pageSize, options.seenLimit ?? 500);
    this.maxBackoffMs = options.maxBackoffMs ?? 15 * 60_000;
    this.prefix = options.storeKeyPrefix ?? 'alephium.eventCursor.';
    this.scheduler =
      options.scheduler ??
      (options.budget
        ? options.client instanceof GatewayClient
          ? clientScheduler(options.client, this.timers)
          : sharedScheduler(options.client, () => new BackgroundScheduler({ timers: this.timers }))
        : undefined);
    this.applyBudget();
  }

  /** The scheduler plans for the whole budget: hand it the plan's limit and the configured share. */
  private applyBudget(): void {
    if (!this.scheduler || !this.budget) return;
    const used = this.budget.requestsUsedThisMonth;
    this.scheduler.setBudget({
      monthlyLimit: this.budget.monthlyLimit,
      share: this.budget.share,
      ...(used ? { requestsUsedThisMonth: used } : {}),
    });
  }

  /** Scheduler mode: every contract is a job (polls at its planned interval, charged to the budget). */
  private get scheduled(): boolean {
    return this.scheduler !== undefined;
  }

  private addJob(w: Watched): void {
    if (!this.scheduler || !this.running || this.disposed || w.job) return;
    w.job = this.scheduler.add({
      kind: 'contract',
      label: w.address,
      minIntervalMs: this.minIntervalMs,
      // A count, plus a page when it grew: the first guess until the job has learned its own cost.
      expectedCost: 1 + (this.budget?.fetchRatio ?? DEFAULT_FETCH_RATIO),
      startNow: this.neverSeen(w),
      run: () => this.runJob(w),
    });
    this.applyFocus(w.job);
  }

  /**
   * No cursor for this contract, in memory or stored (a Memento answers synchronously): its first count
   * must be read at once, since events before it are not news. A store that answers later counts as
   * having one (a late first poll then loses nothing).
   */
  private neverSeen(w: Watched): boolean {
    if (w.cursor) return false;
    const stored = this.store.get(this.storeKey(w.address));
    return stored === undefined || stored === null;
  }

  /** The configured interval, never below the spec's 16 s. */
  private get minIntervalMs(): number {
    return Math.max(
      MIN_POLL_INTERVAL_MS,
      Number.isFinite(this.configuredIntervalMs) ? this.configuredIntervalMs : 0,
    );
  }

  private applyFocus(job: JobHandle): void {
    job.setPaused(this.paused);
    job.setSlowdown(this.focused ? 1 : this.unfocusedFactor);
  }

  private removeJob(w: Watched): void {
    w.job?.dispose();
    w.job = undefined;
  }

  /** One scheduled poll of one contract; never throws (errors back off through the scheduler). */
  private async runJob(w: Watched): Promise<JobRun> {
    if (this.disposed || !this.contracts.has(w.address)) return { requests: 0, done: true };
    w.lastPolledAt = this.timers.now();
    const tally = { requests: 0 };
    try {
      await this.pollContract(w, tally);
      w.failures = 0;
      return { requests: tally.requests };
    } catch (error) {
      if (this.disposed && isAbort(error)) return { requests: tally.requests, done: true };
      w.failures++;
      const interval = w.job?.intervalMs ?? MIN_POLL_INTERVAL_MS;
      const retryInMs = Math.min(this.maxBackoffMs, interval * 2 ** (w.failures - 1));
      this.errorEmitter.fire({ address: w.address, error, failures: w.failures, retryInMs });
      // A failed request still counts against the quota (the gateway counted its arrival).
      return { requests: Math.max(1, tally.requests), retryInMs };
    }
  }

  // ---- configuration ----------------------------------------------------------------------------------

  /** Starts (or re-adds) watching; the first poll of a new contract is due at once. */
  watch(address: string): void {
    if (!isValidAddress(address)) throw new RangeError(`not a valid address: ${address.slice(0, 80)}`);
    if (this.contracts.has(address)) return;
    this.contracts.set(address, {
      address,
      cursor: undefined,
      loaded: false,
      lastPolledAt: -Infinity,
      failures: 0,
    });
    const w = this.contracts.get(address) as Watched;
    this.addJob(w);
    this.reschedule();
  }

  /**
   * Polls `address` as soon as its 16 s floor allows, ahead of its turn and of the budget's pacing (still
   * counted): for the glue to call when the user has just changed the contract (executed a method on it,
   * deployed it), so the view does not wait a whole planned interval for the events they caused.
   */
  pollSoon(address: string): void {
    const w = this.contracts.get(address);
    if (!w) return;
    if (w.job) w.job.runSoon();
    else {
      // The watcher's own loop: due now, unless polled less than the floor ago.
      const due = Math.max(this.timers.now(), w.lastPolledAt + MIN_POLL_INTERVAL_MS);
      w.lastPolledAt = Math.min(w.lastPolledAt, due - this.intervalMs);
      this.reschedule();
    }
  }

  /** Stops watching. With `forget`, the stored cursor is dropped too (re-watching starts afresh). */
  async unwatch(address: string, options: { forget?: boolean } = {}): Promise<void> {
    const w = this.contracts.get(address);
    if (w) this.removeJob(w);
    this.contracts.delete(address);
    if (options.forget) await this.store.set(this.storeKey(address), undefined);
    this.reschedule();
  }

  get watched(): string[] {
    return [...this.contracts.keys()];
  }

  /** The in-memory cursor of a contract (after its first poll). */
  cursor(address: string): EventCursor | undefined {
    return this.contracts.get(address)?.cursor;
  }

  /** Set by the glue from `window.state.focused`. */
  setFocused(focused: boolean): void {
    if (this.focused === focused) return;
    this.focused = focused;
    for (const w of this.contracts.values()) if (w.job) this.applyFocus(w.job);
    this.reschedule();
  }

  setIntervalMs(ms: number): void {
    this.configuredIntervalMs = ms;
    for (const w of this.contracts.values()) w.job?.setMinInterval(this.minIntervalMs);
    this.reschedule();
  }

  setBudget(budget: WatcherBudget | undefined): void {
    this.budget = budget;
    this.applyBudget();
    this.reschedule();
  }

  get paused(): boolean {
    return !this.focused && this.whenUnfocused === 'pause';
  }

  /**
   * Event-page requests per `current-count` request, as observed (an exponential moving average that
   * starts at the budget's default guess). Busy contracts make almost every poll fetch a page, so a fixed
   * guess would let polling overspend its share; the budget uses what the watcher actually sees.
   */
  get learnedFetchRatio(): number {
    return this.fetchRatio;
  }

  private observeFetches(pages: number): void {
    this.fetchRatio += FETCH_RATIO_SMOOTHING * (pages - this.fetchRatio);
  }

  /** The budget's choice for the current number of contracts, if a budget is set. */
  budgetChoice(): BudgetChoice | undefined {
    if (!this.budget) return undefined;
    if (this.scheduler) return this.scheduledChoice(this.scheduler);
    return chooseInterval({
      contracts: this.contracts.size,
      monthlyLimit: this.budget.monthlyLimit,
      share: this.budget.share,
      now: this.timers.now(),
      fetchRatio: this.budget.fetchRatio ?? this.fetchRatio,
      ...(this.budget.requestsUsedThisMonth?.() !== undefined
        ? { requestsUsedThisMonth: this.budget.requestsUsedThisMonth() as number }
        : {}),
    });
  }

  /** The scheduler's plan, in the shape the glue logs and shows. */
  private scheduledChoice(scheduler: BackgroundScheduler): BudgetChoice {
    const plan = scheduler.plan();
    const intervalMs = this.intervalMs;
    const limit = scheduler.monthlyLimit;
    const pct = `${Math.round(scheduler.share * 1000) / 10} %`;
    const perHour = Math.round(plan.hourlyShare * 10) / 10;
    return {
      intervalMs,
      floored: !plan.budgetBound,
      exhausted: plan.hourlyShare === 0,
      requestsPerRound: [...this.contracts.values()].reduce((s, w) => s + (w.job?.cost ?? 0), 0),
      allowance: limit === undefined ? Infinity : limit * scheduler.share,
      periodMs: SCHEDULER_MONTH_MS,
      explanation:
        limit === undefined
          ? 'no monthly limit known: polling every 16 s (the spec minimum)'
          : `all background requests within ${pct} of ${limit} requests/month (${perHour}/h): ` +
            `${this.contracts.size} contract(s) every ${Math.round(intervalMs / 1000)} s`,
    };
  }

  /**
   * Milliseconds between two polls of one contract right now: the configured interval, raised to the
   * 16 s floor and to the budget's interval, times the unfocused factor; Infinity while paused. With a
   * scheduler, the longest planned interval among the watched contracts.
   */
  get intervalMs(): number {
    if (this.paused) return Infinity;
    const configured = Number.isFinite(this.configuredIntervalMs) ? this.configuredIntervalMs : 0;
    if (this.scheduler) {
      let longest = 0;
      for (const w of this.contracts.values()) if (w.job) longest = Math.max(longest, w.job.intervalMs);
      if (longest > 0) return longest;
      // Not started: what the scheduler would plan is not known yet; the floor is.
      const floor = Math.max(MIN_POLL_INTERVAL_MS, configured);
      return this.focused ? floor : floor * this.unfocusedFactor;
    }
    const base = Math.max(MIN_POLL_INTERVAL_MS, configured, this.budgetChoice()?.intervalMs ?? 0);
    return this.focused ? base : base * this.unfocusedFactor;
  }

  // ---- loop -------------------------------------------------------------------------------------------

  start(): void {
    if (this.disposed) return;
    this.running = true;
    for (const w of this.contracts.values()) this.addJob(w);
    this.reschedule();
  }

  stop(): void {
    this.running = false;
    for (const w of this.contracts.values()) this.removeJob(w);
    this.clearTimer();
  }

  dispose(): void {
    this.stop();
    this.disposed = true;
    this.lifetime.abort();
    this.eventsEmitter.dispose();
    this.errorEmitter.dispose();
    this.resetEmitter.dispose();
    this.pollEmitter.dispose();
  }

  /** When `address` is next due (ms since epoch), given its last poll and failures. */
  dueAt(address: string): number | undefined {
    const w = this.contracts.get(address);
    return w ? this.dueOf(w, this.intervalMs) : undefined;
  }

  private dueOf(w: Watched, interval: number): number {
    if (w.failures === 0) return w.lastPolledAt + interval;
    return w.lastPolledAt + Math.min(this.maxBackoffMs, interval * 2 ** (w.failures - 1));
  }

  /**
   * Polls every contract that is due now (never one polled less than the interval ago), one after the
   * other. A call while a round runs joins that round.
   */
  pollOnce(): Promise<PollReport> {
    if (this.disposed) return Promise.resolve({ polled: [], newEvents: 0, failed: [], skipped: 'disposed' });
    if (this.paused) return Promise.resolve({ polled: [], newEvents: 0, failed: [], skipped: 'paused' });
    if (!this.inFlight) {
      this.inFlight = this.round().finally(() => {
        this.inFlight = undefined;
      });
    }
    return this.inFlight;
  }

  private async round(): Promise<PollReport> {
    const polled: string[] = [];
    const failed: string[] = [];
    let newEvents = 0;
    const interval = this.intervalMs;
    for (const w of [...this.contracts.values()]) {
      if (this.disposed) break;
      if (this.timers.now() < this.dueOf(w, interval)) continue;
      if (!this.contracts.has(w.address)) continue; // unwatched meanwhile
      w.lastPolledAt = this.timers.now();
      try {
        newEvents += await this.pollContract(w);
        w.failures = 0;
        polled.push(w.address);
      } catch (error) {
        if (this.disposed && isAbort(error)) break;
        w.failures++;
        failed.push(w.address);
        const retryInMs = this.dueOf(w, interval) - this.timers.now();
        this.errorEmitter.fire({ address: w.address, error, failures: w.failures, retryInMs });
      }
    }
    return { polled, newEvents, failed };
  }

  private reschedule(): void {
    this.clearTimer();
    // The scheduler runs the jobs; the watcher's own loop is only for unbudgeted watching.
    if (this.scheduled) return;
    if (!this.running || this.disposed || this.paused || this.contracts.size === 0) return;
    const interval = this.intervalMs;
    let next = Infinity;
    for (const w of this.contracts.values()) next = Math.min(next, this.dueOf(w, interval));
    const delay = Math.max(0, next - this.timers.now());
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      void this.pollOnce().finally(() => this.reschedule());
    }, delay);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  // ---- one contract -------------------------------------------------------------------------------------

  private storeKey(address: string): string {
    return `${this.prefix}${address}`;
  }

  private async save(w: Watched, cursor: EventCursor): Promise<void> {
    w.cursor = cursor;
    await this.store.set(this.storeKey(w.address), { ...cursor, seen: [...cursor.seen] });
  }

  private async load(w: Watched): Promise<void> {
    if (w.loaded) return;
    const stored = await this.store.get(this.storeKey(w.address));
    if (stored !== undefined && stored !== null) {
      const parsed = CursorSchema.safeParse(stored);
      if (parsed.success) {
        w.cursor = parsed.data;
      } else {
        this.resetEmitter.fire({
          address: w.address,
          reason: 'the stored cursor was unreadable; starting again from recent events',
        });
      }
    }
    w.loaded = true;
  }

  private options(): RequestOptions {
    return { priority: 'background', purpose: 'contracts', signal: this.lifetime.signal };
  }

  private async count(address: string): Promise<number> {
    try {
      return await this.client.getContractEventCount(address, this.options());
    } catch (e) {
      // A contract that never emitted answers 404 on the node; the client maps it, a raw one may not.
      if (httpStatus(e) === 404) return 0;
      throw e;
    }
  }

  private async page(address: string, start: number): Promise<ContractEventsPage> {
    try {
      return await this.client.getContractEvents(address, { start, limit: this.pageSize }, this.options());
    } catch (e) {
      if (httpStatus(e) === 404) return { events: [], nextStart: start };
      throw e;
    }
  }

  /** Returns the number of new events emitted. */
  private async pollContract(w: Watched, tally: { requests: number } = { requests: 0 }): Promise<number> {
    await this.load(w);
    tally.requests++;
    const count = await this.count(w.address);
    this.pollEmitter.fire({ address: w.address, count });
    let cursor = w.cursor;
    if (!cursor) {
      // First sight of this contract: show the last `backlog` events, not the whole history.
      const start = this.backlog === 'all' ? 0 : Math.max(0, count - this.backlog);
      cursor = { nextStart: start, lastCount: start, seen: [], pending: false };
      await this.save(w, cursor);
    } else if (count < cursor.lastCount) {
      // Counts only grow on one chain. A smaller one means another network or a reset devnet behind the
      // same profile: continuing from the old cursor would skip everything up to it.
      this.resetEmitter.fire({
        address: w.address,
        reason: `the event count went down from ${cursor.lastCount} to ${count} (another network or a reset node?)`,
      });
      cursor = {
        nextStart: Math.min(cursor.nextStart, count),
        lastCount: count,
        seen: cursor.seen,
        pending: false,
      };
      await this.save(w, cursor);
      return 0;
    }
    if (count <= cursor.lastCount && !cursor.pending) {
      this.observeFetches(0);
      return 0;
    }

    let emitted = 0;
    let pagesFetched = 0;
    let start = cursor.nextStart;
    let done = false;
    for (let pages = 0; pages < this.maxPages && !done; pages++) {
      tally.requests++;
      const page = await this.page(w.address, start);
      pagesFetched++;
      const seen = new Set(cursor.seen);
      // Compared against earlier pages only: two identical emits inside one page are two events.
      const fresh = page.events.filter((e) => !seen.has(eventKey(e)));
      const advanced = page.nextStart > start;
      const keys: string[] = [...cursor.seen, ...page.events.map(eventKey).filter((k) => !seen.has(k))];
      if (fresh.length > 0) {
        this.eventsEmitter.fire({ address: w.address, events: fresh });
        emitted += fresh.length;
      }
      done = !advanced || page.nextStart >= count;
      cursor = {
        nextStart: advanced ? page.nextStart : start,
        lastCount: cursor.lastCount,
        seen: keys.slice(-this.seenLimit),
        pending: cursor.pending,
      };
      await this.save(w, cursor);
      start = cursor.nextStart;
    }
    this.observeFetches(pagesFetched);
    await this.save(w, { ...cursor, lastCount: count, pending: !done });
    return emitted;
  }
}
