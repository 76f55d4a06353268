import { strict as assert } from 'node:assert';
import { GatewayHttpError, NetworkError } from '../../../src/core/gateway/errors';
import type { TxStatus } from '../../../src/core/gateway/schemas';
import {
  TxTracker,
  parseRecord,
  type StatusClient,
  type TrackState,
  type TrackedTxRecord,
  type TrackerOptions,
} from '../../../src/core/transactions/txTracker';
import { FakeClock } from '../gateway/helpers';

const TX = 'ab'.repeat(32);
const BLOCK = 'cd'.repeat(32);

const mem: TxStatus = { type: 'MemPooled' };
const notFound: TxStatus = { type: 'TxNotFound' };
function confirmed(n: number, from = n, to = n): TxStatus {
  return {
    type: 'Confirmed',
    blockHash: BLOCK,
    txIndex: 0,
    chainConfirmations: n,
    fromGroupConfirmations: from,
    toGroupConfirmations: to,
  };
}

type Step = TxStatus | Error;

/** Answers each status request with the next scripted step (the last one repeats) and logs the time. */
class ScriptedClient implements StatusClient {
  readonly calls: { at: number; groups: unknown }[] = [];
  constructor(
    protected readonly clock: FakeClock,
    private readonly steps: Step[],
  ) {}
  getTxStatus(_txId: string, groups?: unknown): Promise<TxStatus> {
    this.calls.push({ at: this.clock.now(), groups });
    const step = this.steps.length > 1 ? this.steps.shift()! : this.steps[0]!;
    return step instanceof Error ? Promise.reject(step) : Promise.resolve(step);
  }
}

function setup(steps: Step[], options: TrackerOptions = {}) {
  const clock = new FakeClock();
  const client = new ScriptedClient(clock, steps);
  const tracker = new TxTracker({ client, clock, options });
  const states: TrackState[] = [];
  const persisted: TrackedTxRecord[] = [];
  tracker.onDidChange((c) => {
    states.push(c.state);
    persisted.push(c.record);
  });
  const label = (s: TrackState) => (s.kind === 'confirmed' ? `confirmed(${s.confirmations})` : s.kind);
  return { clock, client, tracker, states, persisted, kinds: () => states.map(label) };
}

/** A status client that also answers tx details: each read takes the next scripted answer. */
class ScriptedDetailsClient extends ScriptedClient {
  readonly detailReads: number[] = [];
  constructor(
    clock: FakeClock,
    steps: Step[],
    private readonly details: ({ scriptExecutionOk?: boolean } | Error)[],
  ) {
    super(clock, steps);
  }
  getTxDetails(): Promise<{ scriptExecutionOk?: boolean }> {
    this.detailReads.push(this.clock.now());
    const d = this.details.length > 1 ? this.details.shift()! : this.details[0]!;
    return d instanceof Error ? Promise.reject(d) : Promise.resolve(d);
  }
}

describe('TxTracker: transactions with a script', () => {
  function scriptSetup(steps: Step[], details: ({ scriptExecutionOk?: boolean } | Error)[]) {
    const clock = new FakeClock();
    const client = new ScriptedDetailsClient(clock, steps, details);
    const tracker = new TxTracker({ client, clock });
    const kinds: string[] = [];
    tracker.onDidChange((c) => kinds.push(c.state.kind));
    return { clock, client, tracker, kinds };
  }

  it('a script that failed in its block ends as failed, not Confirmed (the node keeps such a tx and its gas)', async () => {
    const t = scriptSetup([mem, confirmed(1)], [{ scriptExecutionOk: false }]);
    const outcome = await t.clock.run(t.tracker.track({ txId: TX, hasScript: true }));
    assert.equal(outcome.kind, 'failed');
    assert.match((outcome as { reason: string }).reason, /script failed: included in block cdcd/);
    assert.deepEqual(t.kinds, ['mempool', 'failed']);
    assert.equal(t.client.detailReads.length, 1);
  });

  it('a script that ran is final after one details read, however many polls follow', async () => {
    const t = scriptSetup([confirmed(1), confirmed(2), confirmed(3)], [{ scriptExecutionOk: true }]);
    const outcome = await t.clock.run(
      t.tracker.track({ txId: TX, hasScript: true, requiredConfirmations: 3 }),
    );
    assert.equal(outcome.kind, 'final');
    assert.equal(t.client.detailReads.length, 1);
  });

  it('an unreadable details answer is asked again at the next poll before the tx counts as final', async () => {
    const t = scriptSetup(
      [confirmed(1)],
      [new NetworkError('GET /transactions/details', new Error('reset')), { scriptExecutionOk: false }],
    );
    const outcome = await t.clock.run(t.tracker.track({ txId: TX, hasScript: true }));
    assert.equal(outcome.kind, 'failed');
    assert.deepEqual(t.kinds, ['confirmed', 'failed']);
    assert.equal(t.client.detailReads.length, 2);
  });

  it('a transfer (no script) never reads details', async () => {
    const t = scriptSetup([confirmed(1)], [{ scriptExecutionOk: false }]);
    const outcome = await t.clock.run(t.tracker.track({ txId: TX }));
    assert.equal(outcome.kind, 'final');
    assert.equal(t.client.detailReads.length, 0);
  });
});

