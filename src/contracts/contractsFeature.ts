import { withRequestProgress } from '../platform/progress';
import * as vscode from 'vscode';
import { formatValue } from '../core/artifacts';
import { fetchLatestEvents, type Val } from '../core/gateway';
import { validate } from '../core/gateway';
import type { CallSummary } from '../core/contracts/call';
import { actionsEngine } from '../platform/lazyEngine';
import {
  contractAddressOf,
  contractReferenceProblem,
  makeWatched,
  typedContractAddress,
  type WatchedContract,
} from '../core/contracts/watching/watchList';
import { latestEventsShortfall, latestEventsTitle, shortAddress } from '../core/contracts/watching/rows';
import { decodeListing, eventsMarkdown } from '../core/contracts/watching/eventsMarkdown';
import { LATEST_EVENTS_CAVEAT, costNotice, latestEventsCost, olderEventsCost } from '../core/usage/costs';
import { inert, inertLines } from '../core/text/inert';
import { callerAsked } from '../core/signing/confirmPolicy';
import { debuggableCall } from '../core/debugging/debuggableCall';
import { FailureWithFollowUp, UserCancelledError } from '../core/util/errors';
import { argumentsMayActForUser } from '../platform/automation';
import { askModal, askModalCancelFirst, showInfo } from '../platform/notify';
import { inertCheck, type InertPickItem } from '../core/text/inertInput';
import * as config from '../platform/config';
import { CommandIds, ViewIds } from '../constants';
import { showResult } from '../platform/resultsDocument';
import { registerCommands, startedByCaller, type CommandTable } from '../platform/commands';
import { argString, argValue, askMethodCall, askText, pick, pickOrTyped } from '../platform/prompts';
import type { Services } from '../services';
import { ContractsTreeProvider, type ContractNode, type ContractSnapshot } from './contractsTree';
import { watchedOrPick, type DeliveredEvent } from './contractsService';

/**
 * The services of the Watched Contracts view and its commands: the watched contracts (their model and watcher,
 * and the one rule that resolves an artifact), and the failures, which put a failed call at its Ralph line and
 * debug messages at their emit (Problems view).
 */
export type ContractCommandDeps = Pick<
  Services,
  'log' | 'redactor' | 'connection' | 'contracts' | 'failures'
>;

/** Read-only views of the feature for the extension's API (no client, no secrets). */
export interface ContractsFeatureApi {
  /** The Watched Contracts tree as rendered, with State and Events expanded. */
  contractsSnapshot(): Promise<ContractSnapshot[]>;
  /** Events the background watcher delivered in this session, in order (each should appear once). */
  contractEventsDelivered(): readonly DeliveredEvent[];
}

type Show = 'document' | 'none';

function showMode(args: unknown, fallback: Show): Show {
  const v = argString(args, 'show');
  return v === 'document' || v === 'none' ? v : fallback;
}

const CONTRACT_COMMANDS: CommandTable<ContractCommandDeps> = [
  [CommandIds.watchContract, watchContract],
  [CommandIds.unwatchContract, unwatchContract],
  [CommandIds.refreshContracts, refreshContracts],
  [CommandIds.showLatestEvents, showLatestEvents],
  [CommandIds.eventsByTxId, (deps, args) => eventsListing(deps, 'txId', args)],
  [CommandIds.eventsByBlockHash, (deps, args) => eventsListing(deps, 'blockHash', args)],
  [CommandIds.copyValue, (_deps, args) => copyValue(args)],
  [CommandIds.loadMoreEvents, loadMoreEvents],
  [CommandIds.callContractMethod, callContractMethod],
];

/**
 * Watched Contracts: the view (a mapper of the service's model) and the contract commands. One call from
 * the composition root; everything registered here is owned by `context.subscriptions`.
 */
export function registerContractsFeature(
  context: vscode.ExtensionContext,
  deps: ContractCommandDeps,
): ContractsFeatureApi {
  const { contracts } = deps;
  const tree = new ContractsTreeProvider(contracts);
  const view = vscode.window.createTreeView(ViewIds.contracts, {
    treeDataProvider: tree,
    showCollapseAll: true,
  });
  tree.bindView(view);
  context.subscriptions.push(
    tree,
    view,
    // Expanded contracts of the visible view are what the user looks at: the watcher polls them first.
    tree.onDidChangeLookedAt((addresses) => contracts.setLookedAt(addresses)),
    ...registerCommands(deps, CONTRACT_COMMANDS),
  );
  return {
    contractsSnapshot: () => tree.snapshot(),
    contractEventsDelivered: () => [...contracts.deliveredEvents],
  };
}

