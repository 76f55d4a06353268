/**
 * VS Code's debugger on the project's VM (issue 31): the `ralph` debug type runs inside the extension
 * host (an inline adapter speaking DAP to the workbench), the same adapter as `node dist/debugAdapter.js`.
 * Everything it answers is decided in src/core/ralphDebug; this file only wires it: the adapter's code
 * (the VM) is loaded when a session starts, never at activation.
 */
import * as vscode from 'vscode';
import { CommandIds } from '../constants';
import {
  OWN_FACTS_KEY,
  RALPH_DEBUG_TYPE,
  checkLaunchFileSize,
  debugContractMethodOf,
  withOwnFacts,
} from '../core/ralphDebug/configKeys';
import type { Logger } from '../core/util/log';
import type { Services } from '../services';
import { lazyModule } from '../platform/lifecycle';

const adapterCode = lazyModule(async () => {
  const [dap, launch] = await Promise.all([
    import('../core/ralphDebug/dap'),
    import('../core/ralphDebug/launchConfig'),
  ]);
  return { ...dap, ...launch };
});

/** A file a launch configuration names: absolute, or relative to the session's folder. */
async function readLaunchFile(path: string, folder: vscode.WorkspaceFolder | undefined): Promise<string> {
  const absolute = path.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(path);
  const uri =
    absolute || !folder ? vscode.Uri.file(path) : vscode.Uri.joinPath(folder.uri, ...path.split(/[\\/]/));
  const stat = await vscode.workspace.fs.stat(uri);
  checkLaunchFileSize(path, stat.size);
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

/** The facts of sessions the extension's own commands are starting, by one-use key (withOwnFacts). */
const ownFacts = new Map<string, { readonly stateFrom?: unknown; readonly node?: unknown }>();

/**
 * Starts a configuration built by one of the extension's commands: its `stateFrom` and `node` are kept
 * here, not in the configuration, so that the session shows them and a workspace's launch.json cannot.
 */
export async function startOwnDebugging(
  folder: vscode.WorkspaceFolder | undefined,
  configuration: vscode.DebugConfiguration,
): Promise<boolean> {
  const key = globalThis.crypto.randomUUID();
  const { stateFrom, node, ...rest } = configuration;
  ownFacts.set(key, { stateFrom, node });
  try {
    return await vscode.debug.startDebugging(folder, { ...rest, [OWN_FACTS_KEY]: key });
  } finally {
    // Taken by the launch when it ran; a session that never launched leaves nothing behind.
    ownFacts.delete(key);
  }
}

/** The adapter in the extension host: messages in through handleMessage, out through the event. */
class InlineRalphAdapter implements vscode.DebugAdapter {
  private readonly sent = new vscode.EventEmitter<vscode.DebugProtocolMessage>();
  readonly onDidSendMessage = this.sent.event;
  private queue: Promise<void> = Promise.resolve();
  private readonly adapter: Promise<{ handle(message: unknown): Promise<void> }>;

  constructor(
    session: vscode.DebugSession,
    private readonly log: Logger,
  ) {
    this.adapter = adapterCode().then(
      (code) =>
        new code.RalphDebugAdapter(
          (message) => this.sent.fire(message),
          (args) =>
            code.debugLaunchOf(args, {
              readText: (path) => readLaunchFile(path, session.workspaceFolder),
            }),
        ),
    );
  }

  handleMessage(message: vscode.DebugProtocolMessage): void {
    const m = message as { command?: unknown; arguments?: Record<string, unknown> };
    if (m.command === 'launch' && m.arguments) {
      const key = m.arguments[OWN_FACTS_KEY];
      const facts = typeof key === 'string' ? ownFacts.get(key) : undefined;
      if (typeof key === 'string') ownFacts.delete(key);
      message = { ...m, arguments: withOwnFacts(m.arguments, facts) };
    }
    // One request at a time, in order: a step must not start before the launch before it has loaded.
    this.queue = this.queue
      .then(async () => (await this.adapter).handle(message))
      .catch((error: unknown) => {
        this.log.warn(`Ralph debugger: ${error instanceof Error ? error.message : String(error)}`);
      });
  }

  dispose(): void {
    this.sent.dispose();
  }
}

const dynamicConfigs = lazyModule(() => import('../core/ralphDebug/dynamicConfigs'));

/** Run and Debug's list: the watched contracts, each with its artifact's public methods (no request). */
async function listedConfigurations(contracts: Services['contracts']): Promise<vscode.DebugConfiguration[]> {
  const { debuggableContract, methodDebugConfigurations } = await dynamicConfigs();
  return methodDebugConfigurations(
    contracts.watched.flatMap((w) => {
      const artifact = contracts.resolvedNow(w.address).artifact;
      return artifact ? [debuggableContract(w.address, w.name ?? artifact.name, artifact)] : [];
    }),
  );
}

/**
 * F5 on a `.ral` file with no launch.json, and an entry of Run and Debug's "Ralph (Alephium VM)…" list:
 * the method is asked for (Debug Contract Method's prompts) rather than a configuration VS Code cannot
 * run; a configuration of launch.json runs as written.
 */
class RalphConfigurations implements vscode.DebugConfigurationProvider {
  resolveDebugConfiguration(
    _folder: vscode.WorkspaceFolder | undefined,
    config: vscode.DebugConfiguration,
  ): vscode.ProviderResult<vscode.DebugConfiguration> {
    if (config.type === undefined && config.request === undefined && config.name === undefined) {
      void vscode.commands.executeCommand(CommandIds.debugContractMethod);
      return undefined;
    }
    // A listed method: its arguments are asked for, as in the palette (an entry of a workspace's
    // launch.json may name one too; it only reads, so it needs no confirmation of its own).
    const listed = debugContractMethodOf(config);
    if (listed) {
      void vscode.commands.executeCommand(CommandIds.debugContractMethod, listed);
      return undefined;
    }
    return config;
  }
}

export function registerRalphDebugger(log: Logger, contracts: Services['contracts']): vscode.Disposable[] {
  return [
    vscode.debug.registerDebugAdapterDescriptorFactory(RALPH_DEBUG_TYPE, {
      createDebugAdapterDescriptor: (session) =>
        new vscode.DebugAdapterInlineImplementation(new InlineRalphAdapter(session, log)),
    }),
    vscode.debug.registerDebugConfigurationProvider(RALPH_DEBUG_TYPE, new RalphConfigurations()),
    // Run and Debug's list of the type's configurations: the watch list's methods (no request).
    vscode.debug.registerDebugConfigurationProvider(
      RALPH_DEBUG_TYPE,
      { provideDebugConfigurations: () => listedConfigurations(contracts) },
      vscode.DebugConfigurationProviderTriggerKind.Dynamic,
    ),
  ];
}
