/**
 * Paging over a contract's events. Pages are chained with `nextStart`, never `start + limit`: the
 * indexer may have gaps, and only the server knows where the next page begins. The latest N events are
 * found from `current-count` (start = count - N).
 */
import type { GatewayClient, RequestOptions } from './client';
import type { ContractEvent, ContractEventsPage } from './schemas';
import { MAX_EVENT_PAGE, validateInt, validateLimit } from './requests';

export interface PagingOptions extends RequestOptions {
  /** Page size, 1 to 100 (default 100). */
  readonly pageSize?: number;
  /** Stop once this many events were collected (pages are sized so none is cut). */
  readonly maxEvents?: number;
  /** Stop before this offset (e.g. the current count read at the start), so a busy contract ends. */
  readonly until?: number;
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
}

/**
 * The most recent `n` events. Per the spec it starts at `count - n`; when gaps (offsets without a visible
 * event) make that window hold fewer than `n`, the window is doubled backwards and read again, until it
 * holds `n` events or reaches offset 0. Re-reading a wider window (rather than stitching a new one in
 * front) keeps every cursor a server `nextStart`, whatever the server's page semantics.
 */
export async function fetchLatestEvents(
  client: GatewayClient,
  address: string,
  n: number,
  options: RequestOptions & { pageSize?: number } = {},
): Promise<LatestEvents> {
  validateInt('n', n, 1);
  const count = await client.getContractEventCount(address, options);
  if (count === 0) return { events: [], nextStart: 0, count };
  for (let span = n; ; span *= 2) {
    const start = Math.max(0, count - span);
    const slice = await fetchEventsFrom(client, address, start, { ...options, until: count });
    if (slice.events.length >= n || start === 0) {
      return { events: slice.events.slice(-n), nextStart: Math.max(slice.nextStart, start), count };
    }
  }
}
