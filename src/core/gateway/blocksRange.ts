/**
 * Reading a time range of blocks in parts: `/blockflow/blocks`, and `/blockflow/blocks-with-events` (the
 * same blocks, each with its contract events). A node refuses a span longer than it serves with a 504,
 * and a dense span can answer more than the body cap (ResponseTooLargeError, not read past the cap):
 * either way the part is halved and its halves are read, in time order, each handed to the caller as
 * soon as it is read. The halving is bounded in depth, so the number of requests has a bound known
 * before anything is sent (`blocksRangeMaxRequests`), which is the cost the command states. Both
 * endpoints walk the one split (`readRangeInParts`) and differ only in how parts' answers are merged.
 */
import { GatewayHttpError, ResponseTooLargeError } from './errors';
import type { BlockAndEvents, BlockEntry, Blocks, BlocksAndEvents } from './schemas';

/** The largest span a node answers for `/blockflow/blocks` (its `blockflow-fetch-max-age`, 30 min). */
export const NODE_MAX_BLOCKS_SPAN_MS = 30 * 60_000;

/** A part is never split below one second: a timestamp range shorter than that is not a range. */
export const MIN_BLOCKS_PART_MS = 1_000;

/**
 * Halvings allowed beyond those the node's span needs, for answers over the body cap: a part of the
 * node's span can be cut to a sixteenth (a 10-minute range to 37.5 s parts).
 */
export const SIZE_HALVINGS = 4;

export interface TimeSpan {
  readonly fromTs: number;
  readonly toTs: number;
}

/** What was not read: from the first part refused even at the deepest split, to the end of the range. */
export type Unread = TimeSpan & { readonly reason: unknown };

/** A part that was read, as it arrives. */
export interface BlocksPart extends TimeSpan {
  readonly blocks: Blocks;
}

export interface BlocksRangeRead {
  /** Every part's blocks merged per chain, in time order. */
  readonly blocks: Blocks;
  /** Requests sent (each part asked once), never more than `blocksRangeMaxRequests`. */
  readonly requests: number;
  /**
   * What was not read: from the first part the gateway refused even at the deepest split, to the end
   * of the range (reading stops there; the later parts would be refused alike). Absent when all was read.
   */
  readonly unread?: Unread;
}

/** A part of `/blockflow/blocks-with-events` that was read, as it arrives. */
export interface BlocksWithEventsPart extends TimeSpan {
  readonly blocksAndEvents: BlockAndEvents[][];
}

export interface BlocksWithEventsRead {
  /** Every part's blocks, each with its events, merged per chain, in time order. */
  readonly blocksAndEvents: BlockAndEvents[][];
  /** Requests sent (each part asked once), never more than `blocksRangeMaxRequests`. */
  readonly requests: number;
  /** As `BlocksRangeRead.unread`: absent when all was read. */
  readonly unread?: Unread;
  /**
   * After a part was refused for its span (504), the longest part then answered in one request (ms from
   * its start to its end): a span this gateway is known to serve. Absent when no part was refused for its
   * span (a split for size says nothing of it).
   */
  readonly servedSpanMs?: number;
}

/** One request for [fromTs, toTs]. */
export type ReadPart<T> = (fromTs: number, toTs: number) => Promise<T>;
export type ReadBlocksPart = ReadPart<Blocks>;

/** A range read of any endpoint: the parts' answers merged, the requests sent, what was not read. */
export interface RangeRead<T> {
  readonly merged: T;
  readonly requests: number;
  readonly unread?: Unread;
  /** See {@link BlocksWithEventsRead.servedSpanMs}. */
  readonly servedSpanMs?: number;
}

/** How deep a range of this span may be halved: the 504 halvings to the node's span, then SIZE_HALVINGS. */
export function blocksSplitDepth(spanMs: number, maxSpanMs = NODE_MAX_BLOCKS_SPAN_MS): number {
  const forSpan = spanMs > maxSpanMs ? Math.ceil(Math.log2(spanMs / maxSpanMs)) : 0;
  return forSpan + SIZE_HALVINGS;
}

/** Whether a part may be halved: not past the depth, and not below a second. */
function splittable(part: TimeSpan, depth: number, maxDepth: number): boolean {
  return depth < maxDepth && part.toTs - part.fromTs > MIN_BLOCKS_PART_MS;
}

/** The two halves of a part; the second starts a millisecond after the first ends (both ends inclusive). */
function halves(part: TimeSpan): [TimeSpan, TimeSpan] {
  const middle = part.fromTs + Math.floor((part.toTs - part.fromTs) / 2);
  return [
    { fromTs: part.fromTs, toTs: middle },
    { fromTs: middle + 1, toTs: part.toTs },
  ];
}

/**
 * The most requests reading [fromTs, toTs] can send: every part of the split tree asked once. Counted
 * over the same tree `readBlocksRange` walks, so the two cannot disagree.
 */
export function blocksRangeMaxRequests(fromTs: number, toTs: number): number {
  const maxDepth = blocksSplitDepth(toTs - fromTs);
  const count = (part: TimeSpan, depth: number): number => {
    if (!splittable(part, depth, maxDepth)) return 1;
    const [first, second] = halves(part);
    return 1 + count(first, depth + 1) + count(second, depth + 1);
  };
  return count({ fromTs, toTs }, 0);
}

