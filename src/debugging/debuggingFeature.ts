/**
 * Debugging in the editor: the `.ral` files are where the chain meets the code. Failures are explained
 * at the line that caused them (Problems view), debug messages of a simulation sit after their `emit`,
 * CodeLenses show deployments, event counts and Simulate/Execute, and a hover reads any base58 address.
 *
 * Nothing here sends a request on its own: lenses and hovers are computed from what the contracts view
 * and the watcher already hold, and VS Code only asks for lenses of visible editors. Balances and
 * contract names that need the chain are behind a command link in the hover (on demand).
 */
import * as vscode from 'vscode';
import { activeExplorer } from '../explorer';
import type { ArtifactRegistry, ContractArtifact } from '../core/artifacts';
import type { FailureContext, FailureExplanation, FailureLookup } from '../core/debugging/failureExplanation';
import {
  seenEventsOf,
  type Instance,
  type Lens,
  type LensData,
  type SeenEvent,
  type SeenEvents,
} from '../core/debugging/lensModel';
import type { ContractEvent } from '../core/gateway';
import type { Logger } from '../core/util/log';
import { addressType, attoToAlph, groupOfAddress, isValidAddress } from '../core/protocol';
import { argString } from '../platform/prompts';
import type { RalphScan } from '../core/ralph/scanner';
import type { RalphSourceMap } from '../core/ralph/sourceMap';
import { CommandIds } from '../constants';
import { commandLink, inert, joinMarkdown, markdownCode, plainText, safeMarkdown } from '../core/text/inert';
import { markdownString } from '../platform/markdown';
import { showInfo } from '../platform/notify';
import type { ContractNode, ContractsService, WorkspaceArtifacts } from '../contracts';
import { FROM_EDITOR, fromOwnUi, registerCommands, type CommandTable } from '../platform/commands';
import { DisposableBase } from '../platform/lifecycle';
import { FailureDiagnostics } from './failureDiagnostics';
import { loadEngine, type DebuggingEngine } from './loadEngine';
import { WorkspaceRalphSources } from './ralphSources';
import { gasReport } from './gasReport';
import { debugTransactionCommand, explainTransactionCommand, TxExplanations } from './explainCommand';
import { eventWhatChanged } from './eventWhatChanged';
import type { Services } from '../services';
import type { WorkspaceProjects } from '../platform/workspaceProjects';

const RAL_SELECTOR: vscode.DocumentSelector = { pattern: '**/*.ral' };
const SEEN_LIMIT = 2000;

/**
 * The failure explainer's VS Code side, for every workflow that can fail on the VM (Simulate, Execute,
 * tracked transactions). Built before the features that report to it.
 */
export class FailureReporter extends DisposableBase {
  readonly diagnostics = this.register(new FailureDiagnostics());
  /** Explain Transaction's answers, for the tx details panels' "What happened". */
  readonly explanations = this.register(new TxExplanations());
  readonly sources: WorkspaceRalphSources;
  private contracts: ContractsService | undefined;

  constructor(
    private readonly log: Logger,
    private readonly artifacts: WorkspaceArtifacts,
    projects: Pick<WorkspaceProjects, 'projects' | 'onDidChange'>,
  ) {
    super();
    this.sources = this.register(new WorkspaceRalphSources(log, projects));
  }

  /** The contracts service resolves watched and deployed addresses as every view does. */
  attach(contracts: ContractsService): void {
    this.contracts = contracts;
  }

  /** A synchronous lookup over the artifacts of the given addresses, resolved now (no request). */
  private async lookup(
    addresses: readonly (string | undefined)[],
    known?: ReadonlyMap<string, ContractArtifact>,
  ): Promise<FailureLookup> {
    const registry = await this.artifacts.registry();
    const map = new Map<string, ContractArtifact | undefined>(known ?? []);
    for (const a of addresses) {
      if (!a || map.has(a)) continue;
      map.set(a, (await this.contracts?.resolve(a))?.artifact ?? registry.matchAddress(a)?.artifact);
    }
    let sources: RalphSourceMap | undefined;
    try {
      const names = [...map.values()].flatMap((a) => (a ? [a.name] : []));
      sources = await this.sources.mapFor(names);
    } catch (e) {
      this.log.warn(`Ralph sources could not be read: ${e instanceof Error ? e.message : String(e)}`);
    }
    return {
      artifactOf: (a) => map.get(a),
      ...(sources ? { sources } : {}),
      ...(registry.constants ? { globals: registry.constants } : {}),
    };
  }