async function unwatchContract(deps: ContractCommandDeps, args: unknown): Promise<{ address: string }> {
  const { contracts } = deps;
  // No address: a pick from the whole list (the argument object's candidates do not narrow it).
  const address =
    argString(args, 'address') ??
    (await watchedOrPick(contracts, undefined, inert`Unwatch Contract`)).address;
  await contracts.remove(address);
  return { address };
}

async function refreshContracts(
  deps: ContractCommandDeps,
): Promise<{ contracts: number; newEvents: number }> {
  const { contracts } = deps;
  const addresses = contracts.watched.map((w) => w.address);
  await contracts.artifacts.reload();
  await contracts.model.loadStates(addresses, true);
  let newEvents = 0;
  for (const a of addresses) newEvents += await contracts.model.refreshEvents(a);
  return { contracts: addresses.length, newEvents };
}

async function watchContract(deps: ContractCommandDeps, args: unknown): Promise<WatchedContract> {
  const { contracts } = deps;
  // A user action reads the files again rather than trusting the file watcher alone: watchers can
  // miss files written by other tools (or into folders created after the watch began).
  const registry = await contracts.artifacts.reload();
  const network = contracts.network;
  if (!deps.connection.state.profile?.name)
    throw new Error('No gateway profile is active. Run "Alephium: Add Profile".');
  let address = argString(args, 'address');
  let name = argString(args, 'name');
  let artifactName = argString(args, 'artifact');
  const deploymentName = argString(args, 'deployment');
  if (deploymentName) {
    const d = registry.deployments(network).find((x) => x.name === deploymentName);
    if (!d)
      throw new Error(`No deployment named ${deploymentName} in the ${network ?? ''} deployments file.`);
    address = d.address;
    name ??= d.name;
  }
  if (!address) {
    const watched = new Set(contracts.watched.map((w) => w.address));
    const deployed = registry.deployments(network).filter((d) => !watched.has(d.address));
    const manual = { label: inert`$(edit) Enter a contract address or id…`, manual: true as const };
    type WatchRow = InertPickItem & { manual?: true; address?: string; name?: string; typed?: true };
    // A pasted address (or contract id) is a row of its own: the picker would only filter it to nothing.
    const chosen = await pickOrTyped<WatchRow>(
      [
        // A deployments file's names are outside text (a cloned repository wrote them).
        ...deployed.map((d) => ({
          label: inert`${d.name}`,
          description: inert`${shortAddress(d.address)} · group ${d.group}`,
          detail: inert`from the ${network} deployments file`,
          address: d.address,
          name: d.name,
        })),
        manual,
      ],
      {
        title: inert`Watch Contract`,
        placeHolder: inert`A deployed contract, or paste an address or contract id`,
      },
      (value) => {
        const typed = typedContractAddress(value);
        return typed ? { label: inert`Watch ${typed}`, address: typed, typed: true } : undefined;
      },
    );
    if (chosen.typed) {
      address = chosen.address;
    } else if (chosen.manual) {
      address = contractAddressOf(
        await askText({
          title: inert`Watch Contract`,
          prompt: inert`Contract address (base58) or contract id (64 hex digits)`,
          validate: inertCheck(contractReferenceProblem),
        }),
      );
      if (!registry.matchAddress(address, network) && registry.contracts.length > 0) {
        const auto = { label: inert`$(search) Match by on-chain code hash`, artifact: undefined };
        const a = await pick<InertPickItem & { artifact: string | undefined }>(
          [
            auto,
            ...registry.contracts.map((c) => ({
              label: inert`${c.name}`,
              description: inert`${c.file ?? ''}`,
              artifact: c.name,
            })),
          ],
          { title: inert`Artifact that describes this contract` },
        );
        artifactName = a.artifact;
      }
    } else {
      address = chosen.address;
      name = chosen.name;
    }
  }
  // An argument may be an id too; the entry is always the address the node and the CLI use.
  const problem = contractReferenceProblem(address ?? '');
  if (problem) throw new Error(problem);
  address = contractAddressOf(address!);
  if (artifactName && !registry.byName(artifactName))
    throw new Error(`No artifact named ${artifactName} in the workspace.`);
  const entry = makeWatched(address, {
    ...(name ? { name } : {}),
    ...(artifactName ? { artifactName } : {}),
  });
  await contracts.add(entry);
  deps.log.info(`Watching ${entry.name ?? entry.address} (${entry.address})`);
  return entry;
}

