/**
 * Where a request goes on its way to the gateway: straight to it, or through the proxy VS Code is set up
 * with (`http.proxy`, else the `HTTPS_PROXY` environment), and how strictly its TLS certificate is checked.
 * The one owner of those rules; the VS Code side reads the settings and hands them in, the transport asks
 * `routeFor` on every request. Plain data in and out, so every rule is unit-tested.
 *
 * The API key never reaches a proxy in clear:
 * - an https target goes through a CONNECT tunnel; the proxy sees `CONNECT host:port` and its own
 *   Proxy-Authorization, and everything after it (headers, key, body) is TLS between the extension and the
 *   gateway;
 * - a plain http target is never proxied. A profile may use plain http only to this machine
 *   (core/profiles/profile.ts `baseUrlProblem`), which no proxy can reach anyway, and a tunnel would carry
 *   that request, key included, in clear through the proxy.
 */
import { isLoopbackHost } from '../profiles/profile';

/** VS Code's network settings and the process environment, as the VS Code side reads them. */
export interface NetworkSettings {
  /** `http.proxy`: e.g. `http://proxy.corp:3128`; credentials in the URL are allowed. Empty: none. */
  readonly proxy?: string;
  /** `http.proxyAuthorization`: the Proxy-Authorization header's value (it wins over URL credentials). */
  readonly proxyAuthorization?: string;
  /** `http.noProxy`: hosts, domains and addresses that are reached without the proxy. */
  readonly noProxy?: readonly string[];
  /** `http.proxyStrictSSL`: verify certificates on the way through the proxy. Default true. */
  readonly proxyStrictSSL?: boolean;
  /** `http.proxySupport`: `off` means extensions' requests do not use the proxy. */
  readonly proxySupport?: string;
  /** The process environment: `HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY` (either case). */
  readonly environment?: Readonly<Record<string, string | undefined>>;
}

export interface ProxyChoice {
  /** The proxy URL as undici takes it (with any credentials of the setting). */
  readonly url: string;
  /** Sent to the proxy as Proxy-Authorization (never to the gateway). */
  readonly authorization?: string;
  /** Where it came from, for the log: the setting or the environment variable's name. */
  readonly from: string;
  /** The URL without credentials, for the log. */
  readonly label: string;
}

export interface NetworkPolicy {
  readonly proxy: ProxyChoice | undefined;
  /** http.noProxy and NO_PROXY together. */
  readonly noProxy: readonly string[];
  /** Whether certificates are verified on requests through the proxy (always on direct requests). */
  readonly strictSSL: boolean;
  /** Why a configured proxy is not used (an unreadable or unsupported URL), for the log. */
  readonly problem?: string;
}

export type Route =
  | { readonly via: 'proxy'; readonly proxy: ProxyChoice }
  | {
      readonly via: 'direct';
      readonly why: 'noProxyConfigured' | 'plainHttp' | 'loopback' | 'noProxy';
    };

/** The environment variables of a proxy for https URLs, in the order VS Code's own proxy agent reads them. */
const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'] as const;
const NO_PROXY_VARIABLES = ['NO_PROXY', 'no_proxy'] as const;

/** The settings and the environment resolved into one policy (computed once per client). */
export function networkPolicy(settings: NetworkSettings): NetworkPolicy {
  const environment = settings.environment ?? {};
  const noProxy = [
    ...(settings.noProxy ?? []),
    ...splitList(firstSet(environment, NO_PROXY_VARIABLES)?.value ?? ''),
  ]
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const strictSSL = settings.proxyStrictSSL !== false;
  if (settings.proxySupport === 'off') return { proxy: undefined, noProxy, strictSSL };
  const fromSetting = settings.proxy?.trim();
  const fromEnvironment = fromSetting ? undefined : firstSet(environment, PROXY_VARIABLES);
  const raw = fromSetting || fromEnvironment?.value;
  if (!raw) return { proxy: undefined, noProxy, strictSSL };
  const from = fromSetting ? 'http.proxy' : fromEnvironment!.name;
  const parsed = parseProxyUrl(raw);
  if (typeof parsed === 'string')
    return { proxy: undefined, noProxy, strictSSL, problem: `the proxy of ${from} is not used: ${parsed}` };
  const authorization = settings.proxyAuthorization?.trim();
  const label = `${parsed.protocol}//${parsed.host}`;
  return {
    proxy: { url: parsed.href, ...(authorization ? { authorization } : {}), from, label },
    noProxy,
    strictSSL,
  };
}

/** How a request to `target` travels under `policy`. */
export function routeFor(policy: NetworkPolicy, target: URL): Route {
  if (!policy.proxy) return { via: 'direct', why: 'noProxyConfigured' };
  if (target.protocol !== 'https:') return { via: 'direct', why: 'plainHttp' };
  if (isLoopback(target.hostname)) return { via: 'direct', why: 'loopback' };
  if (matchesNoProxy(target, policy.noProxy)) return { via: 'direct', why: 'noProxy' };
  return { via: 'proxy', proxy: policy.proxy };
}

/**
 * Whether a request on `route` verifies the gateway's certificate. `http.proxyStrictSSL: false` is for a
 * proxy that inspects TLS with its own certificate; a direct request is always verified, since the only
 * one who would gain from skipping the check there is whoever is in the middle, and the key travels in it.
 */
export function verifiesCertificates(policy: NetworkPolicy, route: Route): boolean {
  return route.via === 'direct' || policy.strictSSL;
}

