/**
 * The What Changed command, start to end, without VS Code: which event (from the row, the argument object, or
 * a watched contract and one of its events picked), the artifact and its drift, what it costs (said
 * before anything is sent), whether the gateway honours a past block (the lead's per-origin probe,
 * core/gateway/history.ts), then the diff or, where history is not honoured, a plain "no past state".
 * The glue (src/debugging/eventWhatChanged.ts) gives the ports: pickers, the status bar, the document.
 * Loaded on first use with the debugging engine.
 */
import { decodeEvent, formatEventSummary, type ContractArtifact, type DriftCheck } from '../artifacts';
import type { StructsLike } from '../artifacts/vals';
import type { ContractEvent, GatewayClient, RequestOptions } from '../gateway';
import {
  historyProbeCost,
  historySupport,
  historyUnavailableReason,
  type HistoryProbeTarget,
} from '../gateway/history';
import type { CostNotice } from '../usage/costs';
import { isHash32 } from '../protocol/hex';
import { plainText } from '../text/inert';
import type { FieldChange } from './fieldDiff';
import {
  eventStateDiffText,
  historyNotHonouredText,
  readEventStateDiff,
  stateDiffCost,
  stateDiffKey,
  stateDiffNotice,
  viewGetters,
  type EventAt,
  type StateDiffClient,
} from './eventStateDiff';

/** A watched contract as the flow needs it. */
export interface WatchedLike {
  readonly address: string;
  readonly group: number;
  readonly name?: string;
}

/** One row of the event pick. */
export interface EventPickItem {
  readonly label: string;
  readonly description: string;
  readonly detail?: string;
}

export interface WhatChangedPorts {
  readonly client: StateDiffClient & Pick<GatewayClient, 'profile' | 'callContract'>;
  /** The watched contract at an address (throws when it is not watched). */
  watched(address: string): WatchedLike;
  /** The palette: a watched contract picked by the user. */
  pickContract(): Promise<WatchedLike>;
  /** The events the view lists for a contract, newest first (read when not read yet). */
  events(address: string): Promise<readonly ContractEvent[]>;
  /** The index of the event picked. */
  pickEvent(items: readonly EventPickItem[]): Promise<number>;
  resolve(address: string): Promise<{ readonly artifact?: ContractArtifact; readonly drift: DriftCheck }>;
  structs(): Promise<StructsLike | undefined>;
  /** Said before anything is sent. */
  say(notice: CostNotice): void;
  /** Shows `text` while `work` runs (the status bar). */
  progress<T>(text: string, work: Promise<T>): Promise<T>;
  show(title: string, text: string): Promise<void>;
  log(line: string): void;
}

export interface WhatChangedResult {
  readonly contract: string;
  readonly txId: string;
  readonly blockHash: string;
  /** What the notice said it would cost. */
  readonly requests: number;
  /** False when the gateway does not honour a past block: then no state is shown. */
  readonly historyHonoured: boolean;
  readonly fields: readonly FieldChange[];
}

function field(args: unknown, name: string): unknown {
  return typeof args === 'object' && args !== null ? (args as Record<string, unknown>)[name] : undefined;
}

/**
 * The event an event row (or an argument object) names: `address`, `txId`, `blockHash`, `eventIndex`,
 * and the row's label as its name. Undefined when it names none (the palette then asks).
 */
export function eventFromArgs(args: unknown): Omit<EventAt, 'group'> | undefined {
  const address = field(args, 'address');
  const txId = field(args, 'txId');
  const blockHash = field(args, 'blockHash');
  if (typeof address !== 'string' || txId === undefined || blockHash === undefined) return undefined;
  if (!isHash32(txId) || !isHash32(blockHash))
    throw new Error('What Changed needs a transaction id and a block hash of 64 hex digits each.');
  const eventIndex = field(args, 'eventIndex');
  const label = (field(args, 'row') as { label?: unknown } | undefined)?.label;
  return {
    address,
    txId: txId.toLowerCase(),
    blockHash: blockHash.toLowerCase(),
    eventIndex: typeof eventIndex === 'number' && Number.isInteger(eventIndex) ? eventIndex : 0,
    ...(typeof label === 'string' ? { name: plainText(label, 200) } : {}),
  };
}

