/**
 * "Explain Transaction": what a transaction did, or why its script failed, from what the node keeps.
 *
 * status → details → the script decoded into its calls (scriptReproduction.ts) → the events by tx id,
 * named from the workspace's artifacts, Debug messages placed at their `emit Debug` → the block's header,
 * and then:
 * - a script that failed in its block is run again with call-tx-script against the state just before
 *   that block (its txId, its signer, the ALPH it offered, the contracts it called), and the VM error of
 *   that reproduction is explained at its Ralph line;
 * - a script that succeeded gets the state of the contracts it called before and after its block.
 *
 * Past state is shown only where the gateway honours `worldStateBlockHash` (the per-origin probe): a
 * gateway that drops it would answer with today's state, which is never shown as the past. A
 * reproduction that succeeds is said to succeed: that state then does not explain the failure.
 *
 * Pure except for the injected fetchers (one per request, each cached by the client where immutable).
 */
import type { ArtifactRegistry, ContractArtifact } from '../artifacts';
import { DEBUG_INDEX, decodeDebugMessage, decodeEvent, formatEventSummary } from '../artifacts/events';
import type { InputVal, StructsLike } from '../artifacts/vals';
import { encodeScript } from '../bytecode/instructions';
import type { BlockHeader, CallTxScriptResult, EventByTxId, TxDetails, TxStatus } from '../gateway/schemas';
import type { CallTxScriptRequest, RequestOptions } from '../gateway/requests';
import type { GatewayClient } from '../gateway/client';
import { GatewayHttpError } from '../gateway/errors';
import {
  historySupport,
  historyUnavailableReason,
  type HistoryProbeTarget,
  type HistorySupport,
} from '../gateway/history';
import type { RequestCost } from '../usage/costs';
import type { WhatHappenedView } from '../transactions/txDetailsProtocol';
import type { RalphSourceMap } from '../ralph/sourceMap';
import { cap } from '../text/inert';
import {
  explainVmFailure,
  MAX_EXPLANATION_CHARS,
  placeDebugMessages,
  type DebugHint,
  type FailureExplanation,
  type FailureLookup,
} from './failureExplanation';
import {
  approvedAtto,
  callerOf,
  callLine,
  explainScriptCalls,
  reproductionRequest,
  stateBeforeBlock,
  type ExplainedCall,
} from './scriptReproduction';
import { diffStates, stateDiffLines, type StateDiff } from './fieldDiff';
import { isVmFailureText } from './vmError';

/** What a call-tx-script came back with: its result, or the node's refusal text (a VM failure is one). */
export type ScriptRun =
  | { readonly ok: true; readonly result: CallTxScriptResult }
  | { readonly ok: false; readonly detail: string };

/** A call-tx-script's refusal as words to show (never branched on), capped. */
export function refusalText(run: { readonly ok: false; readonly detail: string }, max = 300): string {
  return cap(run.detail, max);
}

/** One function per request; the glue builds them from a GatewayClient (`explainFetchersFrom`). */
export interface ExplainFetchers {
  txStatus(txId: string): Promise<TxStatus>;
  txDetails(txId: string): Promise<TxDetails>;
  eventsByTxId(txId: string): Promise<readonly EventByTxId[]>;
  blockHeader(hash: string): Promise<BlockHeader>;
  callTxScript(request: CallTxScriptRequest): Promise<ScriptRun>;
  /** Whether the gateway honours `worldStateBlockHash` (history.ts's probe, once per gateway). */
  historySupport(target: HistoryProbeTarget): Promise<HistorySupport>;
}

/** What the workspace knows: artifacts by address, the Ralph sources, the global constants. */
export interface ExplainLookup {
  artifactOf(address: string): Promise<ContractArtifact | undefined> | ContractArtifact | undefined;
  sources?(contractNames: readonly string[]): Promise<RalphSourceMap | undefined>;
  readonly globals?: FailureLookup['globals'];
  /** The artifacts' structs, to decode struct fields in state changes. */
  readonly structs?: StructsLike;
}

export type ExplainDeps = ExplainFetchers & ExplainLookup;

/**
 * The lookup Explain Transaction and its language-model tool share: a contract's artifact as the views
 * resolve it (`resolve`: watch list and code hash), else the deployments entry at that address; the Ralph
 * sources on demand; the registry's constants and structs.
 */
