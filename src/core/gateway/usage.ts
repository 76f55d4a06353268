/**
 * Monthly request counting per API key. The server's monthly quota has no header, so the client counts
 * what it sends; the VS Code side persists the records (globalState) through `load`/`save` and
 * `onDidChange`. Keys are identified by a fingerprint, never stored themselves.
 */
import { createHash } from 'node:crypto';
import type { Clock } from './clock';
import { Emitter, type Event } from './emitter';

export interface UsageRecord {
  /** Fingerprint of the key (see `keyFingerprint`). */
  readonly keyId: string;
  /** Calendar month in UTC, `YYYY-MM`. */
  readonly month: string;
  readonly count: number;
}

export interface MonthlyUsage extends UsageRecord {
  /** The plan's monthly limit, when known. */
  readonly limit: number | undefined;
  /** count / limit, when the limit is known. */
  readonly fraction: number | undefined;
}

/** A short, one-way fingerprint: enough to tell keys apart, useless to an attacker. */
export function keyFingerprint(key: string): string {
  return createHash('sha256').update(`alephium-gateway-usage:${key}`).digest('hex').slice(0, 16);
}

export function monthOf(time: number): string {
  const d = new Date(time);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

export class UsageTracker {
  private readonly counts = new Map<string, UsageRecord>();
  private readonly changed = new Emitter<MonthlyUsage>();
  /** Fired after every counted request, with the key's usage for the current month. */
  readonly onDidChange: Event<MonthlyUsage> = this.changed.event;

  constructor(
    private readonly clock: Clock,
    private monthlyLimit: number | undefined,
  ) {}

  setMonthlyLimit(limit: number | undefined): void {
    this.monthlyLimit = limit;
  }

  /**
   * Restores persisted records. Records of past months are dropped; for the same key and month the
   * larger count wins (another window may have saved after us).
   */
  load(records: readonly UsageRecord[]): void {
    const month = monthOf(this.clock.now());
    for (const r of records) {
      if (r.month !== month || !Number.isInteger(r.count) || r.count < 0) continue;
      const current = this.counts.get(r.keyId);
      if (!current || current.month !== month || current.count < r.count) this.counts.set(r.keyId, { ...r });
    }
  }

  /** Current month's records, to persist. */
  save(): UsageRecord[] {
    const month = monthOf(this.clock.now());
    return [...this.counts.values()].filter((r) => r.month === month).map((r) => ({ ...r }));
  }

  record(keyId: string): MonthlyUsage {
    const month = monthOf(this.clock.now());
    const current = this.counts.get(keyId);
    const count = current && current.month === month ? current.count + 1 : 1;
    this.counts.set(keyId, { keyId, month, count });
    const usage = this.usage(keyId);
    this.changed.fire(usage);
    return usage;
  }

  usage(keyId: string): MonthlyUsage {
    const month = monthOf(this.clock.now());
    const current = this.counts.get(keyId);
    const count = current && current.month === month ? current.count : 0;
    const limit = this.monthlyLimit;
    return { keyId, month, count, limit, fraction: limit ? count / limit : undefined };
  }

  dispose(): void {
    this.changed.dispose();
  }
}
