/**
 * One read of the chain's new blocks serves every watched contract: `/blockflow/blocks-with-events` over
 * the time window since the last scan answers the blocks of all 16 chains with every contract event of
 * each, so a round costs one request (more only when a window is split) however many contracts are
 * watched, where polling each contract costs one request per contract.
 *
 * How nothing is missed or repeated:
 * - Windows overlap by {@link SCAN_OVERLAP_MS}: a block that reaches the node after a window was read
 *   (its timestamp is the miner's, not its arrival's) is still inside the next window. The hashes of the
 *   blocks read in the overlap are kept, with the window's end, in the store, so a block is handed over
 *   once, across reloads too; a block that arrives later than the overlap is the count polls' to find.
 * - The state is saved only after the caller delivered the round (`commit`): a process that dies in
 *   between reads the window again, and the contracts' own event keys drop what they already had.
 * - Events are keyed by transaction, not block: a transaction re-included after a fork is the same
 *   event in another block, which the contracts' event keys (`eventKey`) recognise.
 * - A gap longer than {@link MAX_CATCH_UP_MS} (VS Code closed for the night) is not read block by block:
 *   the round says where it jumped from, and the contracts catch up by their counts. (Reading a night
 *   by parts, where that looks cheaper than fifty counts, was tried: a gateway's span is often shorter
 *   than the node's and a busy night's blocks exceed the body cap, so the parts split again, and the
 *   month bench ran out of its share.)
 *
 * Windows follow the chain's timestamps, not this machine's clock: how far the scan has read moves to
 * the newest block the chain has shown, never to the local time, so a clock that is minutes fast does
 * not carry the windows past blocks the chain has yet to make. How far this clock runs ahead of the
 * chain's (the lag) is learnt from blocks new to a read, and a window reaches
 * {@link SCAN_LOOKAHEAD_MS} past the chain's time so learnt (asking for the future costs nothing), so a
 * clock that is minutes slow does not hold back blocks the chain already has; until the lag is learnt,
 * the first window reaches {@link CLOCK_TOLERANCE_MS} back and ahead of the local time. Where the chain
 * shows no block (a quiet test chain), the windows move on to the chain's time as learnt.
 */
import * as z from 'zod';
import type { ContractEvent } from '../../gateway/schemas';
import { NODE_MAX_BLOCKS_SPAN_MS } from '../../gateway/blocksRange';
import { DEBUG_INDEX } from '../../artifacts/events';
import type { CursorStore } from './watcherTypes';

/** How long after its timestamp a block may reach the node and still be read by the scan. */
export const SCAN_OVERLAP_MS = 60_000;
/** Parts of the node's largest span read per round while catching up (a reload after a pause). */
export const CATCH_UP_PARTS_PER_ROUND = 3;
/** A gap longer than this is left to the count polls: reading it block by block would cost more. */
export const MAX_CATCH_UP_MS = 2 * 60 * 60_000;
/** How far past the chain's time now a window reaches: a block stamped a little ahead is not held back. */
export const SCAN_LOOKAHEAD_MS = 60_000;
/**
 * How far this machine's clock may be off the chain's, either way, and the scan still read every block
 * in time. The first window reaches this far back and ahead, to find the chain's time: 10 minutes in
 * all, the longest window the sandbox serves in one request (a longer one is split, and costs more).
 */
export const CLOCK_TOLERANCE_MS = 5 * 60_000;
/** Block hashes kept for the overlap, at most (a minute of 16 chains is about 60-120 blocks). */
const RECENT_LIMIT = 5_000;

/** A block of the answer, as far as the scan reads it (the gateway's BlockAndEvents fits). */
export interface ScanBlock {
  readonly block: { readonly hash: string; readonly timestamp: number };
  readonly events: readonly ScanEvent[];
}

/** An event of a block's answer (ContractEventByBlockHash): a contract event without its block hash. */
export interface ScanEvent {
  readonly txId: string;
  readonly contractAddress: string;
  readonly eventIndex: number;
  readonly fields: ContractEvent['fields'];
  readonly timestamp?: number;
}

/** What one read of [fromTs, toTs] answered (GatewayClient's readBlocksWithEvents fits). */
export interface ScanRead {
  /** Per chain, in time order. */
  readonly blocksAndEvents: ReadonlyArray<ReadonlyArray<ScanBlock>>;
  readonly requests: number;
  /** From here to the window's end was not read (a part the gateway refused even when split). */
  readonly unread?: { readonly fromTs: number };
  /** A span the gateway is known to serve, where a part was refused for its span (see blocksRange.ts). */
  readonly servedSpanMs?: number;
}

export type ScanReader = (fromTs: number, toTs: number) => Promise<ScanRead>;

export interface ScanRound {
  readonly fromTs: number;
  readonly toTs: number;
  readonly requests: number;
  /** New events of the watched contracts, by address, in chain order (block time, then block order). */
  readonly events: ReadonlyMap<string, readonly ContractEvent[]>;
  /** The read stopped before the window's end: the next round goes on from where it stopped. */
  readonly behind: boolean;
  /** The scan jumped over a gap too long to read from here: the contracts must catch up by count. */
  readonly jumpedFrom?: number;
  /** Saves how far the scan has read; call it once the round's events are delivered. */
  commit(): Promise<void>;
}

