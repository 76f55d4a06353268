/**
 * The real undici transport over HTTP on 127.0.0.1: keep-alive, cancellation (the proxy and TLS: proxyTls.test.ts);
 * plus URL building, authentication headers for both kinds of profile, and redaction of the key in logs.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayClient } from '../../../src/core/gateway/client';
import { createUndiciTransport } from '../../../src/core/gateway/transport';
import { KEY, harness, json, outcome } from '../../unit/gateway/helpers';

interface Seen {
  url: string;
  headers: http.IncomingHttpHeaders;
}

async function startServer(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const seen: Seen[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    handler(req, res);
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const ok = (res: http.ServerResponse, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(200, { 'content-type': 'application/json', 'X-RateLimit-Limit': '5', ...headers });
  res.end(JSON.stringify(body));
};

describe('gateway transport (undici, real HTTP on 127.0.0.1)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('sends to {baseUrl}/{slug}/... with a Bearer key, over one kept-alive connection', async () => {
    const server = await startServer((_req, res) => ok(res, { version: 'v9' }));
    // One socket per origin: without keep-alive the second request would need a second connection.
    const transport = createUndiciTransport({ connections: 1 });
    cleanups.push(
      () => server.close(),
      () => transport.close(),
    );
    const client = new GatewayClient({
      profile: {
        kind: 'gateway',
        baseUrl: `${server.url}/`,
        slug: 'my-slug',
        network: 'devnet',
        plan: 'pro',
      },
      keyProvider: () => KEY,
      transport: transport.send,
    });
    await client.getVersion();
    await client.getSelfClique().catch(() => undefined);
    await client.getChainParams().catch(() => undefined);
    assert.deepEqual(
      server.seen.map((s) => s.url),
      ['/my-slug/infos/version', '/my-slug/infos/self-clique', '/my-slug/infos/chain-params'],
    );
    assert.equal(server.seen[0]?.headers.authorization, `Bearer ${KEY}`);
    assert.equal(server.seen[0]?.headers['x-api-key'], undefined);
    assert.equal(server.connections(), 1);
    client.dispose();
  });

  it('a node profile talks to the node directly: no slug, optional X-API-KEY', async () => {
    const server = await startServer((_req, res) => ok(res, { version: 'v9' }));
    const transport = createUndiciTransport();
    cleanups.push(
      () => server.close(),
      () => transport.close(),
    );
    const withKey = new GatewayClient({
      profile: { kind: 'node', baseUrl: server.url, network: 'devnet' },
      keyProvider: () => 'node-api-key-123',
      transport: transport.send,
    });
    const withoutKey = new GatewayClient({
      profile: { kind: 'node', baseUrl: server.url, network: 'devnet' },
      keyProvider: () => undefined,
      transport: transport.send,
    });
    await withKey.getVersion();
    await withoutKey.getVersion({ fresh: true });
    assert.deepEqual(
      server.seen.map((s) => [s.url, s.headers['x-api-key'], s.headers.authorization]),
      [
        ['/infos/version', 'node-api-key-123', undefined],
        ['/infos/version', undefined, undefined],
      ],
    );
  });

  it('returns status, lower-case headers and the body text; aborts on the signal', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/slow') return; // never answers
      ok(res, { a: 1 }, { 'X-RateLimit-Remaining': '4' });
    });
    const transport = createUndiciTransport();
    cleanups.push(
      () => server.close(),
      () => transport.close(),
    );
    const res = await transport.send({
      method: 'GET',
      url: `${server.url}/fast`,
      headers: {},
      signal: new AbortController().signal,
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-ratelimit-remaining'], '4');
    assert.equal(res.bodyText, '{"a":1}');
    const controller = new AbortController();
    const pending = transport.send({
      method: 'GET',
      url: `${server.url}/slow`,
      headers: {},
      signal: controller.signal,
    });
    controller.abort();
    await assert.rejects(pending);
  });
});

describe('gateway logging', () => {
  it('never logs the API key, even when the server echoes it', async () => {
    const { client, transport, clock, logs } = harness();
    transport.on(
      '/infos/version',
      json(400, { detail: `Invalid key ${KEY}; header was Authorization: Bearer ${KEY}` }),
    );
    const { error } = await outcome(clock, client.getVersion());
    assert.ok(error);
    assert.ok(logs.length > 0);
    assert.ok(logs.some((l) => l.includes('Invalid key')));
    for (const line of logs) assert.ok(!line.includes(KEY), line);
  });

  it('masks key-like values that were never registered', async () => {
    const { client, transport, clock, logs } = harness();
    transport.on('/infos/version', json(400, { detail: 'forwarded header X-API-KEY: abcdefgh12345678' }));
    await outcome(clock, client.getVersion());
    assert.ok(logs.some((l) => l.includes('X-API-KEY')));
    for (const line of logs) assert.ok(!line.includes('abcdefgh12345678'), line);
  });
});
