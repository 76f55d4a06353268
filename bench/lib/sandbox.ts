/** The sandbox gateway and gateway clients as the benchmarks use them (in process, loopback only). */
import {
  GatewayClient,
  createUndiciTransport,
  type GatewayProfile,
  type Transport,
} from '../../src/core/gateway';
import {
  counterDef,
  startSandbox,
  type Account,
  type Plan,
  type RequestLogEntry,
  type Sandbox,
  type SandboxOptions,
} from '../../sandbox';
import { sandboxProfile } from '../../sandbox/testing/helpers';

export type { Sandbox };

export async function sandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  // No block timer unless asked: benchmarks mine when they trigger events, so runs are reproducible.
  return startSandbox({ blockTimeMs: 0, ...options });
}

/** Deploys `n` more Counter instances (mined at once) and returns every Counter address, oldest first. */
export function counters(sb: Sandbox, n: number): string[] {
  const existing = [...sb.chain.contracts.values()].filter((c) => c.def.name === 'Counter');
  const txs = [];
  for (let i = existing.length; i < n; i++) {
    const deployer = sb.chain.accounts[i % 4] as Account;
    txs.push(sb.chain.queueDeploy(counterDef(), deployer.group, deployer.address));
  }
  if (txs.length > 0) sb.chain.mine();
  const addresses = existing.map((c) => c.address);
  for (const tx of txs) {
    const address = tx.deploy?.address;
    if (!address) throw new Error('a Counter deployment did not produce an address');
    addresses.push(address);
  }
  return addresses.slice(0, n);
}

/** Queues `count` Counter.increment calls on `address` (each emits one visible event and one hidden Debug). */
export function trigger(sb: Sandbox, address: string, count = 1, mine = true): string[] {
  const c = sb.chain.contracts.get(address);
  if (!c) throw new Error(`no contract ${address}`);
  const caller = (sb.chain.accounts[c.group] as Account).address;
  const txIds: string[] = [];
  for (let i = 0; i < count; i++) txIds.push(sb.chain.queueCall(c, 'increment', [], caller).tx.txId);
  if (mine) sb.chain.mine();
  return txIds;
}

/** Visible events of a contract straight from the chain (the ground truth), as txId:eventIndex keys. */
export function visibleEventTxIds(sb: Sandbox, address: string): string[] {
  let count: number;
  try {
    count = sb.chain.eventCount(address);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (let start = 0; start < count;) {
    const page = sb.chain.contractEvents(address, start, 100);
    for (const e of page.events) out.push(`${String(e.txId)}:${String(e.eventIndex)}`);
    if (page.nextStart <= start) break;
    start = page.nextStart;
  }
  return out;
}

/** A fresh key of a plan (so that benchmarks sharing a sandbox never share a rate-limit window). */
export function newKey(sb: Sandbox, plan: Plan, label: string): string {
  const key = `sbx_bench_${plan}_${label}_${Math.random().toString(36).slice(2, 10)}`;
  sb.limiter.add(key, plan);
  return key;
}

export interface CountingTransport {
  readonly send: Transport;
  /** Requests put on the wire, by endpoint kind. */
  readonly counts: Map<string, number>;
  total(): number;
  reset(): void;
  close(): Promise<void>;
}

/** Classifies a URL path into the endpoint kinds the benchmarks report. */
export function endpointKind(path: string): string {
  const p = path.split('?')[0] as string;
  if (p.endsWith('/current-count')) return 'count';
  if (/\/events\/contract\/[^/]+$/.test(p)) return 'page';
  return p.replace(/^\/[^/]+/, '').replace(/\/[0-9A-Za-z]{30,}/g, '/{id}');
}

/** The real undici transport, counting every request it sends. */
export function countingTransport(): CountingTransport {
  const inner = createUndiciTransport();
  const counts = new Map<string, number>();
  return {
    counts,
    send: (request) => {
      const kind = endpointKind(new URL(request.url).pathname);
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
      return inner.send(request);
    },
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    reset: () => counts.clear(),
    close: () => inner.close(),
  };
}

export function gatewayClient(
  sb: Sandbox,
  key: string,
  plan: GatewayProfile['plan'],
  transport: Transport,
  limits?: GatewayProfile['limits'],
): GatewayClient {
  return new GatewayClient({
    profile: sandboxProfile(sb, plan, limits),
    keyProvider: () => key,
    transport,
  });
}

/** Sandbox log entries sent with `key`. */
export function requestsOfKey(sb: Sandbox, key: string): RequestLogEntry[] {
  return sb.requests.filter((r) => r.headers.authorization === `Bearer ${key}`);
}

/** An in-memory cursor store (what VS Code's Memento is to the watcher). */
export function memoryStore(): { get(key: string): unknown; set(key: string, value: unknown): void } {
  const map = new Map<string, unknown>();
  return {
    get: (key) => map.get(key),
    set: (key, value) => {
      if (value === undefined) map.delete(key);
      else map.set(key, value);
    },
  };
}
