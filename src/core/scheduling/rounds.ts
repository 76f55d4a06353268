/**
 * The planning arithmetic of the background scheduler: the round lengths that keep the jobs' demand
 * within the planned rate. Pure functions of the jobs, their costs and the rate.
 */
import type { Job } from './jobs';
import { OTHERS_RESERVE } from './policy';

/** Requests per run of a job as the scheduler knows it now. */
export type CostOf = (job: Job) => number;

/**
 * The round lengths: visible jobs first, the others with what is left. Each is the L of
 * Σ cost / (max(floor, L) × slowdown) = rate over its jobs (monotone in L, so a bisection finds it;
 * 0 when the floors already fit). The visible jobs get the planned rate less {@link OTHERS_RESERVE}
 * when others exist; the others get the rest. If that would make the others faster than the visible
 * ones (few others, many visible), both share one round: nobody looked at goes before a visible job.
 */
export function planRounds(
  jobs: readonly Job[],
  rate: number,
  costOf: CostOf,
): { visible: number; others: number } {
  if (!Number.isFinite(rate) || jobs.length === 0) return { visible: 0, others: 0 };
  if (demand(jobs, 0, costOf) <= rate) return { visible: 0, others: 0 };
  if (rate <= 0) return { visible: Infinity, others: Infinity };
  const visible = jobs.filter((j) => j.visible);
  const others = jobs.filter((j) => !j.visible);
  if (visible.length > 0 && others.length > 0) {
    const v = solveRound(visible, rate * (1 - OTHERS_RESERVE), costOf);
    const o = solveRound(others, rate - demand(visible, v, costOf), costOf);
    if (o >= v) return { visible: v, others: o };
  }
  const common = solveRound(jobs, rate, costOf);
  return { visible: common, others: common };
}

/**
 * Requests per ms of `jobs` with round length `l`. Planned as if every job ran at full speed: a slowed
 * job (unfocused window) saves its part instead of handing it to the others, so slowing down really
 * means fewer requests.
 */
export function demand(jobs: readonly Job[], l: number, costOf: CostOf): number {
  return jobs.reduce((sum, j) => sum + costOf(j) / Math.max(j.minIntervalMs, l, 1), 0);
}

function solveRound(jobs: readonly Job[], rate: number, costOf: CostOf): number {
  if (demand(jobs, 0, costOf) <= rate) return 0;
  if (rate <= 0) return Infinity;
  let lo = 0;
  let hi = 1;
  while (demand(jobs, hi, costOf) > rate) hi *= 2;
  for (let i = 0; i < 60 && hi - lo > 1; i++) {
    const mid = (lo + hi) / 2;
    if (demand(jobs, mid, costOf) > rate) lo = mid;
    else hi = mid;
  }
  return Math.ceil(hi);
}
