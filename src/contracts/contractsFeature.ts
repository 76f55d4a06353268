import * as vscode from 'vscode';
import {
  decodeEvent,
  formatValue,
  type ContractArtifact,
  type DecodedEvent,
  type DriftCheck,
  type EventLike,
  type ResolvedContract,
} from '../core/artifacts';
import type { ArtifactLookup } from '../core/contracts/actions';
import { fetchLatestEvents, type GatewayClient, type Val } from '../core/gateway';
import { validate } from '../core/gateway';
import type { Logger } from '../core/util/log';
import {
  argumentHint,
  argumentProblem,
  buildCall,
  callMarkdown,
  findMethod,
  functionSignature,
  summariseCall,
  type CallSummary,
} from '../core/contracts/call';
import {
  addToWatchList,
  contractAddressProblem,
  decodeListing,
  eventsMarkdown,
  latestEventsTitle,
  makeWatched,
  parseWatchList,
  removeFromWatchList,
  resolveWatched,
  shortAddress,
  type WatchedContract,
} from '../core/watching/watchedContracts';
import { costNotice, latestEventsCost, olderEventsCost } from '../core/ledger/costs';
import { inert } from '../core/text/inert';
import { askModal, showInfo } from '../platform/notify';
import * as config from '../platform/config';
import type { ConnectionManager } from '../platform/connection';
import { CommandIds, StorageKeys, ViewIds } from '../constants';
import { showResult } from '../platform/resultsDocument';
import { registerCommand, type CommandContext } from '../platform/commands';
import { argString, argValue, askText, onlyCandidates, pick } from '../platform/prompts';
import { ContractsTreeProvider, type ContractNode, type ContractSnapshot } from './contractsTree';
import { EventWatch, type DeliveredEvent } from './eventWatch';
import type { WorkspaceArtifacts } from './workspaceArtifacts';
import type { ResolvedForPanel } from './panel/host';
import type { ContractsSupport, FailureReporter } from '../debugging/debuggingFeature';

export interface ContractsFeatureDeps extends CommandContext {
  readonly log: Logger;
  readonly connection: ConnectionManager;
  /** The one artifacts service of the extension (also behind the tx details webview's event names). */
  readonly artifacts: WorkspaceArtifacts;
  /** Explains VM failures at the Ralph line that caused them and places debug messages (Problems view). */
  readonly failures?: FailureReporter;
}

/** Names events as the Watched Contracts view does, for other features (the tx details webview). */
export type EventDecoderFactory = () => Promise<
  (event: EventLike & { contractAddress: string }) => DecodedEvent
>;

/** Read-only views of the feature for the extension's API (no client, no secrets). */
export interface ContractsFeatureApi {
  /** The Watched Contracts tree as rendered, with State and Events expanded. */
  contractsSnapshot(): Promise<ContractSnapshot[]>;
  /** Events the background watcher delivered in this session, in order (each should appear once). */
  contractEventsDelivered(): readonly DeliveredEvent[];
}

/** What the contract panel (src/contracts/panel/host.ts) takes from this feature: one way to pick and resolve. */
export interface ContractPanelSupport {
  resolve(address: string): Promise<ResolvedForPanel>;
  readonly onDidChangeArtifacts: vscode.Event<unknown>;
  watchedOrPick(args: unknown, title: string): Promise<{ address: string }>;
}

/** What Simulate, Execute and Deploy (src/contracts/contractActionsCommands.ts) take from this feature. */
export interface ContractActionSupport {
  artifactOf(address: string): Promise<ResolvedContract>;
  artifactLookup(addresses: readonly string[]): Promise<ArtifactLookup>;
  watched(): readonly { address: string; name?: string }[];
  /** The user just changed this contract: poll it ahead of its planned turn. */
  pollSoon(address: string): void;
}

type Show = 'document' | 'quickPick' | 'none';

function showMode(args: unknown, fallback: Show): Show {
  const v = argString(args, 'show');
  return v === 'document' || v === 'quickPick' || v === 'none' ? v : fallback;
}

/** A tree node or `{address}` from a command argument. */
function addressOf(args: unknown): string | undefined {
  return argString(args, 'address');
}

/**
 * Watched Contracts: the view, the background watcher and the contract commands. One call from the
 * composition root; everything registered here is owned by `context.subscriptions`.
 */
