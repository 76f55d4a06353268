/**
 * "Alephium: What Changed (State Around an Event)": from an event row of Watched Contracts (or the palette,
 * with a watched contract and one of its events picked), the contract's fields and getters before and
 * after the event's block, as a read-only document. The plan, the cost, the diff and the text are
 * core/debugging/eventStateDiff.ts (loaded with the debugging engine); this file only picks, says the
 * cost, asks the client and shows.
 */
import * as vscode from 'vscode';
import type { ContractsService } from '../contracts';
import type { GatewayClient } from '../core/gateway';
import type { EventAt } from '../core/debugging/eventStateDiff';
import type { FieldChange } from '../core/debugging/stateDiff';
import { formatEventSummary, decodeEvent } from '../core/artifacts';
import { shortAddress } from '../core/watching/rows';
import { inert, plainText } from '../core/text/inert';
import type { CommandContext } from '../platform/commands';
import type { ConnectionManager } from '../platform/connection';
import { showInfo } from '../platform/notify';
import { argString, argValue, pick, pickContract } from '../platform/prompts';
import { showResult } from '../platform/resultsDocument';
import { loadEngine } from './loadEngine';

export interface WhatChangedDeps extends CommandContext {
  readonly connection: Pick<ConnectionManager, 'requireClient'>;
  readonly contracts: ContractsService;
}

export interface WhatChangedResult {
  readonly contract: string;
  readonly txId: string;
  readonly blockHash: string;
  /** What the notice said it would cost (2 the first time, 0 once answered). */
  readonly requests: number;
  /** False when the gateway does not honour a past block: then no state is shown. */
  readonly historyHonoured: boolean;
  readonly fields: readonly FieldChange[];
}

/** Diffs and headers answered in this session, per client (a new profile or key is a new client). */
const answered = new WeakMap<GatewayClient, Set<string>>();

function answeredBy(client: GatewayClient): Set<string> {
  let set = answered.get(client);
  if (!set) answered.set(client, (set = new Set()));
  return set;
}

const HEX64 = /^[0-9a-f]{64}$/i;

/** The event from an event row or an argument object; undefined when neither names one. */
function eventFromArgs(args: unknown): Omit<EventAt, 'group'> | undefined {
  const address = argString(args, 'address');
  const txId = argString(args, 'txId');
  const blockHash = argString(args, 'blockHash');
  const eventIndex = argValue(args, 'eventIndex');
  if (!address || !txId || !blockHash) return undefined;
  if (!HEX64.test(txId) || !HEX64.test(blockHash))
    throw new Error('What Changed needs a 64-hex-digit transaction id and block hash.');
  const row = argValue(args, 'row') as { label?: unknown } | undefined;
  return {
    address,
    txId: txId.toLowerCase(),
    blockHash: blockHash.toLowerCase(),
    eventIndex: typeof eventIndex === 'number' ? eventIndex : 0,
    ...(typeof row?.label === 'string' ? { name: row.label } : {}),
  };
}

/** The palette's way: a watched contract, then one of the events its feed holds (newest first). */
async function pickEvent(contracts: ContractsService, args: unknown): Promise<Omit<EventAt, 'group'>> {
  const registry = await contracts.registry();
  const w = await pickContract(
    contracts.watched,
    (c) => contracts.describe(c, registry),
    args,
    'What Changed: which contract?',
  );
  const feed = contracts.model.feed(w.address);
  if (!feed.loaded) await contracts.model.loadLatestEvents(w.address);
  const resolved = await contracts.resolve(w.address);
  const items = feed.items().map(({ event }) => {
    const decoded = decodeEvent(event, resolved.artifact, { structs: registry.structs });
    return {
      label: plainText(formatEventSummary(decoded), 200),
      description: `tx ${shortAddress(event.txId)}`,
      detail: event.timestamp !== undefined ? new Date(event.timestamp).toISOString() : undefined,
      event: {
        address: w.address,
        txId: event.txId,
        blockHash: event.blockHash,
        eventIndex: event.eventIndex,
        name: plainText(decoded.name, 200),
      },
    };
  });
  if (items.length === 0)
    throw new Error(`No event of ${w.name ?? w.address} is listed yet: nothing to compare around.`);
  return (await pick(items, { title: 'What Changed: around which event?' })).event;
}

export async function eventWhatChanged(deps: WhatChangedDeps, args: unknown): Promise<WhatChangedResult> {
  const { contracts } = deps;
  const given = eventFromArgs(args) ?? (await pickEvent(contracts, args));
  const w = contracts.entry(given.address);
  const event: EventAt = { ...given, group: w.group };
  const resolved = await contracts.resolve(event.address);
  const artifact = resolved.artifact;
  if (!artifact)
    throw new Error(`No artifact in the workspace describes ${event.address}: its fields cannot be named.`);
  if (resolved.drift.status === 'drift')
    throw new Error(`Not read: ${resolved.drift.message}. The getters' indexes come from the artifact.`);
  const engine = await loadEngine();
  const client = deps.connection.requireClient();
  const memo = answeredBy(client);
  const key = engine.stateDiffKey(event, artifact.codeHash);
  const getters = engine.viewGetters(artifact).length;
  const cost = engine.stateDiffCost({
    readers: getters,
    headerKnown: memo.has(`header:${event.blockHash}`),
    answered: memo.has(key),
  });
  const notice = engine.stateDiffNotice(artifact.name, cost);
  // A few requests are not worth a question; the cost is said as the read starts, and logged.
  if (notice.worthSaying) void showInfo(inert`${notice.text}`);
  deps.log.info(notice.text);
  const registry = await contracts.registry();
  const reading = engine.readEventStateDiff(client, event, artifact, {
    priority: 'user',
    structs: registry.structs,
    onHeader: () => memo.add(`header:${event.blockHash}`),
  });
  vscode.window.setStatusBarMessage(`$(sync~spin) ${notice.text}`, reading);
  const result = await reading;
  memo.add(key);
  deps.log.info(
    `What Changed of ${artifact.name} at block ${event.blockHash}: ${result.diff.changedCount} change(s)`,
  );
  if (argValue(args, 'show') !== 'none')
    await showResult(
      `What Changed ${artifact.name} ${event.txId.slice(0, 8)}`,
      engine.eventStateDiffText(result),
      'text',
    );
  return {
    contract: artifact.name,
    txId: event.txId,
    blockHash: event.blockHash,
    requests: cost.max,
    historyHonoured: true,
    fields: result.diff.fields,
  };
}
