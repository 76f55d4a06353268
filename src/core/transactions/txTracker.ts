/**
 * Tracking a submitted transaction until it is final, failed, or tracking gives up.
 *
 * The spec's rules drive the state machine: poll status until `Confirmed` with enough confirmations;
 * `TxNotFound` right after submit is normal (the gateway may not see it yet), so it is a failure only
 * after a grace period of several block times; `Conflicted` (node ≥ 4.2) was included but its inputs
 * were spent elsewhere, which is a failure; an unknown status type is shown as 'unknown', not crashed
 * on, and polled a bounded number of times. Time and the client are injected so every path is tested
 * with a fake clock, and records are plain JSON so the glue can persist them and restore after a reload.
 */
import type { Clock } from '../util/clock';
import type { GroupPair, RequestOptions } from '../gateway/client';
import { Emitter, type Event } from '../util/emitter';
import type { TxStatus } from '../gateway/schemas';
import { isTxId } from '../protocol';
import { confirmationsOf, TrackRun, type RunContext } from './trackRun';

export type TrackState =
  /** Not visible yet; a failure only once `graceEndsAt` passes. */
  | { readonly kind: 'pending-not-found'; readonly graceEndsAt: number }
  | { readonly kind: 'mempool' }
  /** In a block, fewer confirmations than required. */
  | {
      readonly kind: 'confirmed';
      readonly confirmations: number;
      readonly required: number;
      readonly blockHash: string;
    }
  | { readonly kind: 'final'; readonly confirmations: number; readonly blockHash: string }
  | { readonly kind: 'failed'; readonly reason: string }
  /** The gateway answered with a status type this version does not know. */
  | { readonly kind: 'unknown'; readonly rawType: string };

export type TrackOutcome =
  | { readonly kind: 'final'; readonly confirmations: number; readonly blockHash: string }
  | { readonly kind: 'failed'; readonly reason: string }
  /** Tracking stopped without knowing the tx's fate (unknown answers or errors for too long). */
  | { readonly kind: 'gave-up'; readonly reason: string }
  /** The AbortSignal fired; the record stays restorable. */
  | { readonly kind: 'cancelled' };

/** What is persisted (workspace state) per tracked transaction: plain JSON, versioned. */
export interface TrackedTxRecord {
  readonly version: 1;
  readonly txId: string;
  readonly fromGroup?: number;
  readonly toGroup?: number;
  /** When it was submitted (ms); the not-found grace period counts from here or from `lastSeenAt`. */
  readonly submittedAt: number;
  readonly requiredConfirmations: number;
  readonly label?: string;
  /**
   * The tx carries a script. A block takes such a tx even when its script fails (the gas is charged and
   * nothing else happens), so `Confirmed` is a success only once its details say `scriptExecutionOk`.
   */
  readonly hasScript?: boolean;
  /** Last time the gateway reported it MemPooled or Confirmed. */
  readonly lastSeenAt?: number;
  readonly state?: TrackState;
  /** Set once the outcome is known; a restored record with an outcome is not polled again. */
  readonly outcome?: TrackOutcome;
}

export interface TrackRequest {
  readonly txId: string;
  readonly fromGroup?: number;
  readonly toGroup?: number;
  readonly submittedAt?: number;
  readonly requiredConfirmations?: number;
  readonly label?: string;
  readonly hasScript?: boolean;
}

export interface TrackerOptions {
  /** Confirmations for 'final' (default 1; the spec recommends 110 for high-value transfers). */
  readonly requiredConfirmations?: number;
  /**
   * How long `TxNotFound` is tolerated (default 64 s: four Rhone block times of 16 s, i.e. generous
   * next to the spec's "about one block time"; a lightly loaded gateway can lag behind the node).
   */
  readonly notFoundGraceMs?: number;
  /** First polling interval (default 4 s) and its bound after backoff (default 32 s). */
  readonly initialIntervalMs?: number;
  readonly maxIntervalMs?: number;
  /** Interval growth while nothing changes (default 1.5). */
  readonly backoffFactor?: number;
  /** Consecutive unknown status types before giving up (default 20). */
  readonly maxUnknownPolls?: number;
  /** Consecutive failed status requests before giving up (default 20). */
  readonly maxConsecutiveErrors?: number;
}

export interface TrackerChange {
  readonly txId: string;
  readonly state: TrackState;
  readonly record: TrackedTxRecord;
}

export interface StatusClient {
  getTxStatus(txId: string, groups?: GroupPair, options?: RequestOptions): Promise<TxStatus>;
  /** Read once per script tx when it reaches a block (the client caches confirmed details forever). */
  getTxDetails?(
    txId: string,
    groups?: GroupPair,
    options?: RequestOptions,
  ): Promise<{ readonly scriptExecutionOk?: boolean | undefined }>;
}

export interface TrackerDeps {
  readonly client: StatusClient;
  readonly clock: Clock;
  readonly options?: TrackerOptions;
}

const DEFAULTS: Required<TrackerOptions> = {
  requiredConfirmations: 1,
  notFoundGraceMs: 64_000,
  initialIntervalMs: 4_000,
  maxIntervalMs: 32_000,
  backoffFactor: 1.5,
  maxUnknownPolls: 20,
  maxConsecutiveErrors: 20,
};

export class TxTracker {
  private readonly client: StatusClient;
  private readonly clock: Clock;
  private readonly options: Required<TrackerOptions>;
  private readonly tracked = new Map<string, TrackedTxRecord>();
  private readonly emitter = new Emitter<TrackerChange>();