describe('TxTracker', () => {
  it('goes mempool → confirmed → final with the default of one confirmation', async () => {
    const t = setup([mem, mem, confirmed(1)]);
    const outcome = await t.clock.run(t.tracker.track({ txId: TX, fromGroup: 1, toGroup: 2 }));
    assert.deepEqual(outcome, { kind: 'final', confirmations: 1, blockHash: BLOCK });
    assert.deepEqual(t.kinds(), ['mempool', 'confirmed(1)', 'final']);
    assert.deepEqual(t.client.calls[0]!.groups, { fromGroup: 1, toGroup: 2 });
    assert.equal(t.tracker.record(TX)?.outcome?.kind, 'final');
  });

  it('waits for confirmations to grow to N, counting the smallest of chain/from/to', async () => {
    const t = setup([confirmed(1), confirmed(2), confirmed(2), confirmed(5, 5, 3), confirmed(6, 6, 6)]);
    const outcome = await t.clock.run(t.tracker.track({ txId: TX, requiredConfirmations: 6 }));
    assert.equal(outcome.kind, 'final');
    assert.deepEqual(t.kinds(), ['confirmed(1)', 'confirmed(2)', 'confirmed(3)', 'confirmed(6)', 'final']);
    assert.equal(t.client.calls.length, 5);
  });

  it('uses the tracker-wide confirmation default (e.g. 110 for high value)', async () => {
    const t = setup([confirmed(109), confirmed(110)], { requiredConfirmations: 110 });
    const outcome = await t.clock.run(t.tracker.track({ txId: TX }));
    assert.deepEqual(outcome, { kind: 'final', confirmations: 110, blockHash: BLOCK });
  });

  it('tolerates TxNotFound during the grace period, then sees the tx', async () => {
    const t = setup([notFound, notFound, notFound, mem, confirmed(1)], { notFoundGraceMs: 60_000 });
    const start = t.clock.now();
    const outcome = await t.clock.run(t.tracker.track({ txId: TX }));
    assert.equal(outcome.kind, 'final');
    assert.deepEqual(t.kinds(), ['pending-not-found', 'mempool', 'confirmed(1)', 'final']);
    assert.ok(t.client.calls[3]!.at - start < 60_000);
  });

  it('fails on TxNotFound once the grace period is over, not before', async () => {
    const t = setup([notFound], { notFoundGraceMs: 60_000 });
    const start = t.clock.now();
    const outcome = await t.clock.run(t.tracker.track({ txId: TX }));
    assert.equal(outcome.kind, 'failed');
    assert.match((outcome as { reason: string }).reason, /not found: .* for 60 s \(grace 60 s\)/);
    const last = t.client.calls.at(-1)!.at;
    assert.equal(last - start, 60_000, 'the failing poll happens exactly when the grace ends');
    assert.ok(t.client.calls.slice(0, -1).every((c) => c.at - start < 60_000));
    assert.deepEqual(t.kinds(), ['pending-not-found', 'failed']);
  });

  it('gives a dropped mempool tx a fresh grace period from its last sighting', async () => {
    const t = setup([mem, mem, notFound], { notFoundGraceMs: 30_000 });
    const outcome = await t.clock.run(t.tracker.track({ txId: TX }));
    assert.equal(outcome.kind, 'failed');
    const lastSeen = t.tracker.record(TX)!.lastSeenAt!;
    assert.ok(t.client.calls.at(-1)!.at - lastSeen >= 30_000);
  });

  it('treats Conflicted as a failure', async () => {
    const t = setup([mem, { ...confirmed(3), type: 'Conflicted' } as TxStatus]);
    const outcome = await t.clock.run(t.tracker.track({ txId: TX }));
    assert.equal(outcome.kind, 'failed');
    assert.match((outcome as { reason: string }).reason, /conflicted: .*spent by another transaction/);
    assert.deepEqual(t.kinds(), ['mempool', 'failed']);
  });

  it("reports an unknown status type as 'unknown' and keeps polling, then recovers", async () => {
    const unknown: TxStatus = { type: 'Unknown', rawType: 'Orphaned', raw: { type: 'Orphaned' } };
    const t = setup([unknown, unknown, mem, confirmed(1)]);
    const outcome = await t.clock.run(t.tracker.track({ txId: TX }));
    assert.equal(outcome.kind, 'final');
    assert.deepEqual(t.kinds(), ['unknown', 'mempool', 'confirmed(1)', 'final']);
    assert.equal((t.states[0] as { rawType: string }).rawType, 'Orphaned');
  });

  it('gives up after a bounded number of unknown answers (without calling it a failure)', async () => {
    const unknown: TxStatus = { type: 'Unknown', rawType: 'Weird', raw: {} };
    const t = setup([unknown], { maxUnknownPolls: 5 });
    const outcome = await t.clock.run(t.tracker.track({ txId: TX }));
    assert.equal(outcome.kind, 'gave-up');
    assert.equal(t.client.calls.length, 5);
  });

  it('backs off while nothing changes, bounded by maxIntervalMs, and resets on a change', async () => {
    const t = setup([mem, mem, mem, mem, mem, mem, confirmed(1)], {
      initialIntervalMs: 1000,
      maxIntervalMs: 3000,
      backoffFactor: 2,
    });
    await t.clock.run(t.tracker.track({ txId: TX }));
    const at = t.client.calls.map((c) => c.at);
    const gaps = at.slice(1).map((x, i) => x - at[i]!);
    assert.deepEqual(gaps, [1000, 2000, 3000, 3000, 3000, 3000]);
  });

  it('keeps polling through transient errors and gives up on a permanent one', async () => {
    const t = setup([new NetworkError('GET /transactions/status', new Error('reset')), mem, confirmed(1)]);
    assert.equal((await t.clock.run(t.tracker.track({ txId: TX }))).kind, 'final');
    const u = setup([new GatewayHttpError('GET /transactions/status', 401, 'revoked')]);
    const outcome = await u.clock.run(u.tracker.track({ txId: TX }));
    assert.equal(outcome.kind, 'gave-up');
    assert.equal(u.client.calls.length, 1);
  });

  it('stops when cancelled, without an outcome, so the record can be restored', async () => {
    const t = setup([mem]);
    const controller = new AbortController();
    const running = t.tracker.track({ txId: TX }, controller.signal);
    await t.clock.advance(10_000);
    const polls = t.client.calls.length;
    assert.ok(polls >= 2);
    controller.abort();
    assert.deepEqual(await running, { kind: 'cancelled' });
    await t.clock.advance(60_000);
    assert.equal(t.client.calls.length, polls, 'no polling after cancellation');
    assert.equal(t.tracker.record(TX)?.outcome, undefined);
    assert.equal(t.tracker.record(TX)?.state?.kind, 'mempool');
  });

  it('restores tracking from persisted (JSON round-tripped) records and skips finished or corrupt ones', async () => {
    const first = setup([mem]);
    const controller = new AbortController();
    const running = first.tracker.track(
      { txId: TX, requiredConfirmations: 2, label: 'rent' },
      controller.signal,
    );
    await first.clock.advance(5_000);
    controller.abort();
    await running;
    const saved = JSON.parse(JSON.stringify(first.tracker.records())) as unknown[];
    const finished = {
      ...(saved[0] as TrackedTxRecord),
      txId: 'ef'.repeat(32),
      outcome: { kind: 'final', confirmations: 1, blockHash: BLOCK },
    };

    const second = setup([confirmed(1), confirmed(2)]);
    second.clock.time = first.clock.now() + 3_600_000; // an hour later, after a reload
    const outcomes = second.tracker.restore([...saved, finished, { version: 1, txId: 'nope' }, null]);
    assert.equal(outcomes.length, 1, 'only the unfinished record is polled');
    const outcome = await second.clock.run(outcomes[0]!);
    assert.deepEqual(outcome, { kind: 'final', confirmations: 2, blockHash: BLOCK });
    const restored = second.tracker.record(TX)!;
    assert.equal(restored.label, 'rent');
    assert.equal(restored.requiredConfirmations, 2);
    assert.equal(restored.submittedAt, first.clock.time - 5_000);
    assert.equal(second.tracker.records().length, 2);
    assert.deepEqual(second.kinds(), ['confirmed(1)', 'confirmed(2)', 'final']);
  });

  it('a restored record past its grace period fails on the first TxNotFound', async () => {
    const rec: TrackedTxRecord = {
      version: 1,
      txId: TX,
      submittedAt: Date.UTC(2025, 0, 1),
      requiredConfirmations: 1,
    };
    const t = setup([notFound]);
    const outcomes = t.tracker.restore([rec]);
    const outcome = await t.clock.run(outcomes[0]!);
    assert.equal(outcome.kind, 'failed');
    assert.equal(t.client.calls.length, 1);
  });

  it('validates records and options', () => {
    assert.equal(parseRecord({ version: 2, txId: TX, submittedAt: 1, requiredConfirmations: 1 }), undefined);
    assert.equal(parseRecord({ version: 1, txId: TX, submittedAt: 1, requiredConfirmations: 0 }), undefined);
    assert.equal(
      parseRecord({ version: 1, txId: TX, submittedAt: 1, requiredConfirmations: 1, fromGroup: 7 }),
      undefined,
    );
    assert.equal(
      parseRecord({ version: 1, txId: TX.toUpperCase(), submittedAt: 1, requiredConfirmations: 1 })?.txId,
      TX,
    );
    const clock = new FakeClock();
    assert.throws(
      () =>
        new TxTracker({
          client: new ScriptedClient(clock, [mem]),
          clock,
          options: { requiredConfirmations: 0 },
        }),
      RangeError,
    );
  });
});

