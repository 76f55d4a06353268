/**
 * The event feed of one watched contract: newest first, each event once whatever source reported it
 * (the watcher, a refresh, Load more), bounded, and paged backwards with the server's cursors.
 */

import type { EventLike } from '../../artifacts';

export interface FeedEvent<E extends EventLike = EventLike> {
  /** Stable across refreshes and reloads: the same event keeps its tree id (and expansion state). */
  readonly id: string;
  readonly event: E;
}

type KeyedEvent = EventLike & { readonly txId: string };

/** Same identity as the watcher's dedupe key (tx, index, typed values), for any event record. */
function feedKey(event: KeyedEvent): string {
  return `${event.txId}:${event.eventIndex}:${JSON.stringify(event.fields.map((f) => [f.type, f.value]))}`;
}

/** The most events a feed keeps as new ones arrive; older ones are read again by "Load more…". */
export const MAX_FEED_EVENTS = 1000;

interface FeedEntry<E> {
  readonly key: string;
  readonly id: string;
  readonly event: E;
}

/**
 * Events added together, oldest first, with the offset where they start. A window read from the server
 * (`exact`) holds events at offsets from `start` up to the next run's start. Live events (the watcher's)
 * only lie at or after `start` (the feed's cursor when they came): their offsets are not known.
 */
interface FeedRun<E> {
  readonly start: number;
  readonly exact: boolean;
  readonly entries: readonly FeedEntry<E>[];
}

/**
 * The events of one contract as the view shows them: newest first, each once. Three sources feed it:
 * the latest window (count - N), older windows ("Load more…", read backwards with server cursors
 * inside each window) and new events from the watcher or a refresh. Events are identified by the
 * watcher's dedupe key, so an event reported by two sources appears once.
 *
 * Memory is bounded: when new events take the feed past {@link MAX_FEED_EVENTS}, its oldest windows are
 * dropped whole and "Load more…" starts where the oldest kept window starts, so the dropped events are
 * read again on demand and none is lost or shown twice. When only live events are left to drop (their
 * offsets are unknown), the feed starts over: it is unloaded, and the view reads the latest window
 * again. Adding is linear in the events added, whatever they repeat.
 */
export class EventFeed<E extends KeyedEvent = KeyedEvent> {
  /** Chain order (oldest first); rendered reversed. */
  private runs: FeedRun<E>[] = [];
  private total = 0;
  /** The key of every event held (each is held once). */
  private readonly keys = new Set<string>();
  /** Per short id: the next number to give (ids stay unique) and how many held events use it. */
  private readonly occurrences = new Map<string, { next: number; held: number }>();
  /** Offset where the oldest loaded window starts; 0 means nothing older exists. */
  private older: number | undefined;
  /** The server cursor after the newest loaded event (where a refresh continues). */
  private newer: number | undefined;
  /** The current-count the feed last saw. */
  private knownCount: number | undefined;

  constructor(
    private readonly address: string,
    private readonly maxEvents = MAX_FEED_EVENTS,
  ) {}

  get loaded(): boolean {
    return this.older !== undefined;
  }

  get size(): number {
    return this.total;
  }

  /** Where a window of older events ends (exclusive), when there are any. */
  get olderEnd(): number | undefined {
    return this.older !== undefined && this.older > 0 ? this.older : undefined;
  }

  get hasOlder(): boolean {
    return this.olderEnd !== undefined;
  }

  get nextStart(): number | undefined {
    return this.newer;
  }

  get count(): number | undefined {
    return this.knownCount;
  }

  /** The events not held yet, each with its key and id; they are held from now on. */
  private take(events: readonly E[]): FeedEntry<E>[] {
    const entries: FeedEntry<E>[] = [];
    // Two identical emits in one transaction are two events: the n-th repeat kept from this batch is
    // numbered `#n`. One count per key (not a search of the batch), so identical events stay linear.
    const repeats = new Map<string, number>();
    for (const event of events) {
      const base = feedKey(event);
      const n = repeats.get(base) ?? 0;
      const key = n === 0 ? base : `${base}#${n}`;
      if (this.keys.has(key)) continue;
      repeats.set(base, n + 1);
      this.keys.add(key);
      const short = `${event.txId.slice(0, 16)}:${event.eventIndex}`;
      const seen = this.occurrences.get(short) ?? { next: 0, held: 0 };
      this.occurrences.set(short, { next: seen.next + 1, held: seen.held + 1 });
      entries.push({ key, id: `${this.address}/event/${short}/${seen.next}`, event });
    }
    this.total += entries.length;
    return entries;
  }

