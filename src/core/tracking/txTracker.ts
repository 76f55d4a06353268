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
import { GatewayError } from '../gateway/errors';
import type { TxStatus } from '../gateway/schemas';
import { isTxId } from '../protocol';

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

/** Errors that asking again cannot fix: stop instead of polling a dead key or a malformed txId. */
function isPermanent(error: unknown): boolean {
  return (
    error instanceof GatewayError &&
    ['validation', 'unauthorized', 'missingKey', 'badRequest'].includes(error.kind)
  );
}

function sameState(a: TrackState | undefined, b: TrackState): boolean {
  if (!a || a.kind !== b.kind) return false;
  if (a.kind === 'confirmed' && b.kind === 'confirmed')
    return a.confirmations === b.confirmations && a.blockHash === b.blockHash;
  if (a.kind === 'unknown' && b.kind === 'unknown') return a.rawType === b.rawType;
  // The grace deadline moving does not make a new state worth announcing.
  return true;
}

/**
 * Confirmations counted conservatively: for a cross-group transfer the destination group's chain
 * matters as much as the source's, so the smallest of the three counts is used.
 */
function confirmationsOf(status: {
  chainConfirmations: number;
  fromGroupConfirmations: number;
  toGroupConfirmations: number;
}): number {
  return Math.min(status.chainConfirmations, status.fromGroupConfirmations, status.toGroupConfirmations);
}

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
    let record: TrackedTxRecord = {
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
    this.tracked.set(txId, record);
    const groups: GroupPair = {
      ...(record.fromGroup !== undefined ? { fromGroup: record.fromGroup } : {}),
      ...(record.toGroup !== undefined ? { toGroup: record.toGroup } : {}),
    };
    const o = this.options;
    let interval = o.initialIntervalMs;
    let unknownPolls = 0;
    let errors = 0;
    /** Whether the script's execution was read as ok (script txs only); failures end tracking. */
    let scriptOk = !record.hasScript || this.client.getTxDetails === undefined;

    const update = (patch: Partial<TrackedTxRecord>): void => {
      record = { ...record, ...patch };
      this.tracked.set(txId, record);
    };
    const enter = (state: TrackState): boolean => {
      const changed = !sameState(record.state, state);
      update({ state });
      if (changed) this.emitter.fire({ txId, state, record: structuredClone(record) });
      return changed;
    };
    const finish = (outcome: TrackOutcome): TrackOutcome => {
      if (outcome.kind !== 'cancelled') update({ outcome });
      if (outcome.kind === 'gave-up')
        this.emitter.fire({
          txId,
          state: record.state ?? { kind: 'mempool' },
          record: structuredClone(record),
        });
      return outcome;
    };

    for (;;) {
      if (signal?.aborted) return finish({ kind: 'cancelled' });
      let status: TxStatus;
      try {
        status = await this.client.getTxStatus(txId, groups, {
          priority: 'background',
          purpose: 'tracking',
          fresh: true,
          ...(signal ? { signal } : {}),
        });
        errors = 0;
      } catch (error) {
        if (signal?.aborted) return finish({ kind: 'cancelled' });
        if (isPermanent(error) || ++errors >= o.maxConsecutiveErrors) {
          return finish({
            kind: 'gave-up',
            reason: `cannot read the status: ${error instanceof Error ? error.message : String(error)}`,
          });
        }
        interval = Math.min(o.maxIntervalMs, interval * o.backoffFactor);
        if (!(await this.pause(interval, signal))) return finish({ kind: 'cancelled' });
        continue;
      }

      const now = this.clock.now();
      let changed: boolean;
      let graceCap = Number.POSITIVE_INFINITY;
      switch (status.type) {
        case 'MemPooled':
          unknownPolls = 0;
          update({ lastSeenAt: now });
          changed = enter({ kind: 'mempool' });
          break;
        case 'Confirmed': {
          unknownPolls = 0;
          update({ lastSeenAt: now });
          const blockHash = status.blockHash;
          const inBlock = (confirmations: number): TrackState => ({
            kind: 'confirmed',
            confirmations,
            required: record.requiredConfirmations,
            blockHash,
          });
          if (!scriptOk) {
            let ok: boolean | undefined;
            try {
              const details = await this.client.getTxDetails!(txId, groups, {
                priority: 'background',
                purpose: 'tracking',
                ...(signal ? { signal } : {}),
              });
              ok = details.scriptExecutionOk;
            } catch (error) {
              if (signal?.aborted) return finish({ kind: 'cancelled' });
              // Not known yet: ask again at the next poll, and give up as for status errors.
              if (isPermanent(error) || ++errors >= o.maxConsecutiveErrors) {
                return finish({
                  kind: 'gave-up',
                  reason: `in block ${status.blockHash}, but whether its script ran cannot be read: ${error instanceof Error ? error.message : String(error)}`,
                });
              }
              changed = enter(inBlock(confirmationsOf(status)));
              break;
            }
            if (ok === false) {
              const reason = `script failed: included in block ${status.blockHash}, but its script did not run to the end, so nothing it did was kept and only its gas was charged`;
              enter({ kind: 'failed', reason });
              return finish({ kind: 'failed', reason });
            }
            scriptOk = true;
          }
          const n = confirmationsOf(status);
          if (n >= record.requiredConfirmations) {
            // Announce the count that made it final, then final itself, so a UI shows both steps.
            enter(inBlock(n));
            enter({ kind: 'final', confirmations: n, blockHash: status.blockHash });
            return finish({ kind: 'final', confirmations: n, blockHash: status.blockHash });
          }
          changed = enter(inBlock(n));
          break;
        }
        case 'Conflicted': {
          const reason = `conflicted: included in block ${status.blockHash}, but its inputs were spent by another transaction`;
          enter({ kind: 'failed', reason });
          return finish({ kind: 'failed', reason });
        }
        case 'TxNotFound': {
          unknownPolls = 0;
          // Counted from the last sighting too: a tx that left the mempool (or a block, in a reorg)
          // gets a fresh grace period before it is declared lost.
          const graceEndsAt = Math.max(record.submittedAt, record.lastSeenAt ?? 0) + o.notFoundGraceMs;
          if (now >= graceEndsAt) {
            const seconds = Math.round((now - Math.max(record.submittedAt, record.lastSeenAt ?? 0)) / 1000);
            const reason = `not found: the gateway has not seen the transaction for ${seconds} s (grace ${Math.round(o.notFoundGraceMs / 1000)} s)`;
            enter({ kind: 'failed', reason });
            return finish({ kind: 'failed', reason });
          }
          changed = enter({ kind: 'pending-not-found', graceEndsAt });
          // Look again right when the grace ends, so the failure is neither early nor late.
          graceCap = graceEndsAt - now;
          break;
        }
        default: {
          changed = enter({ kind: 'unknown', rawType: status.rawType });
          if (++unknownPolls >= o.maxUnknownPolls) {
            return finish({
              kind: 'gave-up',
              reason: `the gateway kept answering the unknown status type '${status.rawType}'`,
            });
          }
        }
      }
      // Back off while nothing changes; a change means things are moving, so look again soon.
      interval = changed ? o.initialIntervalMs : Math.min(o.maxIntervalMs, interval * o.backoffFactor);
      const wait = Math.min(interval, graceCap);
      if (!(await this.pause(wait, signal))) return finish({ kind: 'cancelled' });
    }
  }

  private async pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
    try {
      await this.clock.sleep(Math.max(0, ms), signal);
      return true;
    } catch (error) {
      if (signal?.aborted) return false;
      throw error;
    }
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
