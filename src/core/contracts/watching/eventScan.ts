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
 *   the round says where it jumped from, and the contracts catch up by their counts, which costs less.
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
  scannedTo: z.number().int().min(0),
  /** Events of blocks older than this were before the first scan: not news (a fresh watch list). */
  deliverFrom: z.number().int().min(0),
  recent: z.array(z.tuple([z.string().max(128), z.number().int().min(0)])).max(RECENT_LIMIT),
});
type ScanState = z.infer<typeof ScanStateSchema>;

export class EventScan {
  private state: ScanState | undefined;
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
  async round(now: number, watched: ReadonlySet<string>): Promise<ScanRound> {
    const state = await this.load(now);
    let fromTs = Math.max(0, state.scannedTo - this.overlapMs);
    let jumpedFrom: number | undefined;
    if (now - fromTs > MAX_CATCH_UP_MS) {
      jumpedFrom = fromTs;
      fromTs = now - this.overlapMs;
    }
    const toTs = Math.max(fromTs, Math.min(now, fromTs + CATCH_UP_PARTS_PER_ROUND * NODE_MAX_BLOCKS_SPAN_MS));
    const read = await this.options.read(fromTs, toTs);
    const readTo = read.unread ? Math.max(fromTs, read.unread.fromTs - 1) : toTs;
    const recent = new Map(jumpedFrom === undefined ? state.recent : []);
    const events = new Map<string, ContractEvent[]>();
    for (const { block, events: blockEvents } of inTimeOrder(read.blocksAndEvents)) {
      if (recent.has(block.hash)) continue;
      recent.set(block.hash, block.timestamp);
      if (block.timestamp < state.deliverFrom) continue;
      for (const e of blockEvents) {
        // A contract's own listing hides Debug events (they only take a counter slot): a scan and a
        // poll must hand over the same events.
        if (e.eventIndex === DEBUG_INDEX || !watched.has(e.contractAddress)) continue;
        const list = events.get(e.contractAddress) ?? [];
        list.push({ ...e, blockHash: block.hash, timestamp: e.timestamp ?? block.timestamp });
        events.set(e.contractAddress, list);
      }
    }
    const keepFrom = readTo - this.overlapMs;
    const next: ScanState = {
      scannedTo: Math.max(jumpedFrom === undefined ? state.scannedTo : 0, readTo),
      deliverFrom: state.deliverFrom,
      recent: [...recent].filter(([, ts]) => ts >= keepFrom).slice(-RECENT_LIMIT),
    };
    return {
      fromTs,
      toTs,
      requests: read.requests,
      events,
      behind: readTo < now,
      ...(jumpedFrom !== undefined ? { jumpedFrom } : {}),
      commit: () => this.save(next),
    };
  }

  private async load(now: number): Promise<ScanState> {
    if (this.state) return this.state;
    const parsed = ScanStateSchema.safeParse(await this.options.store.get(this.options.storeKey));
    // A first scan starts now: what happened before it is not news (the counts say where each starts).
    this.state = parsed.success ? parsed.data : { scannedTo: now, deliverFrom: now, recent: [] };
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
