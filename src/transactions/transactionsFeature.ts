import * as vscode from 'vscode';
import type { Logger } from '../core/util/log';
import type { TrackedTxView } from '../core/tracking/txDetailsModel';
import type { ConnectionManager } from '../platform/connection';
import { CommandIds, ViewIds } from '../constants';
import type { SecretStore } from '../platform/secrets';
import { registerCommandsOnFirstUse, type CommandContext } from '../platform/commands';
import { TrackedTransactions } from './trackedTransactions';
import { TransactionsTreeProvider } from './transactionsTree';
import {
  TxDetailsPanels,
  type EventDecoder,
  type TxDetailsSnapshot,
  type TxExplanationsView,
} from './txDetails/host';

const TRANSACTION_COMMAND_IDS = [
  CommandIds.sendTransfer,
  CommandIds.sweepAddress,
  CommandIds.decodeUnsignedTx,
  CommandIds.trackTransaction,
  CommandIds.showTransaction,
  CommandIds.untrackTransaction,
] as const;

export interface TransactionsFeatureDeps extends CommandContext {
  readonly log: Logger;
  readonly connection: ConnectionManager;
  readonly secrets: SecretStore;
  /** Names events as the Watched Contracts view does (the extension's one artifacts service). */
  readonly eventDecoder: () => Promise<EventDecoder>;
  /** Explain Transaction's answers, shown in the details panel's "What happened". */
  readonly explanations?: TxExplanationsView;
  /** The explorer of the active profile: the details page's Open in Explorer. */
  readonly explorer?: { known(): boolean; open(txId: string): void };
}

/** Read-only views for the extension's API (tests compare them with what the workbench shows). */
export interface TransactionsApi {
  transactionsSnapshot(): TrackedTxView[];
  txDetailsSnapshot(): TxDetailsSnapshot | undefined;
}

/**
 * The transactions feature: send, sweep, decode, track and show, the Transactions view and the details
 * webview. Everything it creates is owned by `context.subscriptions`.
 */
export function registerTransactionsFeature(
  context: vscode.ExtensionContext,
  deps: TransactionsFeatureDeps,
): { api: TransactionsApi; store: TrackedTransactions } {
  const store = new TrackedTransactions(context.workspaceState, deps.connection, deps.log);
  const panels = new TxDetailsPanels({
    extensionUri: context.extensionUri,
    connection: deps.connection,
    store,
    log: deps.log,
    redact: deps.redact,
    eventDecoder: deps.eventDecoder,
    tokenNames: (ids) => deps.connection.tokenMetadata(ids),
    ...(deps.explanations ? { explanations: deps.explanations } : {}),
    ...(deps.explorer ? { explorer: deps.explorer } : {}),
  });
  const tree = new TransactionsTreeProvider(store);
  const view = vscode.window.createTreeView(ViewIds.transactions, {
    treeDataProvider: tree,
    showCollapseAll: false,
  });
  tree.attach(view);
  context.subscriptions.push(
    store,
    panels,
    tree,
    view,
    // Their code (the send, sweep and decode flows) is a chunk of its own, loaded on the first run of one.
    ...registerCommandsOnFirstUse({ ...deps, store, panels }, TRANSACTION_COMMAND_IDS, async () => {
      return (await import('./transactionCommands')).TRANSACTION_COMMANDS;
    }),
  );
  return {
    api: {
      transactionsSnapshot: () => tree.snapshot(),
      txDetailsSnapshot: () => panels.snapshot(),
    },
    store,
  };
}
