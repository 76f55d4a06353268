/**
 * The monthly quota lock of one client. Set by a monthly-quota 429 (or the client's own count reaching the
 * plan's limit), for the key that met it. While it holds, background polling sends nothing but one probe
 * a minute; a user's request is still sent, since a refused one costs nothing and an answer is how the
 * lock learns that the quota is back. It lifts as soon as the gateway answers that key (any 2xx: a user's
 * request, the background probe, Set API Key's check through `GatewayClient.quotaAnswered`), when another
 * key is used, or when the month renews.
 */
import type { Clock } from '../util/clock';
import { Emitter, type Event } from '../util/emitter';
import type { Logger } from '../util/log';
import { startOfNextUtcMonth } from '../util/month';
import type { Priority } from './rateLimiter';
import { keyFingerprint, type UsageTracker } from './usage';

/** While the quota lock holds, one background request a minute still goes out: the probe that lifts it. */
export const QUOTA_PROBE_INTERVAL_MS = 60_000;

/**
 * When a 429 says the monthly quota is used up (the spec's 429 covers both limits; the detail tells
 * them apart), the moment it renews: the first day of the next month, UTC.
 */
export function monthlyQuotaEnd(detail: string | undefined, now: number): number | undefined {
  if (!detail || !/\bmonth(ly)?\b/i.test(detail)) return undefined;
  return startOfNextUtcMonth(now);
}

export class QuotaLock {
  private until = 0;
  /** Fingerprint of the key the lock is about; undefined: any key (a keyless node profile). */
  private keyId: string | undefined;
  /** When a background request last went out as a probe while the lock held. */
  private probeAt = Number.NEGATIVE_INFINITY;
  /** Keys whose own count reached the plan's limit but which the gateway still answered this month. */
  private readonly countContradicted = new Map<string, string>();
  private readonly exhaustedEmitter = new Emitter<{ until: number }>();
  private readonly liftedEmitter = new Emitter<void>();
  /** The monthly quota is used up (a 429 said so, or the client counted the plan's limit) until `until`. */
  readonly onExhausted: Event<{ until: number }> = this.exhaustedEmitter.event;
  /** The gateway answered again (or another key is in use): the lock is gone. */
  readonly onLifted: Event<void> = this.liftedEmitter.event;

  constructor(
    private readonly clock: Clock,
    private readonly usage: UsageTracker,
    private readonly log: Logger,
  ) {}

  /** While the lock holds: when the month renews (ms). Undefined when requests may go. */
  get exhaustedUntil(): number | undefined {
    return this.until > this.clock.now() ? this.until : undefined;
  }

  /**
   * The gateway answered `key`. `counted`: this answer's request is in the count already (so reaching
   * the limit is no news). Without a key, the lock lifts whatever key it was about.
   */
  answered(key: string | undefined, counted: boolean): void {
    if (key) {
      const id = keyFingerprint(key);
      const usage = this.usage.usage(id);
      // Answered past the plan's limit by our own count: the count is wrong (another plan, a reset).
      if (usage.limit !== undefined && usage.count >= usage.limit + (counted ? 1 : 0))
        this.countContradicted.set(id, usage.month);
      if (this.until > 0 && this.keyId !== undefined && this.keyId !== id) return;
    }
    if (this.until === 0) return;
    this.lift('The gateway answers again: the monthly quota lock is lifted.');
  }

  /** A monthly-quota 429 for `key` (or the client's own count reached the limit). */
  exhausted(until: number, key: string | undefined): void {
    const keyId = key ? keyFingerprint(key) : undefined;
    if (until <= this.until && keyId === this.keyId) return;
    this.until = until;
    this.keyId = keyId;
    // A probe just met the lock: the next one is a minute away.
    this.probeAt = this.clock.now();
    this.exhaustedEmitter.fire({ until });
  }

  /**
   * Whether a request with `key` at `priority` must not go: the month's end (ms) when it must not,
   * undefined when it may (no lock, a user's request, or the minute's background probe).
   */
  endFor(key: string | undefined, priority: Priority): number | undefined {
    const now = this.clock.now();
    const keyId = key ? keyFingerprint(key) : undefined;
    // A new month: the lock is over by itself.
    if (this.until > 0 && now >= this.until) this.lift();
    // Another key (re-entered, or another profile's): the lock was about the old one.
    if (this.until > 0 && this.keyId !== undefined && keyId !== this.keyId) this.lift();
    if (this.until === 0 && keyId) this.lockWhenCounted(keyId, key, now);
    if (this.until === 0) return undefined;
    if (priority === 'user') return undefined;
    if (now - this.probeAt >= QUOTA_PROBE_INTERVAL_MS) {
      this.probeAt = now;
      return undefined;
    }
    return this.until;
  }

  dispose(): void {
    this.exhaustedEmitter.dispose();
    this.liftedEmitter.dispose();
  }

  /** This client's own count reached the plan's limit (and no answer this month said otherwise). */
  private lockWhenCounted(keyId: string, key: string | undefined, now: number): void {
    const usage = this.usage.usage(keyId);
    const reached = usage.limit !== undefined && usage.count >= usage.limit;
    if (reached && this.countContradicted.get(keyId) !== usage.month) {
      this.exhausted(startOfNextUtcMonth(now), key);
    }
  }

  private lift(reason?: string): void {
    this.until = 0;
    this.keyId = undefined;
    if (reason) this.log.info(reason);
    this.liftedEmitter.fire();
  }
}
