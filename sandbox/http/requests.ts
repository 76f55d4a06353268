/**
 * Request handling of the sandbox: the control API (loopback only), and the Node API behind the slug, the
 * Bearer key, the rate limit and the injected faults, as a real gateway puts them in front of a node.
 */
import type http from 'node:http';
import type { SandboxContext, RequestLogEntry } from './context';
import type { ControlRequest } from './controlRoutes';
import type { Fault } from './faults';
import type { NodeRequest } from './nodeRoutes';
import { isLoopback, send, sendError, type Route } from './plumbing';

export function handleControl(
  controls: Route<ControlRequest>[],
  req: http.IncomingMessage,
  res: http.ServerResponse,
  path: string,
  q: URLSearchParams,
  raw: string,
): void {
  if (!isLoopback(req.socket.remoteAddress))
    return send(res, 403, { detail: 'The control API is loopback only' });
  let body: Record<string, unknown> = {};
  if (raw !== '') {
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return send(res, 400, { detail: 'Body is not valid JSON' });
    }
  }
  for (const c of controls) {
    if (c.method !== req.method) continue;
    const m = c.pattern.exec(path);
    if (!m) continue;
    try {
      return send(res, 200, c.handler({ body, params: m.slice(1), q }) ?? {});
    } catch (e) {
      return sendError(res, e, {});
    }
  }
  return send(res, 404, { detail: `Unknown control route ${req.method} ${path}` });
}

/** The slug, the Bearer key and the rate limit: the rate-limit headers to answer with, or undefined once answered. */
function admit(
  ctx: SandboxContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  reqSlug: string,
): Record<string, string> | undefined {
  const { limiter } = ctx;
  if (reqSlug !== ctx.slug) {
    send(
      res,
      404,
      { detail: `Unknown endpoint slug '${reqSlug}'`, resource: reqSlug },
      limiter.anonymousHeaders(),
    );
    return undefined;
  }
  const auth = req.headers.authorization;
  const m = auth === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(auth);
  if (!m) {
    send(
      res,
      401,
      { detail: 'Missing or malformed Authorization header: expected "Bearer <API key>"' },
      limiter.anonymousHeaders(),
    );
    return undefined;
  }
  const rec = limiter.get(m[1] as string);
  const refusal = !rec
    ? 'Invalid API key'
    : rec.status === 'expired'
      ? 'API key has expired'
      : rec.status === 'revoked'
        ? 'API key has been revoked'
        : undefined;
  if (!rec || refusal !== undefined) {
    send(res, 401, { detail: refusal }, limiter.anonymousHeaders());
    return undefined;
  }
  const decision = limiter.check(rec);
  if (!decision.allowed) {
    send(res, 429, { detail: decision.detail }, decision.headers);
    return undefined;
  }
  return decision.headers;
}

/** Answers an injected fault; false when the request goes on (after a delay). */
async function injectFault(
  fault: Fault,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  headers: Record<string, string>,
  entry: RequestLogEntry,
): Promise<boolean> {
  switch (fault.kind) {
    case 'drop':
      entry.status = 0;
      req.socket.destroy();
      return true;
    case 'delay':
      await new Promise((r) => setTimeout(r, fault.delayMs ?? 1000));
      return false;
    case '500':
      send(res, 500, { detail: fault.detail ?? 'Internal server error (injected)' }, headers);
      return true;
    case '503':
      send(
        res,
        503,
        { detail: fault.detail ?? 'The clique is not synced yet: unsynced clique (injected)' },
        headers,
      );
      return true;
    case '504':
      send(res, 504, { detail: fault.detail ?? 'Gateway timeout (injected)' }, headers);
      return true;
    case 'status':
      send(
        res,
        fault.status ?? 500,
        { detail: fault.detail ?? `Injected status ${fault.status ?? 500}` },
        headers,
      );
      return true;
    case 'not-json': {
      const body = '<html><body>502 Bad Gateway</body></html>';
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
        ...headers,
      });
      res.end(body);
      return true;
    }
    case 'wrong-shape':
      send(res, 200, fault.body ?? { unexpected: true, data: [1, 2, 3] }, headers);
      return true;
  }
  return false;
}

export async function handleApi(
  ctx: SandboxContext,
  routes: Route<NodeRequest>[],
  req: http.IncomingMessage,
  res: http.ServerResponse,
  path: string,
  q: URLSearchParams,
  raw: string,
  entry: RequestLogEntry,
): Promise<void> {
  const method = req.method ?? 'GET';
  const second = path.indexOf('/', 1);
  const reqSlug = second < 0 ? path.slice(1) : path.slice(1, second);
  const rest = second < 0 ? '/' : path.slice(second);
  const headers = admit(ctx, req, res, reqSlug);
  if (!headers) return;

  const fault = ctx.faults.take(method, rest);
  if (fault && (await injectFault(fault, req, res, headers, entry))) return;

  let body: unknown = undefined;
  if (raw !== '') {
    try {
      body = JSON.parse(raw);
    } catch {
      return send(res, 400, { detail: 'Invalid value for: body (not valid JSON)' }, headers);
    }
  }
  let pathMatched = false;
  for (const r of routes) {
    const mm = r.pattern.exec(rest);
    if (!mm) continue;
    pathMatched = true;
    if (r.method !== method) continue;
    try {
      return send(res, 200, r.handler({ q, body, params: mm.slice(1).map(decodeURIComponent) }), headers);
    } catch (e) {
      return sendError(res, e, headers);
    }
  }
  return send(
    res,
    404,
    {
      detail: pathMatched ? `Method ${method} not allowed on ${rest}` : `Not found: ${rest}`,
      resource: rest,
    },
    headers,
  );
}
