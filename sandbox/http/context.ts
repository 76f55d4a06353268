/**
 * What the sandbox's routes, control API and request handling share: the chain, the fault injector, the
 * rate limiter, the request log, and the little state the control API changes.
 */
import type { Chain, Account } from '../chain';
import type { Clock } from '../clock';
import type { FaultInjector } from './faults';
import type { RateLimiter } from './ratelimit';

export interface SandboxInfo {
  baseUrl: string;
  slug: string;
  apiKeys: { free: string; starter: string; pro: string; expired: string; revoked: string };
  accounts: Account[];
  contracts: {
    name: string;
    address: string;
    contractId: string;
    groupIndex: number;
    codeHash: string;
    deployTxId: string;
    artifact: string;
  }[];
}

export interface RequestLogEntry {
  seq: number;
  time: number;
  method: string;
  /** Path with query string, as received. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  status?: number;
}

export interface SandboxContext {
  readonly chain: Chain;
  readonly clock: Clock;
  readonly faults: FaultInjector;
  readonly limiter: RateLimiter;
  readonly slug: string;
  /** Largest /blockflow/blocks span before a 504. */
  readonly maxSpan: number;
  readonly apiKeys: SandboxInfo['apiKeys'];
  readonly requests: RequestLogEntry[];
  /** Set by the control API's `/sync {synced: false}`: unsynced without any 503. */
  forcedUnsynced: boolean;
  /** Keys made by the control API so far (each gets a distinct name). */
  keyCounter: number;
  /** The port the server listens on (known once it listens). */
  port(): number;
  info(): SandboxInfo;
}

export function isSynced(ctx: SandboxContext): boolean {
  return !ctx.faults.unsynced && !ctx.forcedUnsynced;
}
