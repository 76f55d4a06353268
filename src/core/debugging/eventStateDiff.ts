/**
 * The state around an event, read at two pinned blocks: the emitting contract's fields and getters in the
 * world state just before the event's block and just after it, compared by fieldDiff.ts, what that read
 * costs, and the document that shows it. The glue fetches the block header (to find the block
 * before), then sends ONE multicall whose calls are each pinned to a block hash: the getters "before"
 * (pinned to the state before the block, `stateBeforeBlock`) and "after" (pinned to the event's block).
 * Each call names the contract in `interestedContracts`, so its result carries the fields too.
 *
 * Both states are pinned to a block, so the answer never changes: the header and the pinned calls are
 * cached forever by the client, and a second look costs no request. State is per block, not per
 * transaction: the diff covers every transaction of that block, and the document says so.
 *
 * Where the gateway does not honour `worldStateBlockHash` (it answers today's state whatever block is
 * named), nothing of the past can be shown honestly: the plan is not sent and the document says why.
 *
 * Pure: the glue asks, sends and shows.
 */
import type { ContractArtifact } from '../artifacts';
import type { StructsLike } from '../artifacts/vals';
import type { MethodHeader } from '../bytecode/instructions';
import { contractMethodHeaders } from '../bytecode/contractMethods';
import { callContracts } from '../gateway/batching';
import { MAX_MULTICALL } from '../gateway/requests';
import type { CallOutcome } from '../gateway/batching';
import type { ContractCall, GatewayClient, RequestOptions } from '../gateway/client';
import type { Val } from '../gateway/schemas';
import { batchCost, costNotice, type CostNotice, type RequestCost } from '../usage/costs';
import { cleanText, plainIndentedLine } from '../text/inert';
import { stateBeforeBlock } from './scriptReproduction';
import {
  diffStates,
  stateDiffLines,
  type ContractStateLike,
  type FieldChange,
  type StateDiff,
} from './fieldDiff';

/** The event the diff is about: where it was emitted and in which block. */
export interface EventAt {
  readonly address: string;
  readonly group: number;
  readonly txId: string;
  readonly blockHash: string;
  readonly eventIndex: number;
  /** The event's name as the view shows it (the document's title). */
  readonly name?: string;
}

/** A public method that takes nothing, returns something and touches no asset: it reads state. */
export interface ViewGetter {
  readonly name: string;
  readonly methodIndex: number;
  readonly returnTypes: readonly string[];
}

/**
 * The getters of a contract: public (its bytecode's method header says so), no parameters, at least one
 * return, and no asset modifier (a method that may spend or receive assets is not a read). The artifact
 * does not record visibility, so the bytecode decides; when it cannot be read, every parameterless
 * method with returns is listed and the node refuses a private one (that getter then shows its error).
 */
export function viewGetters(artifact: ContractArtifact): ViewGetter[] {
  let headers: readonly MethodHeader[] | undefined;
  try {
    headers = contractMethodHeaders(artifact.bytecode);
    if (headers.length !== artifact.functions.length) headers = undefined;
  } catch {
    headers = undefined;
  }
  const getters: ViewGetter[] = [];
  artifact.functions.forEach((fn, methodIndex) => {
    if (fn.paramTypes.length > 0 || fn.returnTypes.length === 0) return;
    const header = headers?.[methodIndex];
    if (header && (!header.isPublic || header.usePreapprovedAssets || header.useContractAssets)) return;
    getters.push({ name: fn.name, methodIndex, returnTypes: fn.returnTypes });
  });
  return getters;
}

export interface StateDiffPlan {
  readonly event: EventAt;
  readonly contract: string;
  readonly beforeHash: string;
  readonly afterHash: string;
  /** The getters read on each side, in order. */
  readonly getters: readonly ViewGetter[];
  /**
   * The method that carries `interestedContracts` when the contract has no getter: its result is only
   * read for the contract's state (a simulation changes nothing).
   */
  readonly carrier?: ViewGetter;
  /** The "before" calls, then the "after" calls, each pinned to its block. */
  readonly calls: readonly ContractCall[];
  /** Requests of the multicall(s) alone (the header is counted by {@link stateDiffCost}). */
  readonly multicalls: number;
}

/** A method that takes nothing, to carry the state read when the contract has no getter. */
function carrierOf(artifact: ContractArtifact): ViewGetter | undefined {
  const index = artifact.functions.findIndex((fn) => fn.paramTypes.length === 0);
  const fn = artifact.functions[index];
  return fn ? { name: fn.name, methodIndex: index, returnTypes: fn.returnTypes } : undefined;
}

/**
 * The calls of a state diff, from the event's block header. Throws, with words a user can act on, when
 * the header does not say which block came before, or the artifact gives nothing to call.
 */
