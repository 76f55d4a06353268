/**
 * One request budget for everything the extension does in the background: polling watched contracts,
 * the Node view's self-clique and chain heights, tracked transactions, state and getter re-reads.
 *
 * Why one scheduler: each feature pacing itself cannot keep the sum inside the plan. The gateway's Free
 * plan allows 100,000 requests a month; at the default 50 % share that is 69.4 requests an hour, and a
 * Node view that refreshes 20 requests a minute alone would spend twice the plan. So every background
 * request is planned here, against one share of the monthly quota, spread evenly:
 *
 * - **Plan.** Each job has a cost (requests per run, learned as a moving average of what its runs really
 *   sent), a floor (the 16 s of the spec for contracts) and a slow-down factor (unfocused window). The
 *   interval of every job is `max(floor, L) × factor`, with one common round length `L` chosen so that the
 *   planned rate at full speed, Σ cost / max(floor, L), is {@link PLAN_UTILISATION} of the share. When the
 *   floors fit, `L` is 0 and every job runs at its floor.
 * - **Spend.** A token bucket filled at {@link BUCKET_UTILISATION} of the share (a little more than the
 *   plan, so cost spikes are absorbed instead of starving a job) holds at most {@link BUCKET_CAPACITY}
 *   requests, and a sliding one-hour log refuses to start a job that would take the last hour over the
 *   share. So no hour, the first included, goes over the share.
 * - **Order.** Earliest due first, one job at a time (background never bursts, so it never crowds out a
 *   user action). A job's next run is due one interval after its last start; first runs are staggered
 *   across the interval instead of all at once.
 *
 * Time is injected ({@link SchedulerTimers}), so tests and the bench run months in seconds.
 */
import { Emitter, type Disposable, type Event } from '../gateway/emitter';

/** The spec: poll `current-count` no faster than once per 16 s per contract. */
export const DEFAULT_MIN_INTERVAL_MS = 16_000;
/** The budget's month: 30 days (the plans' "per month"; 720 hours). */
export const SCHEDULER_MONTH_MS = 30 * 24 * 3_600_000;
const HOUR_MS = 3_600_000;
/** Intervals are planned for this fraction of the share: the rest absorbs costlier runs than learned. */
export const PLAN_UTILISATION = 0.9;
/** Tokens arrive at this fraction of the share: above the plan (jobs run on time), below the share. */
export const BUCKET_UTILISATION = 0.95;
/** Requests the bucket can hold: enough to start any job at once after a quiet spell, never a burst. */
export const BUCKET_CAPACITY = 2;
/** Weight of the latest run in a job's learned cost. */
const COST_SMOOTHING = 0.2;

