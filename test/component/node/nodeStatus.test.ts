import { strict as assert } from 'node:assert';
import { GatewayClient } from '../../../src/core/gateway';
import {
  chainsDescription,
  fetchNodeStatus,
  syncDescription,
  syncStateOfError,
} from '../../../src/core/node/nodeStatus';
import { newSandbox, sandboxProfile } from '../../../sandbox/testing/helpers';
import type { Sandbox } from '../../../sandbox';

describe('node status against the sandbox gateway', () => {
  let sb: Sandbox;
  let key: string;

  before(async () => {
    ({ sb, key } = await newSandbox());
    sb.mine();
  });
  after(() => sb.close());

  function client(apiKey: string | undefined, retry = {}): GatewayClient {
    return new GatewayClient({
      profile: sandboxProfile(sb, 'pro'),
      keyProvider: () => apiKey,
      retry,
    });
  }

  it('reads sync state, version, chain params, hashrate and 16 chain heights', async () => {
    const c = client(key);
    const status = await fetchNodeStatus(c, () => 42);
    c.dispose();
    assert.equal(status.sync, 'synced');
    assert.equal(status.version, 'v4.6.0');
    assert.equal(status.groups, 4);
    assert.ok(status.hashrate && status.hashrate.length > 0);
    assert.deepEqual(
      status.heights.map((h) => `${h.fromGroup}${h.toGroup}`),
      ['00', '01', '02', '03', '10', '11', '12', '13', '20', '21', '22', '23', '30', '31', '32', '33'],
    );
    assert.ok(status.heights.every((h) => (h.height ?? 0) >= 1));
    assert.equal(status.fetchedAt, 42);
  });

  it('reports "unauthorized" for a revoked key and asks nothing else', async () => {
    const before = sb.requests.length;
    const c = client(sb.apiKeys.revoked);
    const status = await fetchNodeStatus(c, () => 0);
    c.dispose();
    assert.equal(status.sync, 'unauthorized');
    assert.equal(status.heights.length, 0);
    assert.equal(sb.requests.length - before, 1, 'only the self-clique probe should have been sent');
  });

  it('reports "unreachable" when nothing listens at the base URL', async () => {
    const c = new GatewayClient({
      profile: { kind: 'gateway', baseUrl: 'http://127.0.0.1:9', slug: 's', network: 'devnet', plan: 'pro' },
      keyProvider: () => 'k',
      retry: { maxNetworkRetries: 0 },
    });
    const status = await fetchNodeStatus(c, () => 0);
    c.dispose();
    assert.equal(status.sync, 'unreachable');
  });

  it('classifies errors it cannot place as "error"', () => {
    assert.equal(syncStateOfError(new Error('boom')).sync, 'error');
  });

  it('names a profile without a key as "no API key", not "unauthorized", even when its host is unreachable', async () => {
    const c = new GatewayClient({
      profile: { kind: 'gateway', baseUrl: 'http://127.0.0.1:9', slug: 's', network: 'devnet', plan: 'pro' },
      keyProvider: () => undefined,
      retry: { maxNetworkRetries: 0 },
    });
    const status = await fetchNodeStatus(c, () => 0);
    c.dispose();
    assert.equal(status.sync, 'noKey');
    assert.match(syncDescription(status, 0), /^no API key/);
  });

  it('names a used-up month as "quota used up until <date>"', async () => {
    const used = 'sbx_node_status_used_up';
    const rec = sb.limiter.add(used, 'pro');
    rec.monthlyUsed = rec.perMonth;
    const c = client(used);
    const status = await fetchNodeStatus(c, () => 0);
    c.dispose();
    assert.equal(status.sync, 'quota');
    assert.match(syncDescription(status, 0), /^quota used up until \d{4}-\d\d-01$/);
  });

  it('says how many chain reads were refused, and why, instead of "16 chains, heights …"', async () => {
    // 9 of the 16 chain reads are refused with a per-second 429 (the client does not retry here).
    sb.faults.add({
      path: '/blockflow/chain-info',
      kind: 'status',
      status: 429,
      detail: 'API rate limit exceeded: 5 requests per second',
      count: 9,
    });
    const c = client(key, { maxRateLimitRetries: 0 });
    const status = await fetchNodeStatus(c, () => 1_000);
    c.dispose();
    sb.faults.clear();
    assert.equal(status.heights.filter((h) => h.height === undefined).length, 9);
    const words = chainsDescription(status, 1_000);
    assert.match(words, /^7 of 16 chains read \(9 refused: rate limit\), height/);
    assert.doesNotMatch(words, /^16 chains/);
  });
});