  /**
   * Explains a VM failure and shows it in the Problems view (replacing the last run's problems).
   * `known` are artifacts the caller already resolved (e.g. by the on-chain code hash). Never throws.
   */
  async explain(
    detail: string,
    ctx: FailureContext,
    known?: ReadonlyMap<string, ContractArtifact>,
  ): Promise<FailureExplanation> {
    let engine: DebuggingEngine;
    try {
      engine = await loadEngine();
    } catch (e) {
      // Without the engine the node's text is still the failure: never hide it.
      this.log.warn(`Could not load the failure explainer: ${e instanceof Error ? e.message : String(e)}`);
      const failure = { name: 'Unknown', summary: detail, raw: detail };
      return { failure, context: ctx, message: detail, sites: [] };
    }
    try {
      const lookup = await this.lookup([engine.parseVmFailure(detail).contractAddress, ctx.address], known);
      const explanation = engine.explainVmFailure(detail, ctx, lookup);
      this.diagnostics.showDebugHints([]);
      const placed = this.diagnostics.report(explanation);
      this.log.warn(
        `${explanation.message}${placed ? ` (shown at ${placed} line(s) in the Problems view)` : ''}`,
      );
      return explanation;
    } catch (e) {
      // The explainer must never hide the failure it explains.
      this.log.warn(`Could not explain a failure: ${e instanceof Error ? e.message : String(e)}`);
      return engine.explainVmFailure(detail, ctx, { artifactOf: () => undefined });
    }
  }

  /** A run succeeded: its debug messages replace the last ones, and the last failure is cleared. */
  async succeeded(
    debugMessages: readonly { contractAddress: string; message: string }[],
    method: string | undefined,
    known?: ReadonlyMap<string, ContractArtifact>,
  ): Promise<number> {
    this.diagnostics.clear();
    try {
      const lookup = await this.lookup(
        debugMessages.map((d) => d.contractAddress),
        known,
      );
      const hints = (await loadEngine()).placeDebugMessages(debugMessages, lookup, method);
      this.diagnostics.showDebugHints(hints);
      return hints.length;
    } catch (e) {
      this.log.warn(`Could not place debug messages: ${e instanceof Error ? e.message : String(e)}`);
      this.diagnostics.showDebugHints([]);
      return 0;
    }
  }
}

/** CodeLenses on `.ral` files, cached per document version and data generation. */
class RalphLenses implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private generation = 0;
  private readonly cache = new Map<
    string,
    { version: number; generation: number; lenses: vscode.CodeLens[] }
  >();
  private readonly scans = new Map<string, { version: number; scan: RalphScan }>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Recomputes the lenses when an age a lens shows moves ("last 1 min ago" → "2 min ago"). */
  private ageTimer: ReturnType<typeof setTimeout> | undefined;
  private ageChangesAt: number | undefined;
  /** Time spent computing the last file's lenses, for the closing note's figure. */
  lastRenderMs = 0;

  constructor(
    private readonly data: () => Promise<LensData>,
    private readonly executeAvailable: () => boolean,
  ) {}

  /** The data behind lenses changed: recompute (debounced; VS Code re-asks only visible editors). */
  invalidate(): void {
    this.generation++;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.changed.fire(), 100);
  }

  private scanOf(engine: DebuggingEngine, document: vscode.TextDocument): RalphScan {
    const key = document.uri.toString();
    const hit = this.scans.get(key);
    if (hit && hit.version === document.version) return hit.scan;
    const scan = engine.scanRalph(document.getText());
    this.scans.set(key, { version: document.version, scan });
    return scan;
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const key = document.uri.toString();
    const hit = this.cache.get(key);
    if (hit && hit.version === document.version && hit.generation === this.generation) return hit.lenses;
    const generation = this.generation;
    // The first lens may come before anything read the artifacts (local files only, never a request).
    const [data, engine] = await Promise.all([this.data(), loadEngine()]);
    const t0 = performance.now();
    const computed = engine.lensesFor(this.scanOf(engine, document), data, {
      now: Date.now(),
      executeAvailable: this.executeAvailable(),
    });
    const lenses = computed.map(toCodeLens);
    this.lastRenderMs = performance.now() - t0;
    for (const l of computed) if (l.changesAt !== undefined) this.ageMovesAt(l.changesAt);
    this.cache.set(key, { version: document.version, generation, lenses });
    return lenses;
  }

  /**
   * One timer for the earliest age change of the lenses shown. VS Code asks again only for visible
   * editors, so a timer firing while no `.ral` file is shown costs nothing.
   */
  private ageMovesAt(at: number): void {
    if (this.ageChangesAt !== undefined && this.ageChangesAt <= at && this.ageChangesAt > Date.now()) return;
    clearTimeout(this.ageTimer);
    this.ageChangesAt = at;
    this.ageTimer = setTimeout(
      () => {
        this.ageChangesAt = undefined;
        this.invalidate();
      },
      Math.min(Math.max(0, at - Date.now()) + 50, 2 ** 31 - 1),
    );
  }

  dispose(): void {
    clearTimeout(this.timer);
    clearTimeout(this.ageTimer);
    this.changed.dispose();
  }
}