/**
 * Whether `target` is reached without the proxy by one of the `noProxy` entries, read as curl and VS Code
 * read `NO_PROXY`: `*` (everything), `host` or `.host` or `*.host` (that host and the hosts under it),
 * `host:port` (that port only), an IP address, or an IPv4 range `10.0.0.0/8`.
 */
export function matchesNoProxy(target: URL, noProxy: readonly string[]): boolean {
  const host = unbracketed(target.hostname.toLowerCase());
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  return noProxy.some((entry) => entryMatches(entry.trim().toLowerCase(), host, port));
}

function entryMatches(entry: string, host: string, port: string): boolean {
  if (entry === '') return false;
  if (entry === '*') return true;
  const slash = entry.indexOf('/');
  if (slash >= 0) return inIpv4Range(host, entry.slice(0, slash), entry.slice(slash + 1));
  const { name, entryPort } = splitHostPort(entry);
  if (entryPort !== undefined && entryPort !== port) return false;
  const domain = name.startsWith('*.') ? name.slice(2) : name.startsWith('.') ? name.slice(1) : name;
  if (domain === '') return false;
  return host === domain || host.endsWith(`.${domain}`);
}

/** `host`, `host:port`, `[v6]`, `[v6]:port`; a bare IPv6 address (several colons) has no port. */
function splitHostPort(entry: string): { name: string; entryPort?: string } {
  if (entry.startsWith('[')) {
    const close = entry.indexOf(']');
    const rest = entry.slice(close + 1);
    return {
      name: entry.slice(1, close),
      ...(rest.startsWith(':') ? { entryPort: rest.slice(1) } : {}),
    };
  }
  const colon = entry.indexOf(':');
  if (colon < 0 || entry.indexOf(':', colon + 1) >= 0) return { name: entry };
  return { name: entry.slice(0, colon), entryPort: entry.slice(colon + 1) };
}

function inIpv4Range(host: string, base: string, bitsText: string): boolean {
  const address = ipv4(host);
  const network = ipv4(base);
  const bits = Number(bitsText);
  if (address === undefined || network === undefined || !Number.isInteger(bits) || bits < 0 || bits > 32)
    return false;
  if (bits === 0) return true;
  const mask = (0xffffffff << (32 - bits)) >>> 0;
  return (address & mask) >>> 0 === (network & mask) >>> 0;
}

function ipv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined;
    value = value * 256 + Number(part);
  }
  return value;
}

/** This machine: the profile rule's hosts and the whole of 127.0.0.0/8. A proxy cannot reach them. */
function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return isLoopbackHost(host) || host === '::1' || inIpv4Range(host, '127.0.0.0', '8');
}

function unbracketed(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function parseProxyUrl(raw: string): URL | string {
  // Environment variables often leave out the scheme (`proxy.corp:3128`); curl reads that as http.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return 'it is not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `${url.protocol.slice(0, -1)} proxies are not supported (http:// or https:// only)`;
  if (!url.hostname) return 'it names no host';
  return url;
}

function firstSet(
  environment: Readonly<Record<string, string | undefined>>,
  names: readonly string[],
): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = environment[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

function splitList(text: string): string[] {
  return text.split(/[\s,]+/);
}

/**
 * Where this machine's CA certificates are on Linux, as Go and VS Code's proxy agent look for them (the
 * first that exists is the bundle): Debian and Ubuntu, Fedora and RHEL, openSUSE, CentOS 7, Alpine.
 */
export const LINUX_CA_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/ca-bundle.pem',
  '/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem',
  '/etc/ssl/cert.pem',
] as const;

export interface CertificateSources {
  /** Use Node's own reader of the system store (`tls.getCACertificates('system')`, Node 22.15 and later). */
  readonly systemStore: boolean;
  /** Otherwise the first of these files that exists is the system's bundle. */
  readonly systemBundles: readonly string[];
  /** `NODE_EXTRA_CA_CERTS`: read again for each client, not only when the process started. */
  readonly extraFile?: string;
}

/**
 * Which certificates are trusted besides Node's built-in roots: with `http.systemCertificates` (default
 * on) the system's (where a company installs the CA of its TLS inspection), and `NODE_EXTRA_CA_CERTS`.
 */
export function certificateSources(options: {
  readonly systemCertificates: boolean;
  readonly hasSystemStore: boolean;
  readonly platform: string;
  readonly environment: Readonly<Record<string, string | undefined>>;
}): CertificateSources {
  const extraFile = options.environment.NODE_EXTRA_CA_CERTS?.trim();
  const systemStore = options.systemCertificates && options.hasSystemStore;
  const systemBundles =
    options.systemCertificates && !systemStore && options.platform === 'linux' ? LINUX_CA_BUNDLES : [];
  return { systemStore, systemBundles, ...(extraFile ? { extraFile } : {}) };
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\s]*-----END CERTIFICATE-----/g;

/**
 * The PEM certificates of `texts` that are not among `known`, each once. Bundles repeat Node's own roots
 * (with other line breaks), so a certificate is compared by its base64 body. Linear in the text.
 */
export function certificatesBeyond(known: readonly string[], texts: readonly string[]): string[] {
  const seen = new Set(known.flatMap((text) => pemBlocks(text)).map(certificateBody));
  const added: string[] = [];
  for (const block of texts.flatMap((text) => pemBlocks(text))) {
    const body = certificateBody(block);
    if (seen.has(body)) continue;
    seen.add(body);
    added.push(block);
  }
  return added;
}

function pemBlocks(text: string): string[] {
  return text.match(PEM_CERTIFICATE) ?? [];
}

function certificateBody(block: string): string {
  return block.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');
}