const ScanStateSchema = z.object({
  /** The chain's time up to which every block was read (the next window starts an overlap before). */
  scannedTo: z.number().int().min(0),
  /**
   * Events of blocks older than this were before the first scan: not news (a fresh watch list). Absent
   * until the first read has shown the chain's time.
   */
  deliverFrom: z.number().int().min(0).optional(),
  /**
   * How far this machine's clock runs ahead of the chain's (negative: behind), and when that was learnt
   * (local ms). Absent until a read has shown a new block.
   */
  lag: z.object({ ms: z.number().int(), at: z.number().int().min(0) }).optional(),
  /**
   * A window this gateway answered in one request after a longer one was refused for its span (504), and
   * when that was learnt (local ms): a long window to catch up is read in parts of it, one request each,
   * not split in halves.
   */
  span: z.object({ ms: z.number().int().min(1), at: z.number().int().min(0) }).optional(),
  recent: z.array(z.tuple([z.string().max(128), z.number().int().min(0)])).max(RECENT_LIMIT),
});
type ScanState = z.infer<typeof ScanStateSchema>;
type Lag = NonNullable<ScanState['lag']>;
type Span = NonNullable<ScanState['span']>;

/** A lag learnt longer ago than this gives way to the next one seen, smaller or not (a clock was reset). */
const LAG_RENEWAL_MS = 60 * 60_000;
/** A span learnt longer ago than this is tried again at its widest (a gateway's limits change). */
const SPAN_RENEWAL_MS = 24 * 60 * 60_000;
/**
 * A learnt span is never shorter than this, so that each part read moves the scan on by several minutes
 * past the overlap (a gateway that serves less is split as before; nothing is skipped either way).
 */
const MIN_SCAN_SPAN_MS = CLOCK_TOLERANCE_MS;

export class EventScan {
  private state: ScanState | undefined;
  /** The lag as learnt so far: from the stored state, then from each round at once (before its commit). */
  private lag: Lag | undefined;
  private readonly overlapMs: number;

  constructor(
    private readonly options: {
      readonly read: ScanReader;
      readonly store: CursorStore;
      readonly storeKey: string;
      readonly overlapMs?: number;
    },
  ) {
    this.overlapMs = options.overlapMs ?? SCAN_OVERLAP_MS;
  }

  /** Reads the blocks since the last round and hands out the events of `watched` (addresses). */
  async round(at: number, watched: ReadonlySet<string>): Promise<ScanRound> {
    // Whole milliseconds, as the node's timestamps are (a virtual clock may give fractions).
    const now = Math.floor(at);
    const state = await this.load(now);
    const { fromTs, toTs, end, jumpedFrom } = this.window(state, now);
    const read = await this.options.read(fromTs, toTs);
    const readTo = read.unread ? Math.max(fromTs, read.unread.fromTs - 1) : toTs;
    const blocks = inTimeOrder(read.blocksAndEvents);
    const newest = blocks.reduce((max, { block }) => Math.max(max, block.timestamp), -1);
    const deliverFrom = state.deliverFrom ?? (newest >= 0 ? newest + 1 : fromTs);
    const recent = new Map(jumpedFrom === undefined ? state.recent : []);
    const reachedEnd = toTs === end && !read.unread;
    const lag = learnLag(this.lag, now, reachedEnd ? newestShown(blocks, newest, recent) : undefined);
    // Known at once (the round's deliveries compare with it); saved with the round's progress.
    this.lag = lag;
    const events = new Map<string, ContractEvent[]>();
    for (const { block, events: blockEvents } of blocks) {
      if (recent.has(block.hash)) continue;
      recent.set(block.hash, block.timestamp);
      if (block.timestamp < deliverFrom) continue;
      for (const e of blockEvents) {
        // A contract's own listing hides Debug events (they only take a counter slot): a scan and a
        // poll must hand over the same events.
        if (e.eventIndex === DEBUG_INDEX || !watched.has(e.contractAddress)) continue;
        const list = events.get(e.contractAddress) ?? [];
        list.push({ ...e, blockHash: block.hash, timestamp: e.timestamp ?? block.timestamp });
        events.set(e.contractAddress, list);
      }
    }
    // Read up to the chain's newest block; where the chain showed none, up to its time now as learnt
    // (before that, the tolerance behind the local clock), never past what was read.
    const chainNow = lag ? now - lag.ms : now - CLOCK_TOLERANCE_MS;
    const settled = Math.min(readTo, Math.max(newest, chainNow));
    const scannedTo = Math.max(jumpedFrom === undefined ? state.scannedTo : 0, settled);
    const keepFrom = scannedTo - this.overlapMs;
    const span = learnSpan(state.span, now, read);
    const next: ScanState = {
      scannedTo,
      deliverFrom,
      ...(lag ? { lag } : {}),
      ...(span ? { span } : {}),
      recent: [...recent].filter(([, ts]) => ts >= keepFrom).slice(-RECENT_LIMIT),
    };
    return {
      fromTs,
      toTs,
      requests: read.requests,
      events,
      behind: readTo < end,
      ...(jumpedFrom !== undefined ? { jumpedFrom } : {}),
      commit: () => this.save(next),
    };
  }

