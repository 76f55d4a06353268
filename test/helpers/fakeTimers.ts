/**
 * Virtual time for unit tests of code that takes injected timers (`now`, `setTimeout`, `clearTimeout`:
 * the scheduler's and the event watcher's): time moves only on `advance`, which fires the timers that come
 * due in order and lets each run's follow-up work finish before the next.
 */

export interface FakeTimersOptions {
  /** What "the run's follow-up work finished" means; default: 5 microtask turns. */
  settle?: () => Promise<void>;
  /** Settles once more after the clock reaches the target (for work started by the last run's I/O). */
  settleAtEnd?: boolean;
}

/** Five microtask turns: enough for a timer callback's promise chain to finish. */
export async function microtasks(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

export class FakeTimers {
  timers: { id: number; at: number; cb: () => void }[] = [];
  private seq = 0;
  private readonly settle: () => Promise<void>;
  private readonly settleAtEnd: boolean;

  constructor(
    public time: number,
    options: FakeTimersOptions = {},
  ) {
    this.settle = options.settle ?? microtasks;
    this.settleAtEnd = options.settleAtEnd ?? false;
  }

  now(): number {
    return this.time;
  }

  setTimeout(cb: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.timers.push({ id, at: this.time + Math.max(0, ms), cb });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  /** Moves the clock by `ms`, running what comes due; `settle` overrides the constructor's for this call. */
  async advance(ms: number, settle: () => Promise<void> = this.settle): Promise<void> {
    // Bounded: a target that is not a number would never be reached.
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`cannot advance by ${ms}`);
    const target = this.time + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > target) break;
      this.timers.shift();
      this.time = next.at;
      next.cb();
      await settle();
    }
    this.time = target;
    if (this.settleAtEnd) await settle();
  }
}
