/** The request ledger: every counted request by UTC day and kind, persisted with the monthly count. */
import assert from 'node:assert/strict';
import { keyFingerprint, UsageTracker, type UsageRecord } from '../../../src/core/gateway/usage';
import type { RequestRecord } from '../../../src/core/gateway/client';
import { FakeClock, KEY, harness, json } from './helpers';

const MAY_10_NOON = Date.UTC(2025, 4, 10, 12);

describe('request ledger: kinds of request (client)', () => {
  it('attributes each request: background by its purpose, user priority as your actions, no purpose as other', async () => {
    const { client, transport, clock } = harness();
    const records: RequestRecord[] = [];
    client.onRequest((r) => records.push(r));
    transport.on('/infos/version', json(200, { version: 'v1' }));
    transport.on(/^\/events\/contract\/[^/]+\/current-count$/, json(200, 3));
    transport.on(/^\/transactions\/status/, json(200, { type: 'TxNotFound' }));
    const contract = '224MaeAjkC8CBAZtktHYwdoxSxkeB3X98aZW4CwxaSRi1';
    await clock.run(client.getContractEventCount(contract, { priority: 'background', purpose: 'contracts' }));
    await clock.run(client.getVersion({ priority: 'background', purpose: 'node' }));
    await clock.run(
      client.getTxStatus('a'.repeat(64), {}, { priority: 'background', purpose: 'tracking', fresh: true }),
    );
    // A user action is the user's, whatever a caller says it is for.
    await clock.run(client.getVersion({ purpose: 'node' }));
    await clock.run(client.getVersion({ priority: 'background' }));
    // The language-model tools run at the user's priority but are kept apart in the ledger.
    await clock.run(client.getContractEventCount(contract, { priority: 'user', purpose: 'assistant' }));
    assert.deepEqual(
      records.map((r) => r.kind),
      ['contracts', 'node', 'tracking', 'actions', 'other', 'assistant'],
    );
    const ledger = client.usage.ledger(keyFingerprint(KEY));
    assert.equal(ledger.count, 6);
    assert.deepEqual(ledger.days, [
      { day: 10, contracts: 1, node: 1, tracking: 1, actions: 1, assistant: 1, other: 1 },
    ]);
    assert.equal(ledger.unattributed, 0);
  });

  it('a background request joined by a user action while it waited counts as the user action', async () => {
    const { client, transport, clock } = harness();
    transport.on('/infos/version', json(200, { version: 'v1' }));
    const background = client.getVersion({ priority: 'background', purpose: 'node' });
    const user = client.getVersion();
    await clock.run(Promise.all([background, user]));
    assert.equal(transport.count('/infos/version'), 1, 'one shared request');
    assert.deepEqual(client.usage.ledger(keyFingerprint(KEY)).days, [{ day: 10, actions: 1 }]);
  });

  it('counts a failed connection like the monthly count does, and not a 429 or 401', async () => {
    const { client, transport, clock } = harness({ retry: { maxNetworkRetries: 0 } });
    transport.on('/infos/version', new Error('connection reset'));
    transport.on('/infos/chain-params', json(401, { detail: 'no' }));
    await clock.run(client.getVersion({ priority: 'background', purpose: 'node' })).catch(() => undefined);
    await clock
      .run(client.getChainParams({ priority: 'background', purpose: 'node' }))
      .catch(() => undefined);
    const ledger = client.usage.ledger(keyFingerprint(KEY));
    assert.equal(ledger.count, 1);
    assert.deepEqual(ledger.days, [{ day: 10, node: 1 }]);
  });
});