export function explainLookup(
  registry: ArtifactRegistry,
  resolve: (address: string) => Promise<ContractArtifact | undefined>,
  sources: (contractNames: readonly string[]) => Promise<RalphSourceMap | undefined>,
): ExplainLookup {
  return {
    artifactOf: async (address) => (await resolve(address)) ?? registry.matchAddress(address)?.artifact,
    sources,
    ...(registry.constants ? { globals: registry.constants } : {}),
    structs: registry.structs,
  };
}

/**
 * What an explanation costs: status 1, details 0-1 (cached once read), events 1, the block's header
 * 0-1 (cached forever), the history probe 0-1 (once per gateway), and 0-2 call-tx-scripts (1 to
 * reproduce a failure, 2 to read the state before and after a block; cached forever, being pinned).
 */
export const EXPLAIN_COST: RequestCost = { min: 1, max: 7 };

export interface ExplainedEvent {
  readonly contractAddress: string;
  readonly contract?: string;
  readonly name: string;
  readonly eventIndex: number;
  /** `Incremented(by=…, newCount=3)`. */
  readonly summary: string;
  readonly warning?: string;
}

export interface ExplainedDebugMessage {
  readonly contractAddress: string;
  readonly message: string;
  /** Where the `emit Debug` that prints it is, when the sources have one that fits. */
  readonly at?: { readonly path: string; readonly line: number };
}

export interface StateChange {
  readonly address: string;
  readonly contract?: string;
  readonly diff: StateDiff;
}

/** The block states an explanation read: the one just before the transaction's block, and its block. */
export interface StateBlocks {
  readonly block: string;
  /** The block whose state is the state just before `block` (its parent on its chain). */
  readonly before: string;
}

export type ScriptOutcome =
  /** No script: a transfer. */
  | { readonly kind: 'no-script' }
  /** Not in a block (yet), or unknown to the gateway. */
  | { readonly kind: 'not-mined' }
  | { readonly kind: 'succeeded'; readonly stateChanges?: readonly StateChange[] }
  | { readonly kind: 'failed-reproduced'; readonly failure: FailureExplanation }
  /** The reproduction against the state before the block succeeded: that state does not explain it. */
  | { readonly kind: 'failed-not-reproduced' }
  /** Failed in its block, and no reproduction was possible (the reason is in `notes`). */
  | { readonly kind: 'failed-unexplained' };

export interface TransactionExplanation {
  readonly txId: string;
  /** "Confirmed in block 1a2b… (group 0 → 0)", "In the mempool", "Not found". */
  readonly status: string;
  readonly blockHash?: string;
  readonly group?: number;
  readonly scriptExecutionOk?: boolean;
  readonly caller?: string;
  readonly calls: readonly ExplainedCall[];
  readonly events: readonly ExplainedEvent[];
  readonly debug: readonly ExplainedDebugMessage[];
  /** Debug messages placed at their emit lines (for the editor's decorations). */
  readonly debugHints: readonly DebugHint[];
  readonly outcome: ScriptOutcome;
  /** The states read, when any were (never set when the gateway does not honour history). */
  readonly stateBlocks?: StateBlocks;
  /** True/false when the probe answered; undefined when no past state was needed or it could not tell. */
  readonly historyHonoured?: boolean;
  /** Facts worth a line: history not honoured, states not readable, what a reproduction means. */
  readonly notes: readonly string[];
}

function shortHash(hash: string): string {
  return `${hash.slice(0, 8)}…${hash.slice(-4)}`;
}

/** Artifacts of every address, resolved once, so the explainer's lookup can stay synchronous. */
async function resolveArtifacts(
  deps: ExplainLookup,
  addresses: readonly (string | undefined)[],
): Promise<Map<string, ContractArtifact | undefined>> {
  const map = new Map<string, ContractArtifact | undefined>();
  for (const a of addresses) {
    if (a === undefined || map.has(a)) continue;
    try {
      map.set(a, await deps.artifactOf(a));
    } catch {
      map.set(a, undefined);
    }
  }
  return map;
}

async function failureLookup(
  deps: ExplainLookup,
  artifacts: ReadonlyMap<string, ContractArtifact | undefined>,
): Promise<FailureLookup> {
  const names = [...new Set([...artifacts.values()].flatMap((a) => (a ? [a.name] : [])))];
  let sources: RalphSourceMap | undefined;
  try {
    sources = deps.sources && names.length > 0 ? await deps.sources(names) : undefined;
  } catch {
    sources = undefined;
  }
  return {
    artifactOf: (a) => artifacts.get(a),
    ...(sources ? { sources } : {}),
    ...(deps.globals ? { globals: deps.globals } : {}),
  };
}