describe('TxTracker: a status read elsewhere', () => {
  it('gives a finished record the newer count the details page read, so the row and the page agree', async () => {
    const { clock, tracker, persisted } = setup([confirmed(4)]);
    const outcome = await clock.run(tracker.track({ txId: TX, requiredConfirmations: 1 }));
    assert.deepEqual(outcome, { kind: 'final', confirmations: 4, blockHash: BLOCK });
    const changes = persisted.length;
    clock.time += 10 * 60_000;
    // The details page asks the gateway: 13 confirmations now.
    assert.equal(tracker.observe(TX, confirmed(13)), true);
    const record = tracker.record(TX)!;
    assert.deepEqual(record.outcome, { kind: 'final', confirmations: 13, blockHash: BLOCK });
    assert.deepEqual(record.state, { kind: 'final', confirmations: 13, blockHash: BLOCK });
    assert.equal(record.lastSeenAt, clock.now(), 'the count is as of now');
    assert.equal(persisted.length, changes + 1, 'announced, so it is persisted and the row re-renders');
  });

  it('leaves running records to their own polling, and ignores another block or a smaller count', async () => {
    const { clock, tracker } = setup([mem]);
    const controller = new AbortController();
    const running = tracker.track({ txId: TX }, controller.signal);
    await clock.advance(1);
    assert.equal(tracker.observe(TX, confirmed(3)), false, 'a polled record is not touched');
    controller.abort();
    await clock.run(running);

    const done = setup([confirmed(5)]);
    await done.clock.run(done.tracker.track({ txId: TX }));
    assert.equal(
      done.tracker.observe(TX, {
        ...(confirmed(9) as TxStatus & { type: 'Confirmed' }),
        blockHash: 'ef'.repeat(32),
      }),
      false,
    );
    assert.equal(done.tracker.observe(TX, confirmed(2)), false);
    assert.equal(done.tracker.observe('00'.repeat(32), confirmed(9)), false, 'an untracked tx');
    assert.equal(done.tracker.record(TX)!.outcome?.kind, 'final');
  });
});
