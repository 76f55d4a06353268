/** Pacing against the known limit, priorities, headroom events and monthly usage. */
import assert from 'node:assert/strict';
import type { RateHeadroom } from '../../../src/core/gateway/rateLimiter';
import { RateLimiter } from '../../../src/core/gateway/rateLimiter';
import { UsageTracker, keyFingerprint, monthOf } from '../../../src/core/gateway/usage';
import type { MonthlyUsage } from '../../../src/core/gateway/usage';
import { FakeClock, KEY, harness, json, outcome, rateHeaders } from './helpers';

const txId = (i: number) => i.toString(16).padStart(64, '0');

/** A fake gateway that enforces `limit` per aligned second like the spec's server, with headers. */
function strictServer(clock: FakeClock, limit: number) {
  let second = 0;
  let used = 0;
  let rejected = 0;
  const reply = () => {
    const now = Math.floor(clock.now() / 1000);
    if (now !== second) {
      second = now;
      used = 0;
    }
    if (used >= limit) {
      rejected++;
      return json(429, { detail: 'API rate limit exceeded' }, rateHeaders(limit, 0, now + 1));
    }
    used++;
    return json(200, { type: 'MemPooled' }, rateHeaders(limit, limit - used, now + 1));
  };
  return { reply, rejected: () => rejected };
}

/** Largest number of requests inside any window of `windowMs`. */
function maxInWindow(times: number[], windowMs: number): number {
  let best = 0;
  for (let i = 0; i < times.length; i++) {
    const inWindow = times.filter(
      (t) => t >= (times[i] as number) && t < (times[i] as number) + windowMs,
    ).length;
    best = Math.max(best, inWindow);
  }
  return best;
}

