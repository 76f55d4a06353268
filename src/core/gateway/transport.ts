/**
 * The transport is the only place that touches the network. The client takes it as a function so that
 * tests inject a fake one; the default implementation uses undici with a keep-alive agent, and a
 * ProxyAgent for the requests core/gateway/networkPolicy.ts routes through VS Code's proxy.
 */
import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import * as tls from 'node:tls';
import { ResponseTooLargeError } from './errors';
import { certificatesBeyond, routeFor, verifiesCertificates, type NetworkPolicy } from './networkPolicy';

/** Largest response body read (the node's biggest answers, blocks of a range, are a few MB). */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * undici is most of the extension's code by size (about 300 KB minified), so it is loaded on the first
 * request rather than at activation. The build keeps it in one CommonJS file of its own, dist/undici.cjs.
 */
let undiciModule: Promise<typeof Undici> | undefined;
const loadUndici = (): Promise<typeof Undici> => (undiciModule ??= import('undici'));

export type HttpMethod = 'GET' | 'POST';

export interface TransportRequest {
  readonly method: HttpMethod;
  readonly url: string;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal: AbortSignal;
  /** The body is read up to this many bytes; past it the read stops with ResponseTooLargeError. */
  readonly maxBodyBytes?: number;
}

export interface TransportResponse {
  readonly status: number;
  /** Lower-case header names; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly bodyText: string;
}

export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/** How requests reach the network: the policy (proxy, noProxy, strictness) and whom TLS trusts. */
export interface NetworkOptions {
  readonly policy: NetworkPolicy;
  /** PEM certificates trusted besides Node's built-in roots (the system's, `NODE_EXTRA_CA_CERTS`). */
  readonly extraCertificates?: readonly string[];
}

/**
 * The network options, or how to read them on the first request: reading the machine's certificate
 * bundle and comparing it with Node's roots takes tens of milliseconds, which activation must not pay
 * for a client that may never send.
 */
export type NetworkOptionsSource = NetworkOptions | (() => NetworkOptions);

export interface UndiciTransportOptions {
  /** Default: straight to the target, trusting Node's built-in roots. */
  readonly network?: NetworkOptionsSource;
  /** How long an idle keep-alive socket is kept. */
  readonly keepAliveTimeoutMs?: number;
  /** Maximum sockets per origin. */
  readonly connections?: number;
}

export interface ClosableTransport {
  readonly send: Transport;
  /** Closes the keep-alive sockets (on dispose or when the proxy settings change). */
  close(): Promise<void>;
}

export function createUndiciTransport(options: UndiciTransportOptions = {}): ClosableTransport {
  interface Dispatchers {
    readonly policy: NetworkPolicy;
    readonly direct: Dispatcher;
    readonly proxy: Dispatcher | undefined;
    readonly request: typeof Undici.request;
  }
  let dispatchers: Promise<Dispatchers> | undefined;
  const ready = (): Promise<Dispatchers> =>
    (dispatchers ??= loadUndici().then(({ Agent, ProxyAgent, request }) => {
      const network = typeof options.network === 'function' ? options.network() : options.network;
      const policy = network?.policy ?? DIRECT;
      const pooling = {
        keepAliveTimeout: options.keepAliveTimeoutMs ?? 10_000,
        connections: options.connections ?? 16,
      };
      const trust = trustOptions(network?.extraCertificates ?? []);
      const proxied = policy.proxy && { via: 'proxy' as const, proxy: policy.proxy };
      return {
        policy,
        direct: new Agent({ ...pooling, connect: { ...trust } }),
        proxy: proxied
          ? new ProxyAgent({
              ...pooling,
              uri: proxied.proxy.url,
              ...(proxied.proxy.authorization ? { token: proxied.proxy.authorization } : {}),
              // Always a CONNECT tunnel (only https is routed here): the proxy never reads a request or its key.
              proxyTunnel: true,
              requestTls: { ...trust, rejectUnauthorized: verifiesCertificates(policy, proxied) },
              proxyTls: { ...trust, rejectUnauthorized: verifiesCertificates(policy, proxied) },
            })
          : undefined,
        request,
      };
    }));

  const send: Transport = async (req) => {
    const { policy, direct, proxy, request } = await ready();
    const viaProxy = proxy !== undefined && routeFor(policy, new URL(req.url)).via === 'proxy';
    const response = await request(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      signal: req.signal,
      dispatcher: viaProxy ? proxy : direct,
    });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const limit = req.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      response.body.destroy();
      throw new ResponseTooLargeError(undefined, limit);
    }
    // Read in chunks with a running total: a body that never ends, or a huge one, costs at most `limit`.
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) {
        response.body.destroy();
        throw new ResponseTooLargeError(undefined, limit);
      }
      chunks.push(chunk);
    }
    return { status: response.statusCode, headers, bodyText: Buffer.concat(chunks).toString('utf8') };
  };

  let closing: Promise<void> | undefined;
  return {
    send,
    // Idempotent: a second close must not ask undici's already-closed agent again (it rejects).
    close: () =>
      (closing ??= (async () => {
        if (!dispatchers) return;
        const { direct, proxy } = await dispatchers;
        await Promise.all([direct.close(), proxy?.close()]);
      })().catch(() => undefined)),
  };
}

const DIRECT: NetworkPolicy = { proxy: undefined, noProxy: [], strictSSL: true };

/**
 * TLS options that trust `extra` besides Node's built-in roots (a `ca` list replaces them, so they are
 * listed too); none when `extra` adds nothing (a system bundle is mostly Node's roots again). Building
 * a secure context of a few hundred roots takes tens of milliseconds, so the last one is kept for the
 * next client (a profile switch, a key check) rather than built again.
 */
function trustOptions(extra: readonly string[]): { secureContext?: tls.SecureContext } {
  const added = certificatesBeyond(tls.rootCertificates, extra);
  if (added.length === 0) return {};
  const key = added.join('\n');
  if (lastContext?.key !== key)
    lastContext = { key, context: tls.createSecureContext({ ca: [...tls.rootCertificates, ...added] }) };
  return { secureContext: lastContext.context };
}

let lastContext: { readonly key: string; readonly context: tls.SecureContext } | undefined;
