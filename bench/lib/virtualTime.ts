/**
 * Virtual time for benches that simulate days or a month: one clock behind the scheduler's and the
 * watcher's timers and the GatewayClient's pacing (`Clock.sleep`), moved by the bench from one due
 * timer to the next. Timers sit in a binary heap, so a month of polls costs milliseconds of bookkeeping.
 */
import { abortError, type Clock } from '../../src/core/util/clock';
import type { Timers } from '../../src/core/util/clock';

interface Entry {
  readonly id: number;
  readonly due: number;
  readonly callback: () => void;
}

export class VirtualClock implements Timers {
  time: number;
  private nextId = 1;
  private heap: Entry[] = [];
  private readonly cancelled = new Set<number>();

  constructor(start: number) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const entry: Entry = { id: this.nextId++, due: this.time + Math.max(0, ms), callback };
    this.push(entry);
    return entry.id;
  }

  clearTimeout(handle: unknown): void {
    if (typeof handle === 'number') this.cancelled.add(handle);
  }

  /** When the earliest live timer is due (Infinity without one). */
  nextDue(): number {
    this.dropCancelled();
    return this.heap[0]?.due ?? Infinity;
  }

  /** Moves the clock to the earliest timer and runs it; false when none is due by `until`. */
  fireNext(until = Infinity): boolean {
    this.dropCancelled();
    const top = this.heap[0];
    if (!top || top.due > until) return false;
    this.pop();
    this.time = Math.max(this.time, top.due);
    top.callback();
    return true;
  }

  /** The GatewayClient's clock on the same virtual time. */
  clock(): Clock {
    return {
      now: () => this.time,
      sleep: (ms, signal) =>
        new Promise<void>((resolve, reject) => {
          if (signal?.aborted) return reject(abortError(signal));
          const id = this.setTimeout(resolve, ms);
          signal?.addEventListener(
            'abort',
            () => {
              this.clearTimeout(id);
              reject(abortError(signal));
            },
            { once: true },
          );
        }),
    };
  }

  private dropCancelled(): void {
    for (let top = this.heap[0]; top && this.cancelled.has(top.id); top = this.heap[0]) {
      this.cancelled.delete(top.id);
      this.pop();
    }
  }

  private less(a: Entry, b: Entry): boolean {
    return a.due < b.due || (a.due === b.due && a.id < b.id);
  }

  private push(entry: Entry): void {
    const h = this.heap;
    h.push(entry);
    for (let i = h.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!this.less(h[i] as Entry, h[parent] as Entry)) break;
      [h[i], h[parent]] = [h[parent] as Entry, h[i] as Entry];
      i = parent;
    }
  }

  private pop(): void {
    const h = this.heap;
    const last = h.pop();
    if (!last || h.length === 0) return;
    h[0] = last;
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.less(h[l] as Entry, h[m] as Entry)) m = l;
      if (r < h.length && this.less(h[r] as Entry, h[m] as Entry)) m = r;
      if (m === i) break;
      [h[i], h[m]] = [h[m] as Entry, h[i] as Entry];
      i = m;
    }
  }
}