describe('request ledger: persistence with the monthly count', () => {
  it('keeps each UTC day of the month apart, and saves the days with the count', async () => {
    const clock = new FakeClock(Date.UTC(2025, 4, 10, 23, 59, 59));
    const tracker = new UsageTracker(clock, 100_000);
    tracker.record('k', 'contracts');
    tracker.record('k', 'actions');
    await clock.advance(2_000); // past midnight UTC: May 11
    tracker.record('k', 'contracts');
    assert.deepEqual(tracker.save(), [
      {
        keyId: 'k',
        month: '2025-05',
        count: 3,
        days: [
          { day: 10, contracts: 1, actions: 1 },
          { day: 11, contracts: 1 },
        ],
      },
    ]);
    const restored = new UsageTracker(clock, 100_000);
    restored.load(tracker.save());
    assert.deepEqual(restored.ledger('k').days, tracker.ledger('k').days);
    assert.equal(restored.usage('k').count, 3);
  });

  it('loads a record saved before the ledger (no days): its count stays, counted as not by kind', () => {
    const tracker = new UsageTracker(new FakeClock(MAY_10_NOON), 100_000);
    tracker.load([{ keyId: 'k', month: '2025-05', count: 41 }]);
    tracker.record('k', 'node');
    const ledger = tracker.ledger('k');
    assert.equal(ledger.count, 42);
    assert.equal(ledger.unattributed, 41);
    assert.deepEqual(ledger.days, [{ day: 10, node: 1 }]);
    // What an earlier version reads back: the count, as before.
    const [saved] = tracker.save();
    assert.equal(saved?.count, 42);
    assert.equal(saved?.month, '2025-05');
  });

  it('drops days that do not fit the record (bad day, negative or fractional counts, more than the count)', () => {
    const tracker = new UsageTracker(new FakeClock(MAY_10_NOON), 100_000);
    const stored = [
      {
        keyId: 'a',
        month: '2025-05',
        count: 10,
        days: [
          { day: 0, contracts: 1 },
          { day: 32, contracts: 1 },
          { day: 3, contracts: -2, node: 1.5, tracking: 4, surprise: 9 },
          'not a day',
        ],
      },
      { keyId: 'b', month: '2025-05', count: 2, days: [{ day: 4, contracts: 5 }] },
      { keyId: 'c', month: '2025-05', count: 2, days: 'garbage' },
    ] as unknown as UsageRecord[];
    tracker.load(stored);
    assert.deepEqual(tracker.ledger('a').days, [{ day: 3, tracking: 4 }]);
    assert.equal(tracker.ledger('a').unattributed, 6);
    assert.deepEqual(tracker.ledger('b').days, [], 'days holding more than the count are not trusted');
    assert.equal(tracker.ledger('b').count, 2, 'the count is kept');
    assert.equal(tracker.ledger('c').unattributed, 2);
  });

  it('the larger count wins with its own days (another window saved after us)', () => {
    const tracker = new UsageTracker(new FakeClock(MAY_10_NOON), 100_000);
    tracker.load([{ keyId: 'k', month: '2025-05', count: 2, days: [{ day: 9, contracts: 2 }] }]);
    tracker.load([{ keyId: 'k', month: '2025-05', count: 5, days: [{ day: 9, contracts: 3, actions: 2 }] }]);
    tracker.load([{ keyId: 'k', month: '2025-05', count: 4, days: [{ day: 9, contracts: 4 }] }]);
    assert.deepEqual(tracker.ledger('k').days, [{ day: 9, contracts: 3, actions: 2 }]);
    assert.equal(tracker.ledger('k').count, 5);
  });

  it('a new month starts an empty ledger', async () => {
    const clock = new FakeClock(Date.UTC(2025, 4, 31, 23, 59, 59));
    const tracker = new UsageTracker(clock, 100_000);
    tracker.record('k', 'contracts');
    await clock.advance(1_000);
    assert.deepEqual(tracker.ledger('k').days, []);
    tracker.record('k', 'tracking');
    assert.deepEqual(tracker.save(), [
      { keyId: 'k', month: '2025-06', count: 1, days: [{ day: 1, tracking: 1 }] },
    ]);
  });
});
