/**
 * What a command costs in requests, said before it runs. Commands that cost more than a few requests
 * (Blocks in Time Range, Show Latest Events, Load more, and a Gas Report when there is one) say so in
 * their quick input or in a notice; small costs are not worth a question.
 */
import { blocksRangeMaxRequests } from '../gateway/blocksRange';
import { latestEventsRequestCap } from '../gateway/paging';
import { exactCount } from './forecast';

/** At most this many requests is a small cost: no notice needed. */
export const FEW_REQUESTS = 5;

/** The largest page of contract events a node answers (`limit` ≤ 100). */
export const MAX_EVENTS_PAGE = 100;

/** A command's cost in requests: exactly `min` when `min === max`, else somewhere between. */
export interface RequestCost {
  readonly min: number;
  readonly max: number;
}

/**
 * Blocks over a span: one request when the gateway answers the whole range; otherwise each 504, and
 * each answer over the body cap, halves a part (`core/gateway/blocksRange.ts`), to a depth bounded by
 * the span, so the most it can cost is every part of that split tree asked once. The reader walks the
 * same tree, so the stated bound is one the code cannot exceed.
 */
export function blocksRangeCost(spanMs: number): RequestCost {
  if (!(spanMs > 0)) return { min: 1, max: 1 };
  return { min: 1, max: blocksRangeMaxRequests(0, spanMs) };
}

/** What the latest events' range means, in words: said wherever its cost is (a command, a chat tool). */
export const LATEST_EVENTS_CAVEAT =
  'the most only with gaps such as hidden Debug slots; the read stops there';

/**
 * The latest `n` events of a contract: one `current-count`, then pages of at most 100: the least it costs.
 * A contract whose counter has gaps (hidden Debug slots) needs the window widened, up to the read's own
 * cap (`latestEventsRequestCap`), which `fetchLatestEvents` never exceeds: the most it costs.
 */
export function latestEventsCost(n: number, pageSize = MAX_EVENTS_PAGE): RequestCost {
  const pages = Math.max(1, Math.ceil(n / Math.min(pageSize, MAX_EVENTS_PAGE)));
  return { min: 1 + pages, max: latestEventsRequestCap(n, pageSize) };
}

/** A window of `offsets` older events ("Load more…"), read in pages of `pageSize`. */
export function olderEventsCost(offsets: number, pageSize: number): RequestCost {
  const pages = Math.max(1, Math.ceil(offsets / Math.max(1, Math.min(pageSize, MAX_EVENTS_PAGE))));
  return { min: pages, max: pages };
}

/**
 * `items` things that each need `perItem` calls, packed `perRequest` to a request (a multicall holds up
 * to 20 calls): what a Gas Report over many methods, or any batch, costs.
 */
export function batchCost(items: number, perItem = 1, perRequest = 1): RequestCost {
  const requests = Math.ceil((Math.max(0, items) * Math.max(0, perItem)) / Math.max(1, perRequest));
  return { min: requests, max: requests };
}

/** "1 request", "12 requests", "1 to 127 requests". */
export function costText(cost: RequestCost): string {
  const unit = cost.max === 1 ? 'request' : 'requests';
  return cost.min === cost.max
    ? `${exactCount(cost.max)} ${unit}`
    : `${exactCount(cost.min)} to ${exactCount(cost.max)} ${unit}`;
}

/** Whether a cost is more than a few requests, so that the command says so before it runs. */
export function worthSaying(cost: RequestCost): boolean {
  return cost.max > FEW_REQUESTS;
}

export interface CostNotice {
  /** More than a few requests: say it before running. */
  readonly worthSaying: boolean;
  /** One line for a quick input or a notice: "Reading this range costs 1 to 127 requests …". */
  readonly text: string;
}

/**
 * The line a command shows before it runs: what it costs and, when the month's requests left are known,
 * how that compares. `what` is the extension's own words ("Reading this range", "Gas Report").
 */
export function costNotice(what: string, cost: RequestCost, monthLeft?: number): CostNotice {
  let text = `${what} costs ${costText(cost)}`;
  if (monthLeft !== undefined) text += `, of the ${exactCount(Math.max(0, monthLeft))} left this month`;
  return { worthSaying: worthSaying(cost), text: `${text}.` };
}

/**
 * The blocks range's line, which says why it is a range: "Reading this range costs 1 request if the
 * gateway answers it whole, up to 31 if it must be split (each 504 or answer over the size cap halves
 * a part)."
 */
export function blocksRangeNotice(spanMs: number, monthLeft?: number): CostNotice {
  const cost = blocksRangeCost(spanMs);
  if (cost.max === 1) return costNotice('Reading this range', cost, monthLeft);
  const left = monthLeft !== undefined ? ` (${exactCount(Math.max(0, monthLeft))} left this month)` : '';
  return {
    worthSaying: worthSaying(cost),
    text: `Reading this range costs 1 request if the gateway answers it whole, up to ${exactCount(cost.max)} if it must be split (each 504, or answer over the size cap, halves a part)${left}.`,
  };
}
