import { isGatewayError, type GatewayClient, type RequestOptions } from '../gateway';

export type NodeSyncState = 'synced' | 'syncing' | 'unreachable' | 'unauthorized' | 'error';

export interface ChainHeight {
  readonly fromGroup: number;
  readonly toGroup: number;
  /** Undefined when this chain's query failed. */
  readonly height: number | undefined;
}

export interface NodeStatus {
  readonly sync: NodeSyncState;
  /** What went wrong, for the tooltip and the log. */
  readonly problem?: string;
  readonly version?: string;
  readonly networkId?: number;
  readonly groups?: number;
  readonly hashrate?: string;
  readonly heights: readonly ChainHeight[];
  readonly fetchedAt: number;
}

const GROUPS = 4;

/** Classifies a failure of the node probe into what the Node view says. */
export function syncStateOfError(error: unknown): { sync: NodeSyncState; problem: string } {
  const problem = error instanceof Error ? error.message : String(error);
  if (isGatewayError(error)) {
    if (error.kind === 'unauthorized' || error.kind === 'missingKey')
      return { sync: 'unauthorized', problem };
    if (error.kind === 'unavailable') return { sync: 'syncing', problem };
    if (error.kind === 'network' || error.kind === 'timeout') return { sync: 'unreachable', problem };
  }
  return { sync: 'error', problem };
}

export interface NodeStatusParts {
  /** The 16 chain heights (16 requests): only while someone looks at them (the Chains node is open). */
  readonly heights?: boolean;
}

/**
 * Reads what the Node view shows: sync state first (when the node cannot be reached or the key is
 * rejected, nothing else is asked), then version, chain params (cached forever by the client),
 * hashrate (cached 30 s) and, when asked for, the height of all 16 chains. All background priority:
 * user actions go first.
 */
export async function fetchNodeStatus(
  client: GatewayClient,
  now: () => number,
  signal?: AbortSignal,
  parts: NodeStatusParts = { heights: true },
): Promise<NodeStatus> {
  const options: RequestOptions = { priority: 'background', purpose: 'node', ...(signal ? { signal } : {}) };
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
    pairs.map(async ([fromGroup, toGroup]) => ({
      fromGroup,
      toGroup,
      height: (await client.getChainInfo(fromGroup, toGroup, options).catch(() => undefined))?.currentHeight,
    })),
  );
}