function statusLine(status: TxStatus): string {
  switch (status.type) {
    case 'Confirmed':
      return `Confirmed in block ${status.blockHash} (${status.chainConfirmations} confirmation(s))`;
    case 'Conflicted':
      return `Conflicted: in block ${status.blockHash}, but its inputs were spent by another transaction`;
    case 'MemPooled':
      return 'In the mempool: not in a block yet';
    default:
      return 'Not found on this gateway (never sent, dropped, or on another network)';
  }
}

/** The events by tx id, named; Debug messages apart, placed at their `emit Debug` where one fits. */
function explainEvents(
  events: readonly EventByTxId[],
  lookup: FailureLookup,
  method: string | undefined,
): { events: ExplainedEvent[]; debug: ExplainedDebugMessage[]; hints: DebugHint[] } {
  const named: ExplainedEvent[] = [];
  const messages: { contractAddress: string; message: string }[] = [];
  for (const e of events) {
    if (e.eventIndex === DEBUG_INDEX) {
      const field = e.fields[0] as InputVal | undefined;
      const text =
        field?.type === 'ByteVec' && typeof field.value === 'string'
          ? decodeDebugMessage(field.value)
          : undefined;
      messages.push({ contractAddress: e.contractAddress, message: cap(text ?? '(not UTF-8 text)', 2000) });
      continue;
    }
    const artifact = lookup.artifactOf(e.contractAddress);
    const decoded = decodeEvent(e, artifact);
    named.push({
      contractAddress: e.contractAddress,
      ...(artifact ? { contract: artifact.name } : {}),
      name: decoded.name,
      eventIndex: e.eventIndex,
      summary: formatEventSummary(decoded, { maxValueLength: 80 }),
      ...(decoded.warning ? { warning: decoded.warning } : {}),
    });
  }
  const hints = placeDebugMessages(messages, lookup, method);
  const debug = messages.map((m) => {
    const hint = hints.find((h) => h.message === m.message && h.contractAddress === m.contractAddress);
    return { ...m, ...(hint ? { at: { path: hint.path, line: hint.line } } : {}) };
  });
  return { events: named, debug, hints };
}

/**
 * Explains a transaction. Never shows today's state as the past; every request goes through `deps`.
 * Throws only what the first requests throw (status, details): later failures become notes.
 */
export async function explainTransaction(deps: ExplainDeps, txId: string): Promise<TransactionExplanation> {
  const status = await deps.txStatus(txId);
  const base = { txId, status: statusLine(status), calls: [], events: [], debug: [], debugHints: [] };
  if (status.type !== 'Confirmed' && status.type !== 'Conflicted') {
    return { ...base, outcome: { kind: 'not-mined' }, notes: [] };
  }
  const details = await deps.txDetails(txId);
  const script = details.unsigned.scriptOpt;
  const caller = callerOf(details.unsigned.inputs);
  const notes: string[] = [];
  const events = await readOrNote(() => deps.eventsByTxId(txId), 'The events could not be read', notes);
  // Decoded once for the addresses, then again named from their artifacts (resolving may ask the glue).
  const unnamed = script ? safeCalls(script, () => undefined, notes) : [];
  const artifacts = await resolveArtifacts(deps, [
    ...unnamed.map((c) => c.address),
    ...(events ?? []).map((e) => e.contractAddress),
  ]);
  const named = script ? safeCalls(script, (a) => artifacts.get(a), undefined) : [];
  const lookup = await failureLookup(deps, artifacts);
  const explainedEvents = explainEvents(events ?? [], lookup, named[0]?.method);
  const mined = {
    ...base,
    blockHash: status.blockHash,
    ...(details.scriptExecutionOk !== undefined ? { scriptExecutionOk: details.scriptExecutionOk } : {}),
    ...(caller ? { caller } : {}),
    calls: named,
    events: explainedEvents.events,
    debug: explainedEvents.debug,
    debugHints: explainedEvents.hints,
  };
  if (!script) return { ...mined, outcome: { kind: 'no-script' }, notes };
  if (details.scriptExecutionOk === undefined)
    notes.push('The gateway did not say whether the script succeeded (no scriptExecutionOk)');
  const past = await pastState(deps, status.blockHash, named, notes);
  const withPast = {
    ...mined,
    ...(past.header ? { group: past.header.chainFrom } : {}),
    ...(past.honoured !== undefined ? { historyHonoured: past.honoured } : {}),
  };
  if (details.scriptExecutionOk === false) {
    const run = { txId, script, details, calls: named, lookup, artifacts };
    return { ...withPast, ...(await explainFailure(deps, run, past, notes)), notes };
  }
  const stateChanges = past.blocks ? await readStateChanges(deps, past, named, artifacts, notes) : undefined;
  return {
    ...withPast,
    ...(past.blocks && stateChanges ? { stateBlocks: past.blocks } : {}),
    outcome: { kind: 'succeeded', ...(stateChanges ? { stateChanges } : {}) },
    notes,
  };
}

