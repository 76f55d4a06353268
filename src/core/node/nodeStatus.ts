import { isGatewayError, QuotaExhaustedError, type GatewayClient, type RequestOptions } from '../gateway';
import { asOfSuffix, nextAgeChange } from '../text/age';

/**
 * What the probe saw, named: the node's own answer (synced, syncing) or why there is none (no key to
 * send, the host does not answer, the key is rejected, the month's quota is used up, requests refused
 * for the rate limit, or anything else).
 */
export type NodeSyncState =
  'synced' | 'syncing' | 'noKey' | 'unreachable' | 'unauthorized' | 'quota' | 'rateLimited' | 'error';

/** Why one read was refused or failed, in a word a row can show. */
export type ReadProblem = 'rate limit' | 'quota' | 'unreachable' | 'unauthorized' | 'no key' | 'error';

export interface ChainHeight {
  readonly fromGroup: number;
  readonly toGroup: number;
  /** Undefined when this chain's query failed. */
  readonly height: number | undefined;
  /** Why it failed (when it did). */
  readonly problem?: ReadProblem;
}

export interface NodeStatus {
  readonly sync: NodeSyncState;
  /** What went wrong, for the tooltip and the log. */
  readonly problem?: string;
  /** With `sync: 'quota'`: when the month's quota renews (ms). */
  readonly quotaUntil?: number;
  readonly version?: string;
  readonly networkId?: number;
  readonly groups?: number;
  readonly hashrate?: string;
  readonly heights: readonly ChainHeight[];
  /** When the sync state was last read (ms). */
  readonly fetchedAt: number;
  /** When the chain heights were read (ms); they are read only while someone looks at them. */
  readonly heightsAt?: number;
}

const GROUPS = 4;

/**
 * The Node view's one clock: while the view is visible and the node synced, its sync state is read this
 * often (one self-clique, a job of the background scheduler at a fixed pace, so the budget never
 * stretches it), and any request that meets a 503 says "syncing" at once. So a node that starts syncing
 * shows within {@link NODE_SYNCING_SHOWN_WITHIN_MS}. The code, the Sync row's tooltip and the docs say
 * this number.
 */
export const NODE_SYNC_CHECK_MS = 40_000;
/** What the view promises: the check's interval and the time to answer and render it. */
export const NODE_SYNCING_SHOWN_WITHIN_MS = 45_000;

/** The Sync row's tooltip: how the state is kept fresh, after what the last answer said went wrong. */
export function syncTooltip(status: NodeStatus | undefined): string {
  const how = `Checked every ${NODE_SYNC_CHECK_MS / 1000} s while this view is visible (one request); any request that meets a 503 shows "syncing" at once, and it clears by itself once the node is synced.`;
  return status?.problem ? `${status.problem}\n\n${how}` : how;
}

/** The word for why a read failed. */
export function readProblemOf(error: unknown): ReadProblem {
  if (error instanceof QuotaExhaustedError) return 'quota';
  if (isGatewayError(error)) {
    if (error.kind === 'rateLimited') return 'rate limit';
    if (error.kind === 'missingKey') return 'no key';
    if (error.kind === 'unauthorized') return 'unauthorized';
    if (error.kind === 'network' || error.kind === 'timeout') return 'unreachable';
  }
  return 'error';
}