export interface SchedulerTimers {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemSchedulerTimers: SchedulerTimers = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const t = setTimeout(callback, ms);
    // A pending background run must not keep a test runner or a CLI alive.
    t.unref?.();
    return t;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface SchedulerBudget {
  /** Requests per month of the plan; undefined (a local node): no budget, every job at its floor. */
  readonly monthlyLimit: number | undefined;
  /** Fraction of the monthly limit for all background work, in (0, 1]. Default 0.5. */
  readonly share?: number;
  /**
   * Requests the key used this (UTC) month, user actions included. When what is left of the quota is
   * smaller than the share of a whole month, the rate is the share of what is left over the time left.
   */
  readonly requestsUsedThisMonth?: () => number | undefined;
}

/** What a job's run reports. */
export interface JobRun {
  /** Requests the run sent (it is charged to the budget). */
  readonly requests: number;
  /** Run again no sooner than this (a backoff after errors); the planned interval otherwise. */
  readonly retryInMs?: number;
  /** The job has nothing left to do (a transaction reached its confirmations): remove it. */
  readonly done?: boolean;
}

export interface JobOptions {
  /** What the job is, for explanations: 'contract', 'node', 'chains', 'tx', 'state'… */
  readonly kind: string;
  /** Label for logs and tooltips (an address, a txId). */
  readonly label?: string;
  /** Never run more often than this (default 16 s, the spec's floor). */
  readonly minIntervalMs?: number;
  /** Expected requests per run before any run was seen (default 1). */
  readonly expectedCost?: number;
  /** A one-shot job runs once, as soon as the budget allows, then is removed. */
  readonly once?: boolean;
  readonly run: (signal: AbortSignal) => Promise<JobRun>;
}

export interface JobHandle extends Disposable {
  readonly kind: string;
  /** Milliseconds between two runs as planned now (Infinity while paused). */
  readonly intervalMs: number;
  /** Start of the last run (ms), or undefined before the first. */
  readonly lastRunAt: number | undefined;
  /** When the next run is due (ms). */
  readonly dueAt: number;
  /** Learned requests per run. */
  readonly cost: number;
  /** Multiplies the interval (e.g. 4 while the window is unfocused); 1 by default. */
  setSlowdown(factor: number): void;
  /** Changes the job's floor (a new setting). */
  setMinInterval(ms: number): void;
  /** A paused job is not run and takes no share of the budget. */
  setPaused(paused: boolean): void;
  /** Makes the job due now (it still waits for the budget). */
  runSoon(): void;
}

/** The plan as a whole, for tooltips and logs. */
export interface SchedulePlan {
  /** Requests per hour the share allows (Infinity without a monthly limit). */
  readonly hourlyShare: number;
  /** Requests per hour the plan intends to spend. */
  readonly plannedPerHour: number;
  /** The common round length (0 when every job runs at its floor). */
  readonly roundMs: number;
  /** Interval per kind (the smallest one among the jobs of that kind) and how many jobs. */
  readonly kinds: ReadonlyArray<{ kind: string; jobs: number; intervalMs: number }>;
  /** True when the share cannot give every job its floor. */
  readonly budgetBound: boolean;
}

interface Job {
  readonly id: number;
  readonly options: JobOptions;
  cost: number;
  minIntervalMs: number;
  slowdown: number;
  paused: boolean;
  lastRunAt: number | undefined;
  /** Due time of the first run, or a retry/runSoon override of the next one. */
  dueOverride: number | undefined;
  removed: boolean;
}

export interface BackgroundSchedulerOptions {
  readonly budget?: SchedulerBudget;
  readonly timers?: SchedulerTimers;
}

/** Reported after every run (the bench and the tests read the gaps from it). */
export interface RunRecord {
  readonly kind: string;
  readonly label: string | undefined;
  readonly startedAt: number;
  readonly requests: number;
  readonly intervalMs: number;
}

export class BackgroundScheduler implements Disposable {
  private readonly timers: SchedulerTimers;
  private budget: SchedulerBudget;
  private readonly jobs = new Map<number, Job>();
  private nextId = 1;
  private tokens = 1;
  private tokensAt: number;
  /** Requests charged in the last hour: [time, requests]. */
  private hourLog: Array<[number, number]> = [];
  private timer: unknown;
  private running: Job | undefined;
  private lastFirstDue = -Infinity;
  private meterSubscription: Disposable | undefined;
  private disposed = false;
  private readonly lifetime = new AbortController();
  private readonly ranEmitter = new Emitter<RunRecord>();
  private readonly planEmitter = new Emitter<SchedulePlan>();
  /** After every run. */
  readonly onDidRun: Event<RunRecord> = this.ranEmitter.event;
  /** When jobs come or go or the budget changes (the status bar's freshness line). */
  readonly onDidChangePlan: Event<SchedulePlan> = this.planEmitter.event;

  constructor(options: BackgroundSchedulerOptions = {}) {
    this.timers = options.timers ?? systemSchedulerTimers;
    this.budget = options.budget ?? { monthlyLimit: undefined };
    this.tokensAt = this.timers.now();
    checkBudget(this.budget);
  }

  setBudget(budget: SchedulerBudget): void {
    checkBudget(budget);
    this.refill(this.timers.now());
    this.budget = budget;
    this.changed();
  }

  get share(): number {
    return this.budget.share ?? 0.5;
  }

  get monthlyLimit(): number | undefined {
    return this.budget.monthlyLimit;
  }

  /** Requests per ms the share allows now (Infinity without a limit). */
  shareRate(now = this.timers.now()): number {
    const limit = this.budget.monthlyLimit;
    if (limit === undefined) return Infinity;
    const rate = (limit * this.share) / SCHEDULER_MONTH_MS;
    const used = this.budget.requestsUsedThisMonth?.();
    if (used === undefined) return rate;
    // Heavy manual use earlier in the month: the share of what is left, over what is left of the month.
    const left = Math.max(0, limit - used) * this.share;
    return Math.min(rate, left / msUntilNextUtcMonth(now));
  }