async function showLatestEvents(deps: ContractCommandDeps, args: unknown) {
  const { contracts } = deps;
  const w = await watchedOrPick(contracts, args, inert`Show Latest Events`);
  const nArg = argValue(args, 'n') ?? argValue(args, 'count');
  const n = Number(
    nArg ??
      (await askText({
        title: inert`Show Latest Events`,
        prompt: inert`How many of the latest events?`,
        value: '10',
        // A usable number shows what reading that many costs, under the input, before anything is read.
        validate: (v) =>
          /^\d+$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= 1000
            ? { message: inert`${latestEventsNotice(Number(v)).text}`, severity: 'info' }
            : inert`A number from 1 to 1000`,
      })),
  );
  const cost = latestEventsNotice(n);
  // A caller's number was not seen in a prompt: a costly read is said in a notice as it starts.
  if (nArg !== undefined && cost.worthSaying) void showInfo(inert`Show Latest Events: ${cost.text}`);
  const latest = await fetchLatestEvents(deps.connection.requireClient(), w.address, n);
  // The tree reads what it misses from its own cursor: both views then show the same newest event.
  void contracts.model.noteEventCount(w.address, latest.count);
  const lookup = await contracts.artifactLookup([w.address]);
  const decoded = decodeListing(latest.events, lookup, contracts.artifacts.latest).reverse();
  const result = decoded.map((e) => ({
    name: e.decoded.name,
    eventIndex: e.eventIndex,
    fields: Object.fromEntries(e.decoded.fields.map((f) => [f.name, f.value])),
    txId: e.txId,
    ...(e.decoded.warning ? { warning: e.decoded.warning } : {}),
  }));
  const shortfall = latestEventsShortfall(latest);
  const mode = showMode(args, 'document');
  if (mode !== 'none')
    await showResult(
      'Latest Events',
      eventsMarkdown(
        latestEventsTitle(w.name ?? w.address, n, decoded.length, latest.count, shortfall),
        decoded,
      ),
    );
  return { count: latest.count, events: result, ...(shortfall ? { notRead: shortfall } : {}) };
}

/**
 * What reading the latest `n` events costs: the count and a page per 100, more with gaps, never more
 * than the read's cap (fetchLatestEvents stops there and the listing says what it did not read).
 */
function latestEventsNotice(n: number): ReturnType<typeof costNotice> {
  const notice = costNotice(`Reading the latest ${n} events`, latestEventsCost(n));
  return {
    ...notice,
    text: notice.text.replace(/\.$/, ` (${LATEST_EVENTS_CAVEAT}).`),
  };
}

async function eventsListing(deps: ContractCommandDeps, kind: 'txId' | 'blockHash', args: unknown) {
  const { contracts } = deps;
  const label = kind === 'txId' ? 'Transaction id' : 'Block hash';
  const value =
    argString(args, kind) ??
    (await askText({
      title: kind === 'txId' ? inert`Events by Transaction Id` : inert`Events by Block Hash`,
      prompt: inert`${label}`,
      validate: (v) => (/^[0-9a-fA-F]{64}$/.test(v.trim()) ? undefined : inert`${label}: 64 hex digits`),
    }));
  const id = value.trim();
  (kind === 'txId' ? validate.validateTxId : validate.validateBlockHash)(kind, id);
  const client = deps.connection.requireClient();
  const events =
    kind === 'txId'
      ? (await client.getEventsByTxId(id)).map((e) => ({ ...e, txId: id }))
      : (await client.getEventsByBlockHash(id)).map((e) => ({ ...e, blockHash: id }));
  const lookup = await contracts.artifactLookup(events.map((e) => e.contractAddress));
  const decoded = decodeListing(events, lookup, contracts.artifacts.latest);
  const result = decoded.map((e) => ({
    contractAddress: e.contractAddress,
    name: e.decoded.name,
    eventIndex: e.eventIndex,
    fields: Object.fromEntries(e.decoded.fields.map((f) => [f.name, f.value])),
    txId: e.txId,
    ...(e.decoded.warning ? { warning: e.decoded.warning } : {}),
  }));
  // Every event listing opens the same way: a read-only document, each event naming its transaction.
  if (showMode(args, 'document') === 'document')
    await showResult(
      `Events of ${kind === 'txId' ? 'transaction' : 'block'}`,
      eventsMarkdown(`Events of ${kind === 'txId' ? 'transaction' : 'block'} ${id}`, decoded),
    );
  return result;
}

async function copyValue(args: unknown): Promise<string> {
  const node = args as Partial<ContractNode> | undefined;
  const row =
    node && 'row' in node ? (node.row as { copy?: string; label: string; description?: string }) : undefined;
  const text =
    argString(args, 'text') ??
    row?.copy ??
    row?.description ??
    row?.label ??
    (node && 'address' in node ? String(node.address) : undefined);
  if (text === undefined)
    throw new Error('Nothing to copy: run this from a value in the Watched Contracts view.');
  // A row of the view is the user's own choice; anything else is a caller's text: asked first.
  if (startedByCaller(args) && !argumentsMayActForUser()) {
    const detail = inertLines([inert`${callerAsked('to put this text on the clipboard')}`, text]);
    if ((await askModalCancelFirst(inert`Copy this text to the clipboard?`, detail, 'Copy')) !== 'Copy')
      throw new UserCancelledError();
  }
  await vscode.env.clipboard.writeText(text);
  return text;
}

