/**
 * Paging over a contract's events. Pages are chained with `nextStart`, never `start + limit`: the
 * indexer may have gaps, and only the server knows where the next page begins. The latest N events are
 * found from `current-count` (start = count - N).
 */
import type { GatewayClient, RequestOptions } from './client';
import type { ContractEvent, ContractEventsPage } from './schemas';
import { MAX_EVENT_PAGE, validateInt, validateLimit } from './requests';
import { RequestBudget } from './requestBudget';

export interface PagingOptions extends RequestOptions {
  /** Page size, 1 to 100 (default 100). */
  readonly pageSize?: number;
  /** Stop once this many events were collected (pages are sized so none is cut). */
  readonly maxEvents?: number;
  /** Stop before this offset (e.g. the current count read at the start), so a busy contract ends. */
  readonly until?: number;
  /** Take one request from this before each page; stop when it has none left. */
  readonly budget?: RequestBudget;
}

/**
 * Yields pages from `start` until the server has nothing more (an empty page, a `nextStart` that does
 * not advance, or a 404 past the end, which the client maps to an empty page).
 */
export async function* contractEventPages(
  client: GatewayClient,
  address: string,
  start: number,
  options: PagingOptions = {},
): AsyncGenerator<ContractEventsPage> {
  validateInt('start', start, 0);
  const pageSize =
    options.pageSize !== undefined ? validateLimit('pageSize', options.pageSize) : MAX_EVENT_PAGE;
  const max = options.maxEvents !== undefined ? validateInt('maxEvents', options.maxEvents, 1) : Infinity;
  let cursor = start;
  let seen = 0;
  for (;;) {
    if (options.until !== undefined && cursor >= options.until) return;
    // Ask for no more than still wanted, so that a page never has to be cut: the cursor then always
    // comes from the server's nextStart, which stays right even across indexer gaps.
    const limit = Math.min(
      pageSize,
      max - seen,
      options.until !== undefined ? options.until - cursor : Infinity,
    );
    if (options.budget && !options.budget.take()) return;
    const page = await client.getContractEvents(address, { start: cursor, limit }, options);
    yield page;
    seen += page.events.length;
    if (page.events.length === 0 || page.nextStart <= cursor || seen >= max) return;
    cursor = page.nextStart;
  }
}

export interface EventsSlice {
  readonly events: ContractEvent[];
  /** Where to continue next time (persist it as the cursor). */
  readonly nextStart: number;
}

/** All events from `start` (up to `maxEvents`), and the cursor to resume from. */
export async function fetchEventsFrom(
  client: GatewayClient,
  address: string,
  start: number,
  options: PagingOptions = {},
): Promise<EventsSlice> {
  const events: ContractEvent[] = [];
  let nextStart = start;
  for await (const page of contractEventPages(client, address, start, options)) {
    events.push(...page.events);
    if (page.nextStart > nextStart) nextStart = page.nextStart;
  }
  return { events, nextStart };
}

export interface LatestEvents extends EventsSlice {
  /** The `current-count` the slice was read against. */
  readonly count: number;
  /** Requests this read sent (never more than its cap). */
  readonly requests: number;
  /**
   * Set when the request cap stopped the read before it held `n` events: `older` when the newest events
   * are all there but the window could not widen further back (offsets before it were not read),
   * `newer` when even the first window could not be read to its end.
   */
  readonly unread?: 'older' | 'newer';
}

/**
 * The most requests reading the latest `n` events may send, said before it runs (`latestEventsCost`):
 * the count, the first window's pages, and room to read it once more doubled (gaps: hidden Debug slots, indexer holes).
 */
export function latestEventsRequestCap(n: number, pageSize = MAX_EVENT_PAGE): number {
  const pages = Math.max(1, Math.ceil(n / Math.max(1, Math.min(pageSize, MAX_EVENT_PAGE))));
  return 1 + 3 * pages;
}

/**
 * The most recent `n` events. Per the spec it starts at `count - n`; when gaps (offsets without a visible
 * event) make that window hold fewer than `n`, the window is doubled backwards and read again, until it
 * holds `n` events, reaches offset 0, or the request cap (`maxRequests`, by default
 * `latestEventsRequestCap`) is spent: then the widest window read whole is kept and `unread` says what
 * was not read. Re-reading a wider window (rather than stitching a new one in front) keeps every cursor
 * a server `nextStart`, whatever the server's page semantics.
 */
export async function fetchLatestEvents(
  client: GatewayClient,
  address: string,
  n: number,
  options: RequestOptions & { pageSize?: number; maxRequests?: number } = {},
): Promise<LatestEvents> {
  validateInt('n', n, 1);
  const { maxRequests, ...rest } = options;
  const budget = new RequestBudget(
    maxRequests !== undefined
      ? validateInt('maxRequests', maxRequests, 2)
      : latestEventsRequestCap(n, options.pageSize),
  );
  budget.take();
  const count = await client.getContractEventCount(address, rest);
  if (count === 0) return { events: [], nextStart: 0, count, requests: budget.spent };
  let best: LatestEvents | undefined;
  for (let span = n; ; span *= 2) {
    const start = Math.max(0, count - span);
    const slice = await fetchEventsFrom(client, address, start, { ...rest, until: count, budget });
    if (budget.stoppedShort) {
      // A window cut by the cap holds its oldest part only: the last whole window is the answer.
      if (best) return { ...best, requests: budget.spent, unread: 'older' };
      return { ...latestOf(slice, n, start, count), requests: budget.spent, unread: 'newer' };
    }
    best = { ...latestOf(slice, n, start, count), requests: budget.spent };
    if (slice.events.length >= n || start === 0) return best;
    if (budget.left === 0) return { ...best, unread: 'older' };
  }
}

function latestOf(slice: EventsSlice, n: number, start: number, count: number) {
  return { events: slice.events.slice(-n), nextStart: Math.max(slice.nextStart, start), count };
}
