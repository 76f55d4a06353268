/**
 * What the event watcher works with: the client and storage it is given, the cursor it persists per
 * contract (checked when read back), what it reports (new events, errors, resets), its options, and
 * the small rules of identity (an event's dedupe key) and of strategy (the cheaper way to poll).
 */
import * as z from 'zod';
import type { RequestOptions } from '../../gateway/client';
import type { ContractEvent, ContractEventsPage } from '../../gateway/schemas';
import type { BackgroundScheduler } from '../../scheduling/backgroundScheduler';
import type { JobHandle } from '../../scheduling/jobs';
import type { Timers } from '../../util/clock';
import type { ScanRead } from './eventScan';

/** Page-first must be cheaper by this much per poll to be chosen (ties read the count: it checks more). */
const STRATEGY_MARGIN = 0.05;

/** The GatewayClient methods the watcher uses (a GatewayClient fits as is). */
export interface WatcherClient {
  getContractEventCount(address: string, options?: RequestOptions): Promise<number>;
  getContractEvents(
    address: string,
    page: { start: number; limit?: number },
    options?: RequestOptions,
  ): Promise<ContractEventsPage>;
  /**
   * Every block of a time window with its events, for all watched contracts at once (the scan). Optional,
   * so that a client without it still fits; a gateway that does not forward it answers 404.
   */
  readBlocksWithEvents?(fromTs: number, toTs: number, options?: RequestOptions): Promise<ScanRead>;
}

/** Persistent JSON storage (VS Code's Memento fits: `get` and `update` as `set`). */
export interface CursorStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void | PromiseLike<void>;
}

/** Requests per poll, learned per contract, of the two ways to poll. */
export interface PollCosts {
  /** Read `current-count`, then pages only when it grew. */
  readonly count: number;
  /** Read the next page directly. */
  readonly page: number;
}

export interface EventCursor {
  /** Where the next fetch starts (the last page's `nextStart`). */
  readonly nextStart: number;
  /** The event count at the last completed check: a count-first poll fetches only when it grew past it. */
  readonly lastCount: number;
  /** Keys of recently emitted events (bounded), for deduplication across re-read pages. */
  readonly seen: readonly string[];
  /** The last fetch stopped at the page cap; the next poll continues even if the count did not grow. */
  readonly pending: boolean;
  /** When the first count was read (ms): the scan hands over events of blocks from then on only. */
  readonly since?: number;
  /** Keys of events the scan handed over ahead of `nextStart`, until the pages pass them. */
  readonly scanned?: readonly string[];
  /** What each way of polling has cost this contract (absent before its first poll with news). */
  readonly costs?: PollCosts;
}

export const CursorSchema = z.object({
  nextStart: z.number().int().min(0),
  lastCount: z.number().int().min(0),
  seen: z.array(z.string()),
  pending: z.boolean(),
  /**
   * When the first count was read (ms): a scan hands over only events of blocks from then on, since
   * that count already holds the earlier ones (absent in cursors written before the scan).
   */
  since: z.number().int().min(0).optional(),
  /** Keys of events the scan handed over that the pages have not reached yet (bounded like `seen`). */
  scanned: z.array(z.string()).optional(),
  costs: z
    .object({ count: z.number().nonnegative().max(1000), page: z.number().nonnegative().max(1000) })
    .optional(),
});

export interface NewEvents {
  readonly address: string;
  /** In chain order; each is emitted once. */
  readonly events: readonly ContractEvent[];
}

export interface WatchError {
  readonly address: string;
  readonly error: unknown;
  /** Consecutive failures of this contract. */
  readonly failures: number;
  /** When this contract is tried again. */
  readonly retryInMs: number;
}

export interface CursorReset {
  readonly address: string;
  readonly reason: string;
}

export interface WatcherBudget {
  readonly monthlyLimit: number | undefined;
  /** Fraction of the monthly limit for all background work, (0, 1]. */
  readonly share: number;
  /** Requests the key used this month (e.g. from the client's usage tracker). */
  readonly requestsUsedThisMonth?: () => number | undefined;
  /** Expected event pages per poll before a contract has shown its own (default 0.25). */
  readonly fetchRatio?: number;
}

export interface EventWatcherOptions {
  readonly client: WatcherClient;
  readonly store: CursorStore;
  readonly timers?: Timers;
  /** The least time between two polls of one contract; never below 16 s (the default). */
  readonly intervalMs?: number;
  /** The plan's monthly limit and the background's share of it, handed to the scheduler. */
  readonly budget?: WatcherBudget;
  /** While VS Code is unfocused: poll `unfocusedFactor` times slower (default), or not at all. */
  readonly whenUnfocused?: 'slow' | 'pause';
  readonly unfocusedFactor?: number;
  /** Events per page, 1..100 (default 100, the node's maximum). */
  readonly pageSize?: number;
  /** Pages fetched per contract per poll, so a huge backlog cannot starve the others (default 10). */
  readonly maxPagesPerPoll?: number;
  /** How many past events a newly watched contract shows: a number, or 'all' (default 20). */
  readonly backlog?: number | 'all';
  /** Event keys remembered per contract for deduplication (default 500). */
  readonly seenLimit?: number;
  /** Longest backoff after errors (default 15 min). */
  readonly maxBackoffMs?: number;
  /** Store keys are this prefix + the address. */
  readonly storeKeyPrefix?: string;
  /**
   * The background scheduler polls run through (one job per contract, planned against the plan's share
   * together with every other background request). Default: the one shared by everything using the same
   * client (a GatewayClient's is budgeted from its profile; another client's has no monthly limit).
   */
  readonly scheduler?: BackgroundScheduler;
  /**
   * One read of the chain's new blocks per round for all contracts, where the client can
   * (`readBlocksWithEvents`) and it costs fewer requests than polling each (eventScan.ts). On unless
   * false: a poll per contract, as before the scan.
   */
  readonly scan?: boolean;
}

/** A watched contract as the watcher holds it. */
export interface Watched {
  readonly address: string;
  cursor: EventCursor | undefined;
  loaded: boolean;
  failures: number;
  /** Polls of this contract in this session (the first one reads the count). */
  polls: number;
  /** Polls at the floor still owed to a user waiting for this contract's result. */
  urgentPolls: number;
  /** The work on this contract's cursor now going (a poll, a scan's hand-over): the next one waits for it. */
  lock?: Promise<unknown>;
  /** The contract's job in the background scheduler, while the watcher runs. */
  job?: JobHandle;
}

/** What one poll did and what the other way of polling would have sent. */
export interface PollOutcome {
  readonly emitted: number;
  readonly way: keyof PollCosts;
  readonly sent: number;
  readonly otherWay: number;
}

/** The dedupe key of an event: what identifies it independently of where a page starts. */
export function eventKey(event: Pick<ContractEvent, 'txId' | 'eventIndex' | 'fields'>): string {
  return `${event.txId}:${event.eventIndex}:${JSON.stringify(event.fields.map((f) => [f.type, f.value]))}`;
}

export function httpStatus(error: unknown): number | undefined {
  const s = (error as { status?: unknown } | null)?.status;
  return typeof s === 'number' ? s : undefined;
}

export function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'CancelledError');
}

/** The way to poll a contract that has cost it fewer requests; the count on a tie. */
export function cheaperWay(costs: PollCosts | undefined): keyof PollCosts {
  return costs && costs.page < costs.count - STRATEGY_MARGIN ? 'page' : 'count';
}