function toCodeLens(l: Lens): vscode.CodeLens {
  const range = new vscode.Range(l.line, l.character, l.line, l.character);
  const c = l.command;
  const tooltip = l.tooltip;
  // A lens's text can hold names from the workspace: plain text, no $(icon) or link from it.
  const cmd = (command: string, args?: unknown): vscode.Command => ({
    title: plainText(l.title, 200),
    command,
    ...(tooltip ? { tooltip: plainText(tooltip, 600) } : {}),
    // From a lens, a failure is one toast (the command's), not that plus VS Code's own error.
    // Marked as the extension's own UI: the lens hands this very object back (platform/commands.ts).
    ...(args !== undefined ? { arguments: [fromOwnUi({ ...(args as object), [FROM_EDITOR]: true })] } : {}),
  });
  switch (c.kind) {
    case 'watch':
      return new vscode.CodeLens(range, cmd(CommandIds.watchContract, { address: c.address, name: c.name }));
    case 'showEvents':
      return new vscode.CodeLens(range, cmd(CommandIds.showLatestEvents, { address: c.address, n: 20 }));
    case 'simulate':
    case 'execute':
    case 'debug':
      return new vscode.CodeLens(
        range,
        cmd(LENS_METHOD_COMMANDS[c.kind], {
          ...(c.address ? { address: c.address } : {}),
          ...(c.candidates ? { candidates: c.candidates } : {}),
          method: c.method,
        }),
      );
    case 'none':
      // A lens with an empty command renders as plain text.
      return new vscode.CodeLens(range, cmd(''));
  }
}

/** The command each method lens runs. */
const LENS_METHOD_COMMANDS = {
  simulate: CommandIds.callContractMethod,
  execute: CommandIds.executeContractMethod,
  debug: CommandIds.debugContractMethod,
} as const;

/** The word at a position if it is a base58 address. */
const ADDRESS_RE = /[1-9A-HJ-NP-Za-km-z]{40,}/;

function addressHover(
  address: string,
  registry: ArtifactRegistry,
  network: string | undefined,
): vscode.Hover | undefined {
  if (!isValidAddress(address)) return undefined;
  const type = addressType(address);
  const group = groupOfAddress(address);
  const deployed = registry.matchAddress(address, network) ?? registry.matchAddress(address);
  const parts = [safeMarkdown`**Alephium address** · ${type} · group ${group}`, markdownCode(address)];
  if (deployed?.artifact) {
    // Names come from workspace files: escaped text, never markdown (a name could carry a link or an image).
    parts.push(
      safeMarkdown`${deployed.deployment?.name ?? deployed.artifact.name} (artifact ${deployed.artifact.name}${deployed.network ? safeMarkdown`, ${deployed.network} deployments file` : safeMarkdown``})`,
    );
  }
  // On demand only: a hover must not spend the user's quota by being pointed at.
  const requests = type === 'P2C' ? '2 requests' : '1 request';
  parts.push(
    commandLink(
      safeMarkdown`$(search) Balance${type === 'P2C' ? safeMarkdown` and contract name` : safeMarkdown``} (${requests})`,
      CommandIds.identifyAddress,
      [{ address, [FROM_EDITOR]: true }],
    ),
  );
  // The hover's links are already trusted for one command; the explorer's only where one is known.
  if (activeExplorer() !== undefined)
    parts.push(
      commandLink(safeMarkdown`$(link-external) Open in Explorer`, CommandIds.openInExplorer, [
        { address, [FROM_EDITOR]: true },
      ]),
    );
  return new vscode.Hover(
    markdownString(joinMarkdown(parts), {
      supportThemeIcons: true,
      enabledCommands: [CommandIds.identifyAddress, CommandIds.openInExplorer],
    }),
  );
}

/**
 * The services of the lenses, the hover and the debugging commands. Only the hover's on-demand command sends
 * requests from here (balance, and code hash for a contract); the commands say their cost first.
 */
export type DebuggingEditorDeps = Pick<
  Services,
  'log' | 'redactor' | 'connection' | 'artifacts' | 'failures' | 'contracts' | 'secrets'