/** The palette's way: a contract (the one the arguments name, else picked), then one of its events. */
async function pickEvent(ports: WhatChangedPorts, args: unknown): Promise<Omit<EventAt, 'group'>> {
  const named = field(args, 'address');
  const w = typeof named === 'string' ? ports.watched(named) : await ports.pickContract();
  const events = await ports.events(w.address);
  if (events.length === 0)
    throw new Error(`No event of ${w.name ?? w.address} is listed yet: nothing to compare around.`);
  const { artifact } = await ports.resolve(w.address);
  const structs = await ports.structs();
  const decoded = events.map((e) => decodeEvent(e, artifact, structs ? { structs } : {}));
  const chosen = await ports.pickEvent(
    events.map((e, i) => ({
      label: plainText(formatEventSummary(decoded[i]!), 200),
      description: `tx ${e.txId}`,
      ...(e.timestamp !== undefined ? { detail: new Date(e.timestamp).toISOString() } : {}),
    })),
  );
  const e = events[chosen];
  if (e === undefined) throw new Error('No event was picked.');
  return {
    address: w.address,
    txId: e.txId,
    blockHash: e.blockHash,
    eventIndex: e.eventIndex,
    name: plainText(decoded[chosen]!.name, 200),
  };
}

/** Diffs answered in this session, per client (a new profile or key is a new client, with a new cache). */
const answered = new WeakMap<object, Set<string>>();

function memoOf(client: object): Set<string> {
  let memo = answered.get(client);
  if (!memo) answered.set(client, (memo = new Set()));
  return memo;
}

/** The whole command: pick, check, say the cost, probe history once, read and show the diff. */
export async function whatChanged(args: unknown, ports: WhatChangedPorts): Promise<WhatChangedResult> {
  const given = eventFromArgs(args) ?? (await pickEvent(ports, args));
  const event: EventAt = { ...given, group: ports.watched(given.address).group };
  const { artifact, drift } = await ports.resolve(event.address);
  if (!artifact)
    throw new Error(`No artifact in the workspace describes ${event.address}: its fields cannot be named.`);
  if (drift.status === 'drift')
    throw new Error(`Not read: ${drift.message}. The getters' method indexes come from the artifact.`);
  const getters = viewGetters(artifact);
  const client = ports.client;
  const memo = memoOf(client);
  const key = stateDiffKey(event, artifact.codeHash);
  const cost = stateDiffCost({
    readers: getters.length,
    headerKnown: memo.has(`header:${event.blockHash}`),
    answered: memo.has(key),
    probeRequests: historyProbeCost(client),
  });
  const notice = stateDiffNotice(artifact.name, cost);
  ports.say(notice);
  ports.log(notice.text);
  const base = { contract: artifact.name, txId: event.txId, blockHash: event.blockHash, requests: cost.max };
  const options: RequestOptions = { priority: 'user' };
  // Any method serves the probe: on an honest node it never runs (the block it names does not exist).
  const target: HistoryProbeTarget = {
    address: event.address,
    group: event.group,
    methodIndex: getters[0]?.methodIndex ?? 0,
  };
  const support = await ports.progress(notice.text, historySupport(client, target, options));
  const reason = historyUnavailableReason(support);
  const title = `What Changed ${artifact.name} ${event.txId.slice(0, 8)}`;
  if (reason !== undefined) {
    ports.log(`What Changed of ${artifact.name}: ${support}, no past state shown`);
    await ports.show(title, historyNotHonouredText(event, artifact.name, reason));
    return { ...base, historyHonoured: false, fields: [] };
  }
  const structs = await ports.structs();
  const reading = readEventStateDiff(client, event, artifact, {
    ...options,
    ...(structs ? { structs } : {}),
    onHeader: () => memo.add(`header:${event.blockHash}`),
  });
  const result = await ports.progress(notice.text, reading);
  memo.add(key);
  ports.log(
    `What Changed of ${artifact.name} at block ${event.blockHash}: ${result.diff.changedCount} change(s)`,
  );
  await ports.show(title, eventStateDiffText(result));
  return { ...base, historyHonoured: true, fields: result.diff.fields };
}