/** Whether an error is a refusal of the part's span: a 504 (the node's span, or too heavy). */
function refusedForSpan(error: unknown): boolean {
  return error instanceof GatewayHttpError && error.status === 504;
}

/** Whether an error means "ask for less": a refusal of the span, or an answer over the body cap. */
export function asksForLess(error: unknown): boolean {
  return error instanceof ResponseTooLargeError || refusedForSpan(error);
}

/**
 * Reads [fromTs, toTs] part by part, halving a part that asks for less, depth first so that parts arrive
 * in time order; `onPart` gets each as soon as it is read, and `merge` makes one answer of the parts read
 * (in time order). Any other error, or a refusal of a part that may not be halved again, ends the read:
 * thrown when nothing was read, otherwise said in `unread`.
 */
export async function readRangeInParts<T>(
  fromTs: number,
  toTs: number,
  readPart: ReadPart<T>,
  merge: (parts: readonly T[]) => T,
  onPart?: (span: TimeSpan, answer: T) => void,
): Promise<RangeRead<T>> {
  const maxDepth = blocksSplitDepth(toTs - fromTs);
  const parts: T[] = [];
  let requests = 0;
  let longestPartMs = 0;
  let spanRefused = false;
  // A stack of parts still to read, the earliest on top; each entry keeps its depth in the split tree.
  const pending: Array<{ part: TimeSpan; depth: number }> = [{ part: { fromTs, toTs }, depth: 0 }];
  while (pending.length > 0) {
    const { part, depth } = pending.pop()!;
    requests++;
    try {
      const answer = await readPart(part.fromTs, part.toTs);
      parts.push(answer);
      longestPartMs = Math.max(longestPartMs, part.toTs - part.fromTs);
      onPart?.(part, answer);
    } catch (error) {
      spanRefused ||= refusedForSpan(error);
      if (asksForLess(error) && splittable(part, depth, maxDepth)) {
        const [first, second] = halves(part);
        pending.push({ part: second, depth: depth + 1 }, { part: first, depth: depth + 1 });
        continue;
      }
      if (parts.length === 0) throw error;
      const unread = { fromTs: part.fromTs, toTs, reason: error };
      return { merged: merge(parts), requests, unread, ...served(spanRefused, longestPartMs) };
    }
  }
  return { merged: merge(parts), requests, ...served(spanRefused, longestPartMs) };
}

/** `servedSpanMs` only where a part was refused for its span and another was answered. */
function served(spanRefused: boolean, longestPartMs: number): { servedSpanMs?: number } {
  return spanRefused && longestPartMs > 0 ? { servedSpanMs: longestPartMs } : {};
}

/** `/blockflow/blocks` over [fromTs, toTs] (see `readRangeInParts`). */
export async function readBlocksRange(
  fromTs: number,
  toTs: number,
  readPart: ReadBlocksPart,
  onPart?: (part: BlocksPart) => void,
): Promise<BlocksRangeRead> {
  const told = onPart && ((span: TimeSpan, blocks: Blocks) => onPart({ ...span, blocks }));
  const read = await readRangeInParts(fromTs, toTs, readPart, mergeBlocks, told);
  return { blocks: read.merged, requests: read.requests, ...unreadOf(read) };
}

/** `/blockflow/blocks-with-events` over [fromTs, toTs] (see `readRangeInParts`). */
export async function readBlocksWithEventsRange(
  fromTs: number,
  toTs: number,
  readPart: ReadPart<BlocksAndEvents>,
  onPart?: (part: BlocksWithEventsPart) => void,
): Promise<BlocksWithEventsRead> {
  const told =
    onPart &&
    ((span: TimeSpan, answer: BlocksAndEvents) =>
      onPart({ ...span, blocksAndEvents: answer.blocksAndEvents }));
  const read = await readRangeInParts(fromTs, toTs, readPart, mergeBlocksAndEvents, told);
  return {
    blocksAndEvents: read.merged.blocksAndEvents,
    requests: read.requests,
    ...(read.servedSpanMs !== undefined ? { servedSpanMs: read.servedSpanMs } : {}),
    ...unreadOf(read),
  };
}

/** `unread` only when there is one, so that a whole read has no such key. */
function unreadOf(read: RangeRead<unknown>): { unread?: Unread } {
  return read.unread ? { unread: read.unread } : {};
}

/**
 * Parts' arrays of chains merged per chain: the parts are in time order, so each chain stays in order.
 * A part with fewer chains (a gateway answering only some) adds nothing to the chains it lacks.
 */
function mergePerChain<E>(parts: readonly (readonly (readonly E[])[])[]): E[][] {
  const chains = parts.reduce((n, p) => Math.max(n, p.length), 0);
  const merged: E[][] = [];
  for (let i = 0; i < chains; i++) merged.push(parts.flatMap((p) => p[i] ?? []));
  return merged;
}

/** Parts' blocks merged per chain. */
export function mergeBlocks(parts: readonly Blocks[]): Blocks {
  const blocks: BlockEntry[][] = mergePerChain(parts.map((p) => p.blocks));
  return { ...(parts[0] ?? {}), blocks };
}

/** Parts' blocks with events merged per chain, as `mergeBlocks` merges blocks. */
export function mergeBlocksAndEvents(parts: readonly BlocksAndEvents[]): BlocksAndEvents {
  const blocksAndEvents: BlockAndEvents[][] = mergePerChain(parts.map((p) => p.blocksAndEvents));
  return { ...(parts[0] ?? {}), blocksAndEvents };
}
