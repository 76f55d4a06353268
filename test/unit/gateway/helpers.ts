/**
 * Test doubles for the gateway client: a fake clock that only moves when the test drives it, and a
 * scripted transport that records every request. Together they make retries, backoff and pacing
 * deterministic without real waiting.
 */
import { abortError, type Clock } from '../../../src/core/util/clock';
import { GatewayClient, type GatewayClientOptions } from '../../../src/core/gateway/client';
import type { ConnectionProfile } from '../../../src/core/profiles/profile';
import type { Transport, TransportRequest, TransportResponse } from '../../../src/core/gateway/transport';

interface Timer {
  at: number;
  seq: number;
  resolve: () => void;
}

/** Lets pending promise callbacks and I/O callbacks run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

export class FakeClock implements Clock {
  private timers: Timer[] = [];
  private seq = 0;

  constructor(public time = Date.UTC(2025, 4, 10, 12, 0, 0)) {}

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortError(signal));
        return;
      }
      const timer: Timer = { at: this.time + Math.max(0, ms), seq: this.seq++, resolve };
      timer.resolve = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        this.timers = this.timers.filter((t) => t !== timer);
        reject(abortError(signal));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.timers.push(timer);
    });
  }

  get pending(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms`, firing due timers in order and letting their callbacks run. */
  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    await flush();
    for (;;) {
      const next = this.nextTimer();
      if (!next || next.at > target) break;
      this.fire(next);
      await flush();
    }
    this.time = target;
    await flush();
  }

  /** Drives time until `promise` settles; fails if nothing can make progress (a deadlock). */
  async run<T>(promise: Promise<T>, maxMs = 24 * 3600_000): Promise<T> {
    let settled = false;
    const watched = promise.finally(() => {
      settled = true;
    });
    watched.catch(() => undefined);
    const limit = this.time + maxMs;
    await flush();
    while (!settled) {
      const next = this.nextTimer();
      if (!next) throw new Error('FakeClock.run: the promise is stuck and no timer is pending');
      if (next.at > limit) throw new Error('FakeClock.run: time limit reached');
      this.fire(next);
      await flush();
    }
    return watched;
  }

  private nextTimer(): Timer | undefined {
    return [...this.timers].sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
  }

  private fire(timer: Timer): void {
    this.timers = this.timers.filter((t) => t !== timer);
    if (timer.at > this.time) this.time = timer.at;
    timer.resolve();
  }
}

export type Reply =
  TransportResponse | Error | ((req: TransportRequest) => TransportResponse | Promise<TransportResponse>);

export interface LoggedRequest extends TransportRequest {
  readonly path: string;
  readonly at: number;
}

/**
 * Answers by path (after the slug prefix). Each route holds a queue of replies; the last one repeats.
 * An Error reply rejects, like a dropped connection.
 */
export class FakeTransport {
  readonly requests: LoggedRequest[] = [];
  private readonly routes: { method: string | undefined; pattern: RegExp; replies: Reply[] }[] = [];

  constructor(
    private readonly clock: FakeClock,
    private readonly prefix = 'https://gw.test/my-slug',
  ) {}

  /** `pattern` matches the path with its query, e.g. `/infos/version` or /^\/events\/contract\//. */
  on(pattern: string | RegExp, ...replies: Reply[]): this {
    return this.onMethod(undefined, pattern, ...replies);
  }

  onMethod(method: string | undefined, pattern: string | RegExp, ...replies: Reply[]): this {
    const regex = typeof pattern === 'string' ? new RegExp(`^${escape(pattern)}(\\?.*)?$`) : pattern;
    this.routes.unshift({ method, pattern: regex, replies });
    return this;
  }

  paths(): string[] {
    return this.requests.map((r) => r.path);
  }

  count(pattern: string | RegExp): number {
    const regex = typeof pattern === 'string' ? new RegExp(`^${escape(pattern)}(\\?.*)?$`) : pattern;
    return this.requests.filter((r) => regex.test(r.path)).length;
  }

  readonly send: Transport = async (req) => {
    if (!req.url.startsWith(this.prefix)) throw new Error(`unexpected URL ${req.url}`);
    const path = req.url.slice(this.prefix.length);
    this.requests.push({ ...req, path, at: this.clock.now() });
    const route = this.routes.find((r) => (!r.method || r.method === req.method) && r.pattern.test(path));
    if (!route) return json(599, { detail: `no fake route for ${req.method} ${path}` });
    const reply = route.replies.length > 1 ? route.replies.shift() : route.replies[0];
    if (reply === undefined) throw new Error('empty route');
    if (reply instanceof Error) throw reply;
    if (typeof reply === 'function') return reply(req);
    return reply;
  };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): TransportResponse {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    bodyText: JSON.stringify(body),
  };
}

