/**
 * HTTP plumbing of the sandbox: route tables, parameter checks worded as the node's 400s, and the JSON
 * answers (one place decides how each kind of error is answered).
 */
import type http from 'node:http';
import { parseAddress } from '../../src/core/protocol';
import { BadRequest, NotFound } from '../chain';
import { ScriptRejected } from '../vm/scriptCodec';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly resource?: string,
  ) {
    super(message);
  }
}

export const MAX_BODY = 1 << 20;
export const MAX_LOG = 20_000;

export function isLoopback(addr: string | undefined): boolean {
  return addr === '127.0.0.1' || addr === '::1' || addr === '::ffff:127.0.0.1';
}

/** One route: a method, a path with `{name}` parameters (under `prefix`), and its handler. */
export interface Route<C> {
  method: string;
  pattern: RegExp;
  handler: (ctx: C) => unknown;
}

/** A route table: `add` registers a route, in the order they are tried. */
export function routeTable<C>(prefix = '') {
  const routes: Route<C>[] = [];
  const add = (method: string, path: string, handler: (ctx: C) => unknown) => {
    routes.push({
      method,
      pattern: new RegExp(`^${prefix}${path.replace(/\{[^}]+\}/g, '([^/]+)')}$`),
      handler,
    });
  };
  return { routes, add };
}

export function intParam(
  q: URLSearchParams,
  name: string,
  opts: { required?: boolean; min?: number; max?: number } = {},
): number | undefined {
  const raw = q.get(name);
  if (raw === null || raw === '') {
    if (opts.required) throw new HttpError(400, `Invalid value for: query parameter ${name} (missing)`);
    return undefined;
  }
  if (!/^-?\d+$/.test(raw))
    throw new HttpError(
      400,
      `Invalid value for: query parameter ${name} (expected an integer, got '${raw.slice(0, 40)}')`,
    );
  const n = Number(raw);
  if (
    (opts.min !== undefined && n < opts.min) ||
    (opts.max !== undefined && n > opts.max) ||
    !Number.isSafeInteger(n)
  ) {
    throw new HttpError(
      400,
      `Invalid value for: query parameter ${name} (${raw} is out of range${opts.min !== undefined ? ` ${opts.min}..${opts.max ?? ''}` : ''})`,
    );
  }
  return n;
}

export function groupParam(q: URLSearchParams, name: string, required = false) {
  return intParam(q, name, { required, min: 0, max: 3 });
}

export function checkHex32(s: string, what: string): string {
  if (!/^[0-9a-fA-F]{64}$/.test(s))
    throw new HttpError(400, `Invalid value for: path parameter ${what} (expected 32 bytes of hex)`);
  return s.toLowerCase();
}

export function checkAddressParam(a: string): string {
  try {
    parseAddress(a);
    return a;
  } catch (e) {
    throw new HttpError(
      400,
      `Invalid value for: path parameter address (Unable to decode address from ${a.slice(0, 80)}: ${(e as Error).message})`,
    );
  }
}

/** A request body that must be a JSON object. */
export function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new HttpError(400, 'Invalid value for: body (expected a JSON object)');
  return body as Record<string, unknown>;
}

export function send(
  res: http.ServerResponse,
  status: number,
  payload: unknown,
  headers: Record<string, string> = {},
): void {
  const body =
    typeof payload === 'string' && headers['Content-Type'] === 'text/plain'
      ? payload
      : JSON.stringify(payload);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}

export function sendError(res: http.ServerResponse, e: unknown, headers: Record<string, string>): void {
  if (e instanceof HttpError)
    return send(
      res,
      e.status,
      { detail: e.message, ...(e.resource ? { resource: e.resource } : {}) },
      headers,
    );
  if (e instanceof BadRequest || e instanceof ScriptRejected)
    return send(res, 400, { detail: e.message }, headers);
  if (e instanceof NotFound) return send(res, 404, { detail: e.message, resource: e.resource }, headers);
  console.error('sandbox: internal error', e);
  return send(res, 500, { detail: `Internal server error: ${(e as Error).message}` }, headers);
}
