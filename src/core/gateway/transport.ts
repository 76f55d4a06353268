/**
 * The transport is the only place that touches the network. The client takes it as a function so that
 * tests inject a fake one; the default implementation uses undici with a keep-alive agent, or a
 * ProxyAgent when the VS Code side passes its `http.proxy` settings.
 */
import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import { ResponseTooLargeError } from './errors';

/** Largest response body read (the node's biggest answers, blocks of a range, are a few MB). */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * undici is most of the extension's code by size (about 300 KB minified), so it is loaded on the first
 * request rather than at activation. The production build keeps it in its own file, dist/undici.js.
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

/** Proxy settings as VS Code holds them (`http.proxy`, `http.proxyStrictSSL`, `http.noProxy`, ...). */
export interface ProxySettings {
  /** e.g. `http://proxy.corp:3128`; credentials in the URL are supported. */
  readonly url: string;
  /** `http.proxyStrictSSL`: verify the TLS certificate of the target through the proxy. Default true. */
  readonly strictSSL?: boolean;
  /** `http.proxyAuthorization`: sent as Proxy-Authorization. */
  readonly authorization?: string;
  /** `http.noProxy`: hosts (or `.suffix` domains) that bypass the proxy. */
  readonly noProxy?: readonly string[];
  /**
   * Loopback (a local devnet) bypasses the proxy by default: a corporate proxy cannot reach the
   * developer's machine. False sends loopback through the proxy too.
   */
  readonly bypassLoopback?: boolean;
}

export interface UndiciTransportOptions {
  readonly proxy?: ProxySettings;
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
    readonly direct: Dispatcher;
    readonly proxy: Dispatcher | undefined;
    readonly request: typeof Undici.request;
  }
  let dispatchers: Promise<Dispatchers> | undefined;
  const ready = (): Promise<Dispatchers> =>
    (dispatchers ??= loadUndici().then(({ Agent, ProxyAgent, request }) => ({
      direct: new Agent({
        keepAliveTimeout: options.keepAliveTimeoutMs ?? 10_000,
        connections: options.connections ?? 16,
      }),
      proxy: options.proxy
        ? new ProxyAgent({
            uri: options.proxy.url,
            ...(options.proxy.authorization ? { token: options.proxy.authorization } : {}),
            requestTls: { rejectUnauthorized: options.proxy.strictSSL !== false },
          })
        : undefined,
      request,
    })));

  const send: Transport = async (req) => {
    const { direct, proxy, request } = await ready();
    const viaProxy =
      proxy &&
      !bypassesProxy(new URL(req.url).hostname, options.proxy?.noProxy ?? [], options.proxy?.bypassLoopback);
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

export function bypassesProxy(hostname: string, noProxy: readonly string[], bypassLoopback = true): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (bypassLoopback && (host === 'localhost' || host === '::1' || host.startsWith('127.'))) return true;
  return noProxy.some((entry) => {
    const rule = entry.trim().toLowerCase();
    if (!rule) return false;
    if (rule === '*') return true;
    const suffix = rule.startsWith('.') ? rule : rule.startsWith('*.') ? rule.slice(1) : undefined;
    return suffix ? host.endsWith(suffix) || host === suffix.slice(1) : host === rule;
  });
}