export function rateHeaders(limit: number, remaining: number, resetSeconds: number): Record<string, string> {
  return {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(resetSeconds),
  };
}

/** A reply that never comes until the request is aborted (a hung connection). */
export function hang(): Reply {
  return (req) =>
    new Promise<TransportResponse>((_, reject) => {
      req.signal.addEventListener('abort', () => reject(new Error('aborted by client')), { once: true });
    });
}

export const PROFILE: ConnectionProfile = {
  kind: 'gateway',
  baseUrl: 'https://gw.test',
  slug: 'my-slug',
  network: 'testnet',
  plan: 'free',
};

export const KEY = 'sk_test_abcdef123456';

export interface Harness {
  clock: FakeClock;
  transport: FakeTransport;
  client: GatewayClient;
  logs: string[];
}

export function harness(options: Partial<GatewayClientOptions> = {}): Harness {
  const clock = options.clock instanceof FakeClock ? options.clock : new FakeClock();
  const transport = new FakeTransport(clock);
  const logs: string[] = [];
  const push = (level: string) => (m: string) => void logs.push(`${level} ${m}`);
  const client = new GatewayClient({
    profile: PROFILE,
    keyProvider: () => KEY,
    transport: transport.send,
    clock,
    random: () => 0.5,
    logger: {
      trace: push('trace'),
      debug: push('debug'),
      info: push('info'),
      warn: push('warn'),
      error: push('error'),
    },
    ...options,
  });
  return { clock, transport, client, logs };
}

/** Settles a promise into a value or its error, for asserting on errors with the fake clock. */
export async function outcome<T>(
  clock: FakeClock,
  promise: Promise<T>,
): Promise<{ value?: T; error?: unknown }> {
  try {
    return { value: await clock.run(promise) };
  } catch (error) {
    return { error };
  }
}

// ---- fixtures ----------------------------------------------------------------------------------------

export const P2PKH = '18TPRqR14snEkS38gFXCAv6UsvAAePihDSwV9ZR7UgeWB';
export const P2PKH_2 = '13U1z3ouFjHc6vUiSu4HLLgBXrrJ5dKwYRZRGKq7SAf8G';
export const CONTRACT = '224MaeAjkC8CBAZtktHYwdoxSxkeB3X98aZW4CwxaSRi1';
export const CONTRACT_2 = 'tgx7VNFoP9DJiFMFgXXtafQZkUvyEdDHT9ryamHJYrjq';
export const PUBKEY = '03f4005ac8677f7ad62c14803b61bed9da98980144086e6df9dbf81b8e94c94f16';
export const TX_ID = 'a'.repeat(64);
export const BLOCK_HASH = 'b'.repeat(64);
export const CODE_HASH = 'c'.repeat(64);
export const SIGNATURE = 'd'.repeat(128);

export const SELF_CLIQUE_SYNCED = {
  cliqueId: '02aa',
  nodes: [{ address: '127.0.0.1', restPort: 12973, wsPort: 11973, minerApiPort: 10973 }],
  selfReady: true,
  synced: true,
};

export const CONTRACT_STATE = {
  address: CONTRACT,
  bytecode: '0101',
  codeHash: CODE_HASH,
  immFields: [{ type: 'U256', value: '7' }],
  mutFields: [{ type: 'U256', value: '1' }],
  asset: { attoAlphAmount: '100000000000000000' },
};

export const UNSIGNED_TX = {
  txId: TX_ID,
  version: 0,
  networkId: 1,
  gasAmount: 20000,
  gasPrice: '100000000000',
  inputs: [{ outputRef: { hint: 1, key: 'e'.repeat(64) }, unlockScript: '00' + PUBKEY }],
  fixedOutputs: [
    {
      hint: 2,
      key: 'f'.repeat(64),
      attoAlphAmount: '1000000000000000000',
      address: P2PKH_2,
      tokens: [],
      lockTime: 0,
      message: '',
    },
  ],
};

export const TX_DETAILS = {
  unsigned: UNSIGNED_TX,
  scriptExecutionOk: true,
  contractInputs: [],
  generatedOutputs: [],
  inputSignatures: [SIGNATURE],
  scriptSignatures: [],
};

export function event(i: number): Record<string, unknown> {
  return {
    blockHash: BLOCK_HASH,
    txId: TX_ID,
    timestamp: 1_700_000_000_000 + i,
    contractAddress: CONTRACT,
    eventIndex: 0,
    fields: [{ type: 'U256', value: String(i) }],
  };
}