export function planEventStateDiff(
  event: EventAt,
  artifact: ContractArtifact,
  header: { readonly hash: string; readonly deps: readonly string[]; readonly chainFrom: number },
): StateDiffPlan {
  const beforeHash = stateBeforeBlock(header);
  if (beforeHash === undefined)
    throw new Error(
      `The header of block ${event.blockHash} does not name its parent on its chain: the state before it cannot be pinned.`,
    );
  const getters = viewGetters(artifact);
  const carrier = getters.length === 0 ? carrierOf(artifact) : undefined;
  const readers = getters.length > 0 ? getters : carrier ? [carrier] : [];
  if (readers.length === 0)
    throw new Error(
      `${artifact.name} has no method without parameters: its state cannot be read at a past block through a call.`,
    );
  const side = (worldStateBlockHash: string): ContractCall[] =>
    readers.map((g) => ({
      address: event.address,
      group: event.group,
      methodIndex: g.methodIndex,
      args: [],
      worldStateBlockHash,
      interestedContracts: [event.address],
    }));
  const calls = [...side(beforeHash), ...side(event.blockHash)];
  return {
    event,
    contract: artifact.name,
    beforeHash,
    afterHash: event.blockHash,
    getters,
    ...(carrier ? { carrier } : {}),
    calls,
    multicalls: batchCost(calls.length, 1, MAX_MULTICALL).max,
  };
}

/**
 * What a state diff costs: the block header (once per block, cached forever) and the multicall(s) for
 * `readers` methods read on both sides (cached forever once answered). A diff already answered in this
 * session costs nothing; the history probe, when the gateway's answer is not known yet, costs its own.
 */
export function stateDiffCost(input: {
  readonly readers: number;
  readonly headerKnown: boolean;
  readonly answered: boolean;
  readonly probeRequests?: number;
}): RequestCost {
  const probe = input.probeRequests ?? 0;
  if (input.answered) return { min: probe, max: probe };
  const calls = batchCost(Math.max(1, input.readers) * 2, 1, MAX_MULTICALL).max;
  const total = (input.headerKnown ? 0 : 1) + calls + probe;
  return { min: total, max: total };
}

/** The notice said before a state diff runs ("… costs 2 requests." or "… costs 0 requests (cached)."). */
export function stateDiffNotice(contract: string, cost: RequestCost): CostNotice {
  const notice = costNotice(`What Changed of ${contract}`, cost);
  if (cost.max > 0) return notice;
  return {
    ...notice,
    text: notice.text.replace(/\.$/, ' (answered before: pinned to blocks, kept for good).'),
  };
}

/** The session key of one diff: the same event on the same code answers the same, forever. */
export function stateDiffKey(event: EventAt, codeHash: string): string {
  return `${event.address}:${event.blockHash}:${codeHash.toLowerCase()}`;
}

export interface EventStateDiff {
  readonly plan: StateDiffPlan;
  /** Fields (and the ALPH balance) before and after, plus one row per getter. */
  readonly diff: StateDiff;
  /** Getters whose call failed, with why. */
  readonly getterErrors: readonly { readonly name: string; readonly error: string }[];
}

/** The longest getter value kept (both ends of longer ones are kept by the field formatter; values here are cut). */
const MAX_GETTER_CHARS = 120;

function returnsText(returns: readonly Val[]): string {
  const text = returns
    .map((v) =>
      typeof v.value === 'string' || typeof v.value === 'boolean' ? String(v.value) : JSON.stringify(v.value),
    )
    .join(', ');
  return cleanText(text, MAX_GETTER_CHARS);
}

/** The contract's state on one side: the first successful call's `contracts` entry for the address. */
function stateOn(
  outcomes: readonly (CallOutcome | undefined)[],
  address: string,
): { state?: ContractStateLike; error?: string } {
  let error: string | undefined;
  for (const o of outcomes) {
    if (o === undefined) continue;
    if (!o.ok) {
      error ??= o.error.message;
      continue;
    }
    const state = o.result.contracts.find((c) => c.address === address);
    if (state) return { state };
    error ??= `the node's answer holds no state of ${address}`;
  }
  return { error: error ?? 'no answer' };
}

/**
 * The diff from the multicall's outcomes (in the plan's order). Throws when one side's state could not
 * be read at all (the node may not keep that block's state any more): half a diff would mislead.
 */
