/**
 * Monthly request counting per API key, and the ledger behind it: every counted request is also kept per
 * UTC day and per kind (watched contracts, the Node view, transaction tracking, the user's own actions,
 * other background work). The server's monthly quota has no header, so the client counts what it sends;
 * the VS Code side persists the records (globalState) through `load`/`save` and `onDidChange`. Keys are
 * identified by a fingerprint, never stored themselves.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../util/clock';
import { Emitter, type Event } from '../util/emitter';
import { daysInMonthOf, monthOf } from '../util/month';
import type { Priority } from './rateLimiter';
import { isList } from '../util/guards';

/** What a request was for, in words a person understands; the ledger counts per kind. */
export const REQUEST_KINDS = ['contracts', 'node', 'tracking', 'actions', 'assistant', 'other'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

/**
 * Background work: every kind but what a person asked for, themselves (`actions`) or through a chat
 * assistant (`assistant`). The plan's background share bounds it; the forecast and the chart count it.
 */
export function isBackgroundKind(kind: RequestKind): boolean {
  return kind !== 'actions' && kind !== 'assistant';
}

/**
 * What a background caller says its requests are for (`RequestOptions.purpose`). A request at user
 * priority is the user's action whatever its purpose; a background one without a purpose is "other".
 * `assistant` is the one exception: the language-model tools run at the user's priority (a person asked
 * the chat), but the month's ledger keeps them apart, so a user sees what the assistant spent.
 */
export type RequestPurpose = 'contracts' | 'node' | 'tracking' | 'assistant';

export function requestKind(priority: Priority, purpose: RequestPurpose | undefined): RequestKind {
  if (purpose === 'assistant') return 'assistant';
  if (priority === 'user') return 'actions';
  return purpose ?? 'other';
}

/** One UTC day's requests by kind; a kind with no request is left out. */
export type DayUsage = { readonly day: number } & Readonly<Partial<Record<RequestKind, number>>>;

export interface UsageRecord {
  /** Fingerprint of the key (see `keyFingerprint`). */
  readonly keyId: string;
  /** Calendar month in UTC, `YYYY-MM`. */
  readonly month: string;
  readonly count: number;
  /**
   * The month's requests per UTC day of the month and kind, ascending by day. Absent in records saved
   * before the ledger existed: their requests are in `count` only.
   */
  readonly days?: readonly DayUsage[];
}

export interface MonthlyUsage {
  readonly keyId: string;
  readonly month: string;
  readonly count: number;
  /** The plan's monthly limit, when known. */
  readonly limit: number | undefined;
  /** count / limit, when the limit is known. */
  readonly fraction: number | undefined;
}

/** The month's requests of one key, per day and kind (see `UsageTracker.ledger`). */
export interface MonthLedger extends MonthlyUsage {
  /** Days with at least one request, ascending. */
  readonly days: readonly DayUsage[];
  /** Requests of this month counted before the ledger kept days (an earlier version): in `count` only. */
  readonly unattributed: number;
}

/** A short, one-way fingerprint: enough to tell keys apart, useless to an attacker. */
export function keyFingerprint(key: string): string {
  return createHash('sha256').update(`alephium-gateway-usage:${key}`).digest('hex').slice(0, 16);
}

// The ledger's callers ask their month questions here; the arithmetic lives in util/month.
export { daysInMonthOf, monthOf };

/** The sum of a day's kinds. */
export function dayTotal(day: DayUsage): number {
  let total = 0;
  for (const kind of REQUEST_KINDS) total += day[kind] ?? 0;
  return total;
}

interface Entry {
  readonly keyId: string;
  readonly month: string;
  count: number;
  /** Day of month -> counts per kind. */
  readonly days: Map<number, Partial<Record<RequestKind, number>>>;
  /** Requests in `count` that no day holds (saved by a version without the ledger). */
  unattributed: number;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/**
 * The days of a persisted record, checked: a day is an integer of the record's month, each kind a
 * non-negative integer. Anything else in globalState (a hand edit, a corrupt write) is dropped rather
 * than trusted, and days that together hold more than the record's count are all dropped: the count is
 * what the quota lock goes by, the days only explain it.
 */
function daysOf(record: UsageRecord): Map<number, Partial<Record<RequestKind, number>>> {
  const days = new Map<number, Partial<Record<RequestKind, number>>>();
  if (!Array.isArray(record.days)) return days;
  const [year, month] = record.month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  let total = 0;
  for (const raw of record.days.slice(0, 31) as unknown[]) {
    if (typeof raw !== 'object' || raw === null) continue;
    const day = (raw as { day?: unknown }).day;
    if (!Number.isInteger(day) || (day as number) < 1 || (day as number) > last) continue;
    const counts: Partial<Record<RequestKind, number>> = {};
    for (const kind of REQUEST_KINDS) {
      const n = (raw as Record<string, unknown>)[kind];
      if (isCount(n) && n > 0) {
        counts[kind] = n;
        total += n;
      }
    }
    if (Object.keys(counts).length > 0) days.set(day as number, counts);
  }
  return total > record.count ? new Map<number, Partial<Record<RequestKind, number>>>() : days;
}

export class UsageTracker {
  private readonly entries = new Map<string, Entry>();
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
   * larger count wins (another window may have saved after us), with its days.
   */
  load(records: readonly UsageRecord[]): void {
    const month = monthOf(this.clock.now());
    if (!isList(records)) return;
    for (const r of records) {
      if (typeof r !== 'object' || r === null || typeof r.keyId !== 'string') continue;
      if (r.month !== month || !isCount(r.count)) continue;
      const current = this.entries.get(r.keyId);
      if (current && current.month === month && current.count >= r.count) continue;
      const days = daysOf(r);
      let attributed = 0;
      for (const counts of days.values()) attributed += dayTotal({ day: 0, ...counts });
      this.entries.set(r.keyId, {
        keyId: r.keyId,
        month,
        count: r.count,
        days,
        unattributed: r.count - attributed,
      });
    }
  }

  /** Current month's records, to persist. */
  save(): UsageRecord[] {
    const month = monthOf(this.clock.now());
    return [...this.entries.values()]
      .filter((e) => e.month === month)
      .map((e) => ({ keyId: e.keyId, month: e.month, count: e.count, days: sortedDays(e) }));
  }

  /** Counts one request of `keyId`, of `kind` (what it was for), on today's UTC day. */
  record(keyId: string, kind: RequestKind = 'other'): MonthlyUsage {
    const now = this.clock.now();
    const month = monthOf(now);
    let entry = this.entries.get(keyId);
    if (!entry || entry.month !== month) {
      entry = { keyId, month, count: 0, days: new Map(), unattributed: 0 };
      this.entries.set(keyId, entry);
    }
    entry.count++;
    const day = new Date(now).getUTCDate();
    const counts = entry.days.get(day) ?? {};
    counts[kind] = (counts[kind] ?? 0) + 1;
    entry.days.set(day, counts);
    const usage = this.usage(keyId);
    this.changed.fire(usage);
    return usage;
  }

  usage(keyId: string): MonthlyUsage {
    const month = monthOf(this.clock.now());
    const entry = this.entries.get(keyId);
    const count = entry && entry.month === month ? entry.count : 0;
    const limit = this.monthlyLimit;
    return { keyId, month, count, limit, fraction: limit ? count / limit : undefined };
  }

  /** This month's requests of `keyId` per day and kind. */
  ledger(keyId: string): MonthLedger {
    const usage = this.usage(keyId);
    const entry = this.entries.get(keyId);
    const current = entry && entry.month === usage.month ? entry : undefined;
    return {
      ...usage,
      days: current ? sortedDays(current) : [],
      unattributed: current?.unattributed ?? 0,
    };
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function sortedDays(entry: Entry): DayUsage[] {
  return [...entry.days.entries()].sort(([a], [b]) => a - b).map(([day, counts]) => ({ day, ...counts }));
}
