/**
 * What the background scheduler and its jobs say to each other: the budget it plans against, what a job
 * asks for and reports, the handle a job's owner holds, and the plan as a whole for tooltips and logs.
 */
import type { Disposable } from '../util/emitter';

export interface SchedulerBudget {
  /** Requests per month of the plan; undefined (a local node): no budget, every job at its floor. */
  readonly monthlyLimit: number | undefined;
  /** Fraction of the monthly limit for all background work, in (0, 1]. Default 0.5. */
  readonly share?: number;
  /**
   * Requests the key used this (UTC) month, user actions included. The background never plans to spend
   * more than its share of what is left of the quota: heavy manual use leaves it less.
   */
  readonly requestsUsedThisMonth?: () => number | undefined;
  /**
   * The plan's requests per second: the background never plans to go faster than one less than it (the
   * last slot of every second is the user's). A budget set without it keeps the previous one's.
   */
  readonly perSecond?: number;
}

/** What a job's run reports. */
export interface JobRun {
  /** Requests the run sent (it is charged to the budget). */
  readonly requests: number;
  /** Someone is still waiting for this job's result: run again as soon as the floor allows (runSoon). */
  readonly urgent?: boolean;
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
  /**
   * Someone looks at what this job keeps fresh (default true: most jobs exist only while their view is
   * open). Visible jobs are planned first; the others get what is left.
   */
  readonly visible?: boolean;
  /** The slow-down factor from the start (see `setSlowdown`): first runs are staggered over it too. */
  readonly slowdown?: number;
  /** Paused from the start (see `setPaused`). */
  readonly paused?: boolean;
  /**
   * Runs at its floor (times the slow-down), held by no token or round, only by the month's share:
   * someone watches it for a change that is promised to show within a stated time (the Node view's sync
   * check). The other jobs are planned around what it costs; only a plan too small to leave them their
   * reserve stretches it (and its interval says so).
   */
  readonly fixedPace?: boolean;
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
  /** Someone looks at what the job keeps fresh (it is planned first) or not (it gets what is left). */
  setVisible(visible: boolean): void;
  /**
   * Someone is waiting for this job (the user just changed the contract): its next run is due now, or
   * once its floor has passed, and is held by nothing else. Still charged to the share.
   */
  runSoon(): void;
  /**
   * The next run follows the job's floor and plan as they are now, paced as usual: a first run staggered,
   * or a run planned, under an earlier and longer floor is moved in (a safety net that serves again).
   */
  replan(): void;
  /**
   * The next run waits for the pace as a staggered first run does: for tokens, within the plan's part of
   * the sliding hour, never freed by being late. For jobs that a change of plan made overdue together
   * (fifty safety nets when the window is left), so that they are spread at the budget's pace, not run in
   * a burst that fills the hour and holds the jobs that are on time. No effect on a job that has not run
   * yet (a first run is staggered already), nor on one paused, removed or asked for (`runSoon`).
   */
  stagger(): void;
}

/** The plan as a whole, for tooltips and logs. */
export interface SchedulePlan {
  /**
   * Requests per hour the pace allows now while the person works (Infinity without a monthly limit):
   * the share left this month over the working time expected to be left, within the per-hour cap.
   */
  readonly hourlyShare: number;
  /** Requests of this month's share not yet spent (Infinity without a monthly limit). */
  readonly monthShareLeft: number;
  /** Full-speed hours a day learned from this month's activity (the prior until there is history). */
  readonly activeHoursPerDay: number;
  /** Requests per hour the plan intends to spend. */
  readonly plannedPerHour: number;
  /** The round length of the jobs nobody looks at (0 when every job runs at its floor). */
  readonly roundMs: number;
  /** The round length of the visible jobs (0 when they run at their floors). */
  readonly visibleRoundMs: number;
  /** Interval per kind (the smallest one among the jobs of that kind) and how many jobs. */
  readonly kinds: ReadonlyArray<{ kind: string; jobs: number; intervalMs: number }>;
  /** True when the share cannot give every job its floor. */
  readonly budgetBound: boolean;
}

/** A job as the scheduler holds it: its options and what it learned and was told since. */
export interface Job {
  readonly id: number;
  readonly options: JobOptions;
  cost: number;
  minIntervalMs: number;
  slowdown: number;
  paused: boolean;
  visible: boolean;
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

/** Reported after every run (the bench and the tests read the gaps from it). */
export interface RunRecord {
  readonly kind: string;
  readonly label: string | undefined;
  readonly startedAt: number;
  readonly requests: number;
  readonly intervalMs: number;
}

export function checkBudget(budget: SchedulerBudget): void {
  const share = budget.share ?? 0.5;
  if (!(share > 0 && share <= 1)) throw new RangeError(`share must be in (0, 1], got ${share}`);
  const limit = budget.monthlyLimit;
  if (limit !== undefined && !(limit > 0 && Number.isFinite(limit)))
    throw new RangeError(`monthlyLimit must be positive, got ${limit}`);
}

/** What a job handle asks of its scheduler. */
export interface JobHooks {
  /** The job's interval as planned now. */
  intervalOf(): number;
  /** When the job's next run is due. */
  dueOf(): number;
  /** Something that changes the plan was set: plan again. */
  changed(): void;
  /** Someone waits for the job: its next run is due as soon as its floor allows. */
  markUrgent(): void;
  /** The next run as the floor and plan say now (a stagger or retry planned before is dropped). */
  replan(): void;
  remove(): void;
}

/**
 * The handle the owner of a job holds: reads of what the scheduler planned, and the setters that change
 * the job and have the scheduler plan again.
 */
export function jobHandle(job: Job, hooks: JobHooks): JobHandle {
  // Hooks, not a scheduler's `this` inside the literal: its getters have their own `this`.
  return {
    kind: job.options.kind,
    get intervalMs() {
      return hooks.intervalOf();
    },
    get lastRunAt() {
      return job.lastRunAt;
    },
    get dueAt() {
      return hooks.dueOf();
    },
    get cost() {
      return job.cost;
    },
    setSlowdown(factor: number) {
      const f = Math.max(1, Number.isFinite(factor) ? factor : 1);
      if (f === job.slowdown) return;
      job.slowdown = f;
      hooks.changed();
    },
    setMinInterval(ms: number) {
      const m = Math.max(0, Number.isFinite(ms) ? ms : 0);
      if (m === job.minIntervalMs) return;
      job.minIntervalMs = m;
      hooks.changed();
    },
    setPaused(paused: boolean) {
      if (paused === job.paused) return;
      job.paused = paused;
      hooks.changed();
    },
    setVisible(visible: boolean) {
      if (visible === job.visible) return;
      job.visible = visible;
      hooks.changed();
    },
    runSoon() {
      if (job.removed) return;
      hooks.markUrgent();
      hooks.changed();
    },
    replan() {
      if (job.removed || job.urgent) return;
      hooks.replan();
      hooks.changed();
    },
    stagger() {
      if (job.removed || job.urgent || job.paused || job.lastRunAt === undefined) return;
      // A due time that is not finite (no interval planned) would hold the job for good.
      const due = hooks.dueOf();
      if (!Number.isFinite(due)) return;
      job.dueOverride = due;
      job.staggering = true;
      hooks.changed();
    },
    dispose() {
      hooks.remove();
    },
  };
}
