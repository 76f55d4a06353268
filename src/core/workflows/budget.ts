/**
 * How often watched contracts may be polled so that polling stays within a share of the plan's monthly
 * request limit. The spec bounds the rate from the other side: never more than once per 16 s per contract
 * (the average block time it names), whatever the budget would allow.
 *
 * The arithmetic, with the defaults:
 *
 *   one poll round    = contracts × (1 + fetchRatio) requests
 *                       (one `current-count` per contract, plus the event fetches that follow when the count
 *                       grew; fetchRatio is the expected fetch pages per count request, 0.25 by default)
 *   allowance         = monthlyLimit × share                    requests for the period
 *   period            = 30 days                                 (2,592,000,000 ms)
 *   interval          = period × roundRequests / allowance      ms between two polls of one contract
 *
 *   e.g. Free plan, 50 %, 4 contracts: 100,000 × 0.5 = 50,000 requests; a round costs 4 × 1.25 = 5;
 *   50,000 / 5 = 10,000 rounds in 30 days → one every 259.2 s.
 *   With 1 contract and fetchRatio 0: 2,592,000 s / 50,000 = 51.84 s. Never below 16 s.
 *
 * When the requests already used this month are known (the client's usage tracker counts every request
 * of the key, user actions included), the allowance becomes our share of what is LEFT, spread over what is
 * left of the UTC calendar month (the month the tracker and the plan count in):
 *
 *   allowance = max(0, monthlyLimit − used) × share,   period = time until the next UTC month starts
 *
 * So heavy manual use earlier in the month slows polling down instead of eating the rest of the quota,
 * and a quiet month lets it speed up (never beyond the floor).
 */

/** The spec: poll `current-count` no faster than once per 16 s per contract. */
export const MIN_POLL_INTERVAL_MS = 16_000;
export const BUDGET_MONTH_MS = 30 * 24 * 3600 * 1000;
export const DEFAULT_FETCH_RATIO = 0.25;

export interface BudgetInput {
  /** Number of watched contracts. */
  readonly contracts: number;
  /** Requests per month of the plan; undefined when unknown (a local node): only the floor applies. */
  readonly monthlyLimit: number | undefined;
  /** Fraction of the monthly limit that watching may use, in (0, 1]. */
  readonly share: number;
  /** Requests the key has used so far this (UTC) month, when known. */
  readonly requestsUsedThisMonth?: number;
  /** Now, in ms since the epoch (only used with `requestsUsedThisMonth`). */
  readonly now: number;
  /** Expected fetch requests per count request (default 0.25). */
  readonly fetchRatio?: number;
}

export interface BudgetChoice {
  /** Milliseconds between two polls of the same contract; at least {@link MIN_POLL_INTERVAL_MS}. */
  readonly intervalMs: number;
  /** The 16 s floor decided, not the budget. */
  readonly floored: boolean;
  /** Nothing is left of the share this month: the interval runs to the month's end. */
  readonly exhausted: boolean;
  /** Requests one round over all contracts is expected to cost. */
  readonly requestsPerRound: number;
  /** Requests the watcher may spend over `periodMs`. */
  readonly allowance: number;
  readonly periodMs: number;
  /** One line for a tooltip: why this interval. */
  readonly explanation: string;
}

/** Milliseconds from `now` to the start of the next UTC calendar month. */
export function msUntilNextUtcMonth(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - now;
}

function check(name: string, value: number, ok: boolean): void {
  if (!ok || !Number.isFinite(value)) throw new RangeError(`chooseInterval: invalid ${name} ${value}`);
}

export function chooseInterval(input: BudgetInput): BudgetChoice {
  const { contracts, monthlyLimit, share } = input;
  const fetchRatio = input.fetchRatio ?? DEFAULT_FETCH_RATIO;
  check('contracts', contracts, Number.isInteger(contracts) && contracts >= 0);
  check('share', share, share > 0 && share <= 1);
  check('fetchRatio', fetchRatio, fetchRatio >= 0);
  const requestsPerRound = contracts * (1 + fetchRatio);
  const floor = (why: string, extra: Partial<BudgetChoice> = {}): BudgetChoice => ({
    intervalMs: MIN_POLL_INTERVAL_MS,
    floored: true,
    exhausted: false,
    requestsPerRound,
    allowance: Infinity,
    periodMs: BUDGET_MONTH_MS,
    explanation: why,
    ...extra,
  });
  if (monthlyLimit === undefined)
    return floor('no monthly limit known: polling every 16 s (the spec minimum)');
  check('monthlyLimit', monthlyLimit, monthlyLimit > 0);
  if (contracts === 0) return floor('no contracts watched');

  const used = input.requestsUsedThisMonth;
  let allowance: number;
  let periodMs: number;
  if (used === undefined) {
    allowance = monthlyLimit * share;
    periodMs = BUDGET_MONTH_MS;
  } else {
    check('requestsUsedThisMonth', used, used >= 0);
    allowance = Math.max(0, monthlyLimit - used) * share;
    periodMs = msUntilNextUtcMonth(input.now);
  }
  const pct = `${Math.round(share * 1000) / 10} %`;
  if (allowance < requestsPerRound) {
    // Not even one more round fits: wait for the month to reset (but never poll faster than the floor).
    const intervalMs = Math.max(MIN_POLL_INTERVAL_MS, periodMs);
    return {
      intervalMs,
      floored: false,
      exhausted: true,
      requestsPerRound,
      allowance,
      periodMs,
      explanation: `the ${pct} share of ${monthlyLimit} requests is used up: waiting for the next month`,
    };
  }
  const raw = Math.ceil((periodMs * requestsPerRound) / allowance);
  const intervalMs = Math.max(MIN_POLL_INTERVAL_MS, raw);
  const floored = raw < MIN_POLL_INTERVAL_MS;
  return {
    intervalMs,
    floored,
    exhausted: false,
    requestsPerRound,
    allowance,
    periodMs,
    explanation: floored
      ? `${contracts} contract(s) fit easily in ${pct} of ${monthlyLimit} requests: every 16 s (the spec minimum)`
      : `${contracts} contract(s) within ${pct} of ${monthlyLimit} requests/month: every ${Math.round(intervalMs / 1000)} s`,
  };
}