async function readOrNote<T>(read: () => Promise<T>, what: string, notes: string[]): Promise<T | undefined> {
  try {
    return await read();
  } catch (e) {
    notes.push(`${what}: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}

/** The script's calls, named from `artifactOf`; a script the decoder cannot read becomes a note. */
function safeCalls(
  script: string,
  artifactOf: (address: string) => ContractArtifact | undefined,
  notes: string[] | undefined,
): ExplainedCall[] {
  try {
    return explainScriptCalls(script, artifactOf);
  } catch (e) {
    notes?.push(`The script could not be decoded: ${e instanceof Error ? e.message : String(e)}`);
    return [];
  }
}

interface PastState {
  readonly header?: BlockHeader;
  readonly honoured?: boolean;
  /** Set only when history is honoured and the block before is known. */
  readonly blocks?: StateBlocks;
}

/**
 * The block's header and whether its past state can be read honestly (the probe calls the first contract
 * the script names); each failure becomes a note, and no past state is read unless history is honoured.
 */
async function pastState(
  deps: ExplainFetchers,
  blockHash: string,
  calls: readonly ExplainedCall[],
  notes: string[],
): Promise<PastState> {
  const header = await readOrNote(
    () => deps.blockHeader(blockHash),
    "The block's header could not be read",
    notes,
  );
  const target = calls.find((c) => c.address !== undefined);
  if (!target?.address) {
    notes.push('The script names no contract by its id, so no past state is read');
    return header ? { header } : {};
  }
  const probeTarget = { address: target.address, methodIndex: target.methodIndex };
  const support = await readOrNote(() => deps.historySupport(probeTarget), 'The history probe failed', notes);
  const reason = support ? historyUnavailableReason(support) : 'No past state is shown';
  if (reason) notes.push(reason.replace(/\.$/, ''));
  const honoured = support === undefined ? undefined : support === 'honoured';
  const before = header ? stateBeforeBlock(header) : undefined;
  if (header && !before) notes.push(`Block ${shortHash(blockHash)} names no parent on its chain`);
  return {
    ...(header ? { header } : {}),
    ...(honoured !== undefined ? { honoured } : {}),
    ...(honoured === true && before ? { blocks: { block: blockHash, before } } : {}),
  };
}

interface FailedRun {
  readonly txId: string;
  readonly script: string;
  readonly details: TxDetails;
  readonly calls: readonly ExplainedCall[];
  readonly lookup: FailureLookup;
  readonly artifacts: ReadonlyMap<string, ContractArtifact | undefined>;
}

/** Where the reproduction ran, said in every message about it. */
export function stateBlocksText(blocks: StateBlocks): string {
  return `the state just before block ${blocks.block} (after block ${blocks.before})`;
}

async function explainFailure(
  deps: ExplainDeps,
  run: FailedRun,
  past: PastState,
  notes: string[],
): Promise<{ outcome: ScriptOutcome; stateBlocks?: StateBlocks }> {
  if (!past.blocks || !past.header) {
    notes.push('The failure was not reproduced, so its reason is unknown (the node keeps none)');
    return { outcome: { kind: 'failed-unexplained' } };
  }
  const request = reproductionRequest({
    txId: run.txId,
    group: past.header.chainFrom,
    scriptHex: run.script,
    inputs: run.details.unsigned.inputs,
    gasAmount: run.details.unsigned.gasAmount,
    gasPrice: run.details.unsigned.gasPrice,
    stateBlockHash: past.blocks.before,
    calls: run.calls,
    approvedAtto: safeApproved(run.script),
  });
  const where = stateBlocksText(past.blocks);
  const answer = await readOrNote(
    () => deps.callTxScript(request),
    'The reproduction could not be sent',
    notes,
  );
  if (!answer) return { outcome: { kind: 'failed-unexplained' } };
  if (answer.ok) {
    notes.push(
      `Run again against ${where}, the script succeeds: that state does not explain the failure. ` +
        'Something else in its block changed what it depends on before it ran (another transaction of the ' +
        'same block), or the failure depended on the block itself',
    );
    return { outcome: { kind: 'failed-not-reproduced' }, stateBlocks: past.blocks };
  }
  if (!isVmFailureText(answer.detail)) {
    notes.push(`The node refused the reproduction against ${where}: ${cap(answer.detail, 500)}`);
    return { outcome: { kind: 'failed-unexplained' }, stateBlocks: past.blocks };
  }
  const first = run.calls[0];
  const explained = explainVmFailure(
    answer.detail,
    {
      ...(first?.address ? { address: first.address } : {}),
      ...(first?.method ? { method: first.method } : {}),
      args: first ? first.args.map((a) => a.text) : [],
      txId: run.txId,
      origin: 'tracked',
    },
    run.lookup,
  );
  const failure = {
    ...explained,
    message: cap(`${explained.message} · reproduced against ${where}`, MAX_EXPLANATION_CHARS),
  };
  return { outcome: { kind: 'failed-reproduced', failure }, stateBlocks: past.blocks };
}

function safeApproved(script: string): bigint {
  try {
    return approvedAtto(script);
  } catch {
    return 0n;
  }
}

/** A script that does nothing: run against a block's state, it reads the interested contracts as they were. */
export const NO_OP_SCRIPT = encodeScript([
  {
    isPublic: true,
    usePreapprovedAssets: false,
    useContractAssets: false,
    usePayToContractOnly: false,
    argsLength: 0,
    localsLength: 0,
    returnLength: 0,
    instrs: [],
  },
]);

/**
 * The called contracts' state after the block before and after the transaction's block: two no-op
 * scripts pinned to those blocks (cached forever). State is per block: the diff covers the whole block.
 */
async function readStateChanges(
  deps: ExplainDeps,
  past: PastState,
  calls: readonly ExplainedCall[],
  artifacts: ReadonlyMap<string, ContractArtifact | undefined>,
  notes: string[],
): Promise<StateChange[] | undefined> {
  const addresses = [...new Set(calls.flatMap((c) => (c.address ? [c.address] : [])))];
  if (addresses.length === 0 || !past.blocks || !past.header) return addresses.length === 0 ? [] : undefined;
  const read = async (block: string) => {
    const request = {
      group: past.header!.chainFrom,
      bytecode: NO_OP_SCRIPT,
      worldStateBlockHash: block,
      interestedContracts: addresses,
    };
    const run = await readOrNote(() => deps.callTxScript(request), 'The state could not be read', notes);
    if (run && !run.ok)
      notes.push(`The state after block ${shortHash(block)} could not be read: ${cap(run.detail, 300)}`);
    return run?.ok ? run.result.contracts : undefined;
  };
  const before = await read(past.blocks.before);
  const after = before ? await read(past.blocks.block) : undefined;
  if (!before || !after) return undefined;
  const changes: StateChange[] = [];
  for (const address of addresses) {
    const a = before.find((c) => c.address === address);
    const b = after.find((c) => c.address === address);
    const artifact = artifacts.get(address);
    if (!a || !b || !artifact) {
      notes.push(
        `No state change shown for ${address}: ${!artifact ? 'no artifact describes it' : 'the node did not return its state'}`,
      );
      continue;
    }
    changes.push({
      address,
      contract: artifact.name,
      diff: diffStates(artifact.fieldsSig, a, b, deps.structs),
    });
  }
  return changes;
}

/** How a source file is named to a person: the glue passes the workspace-relative path. */
export type PlaceName = (path: string) => string;
const asGiven: PlaceName = (path) => path;

/** The explanation as plain text (for a language-model tool, a log or a results document). */
export function explanationText(x: TransactionExplanation, placeName: PlaceName = asGiven): string {
  const lines = [`Transaction ${x.txId}`, `Status: ${x.status}`];
  if (x.caller) lines.push(`Signed by ${x.caller}`);
  lines.push(...outcomeLines(x, placeName));
  if (x.calls.length > 0) lines.push('Calls:', ...x.calls.map((c) => `  ${callLine(c)}`));
  if (x.events.length > 0)
    lines.push('Events:', ...x.events.map((e) => `  ${e.contract ?? e.contractAddress}: ${e.summary}`));
  if (x.debug.length > 0)
    lines.push(
      'Debug messages:',
      ...x.debug.map((d) => `  ${d.message}${d.at ? ` (${placeName(d.at.path)}:${d.at.line + 1})` : ''}`),
    );
  if (x.outcome.kind === 'succeeded' && x.outcome.stateChanges) {
    if (x.stateBlocks)
      lines.push(`State changes in block ${x.stateBlocks.block} (every transaction of that block):`);
    for (const s of x.outcome.stateChanges)
      lines.push(`  ${s.contract ?? ''} ${s.address}`, ...stateDiffLines(s.diff).map((l) => `    ${l}`));
  }
  if (x.notes.length > 0) lines.push('Notes:', ...x.notes.map((n) => `  ${n}.`));
  return lines.join('\n');
}

function outcomeLines(x: TransactionExplanation, placeName: PlaceName): string[] {
  switch (x.outcome.kind) {
    case 'not-mined':
      return [];
    case 'no-script':
      return ['No script: a transfer.'];
    case 'succeeded':
      return [x.scriptExecutionOk === true ? 'The script succeeded.' : 'The script ran.'];
    case 'failed-reproduced': {
      const site = x.outcome.failure.sites[0];
      return [
        'The script failed in its block (scriptExecutionOk: false).',
        `Why: ${x.outcome.failure.message}`,
        ...(site ? [`At ${placeName(site.path)}:${site.span.start.line + 1}`] : []),
      ];
    }
    case 'failed-not-reproduced':
    case 'failed-unexplained':
      return ['The script failed in its block (scriptExecutionOk: false).'];
  }
}

/** The client methods an explanation uses. */
export type ExplainClient = Pick<
  GatewayClient,
  | 'getTxStatus'
  | 'getTxDetails'
  | 'getEventsByTxId'
  | 'getBlockHeader'
  | 'callTxScript'
  | 'callContract'
  | 'profile'
>;

/**
 * The fetchers from a GatewayClient: details, headers and pinned script runs are cached forever by the
 * client; a call-tx-script the node refuses (a VM failure is an HTTP error there) becomes its text.
 */
export function explainFetchersFrom(client: ExplainClient, options?: RequestOptions): ExplainFetchers {
  return {
    txStatus: (txId) => client.getTxStatus(txId, {}, options),
    txDetails: (txId) => client.getTxDetails(txId, {}, options),
    eventsByTxId: (txId) => client.getEventsByTxId(txId, options),
    blockHeader: (hash) => client.getBlockHeader(hash, options),
    historySupport: (target) => historySupport(client, target, options),
    callTxScript: async (request) => {
      try {
        return { ok: true, result: await client.callTxScript(request, options) };
      } catch (error) {
        const refused = error instanceof GatewayHttpError && error.status >= 400 && error.status < 600;
        const tooMany = error instanceof GatewayHttpError && (error.status === 429 || error.status === 401);
        if (!refused || tooMany) throw error;
        return { ok: false, detail: error.detail ?? error.message };
      }
    },
  };
}

/** The tx details webview's "What happened" section: plain lines, rendered as text by the page. */
export function whatHappenedView(
  x: TransactionExplanation,
  placeName: PlaceName = asGiven,
): WhatHappenedView {
  const failure = x.outcome.kind === 'failed-reproduced' ? x.outcome.failure : undefined;
  const site = failure?.sites[0];
  const changes = x.outcome.kind === 'succeeded' ? (x.outcome.stateChanges ?? []) : [];
  return {
    outcome: outcomeLines(x, placeName)[0] ?? x.status,
    calls: x.calls.map(callLine),
    events: x.events.map((e) => `${e.contract ?? e.contractAddress}: ${e.summary}`),
    debug: x.debug.map((d) => `${d.message}${d.at ? ` (${placeName(d.at.path)}:${d.at.line + 1})` : ''}`),
    stateChanges: changes.map((c) => ({
      contract: `${c.contract ?? 'contract'} ${c.address}`,
      lines: stateDiffLines(c.diff),
    })),
    ...(failure
      ? {
          failure: {
            message: failure.message,
            ...(site ? { where: `${placeName(site.path)}:${site.span.start.line + 1}` } : {}),
          },
        }
      : {}),
    ...(x.stateBlocks ? { stateBlock: stateBlocksText(x.stateBlocks) } : {}),
    notes: x.notes,
  };
}
