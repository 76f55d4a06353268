/**
 * Client-side pacing. The gateway rejects requests over the limit with 429 instead of queueing them,
 * so the client must not exceed a known limit itself: it holds requests in a priority queue (user
 * actions before background polling) until a slot is free in a sliding one-second window. The
 * `X-RateLimit-*` headers of every response calibrate the limit and are published as the headroom the
 * status bar shows.
 *
 * The server counts *arrivals*, the client only knows *departures*: a request that waits for a new
 * connection (TCP/TLS setup) arrives late and can land in the same server second as requests sent a
 * full second after it. So each request's arrival is bounded from above: by `sentAt + maxLatencyMs`
 * while it is in flight, and by the time its response came back once it has. The window runs from that
 * bound, which adapts to the real latency instead of guessing a fixed margin.
 */
import { abortError, type Clock } from '../util/clock';
import { Emitter, type Event } from '../util/emitter';

export type Priority = 'user' | 'background';

export interface RateHeadroom {
  /** Requests per second allowed for the key. */
  readonly limit: number;
  /** Requests left in the server's current window, as of the response. */
  readonly remaining: number;
  /** When the server's window resets (ms since epoch; the header carries seconds). */
  readonly resetAt: number;
  readonly observedAt: number;
}

export interface RateLimiterOptions {
  readonly clock: Clock;
  /** The plan's requests per second; undefined means unknown until a response announces it. */
  readonly limitPerSecond?: number;
  /**
   * Extra spacing added to the one-second window. The server counts arrivals, we count departures;
   * a small margin absorbs latency jitter so two windows' worth never land in one server second.
   */
  readonly marginMs?: number;
  /** Upper bound assumed for a request's arrival while it is in flight (default 250 ms). */
  readonly maxLatencyMs?: number;
  /**
   * Slots of every window that background requests may not take (default 1 when the limit is 2 or
   * more), so a user action always finds one free and leaves at once instead of waiting out a window
   * filled by polling.
   */
  readonly userReserve?: number;
}

/** Returned by `acquire`: call it when the response (or failure) is in, to tighten the arrival bound. */
export type Settle = () => void;

interface SendRecord {
  readonly sentAt: number;
  /** Latest time the server can have received the request. Only ever decreases. */
  arrivedBy: number;
}

/**
 * A request's place in the queue. The priority is mutable: when a user action joins an in-flight
 * background request (same GET), the shared request is promoted instead of waiting behind the polling.
 */
export interface Ticket {
  priority: Priority;
}

interface Waiter {
  ticket: Ticket;
  resolve: (settle: Settle) => void;
  reject: (error: unknown) => void;
  cleanup: () => void;
}

const WINDOW_MS = 1000;
/**
 * The spec's windows are one second; a reset further ahead than this is not a per-second window (a
 * reset sent in milliseconds instead of seconds, a clock far off). Holding every request until then
 * would freeze the client, so it is ignored and the window re-learned from the next response.
 */
export const MAX_RESET_AHEAD_MS = 60_000;

export class RateLimiter {
  private readonly clock: Clock;
  private readonly marginMs: number;
  private planLimit: number | undefined;
  private announcedLimit: number | undefined;
  private readonly maxLatencyMs: number;
  private readonly userReserve: number | undefined;
  private sent: SendRecord[] = [];
  private readonly waiters: Waiter[] = [];
  private blockedUntil = 0;
  private pumping = false;
  private wake: AbortController | undefined;
  private last: RateHeadroom | undefined;
  private readonly headroomEmitter = new Emitter<RateHeadroom>();
  private readonly implausibleEmitter = new Emitter<{ resetAt: number; observedAt: number }>();
  /** A response announced a reset too far ahead to be a rate window; it was ignored. */
  readonly onImplausibleReset: Event<{ resetAt: number; observedAt: number }> = this.implausibleEmitter.event;

  /** Fired for every response that carries the rate-limit headers. */
  readonly onHeadroom: Event<RateHeadroom> = this.headroomEmitter.event;

  constructor(options: RateLimiterOptions) {
    this.clock = options.clock;
    this.planLimit = options.limitPerSecond;
    this.marginMs = options.marginMs ?? 5;
    this.maxLatencyMs = options.maxLatencyMs ?? 250;
    this.userReserve = options.userReserve;
  }

  /** Requests of one window a priority may use: background leaves the reserve to user actions. */
  private limitFor(priority: Priority): number | undefined {
    const limit = this.limit;
    if (limit === undefined || priority === 'user') return limit;
    const reserve = this.userReserve ?? (limit >= 2 ? 1 : 0);
    return Math.max(1, limit - reserve);
  }

  /** The limit pacing uses: what the server announced, else the plan's. */
  get limit(): number | undefined {
    return this.announcedLimit ?? this.planLimit;
  }

  get headroom(): RateHeadroom | undefined {
    return this.last;
  }