/** Classifies a failure of the node probe into what the Node view says. */
export function syncStateOfError(error: unknown): {
  sync: NodeSyncState;
  problem: string;
  quotaUntil?: number;
} {
  const problem = error instanceof Error ? error.message : String(error);
  // Before the generic kinds: a used-up month is a 429 too, but waiting a second does not help.
  if (error instanceof QuotaExhaustedError) return { sync: 'quota', problem, quotaUntil: error.until };
  if (isGatewayError(error)) {
    // No key means nothing was sent: whether the host answers is not known, so only the key is named.
    if (error.kind === 'missingKey') return { sync: 'noKey', problem };
    if (error.kind === 'unauthorized') return { sync: 'unauthorized', problem };
    if (error.kind === 'unavailable') return { sync: 'syncing', problem };
    if (error.kind === 'rateLimited') return { sync: 'rateLimited', problem };
    if (error.kind === 'network' || error.kind === 'timeout') return { sync: 'unreachable', problem };
  }
  return { sync: 'error', problem };
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The Sync row's words: the state seen, and its age once it is not fresh. */
export function syncDescription(status: NodeStatus, now: number): string {
  const words: Record<NodeSyncState, string> = {
    synced: 'synced',
    syncing: 'syncing',
    noKey: 'no API key: run "Alephium: Set API Key"',
    unreachable: 'unreachable',
    unauthorized: 'unauthorized: the API key was rejected (401)',
    quota:
      status.quotaUntil !== undefined
        ? `quota used up until ${day(status.quotaUntil)}`
        : 'quota used up for this month',
    rateLimited: 'rate limited (429): requests refused',
    error: 'error',
  };
  return `${words[status.sync]}${asOfSuffix(status.fetchedAt, now)}`;
}

/** What a screen reader says for the Sync row, whose state its icon and colour otherwise tell. */
export function syncAccessibilityLabel(status: NodeStatus | undefined, now: number): string {
  return `Node sync state: ${status ? syncDescription(status, now) : 'checking'}`;
}

/**
 * The Chains row's words: how many of the 16 chains were read (and why the others were not), their
 * height range, and the age of that reading once it is not fresh. Never "16 chains, heights …" when
 * some reads were refused.
 */
export function chainsDescription(status: NodeStatus, now: number): string {
  const known = status.heights.filter((h) => h.height !== undefined);
  const total = GROUPS * GROUPS;
  if (status.heights.length === 0) return `${total} chains: open to read their heights`;
  const failed = status.heights.filter((h) => h.height === undefined);
  const reasons = [...new Set(failed.map((h) => h.problem ?? 'error'))].join(', ');
  const age = asOfSuffix(status.heightsAt, now);
  if (known.length === 0) return `${total} chains: none read (${reasons})${age}`;
  let min = known[0]!.height!;
  let max = min;
  for (const h of known) {
    min = Math.min(min, h.height!);
    max = Math.max(max, h.height!);
  }
  const range = min === max ? `height ${min}` : `heights ${min}–${max}`;
  if (failed.length === 0) return `${total} chains, ${range}${age}`;
  return `${known.length} of ${total} chains read (${failed.length} refused: ${reasons}), ${range}${age}`;
}

/** When the Node view's words change by themselves (an age moves): render again then. */
export function nodeStatusChangesAt(status: NodeStatus | undefined, now: number): number | undefined {
  if (!status) return undefined;
  return nextAgeChange([status.fetchedAt, status.heights.length ? status.heightsAt : undefined], now);
}

export interface NodeStatusParts {
  /** The 16 chain heights (16 requests): only while someone looks at them (the Chains node is open). */
  readonly heights?: boolean;
  /** 'user' when a person asked (Refresh): it goes before background work, and is sent even while the
   * month's quota is locked, which is how the lock learns that the gateway answers again. */
  readonly priority?: RequestOptions['priority'];
}

/**
 * Reads what the Node view shows: sync state first (when the node cannot be reached or the key is
 * rejected, nothing else is asked), then version, chain params (cached forever by the client),
 * hashrate (cached 30 s) and, when asked for, the height of all 16 chains. Background priority unless
 * a person asked: user actions go first.
 */
export async function fetchNodeStatus(
  client: GatewayClient,
  now: () => number,
  signal?: AbortSignal,
  parts: NodeStatusParts = { heights: true },
): Promise<NodeStatus> {
  const options: RequestOptions = {
    priority: parts.priority ?? 'background',
    purpose: 'node',
    ...(signal ? { signal } : {}),
  };
  let synced: boolean;
  try {
    // Fresh and without a sync wait: a 503 is the answer "syncing", and a cached answer could be stale.
    synced = (await client.getSelfClique({ ...options, fresh: true, waitForSync: false })).synced;
  } catch (error) {
    return { ...syncStateOfError(error), heights: [], fetchedAt: now() };
  }
  const settle = <T>(p: Promise<T>): Promise<T | undefined> => p.catch(() => undefined);
  const [version, params, hashrate] = await Promise.all([
    settle(client.getVersion(options)),
    settle(client.getChainParams(options)),
    settle(client.getCurrentHashrate(options)),
  ]);
  const heights = parts.heights ? await fetchChainHeights(client, options) : [];
  return {
    ...(parts.heights ? { heightsAt: now() } : {}),
    sync: synced ? 'synced' : 'syncing',
    ...(version ? { version: version.version } : {}),
    ...(params ? { networkId: params.networkId, groups: params.groups } : {}),
    ...(hashrate ? { hashrate: hashrate.hashrate } : {}),
    heights,
    fetchedAt: now(),
  };
}

/** The height of every chain (one request each, 16 with 4 groups); a failed one is undefined. */
export async function fetchChainHeights(
  client: GatewayClient,
  options: RequestOptions = { priority: 'background', purpose: 'node' },
): Promise<ChainHeight[]> {
  const pairs: [number, number][] = [];
  for (let from = 0; from < GROUPS; from++) for (let to = 0; to < GROUPS; to++) pairs.push([from, to]);
  return Promise.all(
    pairs.map(async ([fromGroup, toGroup]): Promise<ChainHeight> => {
      try {
        return {
          fromGroup,
          toGroup,
          height: (await client.getChainInfo(fromGroup, toGroup, options)).currentHeight,
        };
      } catch (error) {
        return { fromGroup, toGroup, height: undefined, problem: readProblemOf(error) };
      }
    }),
  );
}
