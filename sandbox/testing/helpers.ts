/** Shared test plumbing: an in-process sandbox with the block timer off, and a tiny fetch wrapper. */
import type { GatewayProfile } from '../../src/core/gateway';
import { startSandbox, type Sandbox, type SandboxOptions } from '../http/server';

export interface Api {
  get(path: string, key?: string): Promise<Response>;
  post(path: string, body: unknown, key?: string): Promise<Response>;
  json<T = Record<string, unknown>>(path: string, body?: unknown): Promise<T>;
}

export async function newSandbox(opts: SandboxOptions = {}): Promise<{ sb: Sandbox; api: Api; key: string }> {
  // Blocks are mined on demand in tests, so nothing depends on timing.
  const sb = await startSandbox({ blockTimeMs: 0, ...opts });
  // An enterprise key keeps functional tests clear of the per-second limits (tested separately).
  const key = 'sbx_test_unlimited';
  sb.limiter.add(key, 'enterprise');
  const headers = (k: string) => ({ Authorization: `Bearer ${k}`, 'Content-Type': 'application/json' });
  const api: Api = {
    get: (path, k = key) => fetch(`${sb.apiUrl}${path}`, { headers: headers(k) }),
    post: (path, body, k = key) =>
      fetch(`${sb.apiUrl}${path}`, { method: 'POST', headers: headers(k), body: JSON.stringify(body) }),
    json: async <T>(path: string, body?: unknown) => {
      const res = body === undefined ? await api.get(path) : await api.post(path, body);
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${path} -> ${res.status} ${text}`);
      return JSON.parse(text) as T;
    },
  };
  return { sb, api, key };
}

export async function control<T = Record<string, unknown>>(
  sb: Sandbox,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${sb.baseUrl}/__sandbox${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`control ${method} ${path} -> ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** The gateway profile that points a GatewayClient at a sandbox (tests and benchmarks share it). */
export function sandboxProfile(
  sb: Pick<Sandbox, 'baseUrl' | 'slug'>,
  plan: GatewayProfile['plan'],
  limits?: GatewayProfile['limits'],
): GatewayProfile {
  return {
    kind: 'gateway',
    baseUrl: sb.baseUrl,
    slug: sb.slug,
    network: 'devnet',
    plan,
    ...(limits ? { limits } : {}),
  };
}
