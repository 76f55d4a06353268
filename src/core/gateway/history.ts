/**
 * Does this gateway honour `worldStateBlockHash`? A node runs a call pinned to a block against the world
 * state after that block; a gateway (or a proxy) that drops the option answers from today's state, and
 * its "past" would be the present. Nothing in an answer says which happened, so before the extension
 * shows any past state it asks once per gateway origin with a block hash that cannot exist:
 *
 * - the node refuses an unknown block (`CallContractFailed`): the option reached it, history is `honoured`;
 * - the call succeeds: the option was dropped on the way, the answer was today's state: `ignored`;
 * - the gateway refuses the request (HTTP 400): it will not pin calls at all: `refused`.
 *
 * Anything else (a 429, a timeout, the gateway down) says nothing about history: the error is thrown and
 * the next use asks again. The answer is remembered for the session, per origin (base URL and slug), so
 * it costs one request the first time and none after ({@link historyProbeCost}).
 */
import type { GatewayClient } from './client';
import { GatewayHttpError } from './errors';
import type { ConnectionProfile } from '../profiles/profile';
import type { RequestOptions } from './requests';

export type HistorySupport = 'honoured' | 'ignored' | 'refused';

/** Any contract method the probe may call (it never runs: the block does not exist on an honest node). */
export interface HistoryProbeTarget {
  readonly address: string;
  readonly methodIndex: number;
  readonly group?: number;
}

/** What each gateway answered, and the probes under way: one memory for the extension host (one module runtime). */
const known = new Map<string, HistorySupport>();
const asking = new Map<string, Promise<HistorySupport>>();

/** The gateway an answer is about: a key change does not change it, another slug or host does. */
export function historyOrigin(profile: ConnectionProfile): string {
  return profile.kind === 'gateway' ? `${profile.baseUrl} ${profile.slug}` : profile.baseUrl;
}

/** What the probe found for this client's gateway in this session, if it has asked yet. */
export function knownHistorySupport(client: Pick<GatewayClient, 'profile'>): HistorySupport | undefined {
  return known.get(historyOrigin(client.profile));
}

/** Requests the next {@link historySupport} will send: 1 the first time per gateway, then 0. */
export function historyProbeCost(client: Pick<GatewayClient, 'profile'>): number {
  return knownHistorySupport(client) === undefined ? 1 : 0;
}

/** A 32-byte hash no block has: random, so no cache on the way can answer it from an earlier probe. */
function unknownBlockHash(): string {
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

async function probe(
  client: Pick<GatewayClient, 'callContract'>,
  target: HistoryProbeTarget,
  options?: RequestOptions,
): Promise<HistorySupport> {
  try {
    const result = await client.callContract({ ...target, worldStateBlockHash: unknownBlockHash() }, options);
    if (result.type === 'CallContractFailed') return 'honoured';
    if (result.type === 'CallContractSucceeded') return 'ignored';
    // An answer of a kind nobody documents proves nothing either way: no past state through it.
    return 'refused';
  } catch (error) {
    if (error instanceof GatewayHttpError && error.status === 400) return 'refused';
    throw error;
  }
}

/**
 * Whether this client's gateway honours `worldStateBlockHash`, asking it (one call-contract request)
 * only the first time per origin in this session. Concurrent callers share one probe.
 */
export async function historySupport(
  client: Pick<GatewayClient, 'profile' | 'callContract'>,
  target: HistoryProbeTarget,
  options?: RequestOptions,
): Promise<HistorySupport> {
  const origin = historyOrigin(client.profile);
  const remembered = known.get(origin);
  if (remembered) return remembered;
  const pending = asking.get(origin);
  if (pending) return pending;
  const question = probe(client, target, options)
    .then((answer) => {
      known.set(origin, answer);
      return answer;
    })
    .finally(() => asking.delete(origin));
  asking.set(origin, question);
  return question;
}

/** What to tell the user instead of a past state, or undefined when the past can be shown. */
export function historyUnavailableReason(support: HistorySupport): string | undefined {
  switch (support) {
    case 'honoured':
      return undefined;
    case 'ignored':
      return 'This gateway does not honour historic state (worldStateBlockHash): it answered a call pinned to a block that does not exist with today\u2019s state, so no past state is shown.';
    case 'refused':
      return 'This gateway refuses calls pinned to a block (worldStateBlockHash), so no past state can be read through it.';
  }
}

/** Forgets every answer (tests; a user who wants the gateway asked again reloads the window). */
export function forgetHistorySupport(): void {
  known.clear();
  asking.clear();
}