  add(options: JobOptions): JobHandle {
    if (this.disposed) throw new Error('the background scheduler is disposed');
    const job: Job = {
      id: this.nextId++,
      options,
      cost: Math.max(0, options.expectedCost ?? 1),
      minIntervalMs: Math.max(0, options.minIntervalMs ?? DEFAULT_MIN_INTERVAL_MS),
      slowdown: 1,
      paused: false,
      lastRunAt: undefined,
      dueOverride: undefined,
      removed: false,
    };
    this.jobs.set(job.id, job);
    const now = this.timers.now();
    if (options.once) {
      job.dueOverride = now;
    } else {
      // Staggered: one planned spacing after the previous first run, never later than one interval.
      const active = this.activeJobs().length;
      const interval = this.intervals(now).get(job.id) ?? job.minIntervalMs;
      const spacing = Number.isFinite(interval) ? interval / Math.max(1, active) : 0;
      job.dueOverride = Math.min(now + interval, Math.max(now, this.lastFirstDue + spacing));
      this.lastFirstDue = job.dueOverride;
    }
    this.changed();
    return this.handle(job);
  }

  /**
   * Charges every background request `subscribe` reports (e.g. a client's `onRequest` at background
   * priority) instead of what jobs say they sent. So work that does not run as a job (tracking a
   * transaction the user waits for, a state re-read) is counted against the share too: the jobs make
   * room for it. Jobs' own counts still teach their cost.
   */
  meter(subscribe: (charge: () => void) => Disposable): void {
    this.meterSubscription?.dispose();
    this.meterSubscription = subscribe(() => {
      if (this.disposed) return;
      this.charge(this.timers.now(), 1);
    });
  }

  /** Requests charged in the last hour (what the sliding-hour guard sees). */
  spentInLastHour(): number {
    return this.spentLastHour(this.timers.now());
  }

  /** Jobs currently known (paused ones included). */
  get size(): number {
    return this.jobs.size;
  }

  plan(now = this.timers.now()): SchedulePlan {
    const rate = this.shareRate(now);
    const intervals = this.intervals(now);
    const kinds = new Map<string, { kind: string; jobs: number; intervalMs: number }>();
    let planned = 0;
    for (const job of this.activeJobs()) {
      const i = intervals.get(job.id) ?? Infinity;
      planned += job.cost / i;
      const k = kinds.get(job.options.kind) ?? { kind: job.options.kind, jobs: 0, intervalMs: Infinity };
      k.jobs++;
      k.intervalMs = Math.min(k.intervalMs, i);
      kinds.set(job.options.kind, k);
    }
    const round = this.roundMs(now);
    return {
      hourlyShare: rate * HOUR_MS,
      plannedPerHour: planned * HOUR_MS,
      roundMs: round,
      kinds: [...kinds.values()],
      budgetBound: round > 0,
    };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.lifetime.abort();
    this.meterSubscription?.dispose();
    this.clearTimer();
    this.jobs.clear();
    this.ranEmitter.dispose();
    this.planEmitter.dispose();
  }

  // ---- planning ----------------------------------------------------------------------------------------

  private activeJobs(): Job[] {
    return [...this.jobs.values()].filter((j) => !j.paused && !j.options.once);
  }

  /**
   * The common round length L: Σ cost / (max(floor, L) × slowdown) = planned rate. Monotone in L, so a
   * bisection finds it; 0 when the floors already fit.
   */
  private roundMs(now: number): number {
    const rate = this.shareRate(now) * PLAN_UTILISATION;
    const jobs = this.activeJobs();
    if (!Number.isFinite(rate) || jobs.length === 0) return 0;
    // Planned as if every job ran at full speed: a slowed job (unfocused window) saves its part instead
    // of handing it to the others, so slowing down really means fewer requests.
    const demand = (l: number): number =>
      jobs.reduce((sum, j) => sum + j.cost / Math.max(j.minIntervalMs, l, 1), 0);
    if (demand(0) <= rate) return 0;
    if (rate <= 0) return Infinity;
    let lo = 0;
    let hi = 1;
    while (demand(hi) > rate) hi *= 2;
    for (let i = 0; i < 60 && hi - lo > 1; i++) {
      const mid = (lo + hi) / 2;
      if (demand(mid) > rate) lo = mid;
      else hi = mid;
    }
    return Math.ceil(hi);
  }