describe('gateway pacing and rate-limit awareness', () => {
  it('never exceeds the plan limit (Free: 5/s): a burst of 23 is spread over whole seconds, zero 429s', async () => {
    const { client, transport, clock } = harness();
    const server = strictServer(clock, 5);
    transport.on(/^\/transactions\/status/, server.reply);
    const t0 = clock.now();
    await clock.run(Promise.all(Array.from({ length: 23 }, (_, i) => client.getTxStatus(txId(i)))));
    const times = transport.requests.map((r) => r.at - t0);
    assert.equal(transport.requests.length, 23);
    assert.equal(server.rejected(), 0);
    assert.ok(maxInWindow(times, 1000) <= 5, `too dense: ${times.join(',')}`);
    // Not slower than needed either: 23 requests need 4 full windows after the first.
    assert.ok((times.at(-1) ?? 0) < 4 * 1000 + 200, `too slow: ${times.at(-1)}`);
  });

  it('counts from when a request can have arrived, not when it left (slow connection setup)', async () => {
    // Start 10 ms before a server second; the first requests need 40 ms to arrive (new connections).
    const clock = new FakeClock(Date.UTC(2025, 4, 10, 12, 0, 0, 990));
    const { client, transport } = harness({ clock });
    const server = strictServer(clock, 5);
    let n = 0;
    transport.on(/^\/transactions\/status/, async () => {
      if (n++ < 5) await clock.sleep(40);
      return server.reply();
    });
    await clock.run(Promise.all(Array.from({ length: 10 }, (_, i) => client.getTxStatus(txId(i)))));
    // A fixed departure-based window would send the 6th at +1.005 s: the same server second as the
    // late arrivals of the first five, hence 429s. Bounded by the responses, it waits for +1.045 s.
    assert.equal(server.rejected(), 0);
    assert.equal((transport.requests[5]?.at ?? 0) - (transport.requests[0]?.at ?? 0), 1045);
  });

  it('serves user actions before queued background polling, and keeps a slot of every window for them', async () => {
    const { client, transport, clock } = harness();
    transport.on(/^\/transactions\/status/, () => json(200, { type: 'MemPooled' }, rateHeaders(5, 4, 0)));
    const background = Array.from({ length: 10 }, (_, i) =>
      client.getTxStatus(txId(i), {}, { priority: 'background' }),
    );
    await clock.advance(0);
    // Background takes 4 of the 5 slots of a window: the 5th is the user's.
    assert.deepEqual(client.queued, { user: 0, background: 6 });
    const askedAt = clock.now();
    const user = Array.from({ length: 3 }, (_, i) =>
      client.getTxStatus(txId(100 + i), {}, { priority: 'user' }),
    );
    await clock.run(Promise.all([...background, ...user]));
    const order = transport.requests.map((r) =>
      parseInt(new URL(`http://x${r.path}`).searchParams.get('txId') ?? '', 16),
    );
    assert.deepEqual(order.slice(0, 4), [0, 1, 2, 3]); // already sent before the users arrived
    assert.deepEqual(order.slice(4, 7), [100, 101, 102]); // the users jump the queue
    assert.deepEqual(order.slice(7), [4, 5, 6, 7, 8, 9]);
    // The first user action left at once, in the reserved slot, not after the window.
    assert.equal(transport.requests[4]?.at, askedAt);
    const times = transport.requests.map((r) => r.at).sort((a, b) => a - b);
    for (let i = 5; i < times.length; i++)
      assert.ok(times[i]! - times[i - 5]! >= 1000, 'never 6 in a window');
  });

  it('publishes the headroom of every response (limit, remaining, reset time)', async () => {
    const { client, transport, clock } = harness();
    const seen: RateHeadroom[] = [];
    client.onRateLimit((h) => seen.push(h));
    const reset = Math.floor(clock.now() / 1000) + 1;
    transport.on('/infos/version', json(200, { version: 'v1' }, rateHeaders(5, 3, reset)));
    await clock.run(client.getVersion());
    assert.deepEqual(seen, [{ limit: 5, remaining: 3, resetAt: reset * 1000, observedAt: clock.now() }]);
    assert.deepEqual(client.headroom, seen[0]);
  });

  it('holds requests when the server reports the window exhausted (another client on the same key)', async () => {
    const { client, transport, clock } = harness();
    const reset = Math.floor(clock.now() / 1000) + 2;
    transport.on('/infos/version', json(200, { version: 'v1' }, rateHeaders(5, 0, reset)));
    transport.on('/infos/chain-params', json(200, { networkId: 1, groups: 4 }));
    await clock.run(client.getVersion());
    await clock.run(client.getChainParams());
    assert.equal(transport.requests[1]?.at, reset * 1000);
  });

  it('paces to the limit the server announces when it differs from the plan', async () => {
    const { client, transport, clock } = harness();
    const server = strictServer(clock, 2);
    transport.on(/^\/transactions\/status/, server.reply);
    transport.on('/infos/version', () =>
      json(200, { version: 'v1' }, rateHeaders(2, 1, Math.floor(clock.now() / 1000) + 1)),
    );
    await clock.run(client.getVersion());
    await clock.advance(2000);
    await clock.run(Promise.all(Array.from({ length: 6 }, (_, i) => client.getTxStatus(txId(i)))));
    assert.equal(server.rejected(), 0);
    const times = transport.requests.slice(1).map((r) => r.at);
    assert.ok(maxInWindow(times, 1000) <= 2);
  });

  it('a 429 holds every queued request until the reset, not just the one that got it', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ clock, limitPerSecond: 100 });
    limiter.blockUntil(clock.now() + 700);
    const granted: number[] = [];
    const waits = [limiter.acquire('user'), limiter.acquire('background')].map((p) =>
      p.then(() => granted.push(clock.now())),
    );
    await clock.run(Promise.all(waits));
    assert.deepEqual(granted, [clock.now(), clock.now()]);
    assert.equal(granted[0], Date.UTC(2025, 4, 10, 12, 0, 0) + 700);
  });

  it('a cancelled waiter leaves the queue', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ clock, limitPerSecond: 1 });
    await limiter.acquire('user');
    const controller = new AbortController();
    const waiting = limiter.acquire('user', controller.signal);
    await clock.advance(10);
    assert.deepEqual(limiter.queued, { user: 1, background: 0 });
    controller.abort();
    await assert.rejects(waiting);
    assert.deepEqual(limiter.queued, { user: 0, background: 0 });
  });

  describe('monthly usage', () => {
    it('counts requests per key and exposes usage against the plan (Free: 100,000)', async () => {
      const { client, transport, clock } = harness();
      const seen: MonthlyUsage[] = [];
      client.onUsage((u) => seen.push(u));
      transport.on('/infos/version', json(200, { version: 'v1' }));
      await clock.run(client.getVersion({ fresh: true }));
      await clock.run(client.getVersion({ fresh: true }));
      const usage = await client.currentUsage();
      assert.equal(usage?.count, 2);
      assert.equal(usage?.limit, 100_000);
      assert.equal(usage?.fraction, 2 / 100_000);
      assert.equal(usage?.month, '2025-05');
      assert.equal(usage?.keyId, keyFingerprint(KEY));
      assert.ok(!usage?.keyId.includes(KEY));
      assert.equal(seen.length, 2);
    });

    it('does not count requests the server refused (429, 401)', async () => {
      const { client, transport, clock } = harness();
      transport.on('/infos/version', json(429, { detail: 'slow' }), json(200, { version: 'v1' }));
      transport.on('/infos/chain-params', json(401, { detail: 'no' }));
      await clock.run(client.getVersion());
      await outcome(clock, client.getChainParams());
      assert.equal((await client.currentUsage())?.count, 1);
    });

    it('loads and saves the count (persisted by the VS Code side); the larger count wins', () => {
      const clock = new FakeClock();
      const tracker = new UsageTracker(clock, 1_000_000);
      tracker.load([
        { keyId: 'k1', month: '2025-05', count: 41 },
        { keyId: 'k2', month: '2025-04', count: 999 }, // last month: dropped
      ]);
      tracker.record('k1');
      tracker.load([{ keyId: 'k1', month: '2025-05', count: 10 }]); // older save from another window
      // The days of the request ledger ride along (test/unit/usage); the count is as it always was.
      assert.deepEqual(tracker.save(), [
        { keyId: 'k1', month: '2025-05', count: 42, days: [{ day: 10, other: 1 }] },
      ]);
      assert.equal(tracker.usage('k2').count, 0);
      assert.equal(tracker.usage('k1').fraction, 42 / 1_000_000);
    });

    it('starts from zero in a new calendar month (UTC)', async () => {
      const clock = new FakeClock(Date.UTC(2025, 4, 31, 23, 59, 59));
      const tracker = new UsageTracker(clock, 100);
      tracker.record('k');
      await clock.advance(1000);
      assert.equal(monthOf(clock.now()), '2025-06');
      assert.equal(tracker.usage('k').count, 0);
      assert.equal(tracker.record('k').count, 1);
    });
  });
});
