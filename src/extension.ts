import * as vscode from 'vscode';
import { Redactor } from './core/util/redact';
import { redactingLogger, type Logger } from './core/log';
import { CommandIds, OUTPUT_CHANNEL_NAME, ViewIds } from './constants';
import { registerCommand } from './util/commands';
import { EmptyTreeProvider } from './views/placeholderTree';

/** What `activate` returns: used by other extensions and by the integration tests. */
export interface AlephiumGatewayApi {
  readonly activatedInMs: number;
  readonly log: Logger;
}

/**
 * Composition root. Activation stays cheap: it registers commands and views and builds nothing that
 * talks to the network until a view or command needs it.
 */
export function activate(context: vscode.ExtensionContext): AlephiumGatewayApi {
  const started = performance.now();
  const channel = vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME, { log: true });
  context.subscriptions.push(channel);
  const redactor = new Redactor();
  const log = redactingLogger(channel, (text) => redactor.redact(text));
  const ctx = { log, redact: (text: string) => redactor.redact(text) };

  context.subscriptions.push(
    registerCommand(ctx, CommandIds.showLogs, () => channel.show(true)),
    vscode.window.registerTreeDataProvider(ViewIds.node, new EmptyTreeProvider()),
    vscode.window.registerTreeDataProvider(ViewIds.contracts, new EmptyTreeProvider()),
    vscode.window.registerTreeDataProvider(ViewIds.transactions, new EmptyTreeProvider()),
  );

  const activatedInMs = performance.now() - started;
  log.info(`Alephium Gateway activated in ${activatedInMs.toFixed(1)} ms`);
  return { activatedInMs, log };
}

export function deactivate(): void {
  // Everything is owned by context.subscriptions and disposed by VS Code.
}
