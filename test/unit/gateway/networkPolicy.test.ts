import { strict as assert } from 'node:assert';
import {
  LINUX_CA_BUNDLES,
  certificateSources,
  matchesNoProxy,
  networkPolicy,
  certificatesBeyond,
  routeFor,
  verifiesCertificates,
  type NetworkPolicy,
} from '../../../src/core/gateway/networkPolicy';

const CORP = 'http://proxy.corp:3128';
const route = (policy: NetworkPolicy, url: string) => routeFor(policy, new URL(url));
const via = (policy: NetworkPolicy, url: string) => {
  const r = route(policy, url);
  return r.via === 'proxy' ? 'proxy' : r.why;
};
const noProxy = (url: string, ...entries: string[]) => matchesNoProxy(new URL(url), entries);

describe('the network policy: which proxy for which URL', () => {
  it('takes http.proxy first, then HTTPS_PROXY, https_proxy, HTTP_PROXY, http_proxy', () => {
    const environment = {
      HTTPS_PROXY: 'http://https-upper:1',
      https_proxy: 'http://https-lower:2',
      HTTP_PROXY: 'http://http-upper:3',
      http_proxy: 'http://http-lower:4',
    };
    assert.equal(networkPolicy({ proxy: CORP, environment }).proxy?.label, CORP);
    assert.equal(networkPolicy({ proxy: CORP, environment }).proxy?.from, 'http.proxy');
    const fromEnv = networkPolicy({ proxy: '', environment });
    assert.deepEqual([fromEnv.proxy?.label, fromEnv.proxy?.from], ['http://https-upper:1', 'HTTPS_PROXY']);
    const { HTTPS_PROXY: _a, ...lower } = environment;
    assert.equal(networkPolicy({ environment: lower }).proxy?.from, 'https_proxy');
    assert.equal(networkPolicy({ environment: { HTTP_PROXY: 'http://h:3' } }).proxy?.from, 'HTTP_PROXY');
    assert.equal(networkPolicy({ environment: { http_proxy: ' ', HTTPS_PROXY: '' } }).proxy, undefined);
    assert.equal(networkPolicy({}).proxy, undefined);
  });

  it('reads a proxy without a scheme as http, keeps credentials out of its label, refuses socks', () => {
    const bare = networkPolicy({ environment: { HTTPS_PROXY: 'proxy.corp:8080' } });
    assert.equal(bare.proxy?.url, 'http://proxy.corp:8080/');
    const withUser = networkPolicy({ proxy: 'https://user:pa%20ss@proxy.corp:3129' });
    assert.equal(withUser.proxy?.url, 'https://user:pa%20ss@proxy.corp:3129/');
    assert.equal(withUser.proxy?.label, 'https://proxy.corp:3129');
    const socks = networkPolicy({ proxy: 'socks5://proxy.corp:1080' });
    assert.equal(socks.proxy, undefined);
    assert.match(socks.problem ?? '', /socks5 proxies are not supported/);
    assert.match(networkPolicy({ proxy: 'http://' }).problem ?? '', /not a URL/);
  });

  it('sends http.proxyAuthorization to the proxy; http.proxySupport off turns every proxy off', () => {
    const policy = networkPolicy({ proxy: CORP, proxyAuthorization: ' Basic abc= ' });
    assert.equal(policy.proxy?.authorization, 'Basic abc=');
    assert.equal(networkPolicy({ proxy: CORP, proxyAuthorization: '' }).proxy?.authorization, undefined);
    const off = networkPolicy({ proxy: CORP, proxySupport: 'off', environment: { HTTPS_PROXY: CORP } });
    assert.equal(off.proxy, undefined);
    assert.equal(networkPolicy({ proxy: CORP, proxySupport: 'override' }).proxy?.label, CORP);
  });

  it('routes https through the proxy; plain http, loopback and http.noProxy/NO_PROXY hosts go direct', () => {
    const policy = networkPolicy({
      proxy: CORP,
      noProxy: ['.internal.corp'],
      environment: { NO_PROXY: 'node.example.org, 10.0.0.0/8' },
    });
    assert.deepEqual(policy.noProxy, ['.internal.corp', 'node.example.org', '10.0.0.0/8']);
    assert.equal(via(policy, 'https://gateway.alephium.org/v1'), 'proxy');
    // Plain http is only ever to this machine (the profile rule); a tunnel would carry the key in clear.
    assert.equal(via(policy, 'http://127.0.0.1:22973'), 'plainHttp');
    assert.equal(via(policy, 'http://gateway.alephium.org'), 'plainHttp');
    for (const url of ['https://localhost:8443', 'https://127.0.0.5', 'https://[::1]:443'])
      assert.equal(via(policy, url), 'loopback', url);
    assert.equal(via(policy, 'https://gw.internal.corp'), 'noProxy');
    assert.equal(via(policy, 'https://node.example.org'), 'noProxy');
    assert.equal(via(policy, 'https://10.2.3.4:12973'), 'noProxy');
    assert.equal(via(networkPolicy({}), 'https://gateway.alephium.org'), 'noProxyConfigured');
  });

  it('matches noProxy entries as curl does: domains with their subdomains, ports, addresses, ranges, *', () => {
    assert.equal(noProxy('https://example.com', 'example.com'), true);
    assert.equal(noProxy('https://gw.example.com', 'example.com'), true);
    assert.equal(noProxy('https://gw.example.com', '.example.com'), true);
    assert.equal(noProxy('https://example.com', '.example.com'), true);
    assert.equal(noProxy('https://gw.example.com', '*.example.com'), true);
    assert.equal(noProxy('https://badexample.com', 'example.com'), false, 'a suffix, not a domain');
    assert.equal(noProxy('https://example.com.evil.net', 'example.com'), false);
    assert.equal(noProxy('https://GW.Example.COM', ' EXAMPLE.com '), true);
    assert.equal(noProxy('https://gw.example.com:8443', 'gw.example.com:8443'), true);
    assert.equal(noProxy('https://gw.example.com', 'gw.example.com:8443'), false);
    assert.equal(noProxy('https://gw.example.com', 'gw.example.com:443'), true, 'the default port');
    assert.equal(noProxy('https://192.168.1.9', '192.168.1.9'), true);
    assert.equal(noProxy('https://192.168.1.9', '192.168.0.0/16'), true);
    assert.equal(noProxy('https://192.169.1.9', '192.168.0.0/16'), false);
    assert.equal(noProxy('https://1.2.3.4', '0.0.0.0/0'), true);
    assert.equal(noProxy('https://1.2.3.4', '1.2.3.0/33'), false);
    assert.equal(noProxy('https://[fd00::1]', 'fd00::1'), true);
    assert.equal(noProxy('https://[fd00::1]:8443', '[fd00::1]:8443'), true);
    assert.equal(noProxy('https://anything.net', '*'), true);
    assert.equal(noProxy('https://anything.net', '', '.', '*.'), false);
  });

  it('verifies certificates on direct requests always, through the proxy unless http.proxyStrictSSL is off', () => {
    const strict = networkPolicy({ proxy: CORP });
    const lax = networkPolicy({ proxy: CORP, proxyStrictSSL: false });
    assert.equal(strict.strictSSL, true);
    const proxied = route(lax, 'https://gateway.alephium.org');
    const direct = route(lax, 'https://localhost:8443');
    assert.equal(verifiesCertificates(strict, route(strict, 'https://gateway.alephium.org')), true);
    assert.equal(verifiesCertificates(lax, proxied), false);
    assert.equal(verifiesCertificates(lax, direct), true);
    assert.equal(verifiesCertificates(networkPolicy({ proxyStrictSSL: false }), direct), true);
  });
});