  /**
   * The round's window, on the chain's clock: from an overlap before how far the scan has read, to a
   * little past the chain's time now (until that is learnt, the clock's tolerance past the local time),
   * at most the span this gateway was seen to answer in one request (before a 504 has shown it, or while
   * the chain's time is not learnt, three of the node's largest spans); or, past a gap longer than {@link MAX_CATCH_UP_MS}, from
   * the chain's time now.
   */
  private window(
    state: ScanState,
    now: number,
  ): { fromTs: number; toTs: number; end: number; jumpedFrom?: number } {
    const lag = this.lag;
    const chainNow = lag ? now - lag.ms : now;
    const ahead = lag ? SCAN_LOOKAHEAD_MS : CLOCK_TOLERANCE_MS;
    const end = Math.max(chainNow, state.scannedTo) + ahead;
    let fromTs = Math.max(0, state.scannedTo - this.overlapMs);
    let jumpedFrom: number | undefined;
    if (end - fromTs > MAX_CATCH_UP_MS) {
      jumpedFrom = fromTs;
      fromTs = Math.max(0, chainNow - (lag ? 0 : CLOCK_TOLERANCE_MS) - this.overlapMs);
    }
    // At most what one request is known to answer; before a refusal has said, the node's spans. Not
    // before the lag is learnt: only a read that reaches the window's end learns it, and a first window
    // (the clock's tolerance both ways) cut short would never reach its end.
    const span = lag && state.span && now - state.span.at <= SPAN_RENEWAL_MS ? state.span.ms : undefined;
    const longest = span ?? CATCH_UP_PARTS_PER_ROUND * NODE_MAX_BLOCKS_SPAN_MS;
    const toTs = Math.max(fromTs + 1, Math.min(end, fromTs + longest));
    return { fromTs, toTs, end, ...(jumpedFrom !== undefined ? { jumpedFrom } : {}) };
  }

  /**
   * A moment on this machine's clock on the chain's, as far as the scan has learned how the two differ
   * (unchanged until a read has shown a new block): the moment a contract's first count was read is,
   * on the chain's clock, where the scan's news for it starts.
   */
  chainTime(localTime: number): number {
    return localTime - (this.lag?.ms ?? 0);
  }

  private async load(now: number): Promise<ScanState> {
    if (this.state) return this.state;
    const parsed = ScanStateSchema.safeParse(await this.options.store.get(this.options.storeKey));
    // A first scan looks back by the clock's tolerance to find the chain's time; what happened before
    // the chain's newest block then is not news (the counts say where each contract starts).
    this.state = parsed.success
      ? parsed.data
      : { scannedTo: Math.max(0, now - CLOCK_TOLERANCE_MS + this.overlapMs), recent: [] };
    this.lag = this.state.lag;
    return this.state;
  }

  private async save(state: ScanState): Promise<void> {
    this.state = state;
    await this.options.store.set(this.options.storeKey, state);
  }
}

/**
 * Blocks of all chains by timestamp; a chain's own order is kept for equal timestamps (a stable sort of
 * the chains' concatenation), so a contract's events stay in the order its chain made them.
 */
function inTimeOrder(chains: ReadonlyArray<ReadonlyArray<ScanBlock>>): ScanBlock[] {
  return chains.flat().sort((a, b) => a.block.timestamp - b.block.timestamp);
}

/**
 * Whether the newest block of a read that reached the window's end says what time it is on the chain:
 * it is new to this read (one read before may be old on a quiet chain).
 */
function newestShown(
  blocks: readonly ScanBlock[],
  newest: number,
  known: ReadonlyMap<string, number>,
): number | undefined {
  return blocks.some(({ block }) => block.timestamp === newest && !known.has(block.hash))
    ? newest
    : undefined;
}

/**
 * The span a read shows where a part was refused for its span: the longest part then answered. Any other
 * read says nothing new (a split for size is about the chain's density), and the span known is kept
 * until its renewal.
 */
function learnSpan(known: Span | undefined, now: number, read: ScanRead): Span | undefined {
  if (!read.servedSpanMs) return known;
  return { ms: Math.max(MIN_SCAN_SPAN_MS, read.servedSpanMs), at: now };
}

/**
 * The lag a new block shows is this machine's time minus the block's: the clocks' difference plus how
 * old the block was when read. The smallest seen is the closest (a block cannot be younger than now),
 * renewed hourly so that a clock set right is followed.
 */
function learnLag(known: Lag | undefined, now: number, newest: number | undefined): Lag | undefined {
  if (newest === undefined) return known;
  const ms = now - newest;
  if (!known || ms <= known.ms || now - known.at > LAG_RENEWAL_MS) return { ms, at: now };
  return known;
}
