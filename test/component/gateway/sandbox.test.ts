/**
 * The gateway client against the sandbox gateway over real HTTP on 127.0.0.1 (real undici transport,
 * real clock): authentication, rate-limit headers and pacing, fault injection (500, 503, 504, garbage
 * bodies, dropped connections, delays), caching and batching as seen in the sandbox's request log.
 */
import assert from 'node:assert/strict';
import { txIdFromUnsignedTx } from '../../../src/core/protocol';
import { signTxId } from '../../../src/core/protocol/keys';
import { callContracts } from '../../../src/core/gateway/batching';
import { GatewayClient, type GatewayClientOptions } from '../../../src/core/gateway/client';
import { GatewayHttpError, SchemaError } from '../../../src/core/gateway/errors';
import { fetchLatestEvents } from '../../../src/core/gateway/paging';
import type { RateHeadroom } from '../../../src/core/gateway/rateLimiter';
import { createUndiciTransport, type ClosableTransport } from '../../../src/core/gateway/transport';
import { startSandbox, type Sandbox } from '../../../sandbox';
import { sandboxProfile } from '../../../sandbox/testing/helpers';

const UNLIMITED = 'sbx_gateway_client_tests_unlimited';

describe('gateway client against the sandbox (HTTP, 127.0.0.1)', function () {
  this.timeout(30_000);
  let sb: Sandbox;
  let transport: ClosableTransport;
  const clients: GatewayClient[] = [];

  before(async () => {
    sb = await startSandbox({ blockTimeMs: 0 });
    sb.limiter.add(UNLIMITED, 'enterprise');
    transport = createUndiciTransport();
  });
  after(async () => {
    await transport.close();
    await sb.close();
  });
  beforeEach(() => {
    sb.faults.clear();
    sb.requests.length = 0;
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.dispose();
  });

  function client(key = UNLIMITED, options: Partial<GatewayClientOptions> = {}): GatewayClient {
    const plan = key === sb.apiKeys.free ? 'free' : 'enterprise';
    const c = new GatewayClient({
      profile: sandboxProfile(sb, plan, plan === 'enterprise' ? { perSecond: 1_000_000 } : undefined),
      keyProvider: () => key,
      transport: transport.send,
      retry: { baseDelayMs: 10, maxDelayMs: 40, syncPollIntervalMs: 20 },
      ...options,
    });
    clients.push(c);
    return c;
  }

  const logged = (prefix: string) => sb.requests.filter((r) => r.path.startsWith(`/${sb.slug}${prefix}`));
  const counter = () => sb.contracts.find((c) => c.name === 'Counter')?.address as string;

  it('reads node information; self-clique carries both sync forms', async () => {
    const c = client();
    assert.match((await c.getVersion()).version, /^v\d/);
    assert.equal((await c.getSelfClique()).synced, true);
    assert.equal((await c.getChainParams()).groups, 4);
    assert.equal(await c.getAddressGroup(sb.accounts[2]?.address as string), 2);
    assert.ok(BigInt((await c.getAddressBalance(sb.accounts[0]?.address as string)).balance) > 0n);
    assert.equal(typeof (await c.getChainInfo(0, 0)).currentHeight, 'number');
  });

  it('build → sign → submit → status → details, and details twice cost one request', async () => {
    const c = client();
    const [from, to] = sb.accounts;
    assert.ok(from && to);
    const built = await c.buildTransfer({
      fromPublicKey: from.publicKey,
      destinations: [{ address: to.address, attoCoinAmount: '1000000000000000000' }],
    });
    assert.equal(txIdFromUnsignedTx(built.unsignedTx), built.txId);
    const decoded = await c.decodeUnsignedTx(built.unsignedTx);
    assert.ok(decoded.unsignedTx.fixedOutputs.some((o) => o.address === to.address));
    const submitted = await c.submitTransaction({
      unsignedTx: built.unsignedTx,
      signature: signTxId(built.txId, from.privateKey),
      fromGroup: built.fromGroup,
      toGroup: built.toGroup,
    });
    assert.equal(submitted.txId, built.txId);
    assert.equal((await c.getTxStatus(built.txId, built)).type, 'MemPooled');
    sb.mine();
    assert.equal((await c.getTxStatus(built.txId, built)).type, 'Confirmed');
    const d1 = await c.getTxDetails(built.txId, built);
    const d2 = await c.getTxDetails(built.txId, built);
    assert.deepEqual(d2, d1);
    assert.equal(logged('/transactions/details/').length, 1);
  });

  it("a contract's immutable fields twice cost one request; 25 calls cost two multicalls", async () => {
    const c = client();
    const address = counter();
    const first = await c.getContractImmFields(address);
    assert.deepEqual(await c.getContractImmFields(address), first);
    assert.equal(logged('/contracts/').length, 1);
    const outcomes = await callContracts(
      c,
      Array.from({ length: 25 }, () => ({ address, methodIndex: 0 })),
    );
    assert.ok(outcomes.every((o) => o.ok));
    assert.equal(logged('/contracts/multicall-contract').length, 2);
  });

  it('fetches the latest N events from current-count, across the gaps left by hidden events', async () => {
    const c = client();
    const address = counter();
    const before = await c.getContractEventCount(address);
    const res = await fetch(`${sb.baseUrl}/__sandbox/events/trigger`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contract: 'Counter', count: 5 }),
    });
    assert.equal(res.status, 200);
    const emitted = (await res.json()) as { events: { eventIndex: number }[]; txIds: string[] };
    const latest = await fetchLatestEvents(c, address, 3, { pageSize: 2 });
    assert.equal(latest.count, before + emitted.events.length);
    assert.equal(latest.nextStart, latest.count);
    // The last three visible events are the Incremented events of the last three transactions.
    assert.deepEqual(
      latest.events.map((e) => e.txId),
      emitted.txIds.slice(-3),
    );
    const starts = logged(`/events/contract/${address}?`).map((r) =>
      Number(new URL(`http://x${r.path}`).searchParams.get('start')),
    );
    assert.equal(starts[0], latest.count - 3); // the spec's rule: start = count - N
  });

  it('401: a revoked key is not retried, and the error says to replace it', async () => {
    const c = client(sb.apiKeys.revoked);
    await assert.rejects(
      c.getVersion(),
      (e: unknown) => e instanceof GatewayHttpError && e.keyMustBeReplaced,
    );
    assert.equal(sb.requests.length, 1);
  });

  it('Free key: a burst of 12 is paced to zero 429s, and the headroom is published', async () => {
    const c = client(sb.apiKeys.free);
    const seen: RateHeadroom[] = [];
    c.onRateLimit((h) => seen.push(h));
    const txIds = Array.from({ length: 12 }, (_, i) => i.toString(16).padStart(64, '0'));
    await Promise.all(txIds.map((id) => c.getTxStatus(id)));
    assert.deepEqual(
      sb.requests.map((r) => r.status),
      Array(12).fill(200),
    );
    assert.equal(seen.length, 12);
    assert.ok(seen.every((h) => h.limit === 5 && h.remaining >= 0 && h.remaining < 5));
  });

  it('429: waits for X-RateLimit-Reset, then succeeds', async () => {
    const key = sb.limiter.add('sbx_gateway_client_tests_429', 'free').key;
    const rec = sb.limiter.get(key);
    assert.ok(rec);
    // Another client used up this second's window.
    rec.windowSecond = Math.floor(Date.now() / 1000);
    rec.windowCount = 5;
    const c = client(key, {
      profile: { kind: 'gateway', baseUrl: sb.baseUrl, slug: sb.slug, network: 'devnet', plan: 'free' },
    });
    assert.match((await c.getVersion()).version, /^v/);
    const statuses = sb.requests.map((r) => r.status);
    assert.equal(statuses.at(-1), 200);
    assert.ok(statuses.filter((s) => s === 429).length <= 1);
  });

  it('500: retried with backoff until it passes', async () => {
    sb.faults.add({ path: '/infos/version', kind: '500', count: 2 });
    assert.match((await client().getVersion()).version, /^v/);
    assert.deepEqual(
      sb.requests.map((r) => r.status),
      [500, 500, 200],
    );
  });

  it('503: reports "syncing", polls self-clique until synced, then retries', async () => {
    sb.faults.add({ path: '/infos/version', kind: '503', count: 1 });
    const c = client();
    // The sandbox stays unsynced while a 503 fault is installed; it "finishes syncing" when we clear it.
    c.onSyncState((s) => {
      if (s.state === 'syncing') sb.faults.clear();
    });
    assert.match((await c.getVersion()).version, /^v/);
    assert.equal(c.syncState, 'synced');
    const paths = sb.requests.map((r) => r.path.replace(`/${sb.slug}`, ''));
    assert.equal(paths[0], '/infos/version');
    assert.equal(paths.at(-1), '/infos/version');
    assert.ok(paths.includes('/infos/self-clique'));
  });

  it('504 on blocks: the range is split and the halves are fetched', async () => {
    sb.mine();
    const now = Date.now();
    sb.faults.add({ path: '/blockflow/blocks', kind: '504', count: 1 });
    const blocks = await client().getBlocks(now - 10 * 60_000, now + 1000);
    assert.equal(blocks.blocks.length, 16);
    assert.deepEqual(
      logged('/blockflow/blocks').map((r) => r.status),
      [504, 200, 200],
    );
  });

  it('garbage bodies give a SchemaError naming the endpoint (not JSON, wrong shape)', async () => {
    sb.faults.add({ path: '/infos/version', kind: 'not-json', count: 1 });
    sb.faults.add({ path: '/infos/chain-params', kind: 'wrong-shape', count: 1 });
    const c = client();
    await assert.rejects(
      c.getVersion(),
      (e: unknown) => e instanceof SchemaError && e.endpoint === 'GET /infos/version',
    );
    await assert.rejects(
      c.getChainParams(),
      (e: unknown) =>
        e instanceof SchemaError && e.endpoint === 'GET /infos/chain-params' && e.path === 'networkId',
    );
  });

  it('a dropped connection on a read is retried', async () => {
    sb.faults.add({ path: '/infos/version', kind: 'drop', count: 1 });
    assert.match((await client().getVersion()).version, /^v/);
    assert.equal(logged('/infos/version').length, 2);
  });

  it('a submit whose answer is lost is not resent blindly: status finds it in the mempool', async () => {
    const c = client(UNLIMITED, { timeoutMs: 5_000 });
    const [from, to] = sb.accounts.slice(1);
    assert.ok(from && to);
    const built = await c.buildTransfer({
      fromPublicKey: from.publicKey,
      destinations: [{ address: to.address, attoCoinAmount: '2000000000000000' }],
    });
    // The submit is processed after 300 ms but the client gives up at 100 ms; the status check is
    // held 500 ms, so it sees the processed submit.
    sb.faults.add({ path: '/transactions/submit', kind: 'delay', delayMs: 300, count: 1 });
    sb.faults.add({ path: '/transactions/status', kind: 'delay', delayMs: 500, count: 1 });
    const result = await c.submitTransaction(
      {
        unsignedTx: built.unsignedTx,
        signature: signTxId(built.txId, from.privateKey),
        fromGroup: built.fromGroup,
        toGroup: built.toGroup,
      },
      { timeoutMs: 100 },
    );
    assert.equal(result.recovered, true);
    assert.equal(result.txId, built.txId);
    assert.equal(logged('/transactions/submit').length, 1);
    assert.equal((await c.getTxStatus(built.txId, built)).type, 'MemPooled');
  });

  it("counts the month's requests like the server does", async () => {
    const key = sb.limiter.add('sbx_gateway_client_tests_usage', 'enterprise').key;
    const c = client(key);
    sb.faults.add({ path: '/infos/version', kind: '500', count: 1 });
    await c.getVersion();
    await c.getSelfClique();
    await c.getTxStatus('0'.repeat(64));
    assert.equal((await c.currentUsage())?.count, sb.limiter.get(key)?.monthlyUsed);
    assert.equal((await c.currentUsage())?.count, 4);
  });
});