>;

/** Lenses, hover and Go to Declaration. Registered once; cheap until a `.ral` file is shown. */
export function registerDebuggingEditor(
  context: vscode.ExtensionContext,
  deps: DebuggingEditorDeps,
): { lenses: { lastRenderMs: number }; seen: ReadonlyMap<string, readonly SeenEvent[]> } {
  const { artifacts, failures: reporter, contracts } = deps;
  const seen = new Map<string, SeenEvent[]>();
  // Execute belongs to another feature; its lens shows once the command is registered (asked when
  // lenses are first computed, after activation has registered every command).
  let executeAvailable = false;
  let asked = false;
  const askExecute = () => {
    if (asked) return;
    asked = true;
    void vscode.commands.getCommands(true).then((all) => {
      executeAvailable = all.includes(CommandIds.executeContractMethod);
      if (executeAvailable) lenses.invalidate();
      else asked = false; // not yet: ask again with the next lenses
    });
  };

  const instancesOf = (artifact: ContractArtifact): Instance[] => {
    const registry = artifacts.latest;
    const network = contracts.network;
    const out = new Map<string, Instance>();
    for (const d of registry.deployments(network)) {
      if (d.artifactName !== artifact.name) continue;
      out.set(d.address, { address: d.address, group: d.group, deployed: true, watched: false });
    }
    for (const w of contracts.watched) {
      const state = contracts.model.stateOf(w.address)?.state;
      const byEntry = w.artifactName ? registry.byName(w.artifactName) : undefined;
      const resolved = registry.resolve(w.address, state?.codeHash, network);
      const a = byEntry ?? resolved.artifact;
      if (a?.name !== artifact.name) continue;
      const drift = registry.checkDrift(a, state?.codeHash);
      out.set(w.address, {
        address: w.address,
        group: w.group,
        deployed: out.has(w.address),
        watched: true,
        ...(state ? { drift } : {}),
      });
    }
    return [...out.values()];
  };
  // The lens counts the rows the Events node lists when they are loaded (core: seenEventsOf).
  const seenEvents = (address: string): SeenEvents => {
    const feed = contracts.model.feedIfAny(address);
    return seenEventsOf(feed?.loaded === true ? feed.items() : undefined, seen.get(address) ?? []);
  };
  const lenses = new RalphLenses(
    async () => {
      await artifacts.registry();
      return {
        registry: artifacts.latest,
        network: contracts.network,
        instancesOf,
        seenEvents,
        gas: contracts.gas,
      };
    },
    () => {
      askExecute();
      return executeAvailable;
    },
  );

  const onWatcher = (address: string, events: readonly ContractEvent[]) => {
    const list = seen.get(address) ?? [];
    const batch = new Map<string, number>();
    for (const e of events) {
      const base = `${e.txId}:${e.eventIndex}`;
      const n = batch.get(base) ?? 0;
      batch.set(base, n + 1);
      list.push({
        txId: e.txId,
        eventIndex: e.eventIndex,
        key: `${base}#${n}`,
        ...(e.timestamp !== undefined ? { timestamp: e.timestamp } : {}),
      });
    }
    seen.set(address, list.slice(-SEEN_LIMIT));
    lenses.invalidate();
  };

  context.subscriptions.push(
    lenses,
    ...registerCommands(deps, DEBUGGING_COMMANDS),
    vscode.languages.registerCodeLensProvider(RAL_SELECTOR, lenses),
    vscode.languages.registerHoverProvider('*', {
      provideHover: (document, position) => {
        const range = document.getWordRangeAtPosition(position, ADDRESS_RE);
        if (!range) return undefined;
        return addressHover(document.getText(range), artifacts.latest, contracts.network);
      },
    }),
    contracts.onWatcherEvents(({ address, events }) => onWatcher(address, events)),
    contracts.model.onDidChange(() => lenses.invalidate()),
    contracts.gas.onDidChange(() => lenses.invalidate()),
    artifacts.onDidChange(() => lenses.invalidate()),
    reporter.sources.onDidChange(() => lenses.invalidate()),
  );
  return { lenses, seen };
}

const DEBUGGING_COMMANDS: CommandTable<DebuggingEditorDeps> = [
  [CommandIds.identifyAddress, identifyAddress],
  [CommandIds.goToDeclaration, goToDeclaration],
  [CommandIds.gasReport, gasReport],
  [CommandIds.explainTransaction, explainTransactionCommand],
  [CommandIds.debugTransaction, debugTransactionCommand],
  [CommandIds.eventWhatChanged, eventWhatChanged],
];

