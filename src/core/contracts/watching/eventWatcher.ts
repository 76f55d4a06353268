/**
 * The polling engine behind "watched contracts". Plain Node with injected client, store and timers, so
 * the VS Code side only wires it (focus, visibility, settings, tree refresh) and tests drive it with fake
 * timers. Every contract is one job of the client's BackgroundScheduler: there is no other loop, so
 * every poll is planned and charged against the one background budget.
 *
 * The spec's polling rules (docs/ARCHITECTURE.md, "The spec's polling rules"), and how they are kept:
 * - A contract is polled at most once per 16 s: the job's floor, whatever the settings or the budget say
 *   (an explicit `intervalMs` only raises it).
 * - One request per poll where one will do. A poll either reads `current-count` first and fetches pages
 *   only when the count grew, or reads the next page directly (one request that answers both "anything
 *   new?" and "what?"). Each contract learns which costs it fewer requests (a busy contract: the page; a
 *   quiet one: either, and the count also notices a count that went down), from what its polls sent and
 *   what the other way would have sent, and keeps what it learned in its cursor. Page-first contracts
 *   still read the count on the first poll of a session and every {@link COUNT_CHECK_EVERY} polls.
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
 * - Contracts the user looks at (`setVisible`) are planned before the others; one the user just changed
 *   (`pollSoon`) is polled at the floor until its poll brings news, at most {@link URGENT_POLLS} times.
 */
// The namespace import lets esbuild leave out zod's locales (about 360 KB of the bundle).
import { isValidAddress } from '../../protocol';
import { Emitter, type Event } from '../../util/emitter';
import { GatewayClient, type RequestOptions } from '../../gateway/client';
import { clientScheduler } from '../../scheduling/clientScheduler';
import type { ContractEventsPage } from '../../gateway/schemas';
import { BackgroundScheduler, sharedScheduler } from '../../scheduling/backgroundScheduler';
import type { JobHandle, JobRun } from '../../scheduling/jobs';
import { DEFAULT_MIN_INTERVAL_MS } from '../../scheduling/policy';
import { withListenerRoom } from '../../util/abort';
import type { ContractEvent } from '../../gateway/schemas';
import { ScanJob, safetyNetIntervalMs } from './scanJob';
import { systemTimers, type Timers } from '../../util/clock';
import {
  CursorSchema,
  cheaperWay,
  eventKey,
  httpStatus,
  isAbort,
  type CursorReset,
  type CursorStore,
  type EventCursor,
  type EventWatcherOptions,
  type NewEvents,
  type PollCosts,
  type PollOutcome,
  type WatchError,
  type Watched,
  type WatcherBudget,
  type WatcherClient,
} from './watcherTypes';

/** The spec: poll a contract no faster than once per 16 s. */
export const MIN_POLL_INTERVAL_MS = DEFAULT_MIN_INTERVAL_MS;
/** Expected event pages per poll before a contract has shown what it costs. */
export const DEFAULT_FETCH_RATIO = 0.25;
/** A page-first contract reads the count first on every this-many-th poll (a count that went down). */
export const COUNT_CHECK_EVERY = 20;
/** After `pollSoon`, polls at the floor until one brings news, at most this many. */
export const URGENT_POLLS = 3;
/** Weight of the latest poll in what each way of polling is learned to cost. */
const STRATEGY_SMOOTHING = 0.3;

export class EventWatcher {
  private readonly client: WatcherClient;
  private readonly store: CursorStore;
  private readonly timers: Timers;
  private readonly whenUnfocused: 'slow' | 'pause';
  private readonly unfocusedFactor: number;
  private readonly pageSize: number;
  private readonly maxPages: number;
  private readonly backlog: number | 'all';
  private readonly seenLimit: number;
  private readonly maxBackoffMs: number;
  private readonly prefix: string;
  private budget: WatcherBudget | undefined;
  private configuredIntervalMs: number;
  private focused = true;
  private visible = new Set<string>();
  private running = false;
  private disposed = false;
  private readonly contracts = new Map<string, Watched>();
  private readonly lifetime = withListenerRoom(new AbortController());
  private readonly scheduler: BackgroundScheduler;
  /** One read of the chain's new blocks for every contract, where the client can (see scanJob.ts). */
  private readonly scan: ScanJob | undefined;

