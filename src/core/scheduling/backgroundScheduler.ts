/**
 * One request budget for everything the extension does in the background: polling watched contracts,
 * the Node view's self-clique and chain heights, tracked transactions, state and getter re-reads.
 *
 * Why one scheduler: each feature pacing itself cannot keep the sum inside the plan. The gateway's Free
 * plan allows 100,000 requests a month, 50,000 of them for the background at the default 50 % share,
 * and a Node view that refreshes 20 requests a minute alone would spend twice the plan. So every
 * background request is planned here, against one share of the monthly quota:
 *
 * - **Pace.** The share is spent while the person works, not spread over 720 hours as if VS Code ran
 *   around the clock: the rate is what is left of this month's share over the working time expected to
 *   be left, learned from this month's activity ({@link MonthPace}, persisted through an activity
 *   store), with a per-hour cap. Never above the plan's per-second limit; never past the month's share.
 * - **Plan.** Each job has a cost (requests per run, learned as a moving average of what its runs really
 *   sent), a floor (the 16 s of the spec for contracts) and a slow-down factor (unfocused window). The
 *   interval of a job is `max(floor, L) × factor`, with round lengths `L` chosen so that the planned rate
 *   at full speed, Σ cost / max(floor, L), is {@link PLAN_UTILISATION} of the pace. Jobs someone looks at
 *   (visible) are planned first, with one round; the others share what is left with another (at least
 *   {@link OTHERS_RESERVE} of the rate, and never faster than the visible ones). When the floors fit,
 *   `L` is 0 and every job runs at its floor. A job at a fixed pace (the Node view's sync check, whose
 *   interval the view promises) runs at its floor, not held for tokens, and the rounds are planned with
 *   what it leaves; only a plan too small to leave the others their reserve stretches it.
 * - **Spend.** A token bucket filled at {@link BUCKET_UTILISATION} of the pace (a little more than the
 *   plan, so cost spikes are absorbed instead of starving a job) holds at most {@link BUCKET_CAPACITY}
 *   requests, and a sliding one-hour log refuses to start a job that would take the last hour over the
 *   pace. So no hour, the first included, goes over it; and nothing starts that the month's share left
 *   cannot pay for.
 * - **Order.** Earliest due first, one job at a time (background never bursts, so it never crowds out a
 *   user action). A job's next run is due one interval after its last start; first runs are staggered
 *   across the interval instead of all at once.
 *
 * Time is injected ({@link Timers}), so tests and the bench run months in seconds.
 */
import { Emitter, type Disposable, type Event } from '../util/emitter';
import { MonthPace, msUntilNextUtcMonth, type ActivityStore } from './monthPace';
import { withListenerRoom } from '../util/abort';
import { systemTimers, type Timers } from '../util/clock';
import {
  checkBudget,
  jobHandle,
  type Job,
  type JobHandle,
  type JobOptions,
  type JobRun,
  type RunRecord,
  type SchedulePlan,
  type SchedulerBudget,
} from './jobs';
import { HourLog } from './hourLog';
import { planRounds } from './rounds';
import {
  BUCKET_CAPACITY,
  BUCKET_UTILISATION,
  COST_SMOOTHING,
  DEFAULT_MIN_INTERVAL_MS,
  HEARTBEAT_MS,
  MAX_LATE_FRACTION,
  OTHERS_RESERVE,
  PLAN_UTILISATION,
  STAGGER_FRACTION,
  STARVATION_FRACTION,
} from './policy';
import { HOUR_MS } from '../util/month';

export { msUntilNextUtcMonth, type ActivityStore, type ActivityRecord } from './monthPace';

/** The plan's round lengths (see {@link planRounds}) and how far the fixed-pace jobs are stretched (1: not). */
interface Rounds {
  readonly visible: number;
  readonly others: number;
  readonly fixedStretch: number;
}

export interface BackgroundSchedulerOptions {
  readonly budget?: SchedulerBudget;
  readonly timers?: Timers;
  /** Where this month's activity and spending persist (see {@link setActivityStore}). */
  readonly activity?: ActivityStore;
}