async function loadMoreEvents(deps: ContractCommandDeps, args: unknown): Promise<number> {
  const address = argString(args, 'address');
  if (!address) throw new Error('Load more needs a contract: use the "Load more…" item in the view.');
  // A page of older events is a request or two: said in the status bar while it loads, not asked.
  const pageSize = config.eventPageSize();
  const cost = costNotice(`Loading ${pageSize} older events`, olderEventsCost(pageSize, pageSize));
  if (cost.worthSaying) void showInfo(inert`${cost.text}`);
  const loading = deps.contracts.model.loadMore(address);
  vscode.window.setStatusBarMessage(`$(sync~spin) ${cost.text}`, loading);
  return loading;
}

async function callContractMethod(deps: ContractCommandDeps, args: unknown): Promise<CallSummary> {
  const { contracts, log } = deps;
  const w = await watchedOrPick(contracts, args, inert`Simulate Contract Call`);
  const client = deps.connection.requireClient();
  const registry = await contracts.registry();
  const state = await client.getContractState(w.address);
  const resolved = await contracts.resolve(w.address, state.codeHash);
  const artifact = resolved.artifact;
  if (!artifact)
    throw new Error(
      `No artifact in the workspace describes ${w.address}; add its .ral.json to call it by name.`,
    );
  if (resolved.drift.status === 'drift') {
    // The method index comes from the artifact: with other code deployed it may call another method.
    if (argValue(args, 'allowDrift') !== true) {
      const go = await askModal(inert`Code drift: ${resolved.drift.message}`, undefined, 'Call anyway');
      if (go !== 'Call anyway') throw new Error(`Not called: ${resolved.drift.message}`);
    }
  }
  const { method, fn, inputs } = await askMethodCall(
    artifact,
    registry,
    args,
    inert`Simulate Contract Call: a method of ${artifact.name}`,
  );
  const callerAddress = argString(args, 'callerAddress');
  // The call's building and its summary load with the actions engine, not at activation.
  const engine = await actionsEngine();
  const built = engine.buildCall(
    w.address,
    w.group,
    artifact,
    method,
    inputs,
    registry,
    callerAddress ? { callerAddress } : {},
  );
  // A slow node or a retry shows as progress with Cancel, not as a silent half minute.
  const result = await withRequestProgress(client, `Calling ${artifact.name}.${fn.name}…`, (signal) =>
    client.callContract(built.call, { signal }),
  );
  // The called contract's artifact was matched by its on-chain code hash: the explainer reuses it.
  const known = new Map([[w.address, artifact]]);
  if (result.type === 'CallContractFailed') {
    const failed = { address: w.address, method: fn.name, args: inputs, origin: 'simulate' };
    const explained = await deps.failures.explain(result.error, failed, known);
    // The toast offers the same call in the Ralph debugger, which stops where it fails.
    const call = debuggableCall(failed);
    if (call)
      throw new FailureWithFollowUp(explained.message, {
        title: 'Debug this failure',
        command: CommandIds.debugContractMethod,
        args: call,
      });
    throw new Error(explained.message);
  }
  if (result.type !== 'CallContractSucceeded')
    throw new Error(`Unexpected call result type ${result.rawType}`);
  const lookup = await contracts.artifactLookup(result.events.map((e) => e.contractAddress));
  const summary = engine.summariseCall(artifact, fn, built.methodIndex, result, lookup, registry);
  contracts.rememberGas({
    contract: artifact.name,
    method: fn.name,
    codeHash: artifact.codeHash,
    gasUsed: summary.gasUsed,
    args: built.call.args ?? [],
    via: 'simulate',
  });
  await deps.failures.succeeded(summary.debugMessages, fn.name, known);
  for (const d of summary.debugMessages) log.info(`Debug > Contract @ ${d.contractAddress} - ${d.message}`);
  log.info(
    `Called ${artifact.name}.${fn.name}: ${summary.returns.map((r) => `${r.name}=${formatValue(r.value)}`).join(', ') || 'no returns'}, gas ${summary.gasUsed}`,
  );
  if (showMode(args, 'document') !== 'none')
    await showResult(
      `Simulated ${artifact.name}.${fn.name}`,
      engine.callMarkdown(summary, w.address, built.call.args as Val[]),
    );
  return summary;
}
