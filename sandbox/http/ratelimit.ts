/**
 * Per-key rate limiting exactly as the gateway spec's Limits section: a per-second window and a monthly
 * quota, both checked on every request. Rejections are immediate (never queued), which is what lets the
 * extension's tests prove that it backs off on 429 instead of hammering.
 */
import type { Clock } from '../clock';

export type Plan = 'free' | 'starter' | 'pro' | 'enterprise';

export const PLAN_LIMITS: Record<Plan, { perSecond: number; perMonth: number }> = {
  free: { perSecond: 5, perMonth: 100_000 },
  starter: { perSecond: 25, perMonth: 1_000_000 },
  pro: { perSecond: 100, perMonth: 10_000_000 },
  // "custom" in the spec; the sandbox uses it for load checks, where per-second limits would only measure 429s.
  enterprise: { perSecond: 1_000_000, perMonth: 1_000_000_000 },
};

export type KeyStatus = 'active' | 'expired' | 'revoked';

export interface ApiKeyRecord {
  key: string;
  plan: Plan;
  status: KeyStatus;
  perSecond: number;
  perMonth: number;
  /** Unix second of the current per-second window. */
  windowSecond: number;
  windowCount: number;
  monthlyUsed: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Why a request was refused (only when !allowed). */
  detail?: string;
  headers: Record<string, string>;
}

export class RateLimiter {
  private readonly keys = new Map<string, ApiKeyRecord>();

  constructor(private readonly clock: Clock) {}

  add(
    key: string,
    plan: Plan,
    status: KeyStatus = 'active',
    limits?: { perSecond?: number; perMonth?: number },
  ) {
    const base = PLAN_LIMITS[plan];
    const rec: ApiKeyRecord = {
      key,
      plan,
      status,
      perSecond: limits?.perSecond ?? base.perSecond,
      perMonth: limits?.perMonth ?? base.perMonth,
      windowSecond: 0,
      windowCount: 0,
      monthlyUsed: 0,
    };
    this.keys.set(key, rec);
    return rec;
  }

  get(key: string): ApiKeyRecord | undefined {
    return this.keys.get(key);
  }

  /** Counts one request against `rec` if both limits allow it; refused requests are not counted. */
  check(rec: ApiKeyRecord): RateDecision {
    const nowMs = this.clock.now();
    const second = Math.floor(nowMs / 1000);
    if (second !== rec.windowSecond) {
      rec.windowSecond = second;
      rec.windowCount = 0;
    }
    let allowed = true;
    let detail: string | undefined;
    if (rec.monthlyUsed >= rec.perMonth) {
      allowed = false;
      detail = `API rate limit exceeded: monthly quota of ${rec.perMonth} requests for the ${rec.plan} plan is used up`;
    } else if (rec.windowCount >= rec.perSecond) {
      allowed = false;
      detail = `API rate limit exceeded: ${rec.perSecond} requests per second for the ${rec.plan} plan`;
    } else {
      rec.windowCount++;
      rec.monthlyUsed++;
    }
    return { allowed, detail, headers: this.headers(rec) };
  }

  headers(rec: ApiKeyRecord): Record<string, string> {
    const second = Math.floor(this.clock.now() / 1000);
    const used = second === rec.windowSecond ? rec.windowCount : 0;
    return {
      'X-RateLimit-Limit': String(rec.perSecond),
      'X-RateLimit-Remaining': String(Math.max(0, rec.perSecond - used)),
      'X-RateLimit-Reset': String(second + 1),
    };
  }

  /** Headers for responses that cannot be attributed to a key (401, unknown slug): nothing is counted. */
  anonymousHeaders(): Record<string, string> {
    const second = Math.floor(this.clock.now() / 1000);
    const limit = PLAN_LIMITS.free.perSecond;
    return {
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(limit),
      'X-RateLimit-Reset': String(second + 1),
    };
  }
}