  private intervals(now: number): Map<number, number> {
    const round = this.roundMs(now);
    const out = new Map<number, number>();
    for (const j of this.jobs.values()) {
      out.set(j.id, j.paused ? Infinity : Math.max(j.minIntervalMs, round) * j.slowdown);
    }
    return out;
  }

  private dueOf(job: Job, interval: number): number {
    if (job.dueOverride !== undefined) return job.dueOverride;
    return (job.lastRunAt ?? this.timers.now()) + interval;
  }

  // ---- spending ----------------------------------------------------------------------------------------

  private refill(now: number): void {
    const rate = this.shareRate(now) * BUCKET_UTILISATION;
    if (!Number.isFinite(rate)) {
      this.tokens = BUCKET_CAPACITY;
    } else {
      this.tokens = Math.min(BUCKET_CAPACITY, this.tokens + Math.max(0, now - this.tokensAt) * rate);
    }
    this.tokensAt = now;
  }

  private spentLastHour(now: number): number {
    this.hourLog = this.hourLog.filter(([t]) => t > now - HOUR_MS);
    return this.hourLog.reduce((s, [, n]) => s + n, 0);
  }

  /** Ms until a job expected to cost `cost` may start (0 = now). */
  private budgetWait(now: number, cost: number): number {
    const rate = this.shareRate(now);
    if (!Number.isFinite(rate)) return 0;
    if (rate <= 0) return msUntilNextUtcMonth(now);
    this.refill(now);
    let wait = this.tokens >= 1 ? 0 : (1 - this.tokens) / (rate * BUCKET_UTILISATION);
    // The sliding hour: starting must leave room for what the job is expected to cost.
    const hourly = rate * HOUR_MS;
    const need = Math.min(Math.max(1, Math.ceil(cost)), Math.floor(hourly));
    let spent = this.spentLastHour(now);
    for (const [t, n] of this.hourLog) {
      if (spent + need <= hourly) break;
      spent -= n;
      wait = Math.max(wait, t + HOUR_MS - now + 1);
    }
    return Math.ceil(wait);
  }

  private charge(now: number, requests: number): void {
    if (requests <= 0) return;
    this.refill(now);
    this.tokens -= requests;
    this.hourLog.push([now, requests]);
  }

  // ---- the loop ----------------------------------------------------------------------------------------

  private changed(): void {
    if (this.disposed) return;
    if (!this.running) this.reschedule();
    this.planEmitter.fire(this.plan());
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private reschedule(): void {
    this.clearTimer();
    if (this.disposed || this.running) return;
    const now = this.timers.now();
    const intervals = this.intervals(now);
    let next: Job | undefined;
    let nextDue = Infinity;
    for (const job of this.jobs.values()) {
      if (job.paused) continue;
      const due = this.dueOf(job, intervals.get(job.id) ?? Infinity);
      if (due < nextDue) {
        nextDue = due;
        next = job;
      }
    }
    if (!next || !Number.isFinite(nextDue)) return;
    const delay = Math.max(nextDue - now, this.budgetWait(now, next.cost));
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.tick();
    }, delay);
  }

  /** Runs the earliest due job if it is due and the budget allows; then plans the next wake-up. */
  private tick(): void {
    if (this.disposed || this.running) return;
    const now = this.timers.now();
    const intervals = this.intervals(now);
    let job: Job | undefined;
    let due = Infinity;
    for (const j of this.jobs.values()) {
      if (j.paused) continue;
      const d = this.dueOf(j, intervals.get(j.id) ?? Infinity);
      if (d < due) {
        due = d;
        job = j;
      }
    }
    if (!job || due > now || this.budgetWait(now, job.cost) > 0) {
      this.reschedule();
      return;
    }
    void this.runJob(job, now, intervals.get(job.id) ?? Infinity);
  }

  private async runJob(job: Job, now: number, intervalMs: number): Promise<void> {
    this.running = job;
    job.lastRunAt = now;
    job.dueOverride = undefined;
    let result: JobRun;
    try {
      result = await job.options.run(this.lifetime.signal);
    } catch {
      // A job is expected to report its own failures; one that throws is charged its usual cost.
      result = { requests: Math.ceil(job.cost) };
    }
    this.running = undefined;
    if (this.disposed) return;
    const requests = Math.max(0, Math.floor(result.requests));
    if (!this.meterSubscription) this.charge(now, requests);
    job.cost += COST_SMOOTHING * (requests - job.cost);
    if (result.retryInMs !== undefined) job.dueOverride = now + Math.max(0, result.retryInMs);
    if (result.done || job.options.once) this.remove(job);
    this.ranEmitter.fire({
      kind: job.options.kind,
      label: job.options.label,
      startedAt: now,
      requests,
      intervalMs,
    });
    this.reschedule();
  }