export function registerContractsFeature(
  context: vscode.ExtensionContext,
  deps: ContractsFeatureDeps,
): {
  api: ContractsFeatureApi;
  eventDecoder: EventDecoderFactory;
  panelSupport: ContractPanelSupport;
  actionSupport: ContractActionSupport;
  debugSupport: ContractsSupport;
} {
  const { connection, log, artifacts } = deps;
  const profileName = () => connection.state.profile?.name;
  const readList = (): WatchedContract[] => {
    const name = profileName();
    return name ? parseWatchList(context.workspaceState.get(StorageKeys.watchList(name))) : [];
  };
  const tree = new ContractsTreeProvider({
    log,
    client: () => connection.state.client,
    registry: () => artifacts.registry(),
    latestRegistry: () => artifacts.latest,
    network: () => connection.state.profile?.network,
    pageSize: () => config.eventPageSize(),
  });
  const view = vscode.window.createTreeView(ViewIds.contracts, {
    treeDataProvider: tree,
    showCollapseAll: true,
  });
  tree.bindView(view);
  const watch = new EventWatch(connection, context.workspaceState, tree, log);

  const saveList = async (list: WatchedContract[]): Promise<void> => {
    const name = profileName();
    if (!name) throw new Error('No gateway profile is active. Run "Alephium: Add Profile".');
    await context.workspaceState.update(StorageKeys.watchList(name), list);
    tree.setList(list);
  };
  const requireClient = (): GatewayClient => connection.requireClient();

  const onConnection = () => {
    // Another profile means another watch list and, possibly, another chain: nothing cached is valid.
    tree.resetData();
    tree.setList(readList());
    watch.rebuild();
  };

  /** Artifact and drift of any contract address (watched ones use their state's code hash). */
  const artifactOf = async (address: string) => {
    const registry = await artifacts.registry();
    const watchedResolved = await tree.resolved(address);
    if (watchedResolved) return watchedResolved;
    return registry.resolve(address, undefined, connection.state.profile?.network);
  };
  const artifactLookup = async (addresses: readonly string[]) => {
    const map = new Map<string, { artifact?: ContractArtifact; drift?: DriftCheck }>();
    for (const a of new Set(addresses)) {
      const r = await artifactOf(a);
      map.set(a, { ...(r.artifact ? { artifact: r.artifact } : {}), drift: r.drift });
    }
    return (a: string) => map.get(a);
  };

  const pickWatched = async (title: string, args?: unknown): Promise<WatchedContract> => {
    if (tree.watched.length === 0)
      throw new Error('No contract is watched yet. Run "Alephium: Watch Contract" first.');
    const list = onlyCandidates(tree.watched, args);
    const registry = await artifacts.registry();
    // Named as the tree names them: the watch entry, the deployments file, the artifact, else the address.
    const chosen = await pick(
      list.map((w) => {
        const resolved = resolveWatched(registry, w, undefined, connection.state.profile?.network);
        const name = w.name ?? resolved.deployment?.name ?? resolved.artifact?.name;
        return {
          label: name ?? shortAddress(w.address),
          description: `${name ? `${shortAddress(w.address)} · ` : ''}group ${w.group}`,
          detail: w.address,
          watched: w,
        };
      }),
      { title },
    );
    return chosen.watched;
  };
  const watchedOrPick = async (args: unknown, title: string): Promise<WatchedContract> => {
    const address = addressOf(args);
    if (!address) return pickWatched(title, args);
    const found = tree.watched.find((w) => w.address === address);
    return found ?? makeWatched(address);
  };

  // ---- commands --------------------------------------------------------------------------------------

  const watchContract = async (args?: unknown): Promise<WatchedContract> => {
    // A user action reads the files again rather than trusting the file watcher alone: watchers can
    // miss files written by other tools (or into folders created after the watch began).
    const registry = await artifacts.reload();
    const network = connection.state.profile?.network;
    if (!profileName()) throw new Error('No gateway profile is active. Run "Alephium: Add Profile".');
    let address = addressOf(args);
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
      const watched = new Set(tree.watched.map((w) => w.address));
      const deployed = registry.deployments(network).filter((d) => !watched.has(d.address));
      const manual = { label: '$(edit) Enter a contract address…', manual: true as const };
      const chosen = await pick<vscode.QuickPickItem & { manual?: true; address?: string; name?: string }>(
        [
          ...deployed.map((d) => ({
            label: d.name,
            description: `${shortAddress(d.address)} · group ${d.group}`,
            detail: `from the ${network} deployments file`,
            address: d.address,
            name: d.name,
          })),
          manual,
        ],
        { title: 'Watch Contract', placeHolder: 'A deployed contract, or an address' },
      );
      if (chosen.manual) {
        address = (
          await askText({
            title: 'Watch Contract',
            prompt: 'Contract address',
            validate: contractAddressProblem,
          })
        ).trim();
        if (!registry.matchAddress(address, network) && registry.contracts.length > 0) {
          const auto = { label: '$(search) Match by on-chain code hash', artifact: undefined };
          const a = await pick<vscode.QuickPickItem & { artifact: string | undefined }>(
            [
              auto,
              ...registry.contracts.map((c) => ({
                label: c.name,
                description: c.file ?? '',
                artifact: c.name,
              })),
            ],
            { title: 'Artifact that describes this contract' },
          );
          artifactName = a.artifact;
        }
      } else {
        address = chosen.address;
        name = chosen.name;
      }
    }
    const problem = contractAddressProblem(address ?? '');
    if (problem) throw new Error(problem);
    if (artifactName && !registry.byName(artifactName))
      throw new Error(`No artifact named ${artifactName} in the workspace.`);
    const entry = makeWatched(address!, {
      ...(name ? { name } : {}),
      ...(artifactName ? { artifactName } : {}),
    });
    await saveList(addToWatchList(readList(), entry));
    watch.watch(entry.address);
    log.info(`Watching ${entry.name ?? entry.address} (${entry.address})`);
    return entry;
  };

  const unwatchContract = async (args?: unknown): Promise<{ address: string }> => {
    const address = addressOf(args) ?? (await pickWatched('Unwatch Contract')).address;
    await saveList(removeFromWatchList(readList(), address));
    await watch.unwatch(address);
    return { address };
  };

  const refreshContracts = async (): Promise<{ contracts: number; newEvents: number }> => {
    const addresses = tree.watched.map((w) => w.address);
    await artifacts.reload();
    await tree.loadStates(addresses, true);
    let newEvents = 0;
    for (const a of addresses) newEvents += await tree.refreshEvents(a);
    return { contracts: addresses.length, newEvents };
  };

  const showLatestEvents = async (args?: unknown) => {
    const w = await watchedOrPick(args, 'Show Latest Events');
    const nArg = argValue(args, 'n') ?? argValue(args, 'count');
    const n = Number(
      nArg ??
        (await askText({
          title: 'Show Latest Events',
          prompt: 'How many of the latest events?',
          value: '10',
          // A usable number shows what reading that many costs, under the input, before anything is read.
          validateInput: (v) =>
            /^\d+$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= 1000
              ? {
                  message: latestEventsNotice(Number(v)).text,
                  severity: vscode.InputBoxValidationSeverity.Info,
                }
              : 'A number from 1 to 1000',
        })),
    );
    const cost = latestEventsNotice(n);
    // A caller's number was not seen in a prompt: a costly read is said in a notice as it starts.
    if (nArg !== undefined && cost.worthSaying) void showInfo(inert`Show Latest Events: ${cost.text}`);
    const latest = await fetchLatestEvents(requireClient(), w.address, n);
    // The tree reads what it misses from its own cursor: both views then show the same newest event.
    void tree.model.noteEventCount(w.address, latest.count);
    const lookup = await artifactLookup([w.address]);
    const decoded = decodeListing(latest.events, lookup, artifacts.latest).reverse();
    const result = decoded.map((e) => ({
      name: e.decoded.name,
      eventIndex: e.eventIndex,
      fields: Object.fromEntries(e.decoded.fields.map((f) => [f.name, f.value])),
      txId: e.txId,
      ...(e.decoded.warning ? { warning: e.decoded.warning } : {}),
    }));
    const mode = showMode(args, 'document');
    if (mode !== 'none')
      await showResult(
        'Latest Events',
        eventsMarkdown(latestEventsTitle(w.name ?? w.address, n, decoded.length, latest.count), decoded),
      );
    return { count: latest.count, events: result };
  };

  /** What reading the latest `n` events costs: the count and a page per 100, more with gaps. */
  const latestEventsNotice = (n: number) => {
    const notice = costNotice(`Reading the latest ${n} events`, latestEventsCost(n));
    return { ...notice, text: notice.text.replace(/\.$/, ' (more if the contract has hidden Debug slots).') };
  };

  const listingCommand = (kind: 'txId' | 'blockHash') => async (args?: unknown) => {
    const label = kind === 'txId' ? 'Transaction id' : 'Block hash';
    const value =
      argString(args, kind) ??
      (await askText({
        title: kind === 'txId' ? 'Events by Transaction Id' : 'Events by Block Hash',
        prompt: label,
        validate: (v) => (/^[0-9a-fA-F]{64}$/.test(v.trim()) ? undefined : `${label}: 64 hex digits`),
      }));
    const id = value.trim();
    (kind === 'txId' ? validate.validateTxId : validate.validateBlockHash)(kind, id);
    const client = requireClient();
    const events =
      kind === 'txId'
        ? (await client.getEventsByTxId(id)).map((e) => ({ ...e, txId: id }))
        : (await client.getEventsByBlockHash(id)).map((e) => ({ ...e, blockHash: id }));
    const lookup = await artifactLookup(events.map((e) => e.contractAddress));
    const decoded = decodeListing(events, lookup, artifacts.latest);
    const result = decoded.map((e) => ({
      contractAddress: e.contractAddress,
      name: e.decoded.name,
      eventIndex: e.eventIndex,
      fields: Object.fromEntries(e.decoded.fields.map((f) => [f.name, f.value])),
      txId: e.txId,
      ...(e.decoded.warning ? { warning: e.decoded.warning } : {}),
    }));
    const mode = showMode(args, 'quickPick');
    if (mode === 'document')
      await showResult(
        `Events of ${kind === 'txId' ? 'transaction' : 'block'}`,
        eventsMarkdown(`Events of ${kind === 'txId' ? 'transaction' : 'block'} ${id}`, decoded),
      );
    else if (mode === 'quickPick') {
      const items = decoded.map((e) => ({
        label: `${e.decoded.warning ? '$(warning) ' : ''}${e.decoded.name}`,
        description: e.decoded.fields.map((f) => `${f.name}=${formatValue(f.value, 20)}`).join(', '),
        detail: `${shortAddress(e.contractAddress)}${e.decoded.warning ? ` · ${e.decoded.warning}` : ''}`,
        copy: JSON.stringify(result[decoded.indexOf(e)], null, 2),
      }));
      if (items.length === 0) void showInfo(inert`No events for ${label.toLowerCase()} ${id}.`);
      else {
        const chosen = await vscode.window.showQuickPick(items, {
          title: `${items.length} event(s) · pick one to copy it`,
        });
        if (chosen) await vscode.env.clipboard.writeText(chosen.copy);
      }
    }
    return result;
  };

  const copyValue = async (args?: unknown): Promise<string> => {
    const node = args as Partial<ContractNode> | undefined;
    const row =
      node && 'row' in node
        ? (node.row as { copy?: string; label: string; description?: string })
        : undefined;
    const text =
      argString(args, 'text') ??
      row?.copy ??
      row?.description ??
      row?.label ??
      (node && 'address' in node ? String(node.address) : undefined);
    if (text === undefined)
      throw new Error('Nothing to copy: run this from a value in the Watched Contracts view.');
    await vscode.env.clipboard.writeText(text);
    return text;
  };

  const loadMoreEvents = async (args?: unknown): Promise<number> => {
    const address = addressOf(args);
    if (!address) throw new Error('Load more needs a contract: use the "Load more…" item in the view.');
    // A page of older events is a request or two: said in the status bar while it loads, not asked.
    const pageSize = config.eventPageSize();
    const cost = costNotice(`Loading ${pageSize} older events`, olderEventsCost(pageSize, pageSize));
    if (cost.worthSaying) void showInfo(inert`${cost.text}`);
    const loading = tree.loadMore(address);
    vscode.window.setStatusBarMessage(`$(sync~spin) ${cost.text}`, loading);
    return loading;
  };

  const callContractMethod = async (args?: unknown): Promise<CallSummary> => {
    const w = await watchedOrPick(args, 'Call Contract Method');
    const client = requireClient();
    const registry = await artifacts.registry();
    const state = await client.getContractState(w.address);
    const resolved = resolveWatched(registry, w, state.codeHash, connection.state.profile?.network);
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
    const methodArg = argValue(args, 'method');
    const method =
      typeof methodArg === 'string' || typeof methodArg === 'number'
        ? methodArg
        : (
            await pick(
              artifact.functions.map((fn, i) => ({
                label: functionSignature(fn),
                description: `methodIndex ${i}`,
                index: i,
              })),
              { title: `Call a method of ${artifact.name}` },
            )
          ).index;
    const { fn } = findMethod(artifact, method);
    let inputs = argValue(args, 'args') as unknown[] | undefined;
    if (!Array.isArray(inputs)) {
      inputs = [];
      for (let i = 0; i < fn.paramTypes.length; i++) {
        const type = fn.paramTypes[i]!;
        const name = fn.paramNames[i] ?? `#${i}`;
        inputs.push(
          await askText({
            title: `${artifact.name}.${fn.name}: ${name} (${i + 1}/${fn.paramTypes.length})`,
            prompt: `${name}: ${type}`,
            placeHolder: argumentHint(type),
            validate: (v) => argumentProblem(type, name, v, registry),
          }),
        );
      }
    }
    const callerAddress = argString(args, 'callerAddress');
    const built = buildCall(
      w.address,
      w.group,
      artifact,
      method,
      inputs,
      registry,
      callerAddress ? { callerAddress } : {},
    );
    const result = await client.callContract(built.call);
    // The called contract's artifact was matched by its on-chain code hash: the explainer reuses it.
    const known = new Map([[w.address, artifact]]);
    if (result.type === 'CallContractFailed') {
      if (deps.failures) {
        const explained = await deps.failures.explain(
          result.error,
          { address: w.address, method: fn.name, args: inputs, origin: 'simulate' },
          known,
        );
        throw new Error(explained.message);
      }
      throw new Error(`${artifact.name}.${fn.name} failed on the node: ${result.error}`);
    }
    if (result.type !== 'CallContractSucceeded')
      throw new Error(`Unexpected call result type ${result.rawType}`);
    const lookup = await artifactLookup(result.events.map((e) => e.contractAddress));
    const summary = summariseCall(artifact, fn, built.methodIndex, result, lookup, registry);
    await deps.failures?.succeeded(summary.debugMessages, fn.name, known);
    for (const d of summary.debugMessages) log.info(`Debug > Contract @ ${d.contractAddress} - ${d.message}`);
    log.info(
      `Called ${artifact.name}.${fn.name}: ${summary.returns.map((r) => `${r.name}=${formatValue(r.value)}`).join(', ') || 'no returns'}, gas ${summary.gasUsed}`,
    );
    if (showMode(args, 'document') !== 'none')
      await showResult(
        `Simulated ${artifact.name}.${fn.name}`,
        callMarkdown(summary, w.address, built.call.args as Val[]),
      );
    return summary;
  };

  context.subscriptions.push(
    tree,
    view,
    watch,
    artifacts.onDidChange(() => tree.artifactsChanged()),
    connection.onDidChange(onConnection),
    registerCommand(deps, CommandIds.watchContract, watchContract),
    registerCommand(deps, CommandIds.unwatchContract, unwatchContract),
    registerCommand(deps, CommandIds.refreshContracts, refreshContracts),
    registerCommand(deps, CommandIds.showLatestEvents, showLatestEvents),
    registerCommand(deps, CommandIds.eventsByTxId, listingCommand('txId')),
    registerCommand(deps, CommandIds.eventsByBlockHash, listingCommand('blockHash')),
    registerCommand(deps, CommandIds.copyValue, copyValue),
    registerCommand(deps, CommandIds.loadMoreEvents, loadMoreEvents),
    registerCommand(deps, CommandIds.callContractMethod, callContractMethod),
  );
  // The list is read now (cheap, local); the watcher starts only if a client can be built, and the
  // client is built lazily by the connection, so activation sends no request.
  tree.setList(readList());
  if (tree.watched.length > 0) watch.rebuild();

  /**
   * Watched contracts are named with the artifact the view uses for them (chosen by hand, drift
   * included); any other contract with the registry's match by address. One rule for every view.
   */
  const eventDecoder: EventDecoderFactory = async () => {
    const registry = await artifacts.registry();
    const watched = await artifactLookup(tree.watched.map((w) => w.address));
    return (event) => {
      const found = watched(event.contractAddress) ?? {
        artifact: registry.matchAddress(event.contractAddress)?.artifact,
      };
      return decodeEvent(event, found.artifact, {
        ...(found.drift ? { drift: found.drift } : {}),
        structs: registry.structs,
      });
    };
  };

  return {
    api: {
      contractsSnapshot: () => tree.snapshot(),
      contractEventsDelivered: () => [...watch.deliveredEvents],
    },
    eventDecoder,
    debugSupport: {
      tree,
      artifactOf: async (address) => (await artifactOf(address)).artifact,
      network: () => connection.state.profile?.network,
    },
    actionSupport: {
      artifactOf,
      artifactLookup,
      pollSoon: (address) => watch.pollSoon(address),
      watched: () => tree.watched.map((w) => ({ address: w.address, ...(w.name ? { name: w.name } : {}) })),
    },
    // The panel names and resolves contracts exactly as the tree and the Call command do.
    panelSupport: {
      resolve: async (address) => {
        const resolved = await artifactOf(address);
        return {
          ...(resolved.artifact ? { artifact: resolved.artifact } : {}),
          drift: resolved.drift,
          registry: await artifacts.registry(),
        };
      },
      watchedOrPick,
      onDidChangeArtifacts: artifacts.onDidChange,
    },
  };
}