async function goToDeclaration(
  deps: DebuggingEditorDeps,
  args: unknown,
): Promise<{ uri: string; line: number } | undefined> {
  const { contracts, failures: reporter } = deps;
  const node = args as
    ContractNode | { address?: string; event?: string; method?: string; field?: string } | undefined;
  const address = node && 'address' in node ? node.address : undefined;
  if (!address)
    throw new Error('Go to Declaration runs on an event, a field or a getter in Watched Contracts.');
  const artifact = (await contracts.resolve(address)).artifact;
  if (!artifact) throw new Error(`No artifact in the workspace describes ${address}.`);
  const sources = await reporter.sources.mapFor([artifact.name]);
  let target;
  let what: string;
  if (node && 'kind' in node && node.kind === 'event') {
    what = node.row.label;
    target = sources.member(artifact.name, 'event', what);
  } else if (node && 'kind' in node && node.kind === 'value') {
    what = node.row.label;
    target =
      sources.member(artifact.name, 'field', what) ??
      sources.member(artifact.name, 'function', what) ??
      sources.member(artifact.name, 'mapping', what);
  } else if (node && 'kind' in node && node.kind === 'contract') {
    what = artifact.name;
    target = sources.contract(artifact.name);
  } else {
    const plain = node as { event?: string; method?: string; field?: string };
    what = plain.event ?? plain.method ?? plain.field ?? artifact.name;
    target = plain.event
      ? sources.member(artifact.name, 'event', plain.event)
      : plain.method
        ? sources.member(artifact.name, 'function', plain.method)
        : plain.field
          ? sources.member(artifact.name, 'field', plain.field)
          : sources.contract(artifact.name);
  }
  if (!target) throw new Error(`${what} of ${artifact.name} is not declared in the workspace's .ral files.`);
  const uri = vscode.Uri.parse(target.path);
  const range = new vscode.Range(
    target.span.start.line,
    target.span.start.character,
    target.span.end.line,
    target.span.end.character,
  );
  await vscode.window.showTextDocument(uri, { selection: range, preview: true });
  return { uri: target.path, line: target.span.start.line };
}

/** The hover's on-demand part: balance, and for a contract its code hash matched against artifacts. */
async function identifyAddress(deps: DebuggingEditorDeps, args: unknown) {
  const address = argString(args, 'address');
  if (!address || !isValidAddress(address)) throw new Error('Identify Address needs a valid base58 address.');
  const client = deps.connection.requireClient();
  const type = addressType(address);
  const balance = await client.getAddressBalance(address);
  let contract: { codeHash: string; artifact?: string } | undefined;
  if (type === 'P2C') {
    const state = await client.getContractState(address);
    const artifact = (await deps.artifacts.registry()).byCodeHash(state.codeHash);
    contract = { codeHash: state.codeHash, ...(artifact ? { artifact: artifact.name } : {}) };
  }
  const result = {
    address,
    type,
    group: groupOfAddress(address),
    balance: `${attoToAlph(balance.balance)} ALPH`,
    ...(contract ? { contract } : {}),
  };
  if (argString(args, 'show') !== 'none')
    void showInfo(
      inert`${type} · group ${result.group} · ${result.balance}${
        contract
          ? contract.artifact
            ? inert` · contract ${contract.artifact}`
            : inert` · code hash ${contract.codeHash.slice(0, 12)}… matches no artifact`
          : inert``
      }`,
    );
  return result;
}

/** Read-only views for the extension's API (tests compare them with what the editor renders). */
export interface DebuggingApi {
  /** The last failure explained: its message, error name and the lines it was shown at. */
  lastFailure(): { message: string; errorName?: string; sites: { path: string; line: number }[] } | undefined;
  /** Debug messages shown after their emit line (until the next run). */
  debugHints(): { path: string; line: number; message: string }[];
  /** Milliseconds the last `.ral` file's lenses took to compute. */
  lensRenderMs(): number;
}

export function debuggingApi(reporter: FailureReporter, lenses: { lastRenderMs: number }): DebuggingApi {
  return {
    lastFailure: () => {
      const e = reporter.diagnostics.lastExplanation;
      return e
        ? {
            message: e.message,
            ...(e.errorName ? { errorName: e.errorName } : {}),
            sites: e.sites.map((s) => ({ path: s.path, line: s.span.start.line })),
          }
        : undefined;
    },
    debugHints: () =>
      reporter.diagnostics.debugHints.map((h) => ({ path: h.path, line: h.line, message: h.message })),
    lensRenderMs: () => lenses.lastRenderMs,
  };
}
