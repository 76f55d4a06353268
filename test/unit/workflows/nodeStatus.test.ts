import { strict as assert } from 'node:assert';
import { GatewayClient } from '../../../src/core/gateway';
import { fetchNodeStatus, syncStateOfError } from '../../../src/core/workflows/nodeStatus';
import { newSandbox, sandboxProfile } from '../../sandbox/helpers';
import type { Sandbox } from '../../sandbox/server';

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
});
