import * as vscode from 'vscode';
import { Redactor } from './core/util/redact';
import { redactingLogger, type Logger } from './core/util/log';
import type { NodeStatus } from './core/node/nodeStatus';
import { ConnectionManager, originOfProfileNamed } from './platform/connection';
import { CommandIds, OUTPUT_CHANNEL_NAME, ViewIds } from './constants';
import { contractActions, registerContractActions } from './contracts/contractActions';
import { registerRalphDebugger } from './debugging/ralphDebugger';
import { registerContractsFeature, type ContractsFeatureApi } from './contracts/contractsFeature';
import { registerContractPanel, type ContractPanelApi } from './contracts/panel/registration';
import { WorkspaceArtifacts } from './contracts/workspaceArtifacts';
import { WorkspaceProjects } from './platform/workspaceProjects';
import { ContractsService } from './contracts/contractsService';
import {
  FailureReporter,
  registerDebuggingEditor,
  type DebuggingApi,
  debuggingApi,
} from './debugging/debuggingFeature';
import { importDevSecrets } from './platform/devSecrets';
import { registerNodeCommands } from './node';
import { runMode, setRunMode } from './platform/automation';
import { registerProfileCommands } from './profiles';
import { SecretStore } from './platform/secrets';
import { StatusBarController } from './statusBar/statusBarController';
import { registerStatusBarCommands } from './statusBar/statusBarCommands';
import { registerTransactionsFeature, type TransactionsApi } from './transactions/transactionsFeature';
import { registerCommands, type CommandContext, type CommandTable } from './platform/commands';
import { registerExplorer, txDetailsExplorer } from './explorer';
import { registerRalphTooling } from './tooling';
import { registerResultsDocuments } from './platform/resultsDocument';
import { showWarning } from './platform/notify';
import { inert } from './core/text/inert';
import { registerRequestUsage, type RequestUsageSnapshot } from './usage/requestUsage';
import { NodeTreeProvider } from './node/nodeView';
import { registerLanguageModelTools } from './assistant';
import { lazyModule } from './platform/lifecycle';
import { TrackedTransactions } from './transactions/trackedTransactions';
import type { Services } from './services';

/**
 * What `activate` returns: the activation time and read-only views of what the user sees (no secrets,
 * no client). Other extensions may read them; the integration tests compare them with the workbench.
 */
export interface AlephiumGatewayApi
  extends TransactionsApi, ContractsFeatureApi, ContractPanelApi, DebuggingApi {
  readonly activatedInMs: number;
  readonly log: Logger;
  /** Folder of the extension's log files (the "Alephium Gateway" output channel is written there). */
  readonly logUri: vscode.Uri;
  statusBarText(): string;
  /** What the Request Usage view shows, when it is open. */
  requestUsageSnapshot(): RequestUsageSnapshot | undefined;
  nodeStatus(): NodeStatus | undefined;
  /** The Node view's "Network mismatch" sentence for the active profile, when its node is on another network. */
  networkMismatch(): string | undefined;
  refreshNode(): Promise<void>;
}

/** "Alephium: Show Logs" (also the "Show Logs" action of every command's error toast). */
function showLogs(deps: { readonly channel: vscode.OutputChannel }): void {
  deps.channel.show(true);
}

const LOG_COMMANDS: CommandTable<CommandContext & { readonly channel: vscode.OutputChannel }> = [
  [CommandIds.showLogs, showLogs],
];

const walkthroughContext = lazyModule(() => import('./onboarding/walkthroughContext'));

/**
 * Composition root. Activation stays cheap: it registers commands and views and builds nothing that
 * talks to the network until a view or command needs it.
 */
