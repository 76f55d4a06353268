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
/**
 * How late past its due time a job may be held for tokens. Beyond it only the sliding hour holds it: a
 * burst of other background work (a tracked transaction) must not starve a contract for several of its
 * intervals, and the hour is what the share promises.
 */
export const MAX_LATE_FRACTION = 0.1;
/** A job this late (a fraction of its interval past due) runs whatever the hour says: nothing starves. */
const STARVATION_FRACTION = 0.2;
/** First runs are staggered over this fraction of the interval. */
const STAGGER_FRACTION = 0.8;
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
  /**
   * The first run is due now and waits only for the sliding hour, not its staggered turn: a contract
   * never seen before must read its count at once, or events emitted before its first poll would
   * never be news (with a stored cursor, a late first poll loses nothing, so those are staggered).
   */
  readonly startNow?: boolean;
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
  /**
   * Someone is waiting for this job (the user just changed the contract): its next run is due now, or
   * once its floor has passed, and is held by nothing else. Still charged to the share.
   */
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
  /** runSoon was asked: the next run waits for its floor only. */
  urgent: boolean;
  /**
   * The second run of a job whose first ran at once (startNow) together with others: paced by tokens like
   * a staggered first run, not held to a due time. Contracts added together read their counts together;
   * their next runs must not all come due together too, or the starvation guard would push that hour
   * over the share. A job added alone keeps its usual turn (the user who just watched it is waiting).
   */
  staggering: boolean;
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
  /**
   * Learned requests per run of each kind. The plan uses it rather than each job's own average: a job
   * runs once per round (an hour for 50 contracts on Free), its kind learns from every run, so a wrong
   * first guess (busy contracts fetch a page on most polls) is corrected within one round, not ten.
   */
  private readonly kindCost = new Map<string, number>();
  private nextId = 1;
  private tokens = 1;
  private tokensAt: number;
  /** Requests charged in the last hour: [time, requests]. */
  private hourLog: Array<[number, number]> = [];
  /** What jobs reported sending in the last hour: [time, requests]. The rest of hourLog is other work. */
  private jobLog: Array<[number, number]> = [];
  private timer: unknown;
  private running: Job | undefined;
  private lastFirstDue = -Infinity;
  /** Jobs whose first run ran at once within the last floor (16 s): a batch when there are several. */
  private atOnceBatch: { job: Job; at: number }[] = [];
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
      urgent: false,
      staggering: false,
    };
    this.jobs.set(job.id, job);
    const now = this.timers.now();
    if (options.once || options.startNow) {
      job.dueOverride = now;
    } else {
      // Staggered: one planned spacing after the previous first run, never later than one interval.
      const active = this.activeJobs().length;
      const interval = this.intervals(now).get(job.id) ?? job.minIntervalMs;
      // Spread over STAGGER_FRACTION of the interval: the plan shrinks once first runs show their cost.
      const spacing = Number.isFinite(interval) ? (STAGGER_FRACTION * interval) / Math.max(1, active) : 0;
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
      planned += this.costOf(job) / i;
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
    // Other background work of the last hour (tracking, re-reads, a view's first probe) is planned
    // around: the jobs get what it leaves of the planned rate (never less than a tenth of it).
    const planned = this.shareRate(now) * PLAN_UTILISATION;
    const rate = Math.max(planned / 10, planned - this.otherLastHour(now) / HOUR_MS);
    const jobs = this.activeJobs();
    if (!Number.isFinite(rate) || jobs.length === 0) return 0;
    // Planned as if every job ran at full speed: a slowed job (unfocused window) saves its part instead
    // of handing it to the others, so slowing down really means fewer requests.
    const demand = (l: number): number =>
      jobs.reduce((sum, j) => sum + this.costOf(j) / Math.max(j.minIntervalMs, l, 1), 0);
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

  /**
   * How much longer a job may wait for tokens. A first run of a never-seen contract waits for nothing but
   * the hour; other first runs always wait for tokens (that is what staggers them, at what they really
   * cost); later runs wait at most until {@link MAX_LATE_FRACTION} of their interval past due.
   */
  private lateness(job: Job, due: number, interval: number, now: number): number {
    if (job.lastRunAt === undefined) return job.options.startNow ? 0 : Infinity;
    if (job.staggering) return Infinity;
    return due + MAX_LATE_FRACTION * interval - now;
  }

  private costOf(job: Job): number {
    return this.kindCost.get(job.options.kind) ?? job.cost;
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

  /** Metered requests of the last hour that no job reported: work that does not run as a job. */
  private otherLastHour(now: number): number {
    if (!this.meterSubscription) return 0;
    this.jobLog = this.jobLog.filter(([t]) => t > now - HOUR_MS);
    const jobs = this.jobLog.reduce((s, [, n]) => s + n, 0);
    return Math.max(0, this.spentLastHour(now) - jobs);
  }

  /**
   * Ms until a job expected to cost `cost` may start (0 = now). `lateBy` is how long the job may still
   * wait for tokens before only the sliding hour can hold it.
   */
  private budgetWait(now: number, cost: number, lateBy = Infinity, hourFraction = 1): number {
    const rate = this.shareRate(now);
    if (!Number.isFinite(rate)) return 0;
    if (rate <= 0) return msUntilNextUtcMonth(now);
    this.refill(now);
    let wait = this.tokens >= 1 ? 0 : (1 - this.tokens) / (rate * BUCKET_UTILISATION);
    wait = Math.min(wait, Math.max(0, lateBy));
    // The sliding hour: starting must leave room for what the job is expected to cost.
    const hourly = rate * HOUR_MS * hourFraction;
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
    // Debt beyond the bucket's size is forgiven: the sliding hour is what keeps the share, and a long
    // debt would hold every job late for hours after one burst.
    this.tokens = Math.max(-BUCKET_CAPACITY, this.tokens - requests);
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

  /**
   * The job to run next and when it may start: the earliest moment any job is both due and allowed by
   * the budget (ties: the earliest due). Not simply the earliest due: a first run waiting for tokens must
   * not hold up a contract that is already late.
   */
  private pick(now: number): { job: Job; at: number; intervalMs: number } | undefined {
    const intervals = this.intervals(now);
    type Candidate = { job: Job; at: number; due: number; intervalMs: number; early: boolean };
    const better = (a: Candidate, b: Candidate | undefined): boolean =>
      !b || a.at < b.at || (a.at === b.at && (a.early !== b.early ? !a.early : a.due < b.due));
    let best: Candidate | undefined;
    let anyDue = false;
    const earlyOnes: Job[] = [];
    for (const job of this.jobs.values()) {
      if (job.paused) continue;
      const interval = intervals.get(job.id) ?? Infinity;
      const due = this.dueOf(job, interval);
      if (!Number.isFinite(due)) continue;
      if (due <= now) anyDue = true;
      // A staggered first run keeps the last hour within the plan's pace, so the first round takes
      // about one interval: faster, and the second round would find nothing due and idle.
      const first =
        (job.lastRunAt === undefined && !job.options.startNow && !job.options.once) || job.staggering;
      // Held by nothing but its due time: asked for by the user, or so late that holding it longer
      // would starve it (only heavy other work, e.g. many tracked sends, can fill the hour like that).
      const free =
        job.urgent ||
        (job.lastRunAt !== undefined && !job.staggering && now >= due + STARVATION_FRACTION * interval);
      const wait = free
        ? 0
        : this.budgetWait(
            now,
            this.costOf(job),
            this.lateness(job, due, interval, now),
            first ? PLAN_UTILISATION : 1,
          );
      const candidate: Candidate = {
        job,
        // Never later than the moment it may no longer be held.
        at: Math.min(
          Math.max(due, now + wait),
          job.lastRunAt !== undefined && !job.staggering ? due + STARVATION_FRACTION * interval : Infinity,
        ),
        due,
        intervalMs: interval,
        early: false,
      };
      if (better(candidate, best)) best = candidate;
      if (
        candidate.at > now &&
        job.lastRunAt !== undefined &&
        job.dueOverride === undefined &&
        job.slowdown === 1
      )
        earlyOnes.push(job);
    }
    // Work-conserving: when nothing is due, a job may run before its due time (never before its floor)
    // with tokens to spare, so the share is used rather than idled while contracts wait for their turn.
    // Not a slowed job (unfocused: the point is to spend less), nor a first run or a retry (fixed
    // times), and only while the last hour is within the plan's utilisation: the rest of the share is
    // the room a burst of other work (a tracked transaction) needs without holding anyone late.
    if (!anyDue) {
      const room = this.shareRate(now) * PLAN_UTILISATION * HOUR_MS - this.spentLastHour(now);
      for (const job of earlyOnes) {
        if (job.cost > room) continue;
        const interval = intervals.get(job.id) ?? Infinity;
        const at = Math.max(
          (job.lastRunAt as number) + job.minIntervalMs,
          now + this.budgetWait(now, job.cost),
        );
        const candidate: Candidate = {
          job,
          at,
          due: this.dueOf(job, interval),
          intervalMs: interval,
          early: true,
        };
        if (better(candidate, best)) best = candidate;
      }
    }
    return best;
  }

  private reschedule(): void {
    this.clearTimer();
    if (this.disposed || this.running) return;
    const now = this.timers.now();
    const next = this.pick(now);
    if (!next || !Number.isFinite(next.at)) return;
    this.timer = this.timers.setTimeout(
      () => {
        this.timer = undefined;
        this.tick();
      },
      Math.max(0, next.at - now),
    );
  }

  /** Runs the job whose turn it is, if its moment has come; then plans the next wake-up. */
  private tick(): void {
    if (this.disposed || this.running) return;
    const now = this.timers.now();
    const next = this.pick(now);
    if (!next || next.at > now) {
      this.reschedule();
      return;
    }
    void this.runJob(next.job, now, next.intervalMs);
  }

  /**
   * Records a first run that ran at once; once several ran within one floor of each other, every one of
   * them that has not run again is paced by tokens from its floor on (see Job.staggering).
   */
  private joinAtOnceBatch(job: Job, now: number): void {
    this.atOnceBatch = this.atOnceBatch.filter((b) => b.at > now - job.minIntervalMs && !b.job.removed);
    this.atOnceBatch.push({ job, at: now });
    if (this.atOnceBatch.length < 2) return;
    for (const b of this.atOnceBatch) {
      if (b.job.lastRunAt !== b.at || b.job.dueOverride !== undefined || b.job.urgent) continue;
      b.job.staggering = true;
      b.job.dueOverride = b.at + b.job.minIntervalMs;
    }
  }

  private async runJob(job: Job, now: number, intervalMs: number): Promise<void> {
    this.running = job;
    const firstAtOnce = job.lastRunAt === undefined && job.options.startNow === true && !job.options.once;
    job.lastRunAt = now;
    job.dueOverride = undefined;
    job.urgent = false;
    job.staggering = false;
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
    else if (requests > 0) this.jobLog.push([now, requests]);
    job.cost += COST_SMOOTHING * (requests - job.cost);
    if (!job.options.once) {
      const kind = job.options.kind;
      const k = this.kindCost.get(kind) ?? requests;
      this.kindCost.set(kind, k + COST_SMOOTHING * (requests - k));
    }
    if (result.retryInMs !== undefined) job.dueOverride = now + Math.max(0, result.retryInMs);
    else if (firstAtOnce && !job.urgent) this.joinAtOnceBatch(job, now);
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
        job.dueOverride = Math.max(now(), (job.lastRunAt ?? -Infinity) + job.minIntervalMs);
        job.urgent = true;
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