  private readonly eventsEmitter = new Emitter<NewEvents>();
  private readonly errorEmitter = new Emitter<WatchError>();
  private readonly resetEmitter = new Emitter<CursorReset>();
  private readonly pollEmitter = new Emitter<{ address: string; count: number }>();
  private readonly wayEmitter = new Emitter<{ scanning: boolean; reason: string }>();

  /** New events of a contract, exactly once. */
  readonly onEvents: Event<NewEvents> = this.eventsEmitter.event;
  /** A poll failed; the contract is tried again after a backoff. */
  readonly onError: Event<WatchError> = this.errorEmitter.event;
  /** The count went down or the stored cursor was unreadable; the cursor was reset. */
  readonly onCursorReset: Event<CursorReset> = this.resetEmitter.event;
  /** A poll completed: the event count it read, or where its pages stopped (for "last checked"). */
  readonly onPolled: Event<{ address: string; count: number }> = this.pollEmitter.event;
  /** The watcher changed how it learns of events (one scan for all, or a poll per contract), and why. */
  readonly onWayChanged: Event<{ scanning: boolean; reason: string }> = this.wayEmitter.event;

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
      (options.client instanceof GatewayClient
        ? clientScheduler(options.client, this.timers)
        : sharedScheduler(options.client, () => new BackgroundScheduler({ timers: this.timers })));
    this.scan = this.createScan(options);
    this.applyBudget();
    this.applyWindow();
  }

  private createScan(options: EventWatcherOptions): ScanJob | undefined {
    const client = this.client;
    if (options.scan === false || !client.readBlocksWithEvents) return undefined;
    const read = (fromTs: number, toTs: number) => client.readBlocksWithEvents!(fromTs, toTs, this.options());
    return new ScanJob(
      this.scheduler,
      {
        contracts: () => this.contracts.values(),
        load: (w) => this.load(w),
        deliver: (w, events) => this.deliverScanned(w, events),
        checked: (w) => this.pollEmitter.fire({ address: w.address, count: w.cursor?.lastCount ?? 0 }),
        wayChanged: (scanning, reason) => {
          // Back at the floor, a contract whose last poll is older is due at once, paced by the budget
          // (not asked for out of turn: fifty of those would fill the hour).
          this.applyFloors();
          for (const w of this.contracts.values()) {
            if (w.job) this.applyFocus(w.job, w.address);
            if (!scanning) w.job?.replan();
          }
          this.wayEmitter.fire({ scanning, reason });
        },
        failed: (error, failures, retryInMs) =>
          this.errorEmitter.fire({ address: 'blocks-with-events scan', error, failures, retryInMs }),
        floorMs: () => this.minIntervalMs,
        maxBackoffMs: this.maxBackoffMs,
        now: () => this.timers.now(),
      },
      { read, store: this.store, storeKey: `${this.prefix}scan` },
    );
  }

  /**
   * The scan's events for one contract: those its event keys do not know are news, emitted, then kept
   * in its cursor (emit before save, as pages are). Its count poll later moves `nextStart` past them and
   * drops them by the same keys; one due before the keys could roll off is asked for now.
   */
  private deliverScanned(w: Watched, events: readonly ContractEvent[]): Promise<number> {
    return this.exclusive(w, () => this.handOver(w, events));
  }

  /**
   * One contract's cursor is read and written by one thing at a time: a scan that hands over events while
   * the contract's own poll awaits a page would otherwise have its keys overwritten by that poll's save,
   * and the page would deliver the same events again.
   */
  private exclusive<T>(w: Watched, work: () => Promise<T>): Promise<T> {
    const run = (w.lock ?? Promise.resolve()).then(work, work);
    w.lock = run.catch(() => undefined);
    return run;
  }

  private async handOver(w: Watched, events: readonly ContractEvent[]): Promise<number> {
    const cursor = w.cursor;
    if (!cursor || events.length === 0) return 0;
    const seen = new Set([...cursor.seen, ...(cursor.scanned ?? [])]);
    // `since` is on this machine's clock, block timestamps on the chain's: compared as the scan has learned
    // the two differ by now (a first count read before the scan's first block is placed right too).
    const since = cursor.since === undefined ? 0 : (this.scan?.chainTime(cursor.since) ?? cursor.since);
    const fresh = events.filter((e) => (e.timestamp ?? since) >= since && !seen.has(eventKey(e)));
    if (fresh.length === 0) return 0;
    this.eventsEmitter.fire({ address: w.address, events: fresh });
    // Kept apart from the pages' keys: a catch-up reading older pages must not push them out.
    const scanned = [...(cursor.scanned ?? []), ...fresh.map(eventKey)].slice(-this.seenLimit);
    await this.save(w, { ...cursor, scanned });
    // Its count poll drops them as its pages pass them; one is asked for before the list could overflow.
    if (scanned.length * 2 > this.seenLimit) w.job?.runSoon();
    return fresh.length;
  }

  /** A contract's own floor: the configured one, or the safety net's while the scan serves it. */
  private get contractIntervalMs(): number {
    if (!this.scan?.active) return this.minIntervalMs;
    return Math.max(safetyNetIntervalMs(this.contracts.size), this.minIntervalMs);
  }

  /** What the scan job is told of the window and of who looks. */
  private scanState(): { visible: boolean; paused: boolean; slowdown: number } {
    // What the scan serves is what the Watched Contracts view shows: planned first while the window is
    // focused, before the contracts' own safety-net polls.
    const visible = this.focused && this.contracts.size > 0;
    return { visible, paused: this.paused, slowdown: this.focused ? 1 : this.unfocusedFactor };
  }

  /** The scheduler plans for the whole budget: hand it the plan's limit and the configured share. */
  private applyBudget(): void {
    if (!this.budget) return;
    const used = this.budget.requestsUsedThisMonth;
    this.scheduler.setBudget({
      monthlyLimit: this.budget.monthlyLimit,
      share: this.budget.share,
      ...(used ? { requestsUsedThisMonth: used } : {}),
    });
  }

  private addJob(w: Watched): void {
    if (!this.running || this.disposed || w.job) return;
    w.job = this.scheduler.add({
      kind: 'contract',
      label: w.address,
      minIntervalMs: this.contractIntervalMs,
      // A count, plus a page when it grew: the first guess until the kind has learned its cost.
      expectedCost: 1 + (this.budget?.fetchRatio ?? DEFAULT_FETCH_RATIO),
      startNow: this.neverSeen(w),
      visible: this.looksAt(w.address),
      slowdown: this.focused ? 1 : this.unfocusedFactor,
      paused: this.paused,
      run: () => this.runJob(w),
    });
    this.applyFocus(w.job, w.address);
    if (w.urgentPolls > 0) w.job.runSoon();
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

  /** Someone looks at this contract: it is shown in a focused window. */
  private looksAt(address: string): boolean {
    // While the scan serves the contracts, their own polls are a safety net: nobody waits for them.
    return this.focused && this.visible.has(address) && !this.scan?.active;
  }

  private applyFocus(job: JobHandle, address: string): void {
    job.setPaused(this.paused);
    // While the scan serves the contracts, focus speeds up the scan, not their safety nets: fifty of
    // those sped up together would all be overdue at once and fill the hour ahead of the scan.
    job.setSlowdown(this.focused && !this.scan?.active ? 1 : this.unfocusedFactor);
    job.setVisible(this.looksAt(address));
  }

  /** The window's state as the scheduler's pace counts it: focused, slowed, or paused time. */
  private applyWindow(): void {
    this.scheduler.setFocused(this.focused, this.paused ? Infinity : this.unfocusedFactor);
  }

  private removeJob(w: Watched): void {
    w.job?.dispose();
    w.job = undefined;
  }

  /** One scheduled poll of one contract; never throws (errors back off through the scheduler). */
  private async runJob(w: Watched): Promise<JobRun> {
    if (this.disposed || !this.contracts.has(w.address)) return { requests: 0, done: true };
    const tally = { requests: 0 };
    try {
      const emitted = await this.exclusive(w, () => this.pollContract(w, tally));
      w.failures = 0;
      this.scan?.choose();
      // The user waits for what they just did: at the floor again until a poll brings it.
      w.urgentPolls = emitted > 0 ? 0 : Math.max(0, w.urgentPolls - 1);
      return { requests: tally.requests, ...(w.urgentPolls > 0 ? { urgent: true } : {}) };
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

  /** Starts (or re-adds) watching; the first poll of a contract never seen before is due at once. */
  watch(address: string): void {
    if (!isValidAddress(address)) throw new RangeError(`not a valid address: ${address.slice(0, 80)}`);
    if (this.contracts.has(address)) return;
    const w: Watched = { address, cursor: undefined, loaded: false, failures: 0, polls: 0, urgentPolls: 0 };
    this.contracts.set(address, w);
    this.addJob(w);
    this.scan?.choose();
    this.applyFloors();
  }

  /** The contracts' floors: the safety net's spacing grows with their number while the scan serves them. */
  private applyFloors(): void {
    for (const c of this.contracts.values()) c.job?.setMinInterval(this.contractIntervalMs);
  }

  /**
   * The user has just changed `address` (executed a method on it, deployed it, sent to it): it is polled
   * as soon as its 16 s floor allows, ahead of its turn and of the budget's pacing (still counted), and
   * again at the floor until a poll brings news (at most {@link URGENT_POLLS} polls), so the view shows
   * what they caused without waiting a whole planned interval.
   */
  pollSoon(address: string): void {
    const w = this.contracts.get(address);
    if (!w) return;
    w.urgentPolls = URGENT_POLLS;
    // While the scan serves the contracts, the next scan brings the news (its own poll is the safety net).
    if (this.scan?.active) this.scan.runSoon();
    else w.job?.runSoon();
  }

  /** Stops watching. With `forget`, the stored cursor is dropped too (re-watching starts afresh). */
  async unwatch(address: string, options: { forget?: boolean } = {}): Promise<void> {
    const w = this.contracts.get(address);
    if (w) this.removeJob(w);
    this.contracts.delete(address);
    this.scan?.choose();
    this.applyFloors();
    if (options.forget) await this.store.set(this.storeKey(address), undefined);
  }

  get watched(): string[] {
    return [...this.contracts.keys()];
  }

  /** The in-memory cursor of a contract (after its first poll). */
  cursor(address: string): EventCursor | undefined {
    return this.contracts.get(address)?.cursor;
  }

  /** Milliseconds between two polls of `address` as planned now (undefined while it has no job). */
  intervalOf(address: string): number | undefined {
    const job = this.contracts.get(address)?.job;
    return job ? (this.scan?.intervalMs ?? job.intervalMs) : undefined;
  }

  /** The way the next regular poll of `address` will take (`count` before its cursor is known). */
  pollWay(address: string): keyof PollCosts {
    return cheaperWay(this.contracts.get(address)?.cursor?.costs);
  }

  /** Set by the glue from `window.state.focused`. */
  setFocused(focused: boolean): void {
    if (this.focused === focused) return;
    this.focused = focused;
    this.applyWindow();
    for (const w of this.contracts.values()) if (w.job) this.applyFocus(w.job, w.address);
    this.scan?.apply(this.scanState());
    // Left to what the scan leaves over while the window is focused, the safety nets are stretched past
    // their interval; once it is left, nobody is looked at and all are overdue at once. Run in one burst
    // they filled the sliding hour and held the scan to 1.39 × its interval (50 contracts, the session
    // bench): they wait for the pace instead.
    if (!focused && this.scan?.active) {
      const now = this.timers.now();
      for (const w of this.contracts.values()) if (w.job && w.job.dueAt <= now) w.job.stagger();
    }
  }

  /**
   * The contracts whose events or state are shown right now (the glue: expanded contract nodes of a
   * visible Watched Contracts view). While the window is focused they are planned first.
   */
  setVisible(addresses: Iterable<string>): void {
    this.visible = new Set(addresses);
    for (const w of this.contracts.values()) w.job?.setVisible(this.looksAt(w.address));
    this.scan?.apply(this.scanState());
  }

  /** The least time between two polls of one contract (raised to 16 s); the budget may make it longer. */
  setIntervalMs(ms: number): void {
    this.configuredIntervalMs = ms;
    this.applyFloors();
    this.scan?.setFloor(this.minIntervalMs);
  }

  setBudget(budget: WatcherBudget | undefined): void {
    this.budget = budget;
    this.applyBudget();
  }

  get paused(): boolean {
    return !this.focused && this.whenUnfocused === 'pause';
  }

  /**
   * One line for logs and tooltips: what the budget allows now and what it buys the watched contracts.
   */
  explanation(): string {
    const s = this.scheduler;
    const limit = s.monthlyLimit;
    const every = `${this.contracts.size} contract(s) every ${Math.round(this.intervalMs / 1000)} s`;
    if (limit === undefined) return `no monthly limit known: ${every} (the spec's floor is 16 s)`;
    const plan = s.plan();
    const pct = `${Math.round(s.share * 1000) / 10} %`;
    const perHour = Math.round(plan.hourlyShare);
    const hours = Math.round(plan.activeHoursPerDay * 10) / 10;
    return (
      `background within ${pct} of ${limit} requests/month, ${Math.floor(plan.monthShareLeft)} left: ` +
      `${perHour}/h while you work (${hours} h a day so far): ${every}`
    );
  }

  /**
   * Milliseconds between two polls of one contract as planned now: the longest among the watched
   * contracts (Infinity while paused). Before any is planned: the floor (× the unfocused factor).
   */
  get intervalMs(): number {
    if (this.paused) return Infinity;
    const scanned = this.scan?.intervalMs;
    if (scanned !== undefined) return scanned;
    let longest = 0;
    for (const w of this.contracts.values()) if (w.job) longest = Math.max(longest, w.job.intervalMs);
    if (longest > 0) return longest;
    return this.focused ? this.minIntervalMs : this.minIntervalMs * this.unfocusedFactor;
  }

  // ---- lifecycle --------------------------------------------------------------------------------------

  start(): void {
    if (this.disposed) return;
    this.running = true;
    for (const w of this.contracts.values()) this.addJob(w);
    this.scan?.start(this.scanState());
  }

  stop(): void {
    this.running = false;
    this.scan?.stop();
    for (const w of this.contracts.values()) this.removeJob(w);
  }

  dispose(): void {
    this.stop();
    this.disposed = true;
    this.lifetime.abort();
    this.eventsEmitter.dispose();
    this.errorEmitter.dispose();
    this.resetEmitter.dispose();
    this.pollEmitter.dispose();
    this.wayEmitter.dispose();
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

  /** One poll, the way this contract polls cheaper; returns the number of new events emitted. */
  private async pollContract(w: Watched, tally: { requests: number }): Promise<number> {
    await this.load(w);
    const poll = w.polls++;
    const cursor = w.cursor;
    // The count first: before there is a cursor, on the session's first poll (a count that went down
    // while VS Code was closed), now and then in between, and whenever it is the cheaper way.
    const countFirst =
      !cursor || poll === 0 || poll % COUNT_CHECK_EVERY === 0 || cheaperWay(cursor.costs) === 'count';
    const outcome =
      countFirst || !cursor ? await this.countFirst(w, tally) : await this.pageFirst(w, cursor, tally);
    if (outcome) await this.learn(w, outcome);
    return outcome?.emitted ?? 0;
  }

  /**
   * Updates what each way of polling is learned to cost this contract, from one poll. Kept in memory and
   * persisted with the cursor's next write (a poll with news writes it anyway), or at once when the
   * cheaper way changes.
   */
  private async learn(w: Watched, outcome: PollOutcome): Promise<void> {
    const cursor = w.cursor;
    if (!cursor) return;
    const before = cursor.costs ?? { count: 1, page: 1 };
    const ema = (old: number, x: number) => old + STRATEGY_SMOOTHING * (x - old);
    const costs: PollCosts = {
      count: ema(before.count, outcome.way === 'count' ? outcome.sent : outcome.otherWay),
      page: ema(before.page, outcome.way === 'page' ? outcome.sent : outcome.otherWay),
    };
    const next = { ...cursor, costs };
    if (cheaperWay(costs) !== cheaperWay(cursor.costs)) await this.save(w, next);
    else w.cursor = next;
  }

  /**
   * Reads `current-count`, then the pages from the cursor when it grew. Undefined when nothing is to
   * learn (the first sight of a contract, a count that went down).
   */
  private async countFirst(w: Watched, tally: { requests: number }): Promise<PollOutcome | undefined> {
    tally.requests++;
    const count = await this.count(w.address);
    let cursor = w.cursor;
    if (!cursor) {
      // First sight of this contract: show the last `backlog` events, not the whole history.
      const start = this.backlog === 'all' ? 0 : Math.max(0, count - this.backlog);
      cursor = { nextStart: start, lastCount: start, seen: [], pending: false, since: this.timers.now() };
      await this.save(w, cursor);
    } else if (count < cursor.lastCount) {
      // Counts only grow on one chain. A smaller one means another network or a reset devnet behind the
      // same profile: continuing from the old cursor would skip everything up to it.
      this.resetEmitter.fire({
        address: w.address,
        reason: `the event count went down from ${cursor.lastCount} to ${count} (another network or a reset node?)`,
      });
      await this.save(w, {
        ...cursor,
        nextStart: Math.min(cursor.nextStart, count),
        lastCount: count,
        pending: false,
      });
      this.pollEmitter.fire({ address: w.address, count });
      return undefined;
    }
    if (count <= cursor.lastCount && !cursor.pending) {
      this.pollEmitter.fire({ address: w.address, count });
      // Nothing new: a page read directly would have said so in one request too.
      return { emitted: 0, way: 'count', sent: 1, otherWay: 1 };
    }
    const read = await this.readPages(w, cursor, tally, count);
    this.pollEmitter.fire({ address: w.address, count });
    // Page-first would have read the same pages, and one more where the last one looked full (it does
    // not know the count); at least the one page that tells "nothing new".
    const otherWay = Math.max(1, read.pages + (read.endedFull ? 1 : 0));
    return { emitted: read.emitted, way: 'count', sent: 1 + read.pages, otherWay };
  }

  /** Reads the next page directly, and on while pages look full. */
  private async pageFirst(
    w: Watched,
    cursor: EventCursor,
    tally: { requests: number },
  ): Promise<PollOutcome> {
    const read = await this.readPages(w, cursor, tally, undefined);
    this.pollEmitter.fire({ address: w.address, count: w.cursor?.lastCount ?? cursor.lastCount });
    // Count-first would have read the count, then only the pages that moved the cursor.
    return { emitted: read.emitted, way: 'page', sent: read.pages, otherWay: 1 + read.advanced };
  }

  /**
   * Pages from the cursor, following `nextStart`, saving after each. With `count` known, up to it; without,
   * until a page that is not full (fewer than a page of slots scanned and of events). Bounded by the page
   * cap: the next poll continues (`pending`).
   */
  private async readPages(
    w: Watched,
    from: EventCursor,
    tally: { requests: number },
    count: number | undefined,
  ): Promise<{ emitted: number; pages: number; advanced: number; endedFull: boolean }> {
    let cursor = from;
    let emitted = 0;
    let pages = 0;
    let advancedPages = 0;
    let endedFull = false;
    let start = cursor.nextStart;
    let done = false;
    while (pages < this.maxPages && !done) {
      tally.requests++;
      const page = await this.page(w.address, start);
      pages++;
      const seen = new Set(cursor.seen);
      const scanned = new Set(cursor.scanned ?? []);
      const pageKeys = page.events.map(eventKey);
      // Compared against earlier pages and what the scan handed over: two identical emits inside one page
      // are two events.
      const fresh = page.events.filter((_, i) => !seen.has(pageKeys[i]!) && !scanned.has(pageKeys[i]!));
      const advanced = page.nextStart > start;
      if (advanced) advancedPages++;
      const keys: string[] = [...cursor.seen, ...pageKeys.filter((k) => !seen.has(k))];
      if (fresh.length > 0) {
        this.eventsEmitter.fire({ address: w.address, events: fresh });
        emitted += fresh.length;
      }
      endedFull =
        advanced && (page.events.length >= this.pageSize || page.nextStart - start >= this.pageSize);
      done = !advanced || (count !== undefined ? page.nextStart >= count : !endedFull);
      const nextStart = advanced ? page.nextStart : start;
      // One write per page, as if it were the last: until the pages are done `pending` says so, and the
      // next poll reads on whatever the count (what the pages reached counts as checked).
      // A scanned event this page holds is behind nextStart now: its key moves to the pages' keys.
      const onPage = new Set(pageKeys);
      const stillAhead = cursor.scanned?.filter((k) => !onPage.has(k));
      cursor = {
        ...cursor,
        nextStart,
        lastCount: Math.max(cursor.lastCount, count ?? nextStart),
        seen: keys.slice(-this.seenLimit),
        pending: !done,
        ...(stillAhead ? { scanned: stillAhead } : {}),
      };
      await this.save(w, cursor);
      start = nextStart;
    }
    return { emitted, pages, advanced: advancedPages, endedFull };
  }
}