export function eventStateDiff(
  plan: StateDiffPlan,
  outcomes: readonly CallOutcome[],
  artifact: Pick<ContractArtifact, 'fieldsSig'>,
  structs?: StructsLike,
): EventStateDiff {
  const half = plan.calls.length / 2;
  const before = outcomes.slice(0, half);
  const after = outcomes.slice(half);
  const a = stateOn(before, plan.event.address);
  const b = stateOn(after, plan.event.address);
  if (!a.state)
    throw new Error(`The state before block ${plan.event.blockHash} could not be read: ${a.error}`);
  if (!b.state)
    throw new Error(`The state after block ${plan.event.blockHash} could not be read: ${b.error}`);
  const fieldsDiff = diffStates(artifact.fieldsSig, a.state, b.state, structs);
  const getterErrors: { name: string; error: string }[] = [];
  const getterRows: FieldChange[] = plan.getters.map((g, i) => {
    const x = before[i];
    const y = after[i];
    const text = (o: CallOutcome | undefined): string => {
      if (o === undefined) return '(no answer)';
      if (!o.ok) {
        getterErrors.push({ name: `${g.name}()`, error: cleanText(o.error.message, 300) });
        return '(failed)';
      }
      return returnsText(o.result.returns);
    };
    const beforeText = text(x);
    const afterText = text(y);
    return {
      name: `${g.name}()`,
      type: g.returnTypes.join(', '),
      before: beforeText,
      after: afterText,
      changed: beforeText !== afterText,
    };
  });
  const fields = [...fieldsDiff.fields, ...getterRows];
  return {
    plan,
    diff: {
      fields,
      changedCount: fields.filter((f) => f.changed).length,
      ...(fieldsDiff.warning ? { warning: fieldsDiff.warning } : {}),
    },
    getterErrors,
  };
}

/** The header lines of both documents: which event, which contract, which blocks. */
function headLines(event: EventAt, contract: string): string[] {
  return [
    `What Changed: ${event.name ?? `event #${event.eventIndex}`} of ${contract} (${event.address})`,
    `Transaction ${event.txId}`,
    `Block ${event.blockHash}`,
  ];
}

/**
 * The plain-text document of a diff. Every line goes through the inert owner (no control or bidi
 * character, capped); names come from the artifact, values from the chain.
 */
export function eventStateDiffText(result: EventStateDiff): string {
  const { plan } = result;
  const lines = [
    ...headLines(plan.event, plan.contract),
    `Before: the state after block ${plan.beforeHash} (the block before, on the same chain)`,
    `After: the state after block ${plan.afterHash}`,
    'State is kept per block: this diff covers every transaction of that block, not only this event.',
    '',
    ...stateDiffLines(result.diff),
  ];
  if (result.getterErrors.length > 0) {
    lines.push('', 'Getters that failed:');
    for (const e of result.getterErrors) lines.push(`  ${e.name}: ${e.error}`);
  }
  if (plan.carrier)
    lines.push(
      '',
      `${plan.contract} has no getter; the state was read through ${plan.carrier.name}() (a simulation: nothing changed).`,
    );
  return inertDocument(lines);
}

/** Lines as a plain-text document: each through the inert owner, keeping this module's indentation. */
function inertDocument(lines: readonly string[]): string {
  return `${lines.map((line) => plainIndentedLine(line, 2000)).join('\n')}\n`;
}

/** What the client must do for a state diff: the header (cached forever) and the pinned multicall(s). */
export type StateDiffClient = Pick<
  GatewayClient,
  'getBlockHeader' | 'multicallContract' | 'validateContractCall'
>;

/**
 * Reads the state around an event: the header of its block (one request the first time), then the
 * getters and fields on both sides as one multicall per 20 calls (pinned, so answered from the cache
 * the next time). Returns the diff; throws when a side could not be read.
 */
export async function readEventStateDiff(
  client: StateDiffClient,
  event: EventAt,
  artifact: ContractArtifact,
  options: RequestOptions & { readonly structs?: StructsLike; readonly onHeader?: () => void } = {},
): Promise<EventStateDiff> {
  const { structs, onHeader, ...requestOptions } = options;
  const header = await client.getBlockHeader(event.blockHash, requestOptions);
  onHeader?.();
  const plan = planEventStateDiff(event, artifact, header);
  const outcomes = await callContracts(client as GatewayClient, plan.calls, requestOptions);
  return eventStateDiff(plan, outcomes, artifact, structs);
}

/**
 * The document when the gateway does not honour `worldStateBlockHash`: it would answer today's state for
 * any block, which shown as the past would be a lie. So no state is shown; `reason` is the history
 * owner's words (core/gateway/history.ts, `historyUnavailableReason`).
 */
export function historyNotHonouredText(event: EventAt, contract: string, reason: string): string {
  return inertDocument([
    ...headLines(event, contract),
    '',
    reason,
    'No state before or after this event is shown: today\u2019s state would pass for the past.',
    'A node that keeps historic state (a full node, or the sandbox) answers this.',
  ]);
}