export class BackgroundScheduler implements Disposable {
  private readonly timers: Timers;
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
  /** Requests charged in the last hour. */
  private readonly hourLog = new HourLog();
  /** What jobs reported sending in the last hour. The rest of hourLog is other work. */
  private readonly jobLog = new HourLog();
  /** The paced rate as last computed (every candidate of a pick asks for it at the same moment). */
  private rateCache: { at: number; used: number | undefined; rate: number } | undefined;
  /** The round lengths as last computed, valid until anything they depend on changes. */
  private roundsCache: { at: number; rounds: Rounds } | undefined;
  private timer: unknown;
  private heartbeat: unknown;
  private running: Job | undefined;
  /** This month's pace: activity and spending, persisted through the activity store. */
  private readonly pace: MonthPace;
  private lastFirstDue = -Infinity;
  /** Jobs whose first run ran at once within the last floor (16 s): a batch when there are several. */
  private atOnceBatch: { job: Job; at: number }[] = [];
  private meterSubscription: Disposable | undefined;
  private disposed = false;
  private readonly lifetime = withListenerRoom(new AbortController());
  private readonly ranEmitter = new Emitter<RunRecord>();
  private readonly planEmitter = new Emitter<SchedulePlan>();
  /** After every run. */
  readonly onDidRun: Event<RunRecord> = this.ranEmitter.event;
  /** When jobs come or go or the budget changes (the status bar's freshness line). */
  readonly onDidChangePlan: Event<SchedulePlan> = this.planEmitter.event;

  constructor(options: BackgroundSchedulerOptions = {}) {
    this.timers = options.timers ?? systemTimers;
    this.budget = options.budget ?? { monthlyLimit: undefined };
    this.tokensAt = this.timers.now();
    this.pace = new MonthPace(this.tokensAt);
    checkBudget(this.budget);
    if (options.activity) this.setActivityStore(options.activity);
  }

  setBudget(budget: SchedulerBudget): void {
    checkBudget(budget);
    this.refill(this.timers.now());
    const perSecond = budget.perSecond ?? this.budget.perSecond;
    this.budget = perSecond === undefined ? budget : { ...budget, perSecond };
    this.changed();
  }

  /**
   * This month's activity and spending are kept in `store` (the glue passes VS Code's globalState), so a
   * reload neither forgets what the month cost nor how long the person works.
   */
  setActivityStore(store: ActivityStore): void {
    this.pace.useStore(store, this.timers.now());
    this.changed();
  }

  /**
   * The window's focus: focused time is working time, unfocused time counts at 1/`unfocusedFactor` (the
   * jobs run that much slower) and Infinity means paused (it does not count). So the pace learns how
   * much full-speed time a day the person's pattern costs.
   */
  setFocused(focused: boolean, unfocusedFactor = 4): void {
    this.pace.setWeight(focused ? 1 : 1 / Math.max(1, unfocusedFactor), this.timers.now());
    this.rateCache = undefined;
  }

  get share(): number {
    return this.budget.share ?? 0.5;
  }

  get monthlyLimit(): number | undefined {
    return this.budget.monthlyLimit;
  }

  /**
   * Requests per ms the background may spend now at full speed (Infinity without a monthly limit): the
   * share left this month over the working time expected to be left (see {@link MonthPace}), within
   * the per-hour cap and below the plan's per-second limit.
   */
  pacedRate(now = this.timers.now()): number {
    const used = this.budget.requestsUsedThisMonth?.();
    if (this.rateCache?.at === now && this.rateCache.used === used) return this.rateCache.rate;
    const limits = this.paceLimits(used);
    const perSecond = this.budget.perSecond;
    const secondCap = perSecond !== undefined && perSecond > 1 ? (perSecond - 1) / 1000 : Infinity;
    const rate = limits ? Math.min(this.pace.rate(now, limits, PLAN_UTILISATION), secondCap) : Infinity;
    this.rateCache = { at: now, used, rate };
    return rate;
  }

