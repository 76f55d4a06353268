/**
 * The real undici transport behind a company's network, all on 127.0.0.1: a CONNECT proxy that knows
 * `gateway.test`, an https gateway whose certificate only the test's own CA vouches for, and the network
 * policy (core/gateway/networkPolicy.ts) deciding the route.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createUndiciTransport,
  type ClosableTransport,
  type TransportRequest,
} from '../../../src/core/gateway/transport';
import { networkPolicy, type NetworkSettings } from '../../../src/core/gateway/networkPolicy';
import {
  PROXIED_HOST,
  makeTestCertificates,
  startConnectProxy,
  startTlsFront,
  type TestCertificates,
} from '../../helpers/tlsNetwork';

const KEY = 'secret-api-key-0123456789';

describe('gateway transport through a proxy and a custom CA (real TLS on 127.0.0.1)', () => {
  let certificates: TestCertificates;
  let gateway: http.Server;
  let httpPort: number;
  let tlsPort: number;
  let closeFront: () => Promise<void>;
  const seen: { url: string; authorization: string | undefined }[] = [];
  const cleanups: (() => Promise<void>)[] = [];

  before(async () => {
    certificates = makeTestCertificates();
    gateway = http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"version":"v9"}');
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    httpPort = (gateway.address() as AddressInfo).port;
    const front = await startTlsFront(certificates, httpPort);
    tlsPort = front.port;
    closeFront = () => front.close();
  });

  after(async () => {
    await closeFront();
    gateway.closeAllConnections();
    await new Promise<void>((resolve) => gateway.close(() => resolve()));
    certificates.remove();
  });

  beforeEach(() => (seen.length = 0));
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  const transportWith = (settings: NetworkSettings, trustCa: boolean): ClosableTransport => {
    const transport = createUndiciTransport({
      network: {
        policy: networkPolicy(settings),
        extraCertificates: trustCa ? [certificates.caPem] : [],
      },
    });
    cleanups.push(() => transport.close());
    return transport;
  };
  const get = (url: string): TransportRequest => ({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${KEY}` },
    signal: new AbortController().signal,
  });
  const proxyWith = async (authorization?: string) => {
    const proxy = await startConnectProxy(authorization ? { authorization } : {});
    cleanups.push(() => proxy.close());
    return proxy;
  };

  it('reaches gateway.test only through the proxy: only CONNECTs with its Proxy-Authorization, the key never in clear', async () => {
    const proxy = await proxyWith('Basic dXNlcjpwYXNz');
    const transport = transportWith({ proxy: proxy.url, proxyAuthorization: 'Basic dXNlcjpwYXNz' }, true);
    const url = `https://${PROXIED_HOST}:${tlsPort}/slug/infos/version`;
    const first = await transport.send(get(url));
    const second = await transport.send(get(url));
    assert.equal(first.bodyText, '{"version":"v9"}');
    assert.equal(second.status, 200);
    // Nothing but CONNECTs (the pool may open a second tunnel), each with the proxy's credentials only.
    assert.ok(proxy.log.length >= 1);
    for (const entry of proxy.log) {
      assert.equal(entry.line, `CONNECT ${PROXIED_HOST}:${tlsPort}`);
      assert.equal(entry.headers['proxy-authorization'], 'Basic dXNlcjpwYXNz');
      assert.equal(entry.headers.authorization, undefined);
    }
    assert.deepEqual(seen, [
      { url: '/slug/infos/version', authorization: `Bearer ${KEY}` },
      { url: '/slug/infos/version', authorization: `Bearer ${KEY}` },
    ]);
    const through = proxy.sentThrough();
    assert.ok(through.length > 0, 'the TLS bytes went through the tunnel');
    assert.equal(through.includes(KEY), false, 'the key crossed the proxy only inside TLS');
    assert.equal(through.includes('/slug/infos/version'), false);
  });

  it('takes the proxy from HTTPS_PROXY when http.proxy is empty', async () => {
    const proxy = await proxyWith();
    const fromEnvironment = transportWith({ environment: { HTTPS_PROXY: proxy.url } }, true);
    await fromEnvironment.send(get(`https://${PROXIED_HOST}:${tlsPort}/a`));
    assert.deepEqual(
      proxy.log.map((e) => e.line),
      [`CONNECT ${PROXIED_HOST}:${tlsPort}`],
    );
  });

  it('refuses the certificate when the CA is not trusted, through the proxy and directly', async () => {
    const proxy = await proxyWith();
    const untrusting = transportWith({ proxy: proxy.url }, false);
    await assert.rejects(untrusting.send(get(`https://${PROXIED_HOST}:${tlsPort}/x`)), /certificate/i);
    await assert.rejects(untrusting.send(get(`https://127.0.0.1:${tlsPort}/x`)), /certificate/i);
    assert.deepEqual(seen, [], 'no request (and no key) reached the gateway');
  });

  it('http.proxyStrictSSL false accepts an unknown certificate through the proxy only', async () => {
    const proxy = await proxyWith();
    const lax = transportWith({ proxy: proxy.url, proxyStrictSSL: false }, false);
    const res = await lax.send(get(`https://${PROXIED_HOST}:${tlsPort}/lax`));
    assert.equal(res.status, 200);
    await assert.rejects(lax.send(get(`https://localhost:${tlsPort}/direct`)), /certificate/i);
    assert.deepEqual(
      seen.map((s) => s.url),
      ['/lax'],
    );
  });

  it('sends loopback and plain http (a devnet) straight, never through the proxy', async () => {
    const proxy = await proxyWith();
    const transport = transportWith({ proxy: proxy.url, noProxy: [] }, true);
    await transport.send(get(`http://127.0.0.1:${httpPort}/devnet`));
    await transport.send(get(`https://localhost:${tlsPort}/loopback-tls`));
    assert.deepEqual(proxy.log, []);
    assert.deepEqual(
      seen.map((s) => s.url),
      ['/devnet', '/loopback-tls'],
    );
  });

  it('reads network options given as a function once, at the first request (activation pays nothing for them)', async () => {
    const proxy = await proxyWith();
    let reads = 0;
    const transport = createUndiciTransport({
      network: () => {
        reads++;
        return { policy: networkPolicy({ proxy: proxy.url }), extraCertificates: [certificates.caPem] };
      },
    });
    cleanups.push(() => transport.close());
    assert.equal(reads, 0, 'nothing is read before a request');
    await transport.send(get(`https://${PROXIED_HOST}:${tlsPort}/first`));
    await transport.send(get(`https://${PROXIED_HOST}:${tlsPort}/second`));
    assert.equal(reads, 1);
    assert.ok(proxy.log.length >= 1, 'the options read late still route through the proxy');
    assert.deepEqual(
      seen.map((s) => s.url),
      ['/first', '/second'],
    );
  });
});