export function activate(context: vscode.ExtensionContext): AlephiumGatewayApi {
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  setRunMode(context.extensionMode);
  const channel = vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME, { log: true });
  context.subscriptions.push(channel);
  const redactor = new Redactor();
  const log = redactingLogger(channel, (text) => redactor.redact(text));
  const secrets = new SecretStore(context.secrets, redactor, {
    state: context.globalState,
    tell: (text) => {
      log.warn(text);
      void showWarning(inert`${text}`);
    },
  });
  void secrets.checkKept();
  const connection = new ConnectionManager(secrets, redactor, log, context.globalState);
  // After activate() returns: setContext is a round trip to the workbench (4 ms of activation in a CPU
  // profile), and the `when` clauses it feeds are read when the views draw, which is later.
  const contextPublished = setImmediate(() => connection.publishContext());
  context.subscriptions.push({ dispose: () => clearImmediate(contextPublished) });
  const statusBar = new StatusBarController(connection, secrets);
  const nodeTree = new NodeTreeProvider(connection, log);
  const nodeView = vscode.window.createTreeView(ViewIds.node, {
    treeDataProvider: nodeTree,
    showCollapseAll: false,
  });
  nodeTree.attach(nodeView);
  // One reader of the workspace's alephium.config.* files (read on first use): the artifact search, the
  // deployments writer, the Ralph sources and Add Profile's devnet preset take what they need from it.
  const projects = new WorkspaceProjects(log);
  // One artifacts service: the contracts view, its watcher and the tx details webview name events alike.
  const artifacts = new WorkspaceArtifacts(log, projects);
  // Debugging in the editor: failures at their Ralph line, debug messages at their emit, lenses and
  // hovers on the sources. Nothing is read or sent until a failure, a lens or a hover asks.
  const failures = new FailureReporter(log, artifacts, projects);
  const { workspaceState, globalState, extensionUri } = context;
  // The contracts service: the watch list, its model and watcher, and the one rule that resolves an
  // artifact; the tree, the panel, the actions and debugging receive it by name.
  const contracts = new ContractsService({ log, connection, artifacts, workspaceState });
  failures.attach(contracts);
  const tracked = new TrackedTransactions(workspaceState, connection, log);
  context.subscriptions.push(secrets, projects, connection, statusBar, nodeTree, nodeView);
  context.subscriptions.push(artifacts, failures, contracts, tracked);
  const services: Services = {
    log,
    redactor,
    connection,
    secrets,
    projects,
    artifacts,
    contracts,
    failures,
    tracked,
    extensionUri,
    globalState,
    workspaceState,
  };

  context.subscriptions.push(
    ...registerCommands({ ...services, channel }, LOG_COMMANDS),
    registerResultsDocuments(),
    ...registerStatusBarCommands(services),
    ...registerProfileCommands({ ...services, nodeNetworkId: () => nodeTree.current?.networkId }),
    ...registerNodeCommands({ ...services, nodeTree }),
    ...registerExplorer(services),
    // The CLI's compile, test and deploy tasks per project; the Ralph extension offered once.
    ...registerRalphTooling(services),
  );
  const contractsApi = registerContractsFeature(context, services);
  const debugging = registerDebuggingEditor(context, services);
  const transactions = registerTransactionsFeature(context, { ...services, explorer: txDetailsExplorer });
  // Simulate, Execute and Deploy: verified before signing, tracked in Transactions, deployments written.
  context.subscriptions.push(...registerContractActions(services));
  // The Ralph debugger: VS Code's debugger on the project's VM (its code loads when a session starts).
  context.subscriptions.push(...registerRalphDebugger(log, contracts));
  // The contract panel drives the Simulate and Execute commands and follows the tx in Transactions.
  const contractPanel = registerContractPanel({
    ...services,
    actions: contractActions(services),
    statuses: {
      onDidChange: tracked.onDidChange,
      status: (txId) => transactions.transactionsSnapshot().find((t) => t.txId === txId)?.status,
    },
  });
  context.subscriptions.push(...contractPanel.disposables);
  // The request ledger drawn: the month per day and kind, the share and the forecast.
  const requestUsage = registerRequestUsage(services);
  context.subscriptions.push(...requestUsage.disposables);
  // Read-only tools for a chat assistant: registered by name now, their code loaded on first use.
  context.subscriptions.push(...registerLanguageModelTools(services));
  // The "Get started" walkthrough's steps complete from what these owners hold, however the step was done
  // (a chunk of dist/ of its own, loaded off the activation path).
  let walkthrough: vscode.Disposable | undefined;
  let stopped = false;
  context.subscriptions.push({
    dispose: () => {
      stopped = true;
      walkthrough?.dispose();
    },
  });
  void walkthroughContext().then((m) => {
    if (!stopped) walkthrough = m.publishWalkthroughProgress(services);
  });

  // Off the activation path: importing `npm start`'s secrets touches the disk and SecretStorage.
  void importDevSecrets(secrets, log, { mode: runMode(), originOf: originOfProfileNamed }).then(
    (imported) => {
      if (imported) connection.reset();
    },
  );

  const activatedInMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuAtStart);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  log.info(`Alephium Gateway activated in ${activatedInMs.toFixed(1)} ms (CPU ${cpuMs.toFixed(1)} ms)`);
  return {
    activatedInMs,
    log,
    logUri: context.logUri,
    statusBarText: () => statusBar.text,
    requestUsageSnapshot: () => requestUsage.snapshot(),
    nodeStatus: () => nodeTree.current,
    networkMismatch: () => nodeTree.networkMismatch,
    refreshNode: () => nodeTree.refresh(),
    ...transactions,
    ...contractsApi,
    ...contractPanel.api,
    ...debuggingApi(failures, debugging.lenses),
  };
}

export function deactivate(): void {
  // Everything is owned by context.subscriptions and disposed by VS Code.
}
