/**
 * The numbers of the background scheduler's policy: the spec's floor, how much of the share is planned
 * and spent, how late a job may be held, what the jobs nobody looks at keep. Named once, here, so the
 * scheduler, its planning arithmetic, the tests and the bench speak of the same figures.
 */
/** The spec: poll `current-count` no faster than once per 16 s per contract. */
export const DEFAULT_MIN_INTERVAL_MS = 16_000;
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
/**
 * The part of the planned rate the jobs nobody looks at keep when the visible ones would take it all:
 * they come second, but they do not starve.
 */
export const OTHERS_RESERVE = 0.1;
/** How often the activity of this month is observed and saved while jobs exist. */
export const HEARTBEAT_MS = 5 * 60_000;
/** A job this late (a fraction of its interval past due) runs whatever the hour says: nothing starves. */
export const STARVATION_FRACTION = 0.2;
/** First runs are staggered over this fraction of the interval. */
export const STAGGER_FRACTION = 0.8;
/** Weight of the latest run in a job's learned cost. */
export const COST_SMOOTHING = 0.2;