  /** Requests of this month's share not spent yet (Infinity without a monthly limit). */
  monthShareLeft(now = this.timers.now()): number {
    const limits = this.paceLimits();
    return limits ? this.pace.shareLeft(now, limits) : Infinity;
  }

  private paceLimits(
    used = this.budget.requestsUsedThisMonth?.(),
  ): { monthlyShare: number; quotaShareLeft?: number } | undefined {
    const limit = this.budget.monthlyLimit;
    if (limit === undefined) return undefined;
    return {
      monthlyShare: limit * this.share,
      ...(used !== undefined ? { quotaShareLeft: Math.max(0, limit - used) * this.share } : {}),
    };
  }

  add(options: JobOptions): JobHandle {
    if (this.disposed) throw new Error('the background scheduler is disposed');
    const job: Job = {
      id: this.nextId++,
      options,
      cost: Math.max(0, options.expectedCost ?? 1),
      minIntervalMs: Math.max(0, options.minIntervalMs ?? DEFAULT_MIN_INTERVAL_MS),
      slowdown: Math.max(1, Number.isFinite(options.slowdown) ? (options.slowdown as number) : 1),
      paused: options.paused ?? false,
      visible: options.visible ?? true,
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
    this.beat();
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
    const rate = this.pacedRate(now);
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
    const rounds = this.rounds(now);
    return {
      hourlyShare: rate * HOUR_MS,
      monthShareLeft: this.monthShareLeft(now),
      activeHoursPerDay: this.pace.activePerDayMs(now) / HOUR_MS,
      plannedPerHour: planned * HOUR_MS,
      roundMs: rounds.others,
      visibleRoundMs: rounds.visible,
      kinds: [...kinds.values()],
      budgetBound: rounds.others > 0 || rounds.visible > 0 || rounds.fixedStretch > 1,
    };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.lifetime.abort();
    this.meterSubscription?.dispose();
    this.clearTimer();
    this.stopHeartbeat();
    this.pace.flush(this.timers.now());
    this.jobs.clear();
    this.ranEmitter.dispose();
    this.planEmitter.dispose();
  }

  // ---- planning ----------------------------------------------------------------------------------------

  private activeJobs(): Job[] {
    return [...this.jobs.values()].filter((j) => !j.paused && !j.options.once);
  }

  /** The round lengths of this moment (see {@link planRounds}), computed once per moment. */
  private rounds(now: number): Rounds {
    if (this.roundsCache?.at === now) return this.roundsCache.rounds;
    const rounds = this.computeRounds(now);
    this.roundsCache = { at: now, rounds };
    return rounds;
  }

  private computeRounds(now: number): Rounds {
    // Other background work of the last hour (tracking, re-reads, a view's first probe) is planned
    // around: the jobs get what it leaves of the planned rate (never less than a tenth of it).
    const planned = this.pacedRate(now) * PLAN_UTILISATION;
    const rate = Math.max(planned / 10, planned - this.otherLastHour(now) / HOUR_MS);
    // Jobs at a fixed pace take their part first, at their floors while that leaves the others their
    // reserve; on a plan too small for that (a key used around the clock) they are stretched evenly, so
    // the share still holds and the interval they report is the one they keep.
    const active = this.activeJobs();
    const fixed = active.filter((j) => j.options.fixedPace);
    const fixedRate = fixed.reduce((sum, j) => sum + this.costOf(j) / Math.max(1, j.minIntervalMs), 0);
    const fixedRoom = rate * (1 - OTHERS_RESERVE);
    const fixedStretch = fixedRate > fixedRoom ? fixedRate / fixedRoom : 1;
    const rounds = planRounds(
      active.filter((j) => !j.options.fixedPace),
      rate - fixedRate / fixedStretch,
      (job) => this.costOf(job),
    );
    return { ...rounds, fixedStretch };
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
    const rounds = this.rounds(now);
    const out = new Map<number, number>();
    for (const j of this.jobs.values()) {
      const interval = j.options.fixedPace
        ? Math.ceil(j.minIntervalMs * rounds.fixedStretch)
        : Math.max(j.minIntervalMs, j.visible ? rounds.visible : rounds.others);
      out.set(j.id, j.paused ? Infinity : interval * j.slowdown);
    }
    return out;
  }

  private dueOf(job: Job, interval: number): number {
    if (job.dueOverride !== undefined) return job.dueOverride;
    return (job.lastRunAt ?? this.timers.now()) + interval;
  }

  // ---- spending ----------------------------------------------------------------------------------------

  private refill(now: number): void {
    const rate = this.pacedRate(now) * BUCKET_UTILISATION;
    if (!Number.isFinite(rate)) {
      this.tokens = BUCKET_CAPACITY;
    } else {
      this.tokens = Math.min(BUCKET_CAPACITY, this.tokens + Math.max(0, now - this.tokensAt) * rate);
    }
    this.tokensAt = now;
  }

  private spentLastHour(now: number): number {
    return this.hourLog.sum(now);
  }

  /** Metered requests of the last hour that no job reported: work that does not run as a job. */
  private otherLastHour(now: number): number {
    if (!this.meterSubscription) return 0;
    return Math.max(0, this.spentLastHour(now) - this.jobLog.sum(now));
  }

  /**
   * Ms until a job expected to cost `cost` may start (0 = now). `lateBy` is how long the job may still
   * wait for tokens before only the sliding hour can hold it; `tokensNeeded` how full the bucket must be.
   */
  private budgetWait(
    now: number,
    cost: number,
    lateBy = Infinity,
    hourFraction = 1,
    tokensNeeded = 1,
  ): number {
    const rate = this.pacedRate(now);
    if (!Number.isFinite(rate)) return 0;
    const month = this.monthWait(now, cost);
    if (month > 0 || rate <= 0) return Math.max(month, msUntilNextUtcMonth(now));
    this.refill(now);
    let wait = this.tokens >= tokensNeeded ? 0 : (tokensNeeded - this.tokens) / (rate * BUCKET_UTILISATION);
    wait = Math.min(wait, Math.max(0, lateBy));
    // The sliding hour: starting must leave room for what the job is expected to cost.
    const hourly = rate * HOUR_MS * hourFraction;
    const need = Math.min(Math.max(1, Math.ceil(cost)), Math.floor(hourly));
    let spent = this.spentLastHour(now);
    for (const [t, n] of this.hourLog.entries(now)) {
      if (spent + need <= hourly) break;
      spent -= n;
      wait = Math.max(wait, t + HOUR_MS - now + 1);
    }
    return Math.ceil(wait);
  }

  /**
   * Ms until a job expected to cost `cost` may start as far as the month is concerned: 0 while the
   * share left pays for it, else the next month. Nothing (not even a job the user waits for) passes it.
   */
  private monthWait(now: number, cost: number): number {
    return this.monthShareLeft(now) >= Math.max(1, Math.ceil(cost)) ? 0 : msUntilNextUtcMonth(now);
  }

  private charge(now: number, requests: number): void {
    if (requests <= 0) return;
    this.pace.charge(requests, now);
    this.rateCache = undefined;
    this.refill(now);
    // Debt beyond the bucket's size is forgiven: the sliding hour is what keeps the share, and a long
    // debt would hold every job late for hours after one burst.
    this.tokens = Math.max(-BUCKET_CAPACITY, this.tokens - requests);
    this.hourLog.add(now, requests);
    this.roundsCache = undefined;
  }

  // ---- the loop ----------------------------------------------------------------------------------------

  private changed(): void {
    this.roundsCache = undefined;
    this.rateCache = undefined;
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
    // While someone looks at some jobs, the others leave a token in the bucket for them.
    const anyVisible = [...this.jobs.values()].some((j) => j.visible && !j.paused);
    // A late job may ignore the hour only when other work filled it: jobs that overspent themselves (a
    // burst of first reads, a cost learned too low) wait for the hour like everyone else.
    const jobsRoom = this.pacedRate(now) * HOUR_MS - (this.spentLastHour(now) - this.otherLastHour(now));
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
      // Held by nothing but its due time: asked for by the user, at a fixed pace (its promise is a time
      // bound), or so late that holding it longer
      // would starve it (only heavy other work, e.g. many tracked sends, can fill the hour like that).
      const starvingAt =
        job.lastRunAt !== undefined && !job.staggering && this.costOf(job) <= jobsRoom
          ? due + STARVATION_FRACTION * interval
          : Infinity;
      const free = job.urgent || job.options.fixedPace === true || now >= starvingAt;
      const wait = free
        ? this.monthWait(now, this.costOf(job))
        : this.budgetWait(
            now,
            this.costOf(job),
            this.lateness(job, due, interval, now),
            first ? PLAN_UTILISATION : 1,
            anyVisible && !job.visible ? 2 : 1,
          );
      const candidate: Candidate = {
        job,
        // Never later than the moment it may no longer be held.
        at: Math.max(
          Math.min(Math.max(due, now + wait), starvingAt),
          now + this.monthWait(now, this.costOf(job)),
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
    // the room a burst of other work (a tracked transaction) needs without holding anyone late. And only
    // with a token to spare: the job due next (a visible one at its floor) must find its token.
    if (!anyDue) {
      const room = this.pacedRate(now) * PLAN_UTILISATION * HOUR_MS - this.spentLastHour(now);
      for (const job of earlyOnes) {
        if (job.cost > room) continue;
        const interval = intervals.get(job.id) ?? Infinity;
        const at = Math.max(
          (job.lastRunAt as number) + job.minIntervalMs,
          now + this.budgetWait(now, job.cost, Infinity, 1, 2),
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
    else if (requests > 0) this.jobLog.add(now, requests);
    job.cost += COST_SMOOTHING * (requests - job.cost);
    if (!job.options.once) {
      const kind = job.options.kind;
      const k = this.kindCost.get(kind) ?? requests;
      this.kindCost.set(kind, k + COST_SMOOTHING * (requests - k));
    }
    this.roundsCache = undefined;
    if (result.retryInMs !== undefined) job.dueOverride = now + Math.max(0, result.retryInMs);
    else if (result.urgent) this.markUrgent(job);
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
    if (this.jobs.size === 0) {
      this.stopHeartbeat();
      this.pace.flush(this.timers.now());
    }
    this.changed();
  }

  /** The next run as floor and plan say now: after a run, one interval on; before, within one floor. */
  private replan(job: Job): void {
    const now = this.timers.now();
    job.dueOverride =
      job.lastRunAt === undefined ? Math.min(job.dueOverride ?? now, now + job.minIntervalMs) : undefined;
    job.staggering = false;
  }

  /** Someone waits for this job: its next run is due once its floor has passed, held by nothing else. */
  private markUrgent(job: Job): void {
    if (job.removed) return;
    job.dueOverride = Math.max(this.timers.now(), (job.lastRunAt ?? -Infinity) + job.minIntervalMs);
    job.urgent = true;
  }

  /**
   * While jobs exist, this month's activity is observed and saved every {@link HEARTBEAT_MS}, so a long
   * quiet spell (every job slowed far apart) still counts as the working time it is.
   */
  private beat(): void {
    if (this.heartbeat !== undefined || this.disposed || this.jobs.size === 0) return;
    this.heartbeat = this.timers.setTimeout(() => {
      this.heartbeat = undefined;
      if (this.disposed) return;
      this.pace.flush(this.timers.now());
      this.beat();
    }, HEARTBEAT_MS);
  }

  private stopHeartbeat(): void {
    if (this.heartbeat !== undefined) this.timers.clearTimeout(this.heartbeat);
    this.heartbeat = undefined;
  }

  private handle(job: Job): JobHandle {
    const intervalOf = (): number => this.intervals(this.timers.now()).get(job.id) ?? Infinity;
    return jobHandle(job, {
      intervalOf,
      dueOf: () => this.dueOf(job, intervalOf()),
      changed: () => this.changed(),
      markUrgent: () => this.markUrgent(job),
      replan: () => this.replan(job),
      remove: () => this.remove(job),
    });
  }
}

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
