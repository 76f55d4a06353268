/**
 * One transaction's polling loop, as TxTracker runs it: its record, its backoff, and what each status
 * the gateway answers means for it. The tracker owns the records and the change event; a run updates
 * its own record through the tracker's `save` and announces state changes through `announce`.
 */
import type { Clock } from '../util/clock';
import type { GroupPair } from '../gateway/client';
import { GatewayError } from '../gateway/errors';
import type { TxStatus } from '../gateway/schemas';
import type { StatusClient, TrackedTxRecord, TrackerOptions, TrackOutcome, TrackState } from './txTracker';

/** What a run needs from its tracker. */
export interface RunContext {
  readonly client: StatusClient;
  readonly clock: Clock;
  readonly options: Required<TrackerOptions>;
  /** Keeps the record as the tracker's current one. */
  save(record: TrackedTxRecord): void;
  /** Tells listeners about a state (with a copy of the record to persist). */
  announce(state: TrackState, record: TrackedTxRecord): void;
}

/** After one poll: tracking is done, or it goes on (and whether the state changed, for the backoff). */
type Step = { readonly done: TrackOutcome } | { readonly changed: boolean; readonly graceCap?: number };

/** Errors that asking again cannot fix: stop instead of polling a dead key or a malformed txId. */
function isPermanent(error: unknown): boolean {
  return (
    error instanceof GatewayError &&
    ['validation', 'unauthorized', 'missingKey', 'badRequest'].includes(error.kind)
  );
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function sameState(a: TrackState | undefined, b: TrackState): boolean {
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
export function confirmationsOf(status: {
  chainConfirmations: number;
  fromGroupConfirmations: number;
  toGroupConfirmations: number;
}): number {
  return Math.min(status.chainConfirmations, status.fromGroupConfirmations, status.toGroupConfirmations);
}

type Confirmed = Extract<TxStatus, { type: 'Confirmed' }>;

/**
 * Why a script transaction in a block is a failure: the words of the Transactions row and of the details
 * page, whether the transaction is tracked or only looked up.
 */
export function scriptFailedReason(blockHash: string | undefined): string {
  return `script failed: included in block ${blockHash ?? '(unknown)'}, but its script did not run to the end, so nothing it did was kept and only its gas was charged`;
}

export class TrackRun {
  private interval: number;
  private unknownPolls = 0;
  private errors = 0;
  /** Whether the script's execution was read as ok (script txs only); failures end tracking. */
  private scriptOk: boolean;
  private readonly groups: GroupPair;

  constructor(
    private readonly ctx: RunContext,
    private record: TrackedTxRecord,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.interval = ctx.options.initialIntervalMs;
    this.scriptOk = !record.hasScript || ctx.client.getTxDetails === undefined;
    this.groups = {
      ...(record.fromGroup !== undefined ? { fromGroup: record.fromGroup } : {}),
      ...(record.toGroup !== undefined ? { toGroup: record.toGroup } : {}),
    };
    ctx.save(record);
  }

  /** Polls until the outcome is known, the signal aborts, or tracking gives up. Never rejects. */
  async run(): Promise<TrackOutcome> {
    const o = this.ctx.options;
    for (;;) {
      if (this.signal?.aborted) return this.finish({ kind: 'cancelled' });
      const read = await this.readStatus();
      if (read === 'again') continue;
      const step = 'done' in read ? read : await this.onStatus(read.status);
      if ('done' in step) return step.done;
      // Back off while nothing changes; a change means things are moving, so look again soon.
      this.interval = step.changed
        ? o.initialIntervalMs
        : Math.min(o.maxIntervalMs, this.interval * o.backoffFactor);
      if (!(await this.pause(Math.min(this.interval, step.graceCap ?? Infinity))))
        return this.finish({ kind: 'cancelled' });
    }
  }

  private options() {
    return {
      priority: 'background',
      purpose: 'tracking',
      ...(this.signal ? { signal: this.signal } : {}),
    } as const;
  }

  /** The status, or the end of tracking, or 'again' after a transient error and its backoff. */
  private async readStatus(): Promise<{ status: TxStatus } | { done: TrackOutcome } | 'again'> {
    try {
      const status = await this.ctx.client.getTxStatus(this.record.txId, this.groups, {
        ...this.options(),
        fresh: true,
      });
      this.errors = 0;
      return { status };
    } catch (error) {
      const o = this.ctx.options;
      if (this.signal?.aborted) return { done: this.finish({ kind: 'cancelled' }) };
      if (isPermanent(error) || ++this.errors >= o.maxConsecutiveErrors) {
        return {
          done: this.finish({ kind: 'gave-up', reason: `cannot read the status: ${errorText(error)}` }),
        };
      }
      this.interval = Math.min(o.maxIntervalMs, this.interval * o.backoffFactor);
      if (!(await this.pause(this.interval))) return { done: this.finish({ kind: 'cancelled' }) };
      return 'again';
    }
  }

  private async onStatus(status: TxStatus): Promise<Step> {
    const now = this.ctx.clock.now();
    switch (status.type) {
      case 'MemPooled':
        this.unknownPolls = 0;
        this.update({ lastSeenAt: now });
        return { changed: this.enter({ kind: 'mempool' }) };
      case 'Confirmed':
        this.unknownPolls = 0;
        this.update({ lastSeenAt: now });
        return this.onConfirmed(status);
      case 'Conflicted':
        return this.fail(
          `conflicted: included in block ${status.blockHash}, but its inputs were spent by another transaction`,
        );
      case 'TxNotFound':
        this.unknownPolls = 0;
        return this.onNotFound(now);
      default: {
        const changed = this.enter({ kind: 'unknown', rawType: status.rawType });
        if (++this.unknownPolls < this.ctx.options.maxUnknownPolls) return { changed };
        return {
          done: this.finish({
            kind: 'gave-up',
            reason: `the gateway kept answering the unknown status type '${status.rawType}'`,
          }),
        };
      }
    }
  }

  private async onConfirmed(status: Confirmed): Promise<Step> {
    const inBlock = (confirmations: number): TrackState => ({
      kind: 'confirmed',
      confirmations,
      required: this.record.requiredConfirmations,
      blockHash: status.blockHash,
    });
    if (!this.scriptOk) {
      const script = await this.checkScript(status, inBlock);
      if (script) return script;
    }
    const n = confirmationsOf(status);
    if (n >= this.record.requiredConfirmations) {
      // Announce the count that made it final, then final itself, so a UI shows both steps.
      this.enter(inBlock(n));
      this.enter({ kind: 'final', confirmations: n, blockHash: status.blockHash });
      return { done: this.finish({ kind: 'final', confirmations: n, blockHash: status.blockHash }) };
    }
    return { changed: this.enter(inBlock(n)) };
  }

  /** A script tx in a block: did its script run? Undefined when it did (tracking goes on as usual). */
  private async checkScript(
    status: Confirmed,
    inBlock: (n: number) => TrackState,
  ): Promise<Step | undefined> {
    let ok: boolean | undefined;
    try {
      const details = await this.ctx.client.getTxDetails!(this.record.txId, this.groups, this.options());
      ok = details.scriptExecutionOk;
    } catch (error) {
      if (this.signal?.aborted) return { done: this.finish({ kind: 'cancelled' }) };
      // Not known yet: ask again at the next poll, and give up as for status errors.
      if (isPermanent(error) || ++this.errors >= this.ctx.options.maxConsecutiveErrors) {
        return {
          done: this.finish({
            kind: 'gave-up',
            reason: `in block ${status.blockHash}, but whether its script ran cannot be read: ${errorText(error)}`,
          }),
        };
      }
      return { changed: this.enter(inBlock(confirmationsOf(status))) };
    }
    if (ok === false) {
      return this.fail(scriptFailedReason(status.blockHash));
    }
    this.scriptOk = true;
    return undefined;
  }

  private onNotFound(now: number): Step {
    const o = this.ctx.options;
    // Counted from the last sighting too: a tx that left the mempool (or a block, in a reorg) gets a
    // fresh grace period before it is declared lost.
    const lastSeen = Math.max(this.record.submittedAt, this.record.lastSeenAt ?? 0);
    const graceEndsAt = lastSeen + o.notFoundGraceMs;
    if (now >= graceEndsAt) {
      const seconds = Math.round((now - lastSeen) / 1000);
      return this.fail(
        `not found: the gateway has not seen the transaction for ${seconds} s (grace ${Math.round(o.notFoundGraceMs / 1000)} s)`,
      );
    }
    // Look again right when the grace ends, so the failure is neither early nor late.
    return { changed: this.enter({ kind: 'pending-not-found', graceEndsAt }), graceCap: graceEndsAt - now };
  }

  private fail(reason: string): Step {
    this.enter({ kind: 'failed', reason });
    return { done: this.finish({ kind: 'failed', reason }) };
  }

  private update(patch: Partial<TrackedTxRecord>): void {
    this.record = { ...this.record, ...patch };
    this.ctx.save(this.record);
  }

  private enter(state: TrackState): boolean {
    const changed = !sameState(this.record.state, state);
    this.update({ state });
    if (changed) this.ctx.announce(state, this.record);
    return changed;
  }

  private finish(outcome: TrackOutcome): TrackOutcome {
    if (outcome.kind !== 'cancelled') this.update({ outcome });
    if (outcome.kind === 'gave-up') this.ctx.announce(this.record.state ?? { kind: 'mempool' }, this.record);
    return outcome;
  }

  private async pause(ms: number): Promise<boolean> {
    try {
      await this.ctx.clock.sleep(Math.max(0, ms), this.signal);
      return true;
    } catch (error) {
      if (this.signal?.aborted) return false;
      throw error;
    }
  }
}
