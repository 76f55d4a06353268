/**
 * The sandbox gateway: a real HTTP server on 127.0.0.1 implementing the Node Gateway API spec
 * (docs: /work/shared/spec/gateway-api.md) over an in-memory blockflow, plus a loopback-only control
 * API under /__sandbox for tests. Every integration test, benchmark and `npm start` talks to this.
 *
 * Start it in-process with {@link startSandbox}, or from the command line with `npm run sandbox`.
 * The routes are in ./nodeRoutes.ts, the control API in ./controlRoutes.ts, request handling (slug, key,
 * rate limit, faults) in ./requests.ts, and the HTTP helpers in ./plumbing.ts; this file starts and stops.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { blake2b256, bytesToHex } from '../../src/core/protocol';
import { Chain, type ForkResult } from '../chain';
import { systemClock, type Clock } from '../clock';
import { counterDef, tokenFaucetDef, type ContractDef } from '../vm/projectContracts';
import type { RequestLogEntry, SandboxContext, SandboxInfo } from './context';
import { controlRoutes, eventTicker } from './controlRoutes';
import { FaultInjector } from './faults';
import { nodeRoutes } from './nodeRoutes';
import { MAX_BODY, MAX_LOG, send, sendError } from './plumbing';
import { RateLimiter } from './ratelimit';
import { handleApi, handleControl } from './requests';

export type { RequestLogEntry, SandboxInfo } from './context';
export type { ForkResult } from '../chain';

export interface SandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Mines a block on every chain this often; 0 disables the timer (tests mine on demand). Default 1000. */
  blockTimeMs?: number;
  /** Triggers contract activity this often; 0 (default) disables it. */
  eventsEveryMs?: number;
  slug?: string;
  clock?: Clock;
  /** Largest /blockflow/blocks span before a 504 (the node's limit is 30 min; blocks here are denser). */
  maxBlocksSpanMs?: number;
}

export interface Sandbox extends SandboxInfo {
  /** Base URL of the node API including the slug: `${baseUrl}/${slug}`. */
  apiUrl: string;
  chain: Chain;
  faults: FaultInjector;
  limiter: RateLimiter;
  requests: RequestLogEntry[];
  /**
   * Mines one block on every chain now; with `ageMs`, timed that long ago (a late block, after the newest
   * block mined: `Chain.mineLate`). A bad or too large `ageMs` throws before anything is mined.
   */
  mine(opts?: { ageMs?: number }): void;
  /** Abandons the tip of chain (chainFrom, chainTo) for a sibling holding the same txs (`Chain.fork`). */
  fork(chainFrom: number, chainTo: number): ForkResult;
  close(): Promise<void>;
}

function deterministicKey(label: string): string {
  return `sbx_${label}_${bytesToHex(blake2b256(new TextEncoder().encode(`sandbox api key ${label}`))).slice(0, 32)}`;
}

/** The chain, the keys (one of each plan and status) and the shared state, before the server listens. */
function sandboxContext(opts: SandboxOptions, server: http.Server): SandboxContext {
  const clock = opts.clock ?? systemClock;
  const defs: ContractDef[] = [counterDef(), tokenFaucetDef()];
  const chain = new Chain(clock, defs);
  const limiter = new RateLimiter(clock);
  const apiKeys = {
    free: deterministicKey('free'),
    starter: deterministicKey('starter'),
    pro: deterministicKey('pro'),
    expired: deterministicKey('expired'),
    revoked: deterministicKey('revoked'),
  };
  limiter.add(apiKeys.free, 'free');
  limiter.add(apiKeys.starter, 'starter');
  limiter.add(apiKeys.pro, 'pro');
  limiter.add(apiKeys.expired, 'starter', 'expired');
  limiter.add(apiKeys.revoked, 'starter', 'revoked');
  const slug = opts.slug ?? 'sandbox';
  const port = () => (server.address() as AddressInfo).port;
  return {
    chain,
    clock,
    faults: new FaultInjector(),
    limiter,
    slug,
    maxSpan: opts.maxBlocksSpanMs ?? 10 * 60 * 1000,
    apiKeys,
    requests: [],
    forcedUnsynced: false,
    keyCounter: 0,
    port,
    info: () => ({
      baseUrl: `http://127.0.0.1:${port()}`,
      slug,
      apiKeys,
      accounts: chain.accounts.map((a) => ({ ...a })),
      contracts: [...chain.contracts.values()].map((c) => ({
        name: c.def.name,
        address: c.address,
        contractId: c.contractId,
        groupIndex: c.group,
        codeHash: c.def.artifact.codeHash,
        deployTxId: c.deployTxId,
        artifact: c.def.artifactPath,
      })),
    }),
  };
}