  private remove(job: Job): void {
    if (job.removed) return;
    job.removed = true;
    this.jobs.delete(job.id);
    this.changed();
  }

  private handle(job: Job): JobHandle {
    // Closures, not `this` inside the literal: its getters have their own `this`.
    const intervalOf = (): number => this.intervals(this.timers.now()).get(job.id) ?? Infinity;
    const dueOf = (): number => this.dueOf(job, intervalOf());
    const changed = (): void => this.changed();
    const now = (): number => this.timers.now();
    const remove = (): void => this.remove(job);
    return {
      kind: job.options.kind,
      get intervalMs() {
        return intervalOf();
      },
      get lastRunAt() {
        return job.lastRunAt;
      },
      get dueAt() {
        return dueOf();
      },
      get cost() {
        return job.cost;
      },
      setSlowdown(factor: number) {
        const f = Math.max(1, Number.isFinite(factor) ? factor : 1);
        if (f === job.slowdown) return;
        job.slowdown = f;
        changed();
      },
      setMinInterval(ms: number) {
        const m = Math.max(0, Number.isFinite(ms) ? ms : 0);
        if (m === job.minIntervalMs) return;
        job.minIntervalMs = m;
        changed();
      },
      setPaused(paused: boolean) {
        if (paused === job.paused) return;
        job.paused = paused;
        changed();
      },
      runSoon() {
        if (job.removed) return;
        job.dueOverride = now();
        changed();
      },
      dispose() {
        remove();
      },
    };
  }
}

function checkBudget(budget: SchedulerBudget): void {
  const share = budget.share ?? 0.5;
  if (!(share > 0 && share <= 1)) throw new RangeError(`share must be in (0, 1], got ${share}`);
  const limit = budget.monthlyLimit;
  if (limit !== undefined && !(limit > 0 && Number.isFinite(limit)))
    throw new RangeError(`monthlyLimit must be positive, got ${limit}`);
}

/** Milliseconds from `now` to the start of the next UTC calendar month. */
export function msUntilNextUtcMonth(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - now;
}

function duration(ms: number): string {
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 2 * HOUR_MS) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round((ms / HOUR_MS) * 10) / 10} h`;
}

/**
 * One line for the status bar's tooltip when the share cannot give every contract the 16 s floor: what
 * freshness the plan buys, e.g. "10 contracts on Free: each every 6 min". Undefined when the floor holds.
 */
export function freshnessLine(plan: SchedulePlan, planName: string | undefined): string | undefined {
  if (!plan.budgetBound) return undefined;
  const on = planName ? ` on ${planName[0]?.toUpperCase()}${planName.slice(1)}` : '';
  const parts = plan.kinds
    .filter((k) => Number.isFinite(k.intervalMs))
    .map((k) => {
      const noun = KIND_NOUNS[k.kind] ?? [k.kind, `${k.kind}s`];
      const name = k.jobs === 1 ? noun[0] : noun[1];
      return `${k.jobs} ${name}${on}: ${k.jobs === 1 ? '' : 'each '}every ${duration(k.intervalMs)}`;
    });
  return parts.length ? parts.join('; ') : undefined;
}

const KIND_NOUNS: Record<string, [string, string]> = {
  contract: ['contract', 'contracts'],
  node: ['node status check', 'node status checks'],
  chains: ['chain heights read', 'chain heights reads'],
  tx: ['tracked transaction', 'tracked transactions'],
};

/**
 * The scheduler shared by everything that talks through one client: the watcher, the Node view and
 * transaction tracking find the same one, so their requests are planned against one budget without
 * the glue passing it around. Keyed weakly: a rebuilt client gets a fresh scheduler.
 */
const shared = new WeakMap<object, BackgroundScheduler>();

export function sharedScheduler(
  owner: object,
  create: () => BackgroundScheduler = () => new BackgroundScheduler(),
): BackgroundScheduler {
  let s = shared.get(owner);
  if (!s) {
    s = create();
    shared.set(owner, s);
  }
  return s;
}
