/**
 * The monthly quota lock against the sandbox gateway: after a monthly-quota 429 the client stops
 * background polling, and the lock lifts as soon as the gateway answers again (a user's request, the
 * background's one probe a minute, or Set API Key's check of the key), or when another key is used.
 * The old lock refused everything, without sending, until the window was reloaded.
 */
import { strict as assert } from 'node:assert';
import { GatewayClient, QuotaExhaustedError } from '../../../src/core/gateway';
import { QUOTA_PROBE_INTERVAL_MS } from '../../../src/core/gateway/client';
import type { Clock } from '../../../src/core/util/clock';
import { systemClock } from '../../../src/core/util/clock';
import { newSandbox, sandboxProfile } from '../../../sandbox/testing/helpers';
import type { Sandbox } from '../../../sandbox';

/** Real sleeps (the sandbox answers in real time), but a `now` the test moves by hand. */
function steppedClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    sleep: (ms, signal) => systemClock.sleep(ms, signal),
    advance: (ms) => {
      offset += ms;
    },
  };
}

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a failure');
}

describe('monthly quota lock: it lifts as soon as the gateway answers again', () => {
  let sb: Sandbox;
  const keyA = 'sbx_quota_lock_a';
  const keyB = 'sbx_quota_lock_b';
  const clients: GatewayClient[] = [];

  before(async () => {
    ({ sb } = await newSandbox());
    sb.limiter.add(keyA, 'pro');
    sb.limiter.add(keyB, 'pro');
  });
  after(() => sb.close());
  beforeEach(() => {
    for (const k of [keyA, keyB]) sb.limiter.get(k)!.monthlyUsed = 0;
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.dispose();
  });

  function client(key: () => string, clock: Clock = systemClock): GatewayClient {
    const c = new GatewayClient({ profile: sandboxProfile(sb, 'pro'), keyProvider: key, clock });
    clients.push(c);
    return c;
  }
  const useUp = (key: string) => {
    const rec = sb.limiter.get(key)!;
    rec.monthlyUsed = rec.perMonth;
  };
  const restore = (key: string) => {
    sb.limiter.get(key)!.monthlyUsed = 0;
  };
  const sentWith = (key: string) => sb.requests.filter((r) => JSON.stringify(r.headers).includes(key)).length;

  it('sends the next user request once the quota is restored, and that answer lifts the lock: no reload needed', async () => {
    const c = client(() => keyA);
    const lifted: number[] = [];
    c.onQuotaLifted(() => lifted.push(1));
    useUp(keyA);
    const first = await failure(c.getVersion({ fresh: true }));
    assert.ok(first instanceof QuotaExhaustedError, String(first));
    assert.ok(c.quotaExhaustedUntil !== undefined, 'the lock holds after the monthly 429');

    restore(keyA);
    const before = sentWith(keyA);
    // The old client refused this without sending anything, until the window was reloaded.
    const version = await c.getVersion({ fresh: true });
    assert.equal(version.version, 'v4.6.0');
    assert.equal(sentWith(keyA) - before, 1, 'the user request was sent');
    assert.equal(c.quotaExhaustedUntil, undefined, 'the lock is lifted');
    assert.equal(lifted.length, 1, 'listeners (status bar, Node view) are told');
    // Background polling goes again at once.
    await c.getChainParams({ priority: 'background', fresh: true });
  });

  it('still says "used up" to a user whose quota is not back, after asking the gateway', async () => {
    const c = client(() => keyA);
    useUp(keyA);
    await failure(c.getVersion({ fresh: true }));
    const before = sentWith(keyA);
    const again = await failure(c.getVersion({ fresh: true }));
    assert.match(again.message, /monthly quota used up until \d{4}-\d\d-01/);
    assert.equal(sentWith(keyA) - before, 1, 'a refused request costs nothing from the month: ask');
    assert.ok(c.quotaExhaustedUntil !== undefined);
  });

  it('keeps background polling quiet while the lock holds, but for one probe a minute, which lifts it', async () => {
    const clock = steppedClock();
    const c = client(() => keyA, clock);
    useUp(keyA);
    await failure(c.getVersion({ fresh: true }));
    const before = sentWith(keyA);
    for (let i = 0; i < 5; i++) {
      const e = await failure(c.getChainParams({ priority: 'background', fresh: true }));
      assert.ok(e instanceof QuotaExhaustedError, String(e));
    }
    assert.equal(sentWith(keyA) - before, 0, 'background sends nothing within the minute');

    restore(keyA);
    clock.advance(QUOTA_PROBE_INTERVAL_MS);
    // The first background request after a minute goes out as the probe, and its answer lifts the lock.
    await c.getSelfClique({ priority: 'background', fresh: true, waitForSync: false });
    assert.equal(sentWith(keyA) - before, 1);
    assert.equal(c.quotaExhaustedUntil, undefined);
  });

  it("lifts when Set API Key's check is answered by the gateway for the locked key, and ignores another key's lock", async () => {
    let key = keyA;
    const c = client(() => key);
    useUp(keyA);
    await failure(c.getVersion({ fresh: true }));
    assert.ok(c.quotaExhaustedUntil !== undefined);
    // Another key's answer says nothing about this key's month.
    c.quotaAnswered(keyB);
    assert.ok(c.quotaExhaustedUntil !== undefined, "another key's answer must not lift this key's lock");
    // The same key, re-entered and checked by the gateway (connection.checkApiKey): lifted.
    restore(keyA);
    c.quotaAnswered(keyA);
    assert.equal(c.quotaExhaustedUntil, undefined);
    await c.getChainParams({ priority: 'background', fresh: true });

    // A different key replaces the used-up one: the lock was about the old key, background goes again.
    useUp(keyA);
    await failure(c.getVersion({ fresh: true }));
    key = keyB;
    const params = await c.getChainParams({ priority: 'background', fresh: true });
    assert.equal(params.groups, 4);
    assert.equal(c.quotaExhaustedUntil, undefined);
  });
});
