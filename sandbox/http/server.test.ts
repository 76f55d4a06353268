import assert from 'node:assert/strict';
import { ManualClock } from '../clock';
import { control, newSandbox, type Api } from '../testing/helpers';
import type { Sandbox } from './server';

describe('sandbox gateway: routing, auth, rate limits, control API', () => {
  let sb: Sandbox;
  let api: Api;
  const clock = new ManualClock(Date.UTC(2025, 5, 1, 12, 0, 0, 100));

  before(async () => {
    ({ sb, api } = await newSandbox({ clock }));
  });
  after(() => sb.close());
  beforeEach(async () => {
    await control(sb, 'DELETE', '/faults');
    await control(sb, 'DELETE', '/requests');
    clock.advance(1000); // a fresh per-second window for every test
  });

  describe('routing and auth', () => {
    it('serves spec paths under the slug and 404s an unknown slug', async () => {
      const ok = await api.get('/infos/version');
      assert.equal(ok.status, 200);
      assert.match(((await ok.json()) as { version: string }).version, /^v\d+\.\d+\.\d+$/);
      const res = await fetch(`${sb.baseUrl}/not-my-slug/infos/version`, {
        headers: { Authorization: `Bearer ${sb.apiKeys.pro}` },
      });
      assert.equal(res.status, 404);
      assert.equal(typeof ((await res.json()) as { detail: unknown }).detail, 'string');
    });

    it('404s an unknown path with a detail body', async () => {
      const res = await api.get('/no/such/endpoint');
      assert.equal(res.status, 404);
      assert.ok(((await res.json()) as { detail: string }).detail);
    });

    for (const [name, header] of [
      ['missing', undefined],
      ['wrong', 'Bearer not-a-key'],
      ['not bearer', 'Basic abc'],
      ['expired', 'expired'],
      ['revoked', 'revoked'],
    ] as const) {
      it(`answers 401 with a detail for a ${name} key`, async () => {
        const value =
          header === 'expired'
            ? `Bearer ${sb.apiKeys.expired}`
            : header === 'revoked'
              ? `Bearer ${sb.apiKeys.revoked}`
              : header;
        const res = await fetch(`${sb.apiUrl}/infos/version`, {
          headers: value === undefined ? {} : { Authorization: value },
        });
        assert.equal(res.status, 401);
        const body = (await res.json()) as { detail: string };
        assert.equal(typeof body.detail, 'string');
        if (name === 'expired') assert.match(body.detail, /expired/);
        if (name === 'revoked') assert.match(body.detail, /revoked/);
      });
    }
  });

  describe('rate limits', () => {
    const hit = (key: string) =>
      fetch(`${sb.apiUrl}/infos/version`, { headers: { Authorization: `Bearer ${key}` } });

    for (const [plan, limit] of [
      ['free', 5],
      ['starter', 25],
      ['pro', 100],
    ] as const) {
      it(`allows exactly ${limit}/s on ${plan} and rejects the next with 429 and headers`, async () => {
        const key = sb.apiKeys[plan];
        const statuses: number[] = [];
        let last: Response | undefined;
        for (let i = 0; i < limit + 1; i++) {
          last = await hit(key);
          statuses.push(last.status);
          if (i < limit) {
            assert.equal(last.headers.get('x-ratelimit-limit'), String(limit));
            assert.equal(last.headers.get('x-ratelimit-remaining'), String(limit - i - 1));
          }
        }
        assert.deepEqual(statuses, [...Array<number>(limit).fill(200), 429]);
        assert.ok(last);
        assert.equal(last.headers.get('x-ratelimit-remaining'), '0');
        assert.equal(last.headers.get('x-ratelimit-reset'), String(Math.floor(clock.now() / 1000) + 1));
        assert.match(((await last.json()) as { detail: string }).detail, /rate limit/i);
        clock.advance(1000); // the next window admits requests again
        assert.equal((await hit(key)).status, 200);
      });
    }

    it('gives each key its own budget', async () => {
      const a = await control<{ key: string }>(sb, 'POST', '/keys', { plan: 'free' });
      const b = await control<{ key: string }>(sb, 'POST', '/keys', { plan: 'free' });
      for (let i = 0; i < 5; i++) assert.equal((await hit(a.key)).status, 200);
      assert.equal((await hit(a.key)).status, 429);
      assert.equal((await hit(b.key)).status, 200);
    });

    it('enforces the monthly quota through the usage switch', async () => {
      const { key } = await control<{ key: string }>(sb, 'POST', '/keys', { plan: 'starter' });
      await control(sb, 'POST', `/keys/${key}/usage`, { monthlyUsed: 999_999 });
      assert.equal((await hit(key)).status, 200);
      const res = await hit(key);
      assert.equal(res.status, 429);
      assert.match(((await res.json()) as { detail: string }).detail, /monthly/i);
      assert.equal(res.headers.get('x-ratelimit-limit'), '25');
      clock.advance(5000); // a new second does not restore a used-up month
      assert.equal((await hit(key)).status, 429);
    });

    it('does not count control API calls against any key', async () => {
      const { key } = await control<{ key: string }>(sb, 'POST', '/keys', { plan: 'free' });
      for (let i = 0; i < 10; i++) await control(sb, 'GET', '/info');
      const rec = await control<{ monthlyUsed: number }>(sb, 'GET', `/keys/${key}`);
      assert.equal(rec.monthlyUsed, 0);
      assert.equal((await hit(key)).headers.get('x-ratelimit-remaining'), '4');
    });

    it('puts rate-limit headers on error responses too', async () => {
      const res = await api.get('/addresses/not-base58!/group');
      assert.equal(res.status, 400);
      assert.ok(res.headers.get('x-ratelimit-limit'));
      assert.ok(res.headers.get('x-ratelimit-reset'));
      const unauth = await fetch(`${sb.apiUrl}/infos/version`);
      assert.ok(unauth.headers.get('x-ratelimit-remaining'));
    });
  });

  describe('fault injection', () => {
    it('injects 500 for a path pattern, a given number of times', async () => {
      await control(sb, 'POST', '/faults', { path: '/infos/*', kind: '500', count: 2 });
      assert.equal((await api.get('/infos/version')).status, 500);
      assert.equal((await api.get('/blockflow/chain-info?fromGroup=0&toGroup=0')).status, 200);
      const second = await api.get('/infos/chain-params');
      assert.equal(second.status, 500);
      assert.ok(((await second.json()) as { detail: string }).detail);
      assert.equal((await api.get('/infos/version')).status, 200);
    });

    it('503 reports the node unsynced in self-clique until cleared', async () => {
      await control(sb, 'POST', '/faults', { path: '/transactions/*', kind: '503', count: 1 });
      const res = await api.post('/transactions/submit', { unsignedTx: '00', signature: '00' });
      assert.equal(res.status, 503);
      assert.match(((await res.json()) as { detail: string }).detail, /unsynced/);
      const clique = await api.json<{
        synced: boolean;
        selfReady: boolean;
        nodes: { isSynced: boolean }[];
        cliqueId: string;
      }>('/infos/self-clique');
      assert.equal(clique.synced, false);
      assert.equal(clique.nodes[0]?.isSynced, false);
      assert.equal(clique.selfReady, true);
      await control(sb, 'DELETE', '/faults');
      const after = await api.json<{ synced: boolean; nodes: { isSynced: boolean }[] }>('/infos/self-clique');
      assert.equal(after.synced, true);
      assert.equal(after.nodes[0]?.isSynced, true);
    });

    it('injects 504 and arbitrary statuses', async () => {
      await control(sb, 'POST', '/faults', { path: '/infos/version', kind: '504', count: 1 });
      assert.equal((await api.get('/infos/version')).status, 504);
      await control(sb, 'POST', '/faults', { path: '/infos/version', kind: 'status', status: 404, count: 1 });
      assert.equal((await api.get('/infos/version')).status, 404);
    });

    it('delays a response', async () => {
      await control(sb, 'POST', '/faults', { path: '/infos/version', kind: 'delay', delayMs: 150, count: 1 });
      const t0 = performance.now();
      assert.equal((await api.get('/infos/version')).status, 200);
      assert.ok(performance.now() - t0 >= 140);
    });

    it('drops the connection', async () => {
      await control(sb, 'POST', '/faults', { path: '/infos/version', kind: 'drop', count: 1 });
      await assert.rejects(api.get('/infos/version'));
      assert.equal((await api.get('/infos/version')).status, 200);
    });

    it('returns a body that is not JSON, then one of the wrong shape', async () => {
      await control(sb, 'POST', '/faults', { path: '/infos/version', kind: 'not-json', count: 1 });
      const bad = await api.get('/infos/version');
      assert.equal(bad.status, 200);
      await assert.rejects(bad.json());
      await control(sb, 'POST', '/faults', { path: '/infos/version', kind: 'wrong-shape', count: 1 });
      const odd = (await (await api.get('/infos/version')).json()) as Record<string, unknown>;
      assert.equal(odd.version, undefined);
    });

    it('matches by method and lists/removes faults', async () => {
      const { id } = await control<{ id: number }>(sb, 'POST', '/faults', {
        path: '*',
        method: 'POST',
        kind: '500',
      });
      assert.equal((await api.get('/infos/version')).status, 200);
      assert.equal((await api.post('/transactions/decode-unsigned-tx', { unsignedTx: '00' })).status, 500);
      const listed = await control<{ faults: { id: number; hits: number }[] }>(sb, 'GET', '/faults');
      assert.equal(listed.faults[0]?.hits, 1);
      await control(sb, 'DELETE', `/faults/${id}`);
      assert.equal((await api.post('/transactions/decode-unsigned-tx', { unsignedTx: '00' })).status, 400);
    });

    it('rejects an unknown fault kind', async () => {
      const res = await fetch(`${sb.baseUrl}/__sandbox/faults`, {
        method: 'POST',
        body: '{"path":"*","kind":"nope"}',
      });
      assert.equal(res.status, 400);
    });
  });

  describe('request log', () => {
    it('records method, path, headers and body of every API request, and clears on read', async () => {
      await api.post('/transactions/decode-unsigned-tx', { unsignedTx: 'abcd' });
      await fetch(`${sb.apiUrl}/infos/version?x=1`, { headers: { Authorization: 'Bearer nope' } });
      const { requests } = await control<{
        requests: {
          method: string;
          path: string;
          headers: Record<string, string>;
          body: string;
          status: number;
        }[];
      }>(sb, 'GET', '/requests?clear=1');
      assert.equal(requests.length, 2);
      assert.equal(requests[0]?.method, 'POST');
      assert.equal(requests[0]?.path, '/sandbox/transactions/decode-unsigned-tx');
      assert.deepEqual(JSON.parse(requests[0]?.body ?? ''), { unsignedTx: 'abcd' });
      assert.equal(requests[0]?.headers['content-type'], 'application/json');
      assert.equal(requests[0]?.status, 400);
      assert.equal(requests[1]?.path, '/sandbox/infos/version?x=1');
      assert.equal(requests[1]?.headers.authorization, 'Bearer nope');
      assert.equal(requests[1]?.status, 401);
      const again = await control<{ requests: unknown[] }>(sb, 'GET', '/requests');
      assert.equal(again.requests.length, 0);
    });
  });

  describe('node information', () => {
    it('self-clique, version, chain-params, hashrate', async () => {
      const clique = await api.json<Record<string, unknown>>('/infos/self-clique');
      assert.equal(typeof clique.cliqueId, 'string');
      assert.equal(clique.synced, true);
      assert.equal(clique.selfReady, true);
      const params = await api.json<Record<string, number>>('/infos/chain-params');
      assert.equal(params.groups, 4);
      assert.equal(typeof params.networkId, 'number');
      const hr = await api.json<{ hashrate: string }>('/infos/current-hashrate');
      assert.match(hr.hashrate, /H\/s$/);
      assert.equal((await api.get('/infos/current-hashrate?timespan=0')).status, 400);
    });

    it('address group: per group for the genesis accounts, 400 when malformed', async () => {
      for (const a of sb.accounts) {
        assert.deepEqual(await api.json(`/addresses/${a.address}/group`), { group: a.group });
      }
      for (const bad of ['0OIl', '1F6FVZ8QRF2Ynyg4omDr8WsUhMW6aAvhekuUAcSFCcCGhh', 'abc']) {
        const res = await api.get(`/addresses/${bad}/group`);
        assert.equal(res.status, 400, bad);
        assert.ok(((await res.json()) as { detail: string }).detail);
      }
    });

    it('chain-info heights grow with mined blocks; params are required and 0..3', async () => {
      const before = await api.json<{ currentHeight: number }>('/blockflow/chain-info?fromGroup=1&toGroup=2');
      await control(sb, 'POST', '/mine', { blocks: 2 });
      const after = await api.json<{ currentHeight: number }>('/blockflow/chain-info?fromGroup=1&toGroup=2');
      assert.equal(after.currentHeight, before.currentHeight + 2);
      assert.equal((await api.get('/blockflow/chain-info?fromGroup=4&toGroup=0')).status, 400);
      assert.equal((await api.get('/blockflow/chain-info?fromGroup=0')).status, 400);
    });

    it('blocks by millisecond range: 16 chains, 400 when invalid, 504 when too large', async () => {
      const from = clock.now();
      clock.advance(10);
      await control(sb, 'POST', '/mine');
      const { blocks } = await api.json<{
        blocks: { chainFrom: number; chainTo: number; hash: string; timestamp: number }[][];
      }>(`/blockflow/blocks?fromTs=${from}&toTs=${clock.now()}`);
      assert.equal(blocks.length, 16);
      blocks.forEach((chain, i) => {
        assert.equal(chain.length, 1);
        assert.equal(chain[0]?.chainFrom, Math.floor(i / 4));
        assert.equal(chain[0]?.chainTo, i % 4);
        // The SDK derives a block's chain from its hash.
        assert.equal(parseInt(chain[0]?.hash.slice(-4) ?? '', 16) % 16, i);
      });
      assert.equal((await api.get(`/blockflow/blocks?fromTs=${from}&toTs=${from - 1}`)).status, 400);
      assert.equal((await api.get('/blockflow/blocks?fromTs=abc')).status, 400);
      assert.equal((await api.get('/blockflow/blocks?fromTs=-5')).status, 400);
      const big = await api.get(`/blockflow/blocks?fromTs=${from - 24 * 3600_000}&toTs=${from}`);
      assert.equal(big.status, 504);
      assert.ok(((await big.json()) as { detail: string }).detail);
    });
  });

  describe('control API', () => {
    it('is not reachable under the slug and 404s unknown control routes', async () => {
      const res = await fetch(`${sb.baseUrl}/__sandbox/nothing`);
      assert.equal(res.status, 404);
    });

    it('info returns the startup information', async () => {
      const info = await control<{ baseUrl: string; slug: string; apiKeys: Record<string, string> }>(
        sb,
        'GET',
        '/info',
      );
      assert.equal(info.baseUrl, sb.baseUrl);
      assert.equal(info.slug, sb.slug);
      assert.deepEqual(Object.keys(info.apiKeys).sort(), ['expired', 'free', 'pro', 'revoked', 'starter']);
    });
  });
});