/** Reads a request's body (up to MAX_BODY), logs Node API requests, and hands it to its handler. */
function listener(ctx: SandboxContext): http.RequestListener {
  const routes = nodeRoutes(ctx);
  const controls = controlRoutes(ctx);
  let seq = 0;
  return (req, res) => {
    const url = req.url ?? '/';
    const qi = url.indexOf('?');
    const path = qi < 0 ? url : url.slice(0, qi);
    const q = new URLSearchParams(qi < 0 ? '' : url.slice(qi + 1));
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) tooBig = true;
      else chunks.push(c);
    });
    req.on('end', () => {
      const raw = chunks.length === 0 ? '' : Buffer.concat(chunks).toString('utf8');
      if (path.startsWith('/__sandbox/')) return handleControl(controls, req, res, path, q, raw);
      const entry: RequestLogEntry = {
        seq: ++seq,
        time: ctx.clock.now(),
        method: req.method ?? 'GET',
        path: url,
        headers: req.headers,
        body: raw,
      };
      const { requests } = ctx;
      requests.push(entry);
      if (requests.length > MAX_LOG) requests.splice(0, requests.length - MAX_LOG);
      res.on('finish', () => (entry.status = res.statusCode));
      if (tooBig) return send(res, 400, { detail: `Request body larger than ${MAX_BODY} bytes` });
      handleApi(ctx, routes, req, res, path, q, raw, entry).catch((e: unknown) => sendError(res, e, {}));
    });
  };
}

/** The block timer and the scheduled contract activity; unref'd, so they never keep a process alive. */
function startTimers(ctx: SandboxContext, opts: SandboxOptions): NodeJS.Timeout[] {
  const timers: NodeJS.Timeout[] = [];
  const blockTime = opts.blockTimeMs ?? 1000;
  // A failing tick (e.g. the faucet running dry after hours) must not take the whole server down.
  const guarded = (what: string, f: () => void) => () => {
    try {
      f();
    } catch (e) {
      console.error(`sandbox: ${what} failed: ${(e as Error).message}`);
    }
  };
  if (blockTime > 0)
    timers.push(
      setInterval(
        guarded('mining', () => ctx.chain.mine()),
        blockTime,
      ),
    );
  if (opts.eventsEveryMs && opts.eventsEveryMs > 0) {
    timers.push(setInterval(guarded('scheduled contract activity', eventTicker(ctx)), opts.eventsEveryMs));
  }
  for (const t of timers) t.unref();
  return timers;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const server = http.createServer();
  const ctx = sandboxContext(opts, server);
  server.on('request', listener(ctx));
  server.keepAliveTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const timers = startTimers(ctx, opts);

  const { chain, faults, limiter, requests } = ctx;
  const info = ctx.info();
  let closed = false;
  return {
    ...info,
    apiUrl: `${info.baseUrl}/${info.slug}`,
    chain,
    faults,
    limiter,
    requests,
    mine: (opts) => void (opts?.ageMs === undefined ? chain.mine() : chain.mineLate(opts.ageMs)),
    fork: (chainFrom, chainTo) => chain.fork(chainFrom, chainTo),
    close: async () => {
      if (closed) return;
      closed = true;
      for (const t of timers) clearInterval(t);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