  /**
   * Drops the oldest windows while the feed holds more than its bound (never the newest run). Older
   * windows the user asked for with "Load more…" are kept until new events arrive.
   */
  private trim(): void {
    while (this.total > this.maxEvents && this.runs.length > 1) {
      const oldest = this.runs[0]!;
      if (!oldest.exact) {
        // Live events have no known offset, so no cursor could read them again: start over.
        this.clear();
        this.older = undefined;
        return;
      }
      this.runs.shift();
      this.total -= oldest.entries.length;
      for (const entry of oldest.entries) this.forget(entry);
      // Everything dropped lies before the next run's start; "Load more…" continues from there.
      this.older = this.runs[0]!.start;
    }
  }

  private forget(entry: FeedEntry<E>): void {
    this.keys.delete(entry.key);
    const short = `${entry.event.txId.slice(0, 16)}:${entry.event.eventIndex}`;
    const seen = this.occurrences.get(short);
    if (!seen || seen.held <= 1) this.occurrences.delete(short);
    else this.occurrences.set(short, { next: seen.next, held: seen.held - 1 });
  }

  private clear(): void {
    this.runs = [];
    this.total = 0;
    this.keys.clear();
    this.occurrences.clear();
  }

  /** The latest window (start = count - N) replaced what was loaded: the view starts over. */
  setLatest(slice: { events: readonly E[]; nextStart: number; count: number; start: number }): void {
    this.clear();
    this.older = slice.start;
    this.newer = slice.nextStart;
    this.knownCount = slice.count;
    const entries = this.take(slice.events);
    if (entries.length > 0) this.runs.push({ start: slice.start, exact: true, entries });
  }

  /** A window of older events (start .. previous start) was read; returns how many were new. */
  addOlder(events: readonly E[], start: number): number {
    this.older = Math.min(this.older ?? start, start);
    const entries = this.take(events);
    if (entries.length > 0) this.runs.unshift({ start, exact: true, entries });
    return entries.length;
  }

  /**
   * New events (from the watcher or a refresh), in chain order; returns how many were new. With a
   * cursor they are the window from the feed's `nextStart` to the cursor; without, live deliveries.
   * A cursor with a `count` says the window reached that count: every live event delivered before
   * was on chain by then, so it lies inside the window too, and joins it.
   */
  addNewer(events: readonly E[], cursor?: { nextStart: number; count?: number }): number {
    const from = this.newer ?? this.older ?? 0;
    if (cursor) {
      this.newer = Math.max(this.newer ?? 0, cursor.nextStart);
      if (cursor.count !== undefined) this.knownCount = Math.max(this.knownCount ?? 0, cursor.count);
    }
    // Only a loaded feed takes live events: an unloaded one reads its latest window when opened, which
    // includes them, and keeping them would make that window look partly loaded.
    if (!this.loaded) return 0;
    let entries = this.take(events);
    const added = entries.length;
    if (cursor?.count !== undefined) {
      // Live runs since the last window all started at `from` (only a cursor moves it).
      const live: (readonly FeedEntry<E>[])[] = [];
      while (this.runs.length > 0 && !this.runs[this.runs.length - 1]!.exact)
        live.unshift(this.runs.pop()!.entries);
      entries = [...live.flat(), ...entries];
    }
    if (entries.length > 0) this.runs.push({ start: from, exact: cursor !== undefined, entries });
    this.trim();
    return added;
  }

  /** Newest first, as rendered. */
  items(): FeedEvent<E>[] {
    const out: FeedEvent<E>[] = [];
    for (let r = this.runs.length - 1; r >= 0; r--) {
      const entries = this.runs[r]!.entries;
      for (let i = entries.length - 1; i >= 0; i--)
        out.push({ id: entries[i]!.id, event: entries[i]!.event });
    }
    return out;
  }
}

/** The window "Load more…" reads: at most `pageSize` offsets before `end`. */
export function olderWindow(end: number, pageSize: number): { start: number; until: number } {
  return { start: Math.max(0, end - pageSize), until: end };
}