  /** How many requests wait for a slot, per priority (for diagnostics and tests). */
  get queued(): Record<Priority, number> {
    const user = this.waiters.filter((w) => w.ticket.priority === 'user').length;
    return { user, background: this.waiters.length - user };
  }

  /**
   * Resolves when the caller may send one request now, and counts it as sent. User requests are served
   * before background ones; within a priority, first come first served. Call the returned function
   * when the request is over.
   */
  acquire(priority: Priority | Ticket, signal?: AbortSignal): Promise<Settle> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const ticket = typeof priority === 'string' ? { priority } : priority;
    return new Promise<Settle>((resolve, reject) => {
      const waiter: Waiter = {
        ticket,
        resolve,
        reject,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      };
      const onAbort = (): void => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(abortError(signal));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
      // The pump may be asleep until a background slot frees; a user action may go sooner (its reserve).
      if (ticket.priority === 'user') this.wake?.abort();
      void this.pump();
    });
  }

  /** Reads the `X-RateLimit-*` headers of a response (lower-case names) and publishes the headroom. */
  observe(headers: Readonly<Record<string, string>>): RateHeadroom | undefined {
    const limit = intHeader(headers['x-ratelimit-limit']);
    const remaining = intHeader(headers['x-ratelimit-remaining']);
    const reset = intHeader(headers['x-ratelimit-reset']);
    if (limit === undefined || remaining === undefined || reset === undefined || limit <= 0) return undefined;
    this.announcedLimit = limit;
    const now = this.clock.now();
    if (reset * 1000 - now > MAX_RESET_AHEAD_MS) {
      this.implausibleEmitter.fire({ resetAt: reset * 1000, observedAt: now });
      return undefined;
    }
    const headroom: RateHeadroom = { limit, remaining, resetAt: reset * 1000, observedAt: now };
    this.last = headroom;
    // The server's count includes other clients of the same key (another window, a script): when it
    // says the window is used up, nothing goes out before it resets, whatever our own log says.
    if (remaining === 0) this.blockUntil(headroom.resetAt);
    this.headroomEmitter.fire(headroom);
    return headroom;
  }

  /** Holds every request until `time` (after a 429, or a window the server reports as exhausted). */
  blockUntil(time: number): void {
    // Capped: no single answer may hold every request (user actions included) for longer than this.
    const capped = Math.min(time, this.clock.now() + MAX_RESET_AHEAD_MS);
    if (capped > this.blockedUntil) this.blockedUntil = capped;
  }

  dispose(): void {
    this.headroomEmitter.dispose();
    this.implausibleEmitter.dispose();
    for (const waiter of this.waiters.splice(0)) {
      waiter.cleanup();
      waiter.reject(abortError());
    }
  }

  /** Milliseconds until the next request of `priority` may go out (0 = now). */
  private delay(now: number, priority: Priority): number {
    let wait = Math.max(0, this.blockedUntil - now);
    const limit = this.limitFor(priority);
    if (limit !== undefined) {
      const window = WINDOW_MS + this.marginMs;
      // Bounds only decrease, so a record whose bound left the window never comes back into it.
      this.sent = this.sent.filter((r) => r.arrivedBy > now - window);
      if (this.sent.length >= limit) {
        // The new request arrives at `now` or later; it may go once fewer than `limit` earlier
        // arrivals can fall within one window before it.
        const bounds = this.sent.map((r) => r.arrivedBy).sort((a, b) => b - a);
        wait = Math.max(wait, (bounds[limit - 1] as number) + window - now);
      }
    }
    return wait;
  }

  /** The waiter served next: the first user action, else the first background request. */
  private nextIndex(): number {
    const user = this.waiters.findIndex((w) => w.ticket.priority === 'user');
    return user >= 0 ? user : 0;
  }

  /** One loop at a time hands out slots; it sleeps on the injected clock when none is free. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.waiters.length > 0) {
        const now = this.clock.now();
        const index = this.nextIndex();
        // Re-read each turn: a ticket is promoted when a user action joins its request.
        const wait = this.delay(now, (this.waiters[index] as Waiter).ticket.priority);
        if (wait > 0) {
          // A response coming back can free a slot earlier than computed: it wakes this sleep.
          const wake = new AbortController();
          this.wake = wake;
          try {
            await this.clock.sleep(wait, wake.signal);
          } catch {
            // woken early: recompute
          } finally {
            this.wake = undefined;
          }
          continue;
        }
        const waiter = this.waiters.splice(index, 1)[0];
        if (!waiter) break;
        const record: SendRecord = { sentAt: now, arrivedBy: now + this.maxLatencyMs };
        this.sent.push(record);
        waiter.cleanup();
        waiter.resolve(() => {
          const bound = Math.min(record.arrivedBy, Math.max(record.sentAt, this.clock.now()));
          if (bound < record.arrivedBy) {
            record.arrivedBy = bound;
            this.wake?.abort();
          }
        });
      }
    } finally {
      this.pumping = false;
    }
  }
}

function intHeader(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}
