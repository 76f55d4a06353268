/**
 * The real undici transport over HTTP on 127.0.0.1: keep-alive, proxy (CONNECT tunnel), cancellation;
 * plus URL building, authentication headers for both kinds of profile, and redaction of the key in logs.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { GatewayClient } from '../../../src/core/gateway/client';
import {
  bypassesProxy,
  createUndiciTransport,
  type ClosableTransport,
} from '../../../src/core/gateway/transport';
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

/** A minimal CONNECT proxy that counts its tunnels. */
async function startProxy() {
  let tunnels = 0;
  const sockets = new Set<net.Socket>();
  const proxy = http.createServer((_req, res) => res.writeHead(405).end());
  proxy.on('connect', (req: http.IncomingMessage, client: net.Socket) => {
    tunnels++;
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    tunnels: () => tunnels,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        proxy.close(() => resolve());
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

  it('goes through the configured proxy (CONNECT tunnel), and bypasses it for loopback by default', async () => {
    const server = await startServer((_req, res) => ok(res, { version: 'v9' }));
    const proxy = await startProxy();
    const viaProxy: ClosableTransport = createUndiciTransport({
      proxy: { url: proxy.url, bypassLoopback: false },
    });
    const direct: ClosableTransport = createUndiciTransport({ proxy: { url: proxy.url } });
    cleanups.push(
      () => server.close(),
      () => proxy.close(),
      () => viaProxy.close(),
      () => direct.close(),
    );
    const request = {
      method: 'GET' as const,
      url: `${server.url}/x`,
      headers: {},
      signal: new AbortController().signal,
    };
    const res = await viaProxy.send(request);
    assert.equal(res.status, 200);
    assert.equal(proxy.tunnels(), 1);
    await direct.send(request);
    assert.equal(proxy.tunnels(), 1);
    assert.equal(server.seen.length, 2);
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

  it('bypassesProxy follows http.noProxy', () => {
    assert.equal(bypassesProxy('127.0.0.1', []), true);
    assert.equal(bypassesProxy('127.0.0.1', [], false), false);
    assert.equal(bypassesProxy('gw.example.com', ['.example.com']), true);
    assert.equal(bypassesProxy('example.com', ['.example.com']), true);
    assert.equal(bypassesProxy('gw.example.org', ['.example.com', 'other.net']), false);
    assert.equal(bypassesProxy('other.net', ['other.net']), true);
    assert.equal(bypassesProxy('anything', ['*']), true);
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