  /** Every state change, with the record to persist. */
  readonly onDidChange: Event<TrackerChange> = this.emitter.event;

  constructor(deps: TrackerDeps) {
    this.client = deps.client;
    this.clock = deps.clock;
    this.options = { ...DEFAULTS, ...deps.options };
    const o = this.options;
    if (!Number.isInteger(o.requiredConfirmations) || o.requiredConfirmations < 1) {
      throw new RangeError('requiredConfirmations must be an integer ≥ 1');
    }
    if (!(o.initialIntervalMs > 0 && o.maxIntervalMs >= o.initialIntervalMs && o.backoffFactor >= 1)) {
      throw new RangeError(
        'polling interval must be positive, bounded by maxIntervalMs, with backoffFactor ≥ 1',
      );
    }
  }

  /** All records (active and finished), as plain JSON for persistence. */
  records(): TrackedTxRecord[] {
    return [...this.tracked.values()].map((r) => structuredClone(r));
  }

  record(txId: string): TrackedTxRecord | undefined {
    const r = this.tracked.get(txId.toLowerCase());
    return r && structuredClone(r);
  }

  forget(txId: string): void {
    this.tracked.delete(txId.toLowerCase());
  }

  /**
   * A status read elsewhere (the details page asked the gateway): a record tracking has finished takes
   * its newer confirmations and the time it was read, so the Transactions row and the page say the same
   * count. Only finished, final records: a running one is polled and its loop owns the record. Returns
   * whether the record changed (and announces it like any change).
   */
  observe(txId: string, status: TxStatus): boolean {
    const id = txId.toLowerCase();
    const r = this.tracked.get(id);
    if (r?.outcome?.kind !== 'final' || status.type !== 'Confirmed') return false;
    // Another block (a reorg) is news for tracking, not for the count of this record's block.
    if (status.blockHash !== r.outcome.blockHash) return false;
    const confirmations = confirmationsOf(status);
    if (confirmations < r.outcome.confirmations) return false;
    const final = { kind: 'final', confirmations, blockHash: status.blockHash } as const;
    const record: TrackedTxRecord = { ...r, state: final, outcome: final, lastSeenAt: this.clock.now() };
    this.tracked.set(id, record);
    this.emitter.fire({ txId: id, state: final, record: structuredClone(record) });
    return true;
  }

  /**
   * Resumes tracking of persisted records after a reload. Finished ones are kept (for display) but
   * not polled; malformed entries are skipped rather than breaking activation.
   */
  restore(records: readonly unknown[], signal?: AbortSignal): Promise<TrackOutcome>[] {
    const running: Promise<TrackOutcome>[] = [];
    for (const raw of records) {
      const r = parseRecord(raw);
      if (!r) continue;
      if (r.outcome) {
        this.tracked.set(r.txId, r);
        continue;
      }
      running.push(this.track(r, signal));
    }
    return running;
  }

  /** Polls until the outcome is known, the signal aborts, or tracking gives up. Never rejects. */
  async track(request: TrackRequest | TrackedTxRecord, signal?: AbortSignal): Promise<TrackOutcome> {
    const txId = request.txId.toLowerCase();
    if (!isTxId(txId))
      throw new RangeError(`txId must be 32 bytes of hex, got '${request.txId.slice(0, 80)}'`);
    const previous = 'version' in request ? request : undefined;
    const record: TrackedTxRecord = {
      version: 1,
      txId,
      ...(request.fromGroup !== undefined ? { fromGroup: request.fromGroup } : {}),
      ...(request.toGroup !== undefined ? { toGroup: request.toGroup } : {}),
      submittedAt: request.submittedAt ?? this.clock.now(),
      requiredConfirmations: request.requiredConfirmations ?? this.options.requiredConfirmations,
      ...(request.label !== undefined ? { label: request.label } : {}),
      ...(request.hasScript ? { hasScript: true } : {}),
      ...(previous?.lastSeenAt !== undefined ? { lastSeenAt: previous.lastSeenAt } : {}),
      ...(previous?.state !== undefined ? { state: previous.state } : {}),
    };
    return new TrackRun(this.runContext, record, signal).run();
  }

  /** What a run of `track` may touch: the tracker's client, clock, options, records and event. */
  private get runContext(): RunContext {
    return {
      client: this.client,
      clock: this.clock,
      options: this.options,
      save: (record) => this.tracked.set(record.txId, record),
      announce: (state, record) =>
        this.emitter.fire({ txId: record.txId, state, record: structuredClone(record) }),
    };
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

/** Validates a persisted record (it may come from an older version or be corrupted). */
export function parseRecord(raw: unknown): TrackedTxRecord | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  if (r.version !== 1 || typeof r.txId !== 'string' || !isTxId(r.txId)) return undefined;
  if (typeof r.submittedAt !== 'number' || !Number.isFinite(r.submittedAt)) return undefined;
  if (
    typeof r.requiredConfirmations !== 'number' ||
    !Number.isInteger(r.requiredConfirmations) ||
    r.requiredConfirmations < 1
  ) {
    return undefined;
  }
  const group = (g: unknown) =>
    g === undefined || (typeof g === 'number' && Number.isInteger(g) && g >= 0 && g <= 3);
  if (!group(r.fromGroup) || !group(r.toGroup)) return undefined;
  return { ...(structuredClone(raw) as TrackedTxRecord), txId: r.txId.toLowerCase() };
}