describe('the network policy: which certificates are trusted', () => {
  const environment = { NODE_EXTRA_CA_CERTS: '/etc/corp/ca.pem' };

  it("reads the system's store where Node has a reader, the Linux bundles otherwise, and NODE_EXTRA_CA_CERTS", () => {
    assert.deepEqual(
      certificateSources({ systemCertificates: true, hasSystemStore: false, platform: 'linux', environment }),
      { systemStore: false, systemBundles: LINUX_CA_BUNDLES, extraFile: '/etc/corp/ca.pem' },
    );
    assert.deepEqual(
      certificateSources({
        systemCertificates: true,
        hasSystemStore: true,
        platform: 'linux',
        environment: {},
      }),
      { systemStore: true, systemBundles: [] },
    );
    assert.deepEqual(
      certificateSources({
        systemCertificates: true,
        hasSystemStore: false,
        platform: 'win32',
        environment: {},
      }),
      { systemStore: false, systemBundles: [] },
    );
  });

  it('http.systemCertificates off leaves only NODE_EXTRA_CA_CERTS', () => {
    assert.deepEqual(
      certificateSources({ systemCertificates: false, hasSystemStore: true, platform: 'linux', environment }),
      { systemStore: false, systemBundles: [], extraFile: '/etc/corp/ca.pem' },
    );
  });

  it("keeps the certificates of a bundle that are new: each once, not Node's roots again, not keys", () => {
    const a = '-----BEGIN CERTIFICATE-----\nAAAA\nAAAA\n-----END CERTIFICATE-----';
    const b = '-----BEGIN CERTIFICATE-----\nBBBB\n-----END CERTIFICATE-----';
    const c = '-----BEGIN CERTIFICATE-----\nCCCC\n-----END CERTIFICATE-----';
    const key = '-----BEGIN PRIVATE KEY-----\nKKKK\n-----END PRIVATE KEY-----';
    // The same certificate with other line breaks (Node's roots and a system bundle differ so).
    const aRewrapped = '-----BEGIN CERTIFICATE-----\r\nAAAAAAAA\r\n-----END CERTIFICATE-----';
    assert.deepEqual(certificatesBeyond([], [`# corp\n${a}\n${key}\n${b}\n`, `${a}\r\n`]), [a, b]);
    assert.deepEqual(certificatesBeyond([aRewrapped, c], [`${a}\n${b}\n${c}`]), [b]);
    assert.deepEqual(certificatesBeyond([a], ['', 'not a certificate']), []);
  });
});
