import * as vscode from 'vscode';
import type { Logger } from '../core/util/log';
import type { TrackedTxView } from '../core/tracking/txDetailsModel';
import type { ConnectionManager } from '../platform/connection';
import { CommandIds, ViewIds } from '../constants';
import type { SecretStore } from '../platform/secrets';
import { registerCommandsOnFirstUse, type CommandContext } from '../platform/commands';
import { TrackedTransactions } from './trackedTransactions';
import { TransactionsTreeProvider } from './transactionsTree';
import type * as TxDetailsHost from './txDetails/host';
import type { EventDecoder, TxDetailsPanels, TxDetailsSnapshot, TxExplanationsView } from './txDetails/host';
import { TX_DETAILS_VIEW_TYPE, type TxDetailsState } from '../core/tracking/txDetailsProtocol';
import { lazyModule } from '../platform/lifecycle';
import type { DecodeCheck } from '../core/signing/decodeCheck';

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

/** What the commands open the details panels with: the panels load on the first one. */
export interface TxDetailsPanelsHandle {
  show(state: TxDetailsState): Promise<void>;
  showUnsigned(state: TxDetailsState, check: DecodeCheck): Promise<void>;
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
  // The details panels (host, model, rendering) load on first use; activation registers their serializer,
  // which VS Code asks for while activating, to revive panels after a reload.
  let loaded: TxDetailsPanels | undefined;
  const detailsPanels = lazyModule(async (): Promise<TxDetailsPanels> => {
    const m: typeof TxDetailsHost = await import('./txDetails/host');
    const created = new m.TxDetailsPanels(
      {
        extensionUri: context.extensionUri,
        connection: deps.connection,
        store,
        log: deps.log,
        redact: deps.redact,
        eventDecoder: deps.eventDecoder,
        tokenNames: (ids) => deps.connection.tokenMetadata(ids),
        ...(deps.explanations ? { explanations: deps.explanations } : {}),
        ...(deps.explorer ? { explorer: deps.explorer } : {}),
      },
      false,
    );
    return (loaded = created);
  });
  const panels: TxDetailsPanelsHandle = {
    show: async (state) => void (await detailsPanels()).show(state),
    showUnsigned: async (state, check) => void (await detailsPanels()).showUnsigned(state, check),
  };
  const tree = new TransactionsTreeProvider(store);
  const view = vscode.window.createTreeView(ViewIds.transactions, {
    treeDataProvider: tree,
    showCollapseAll: false,
  });
  tree.attach(view);
  context.subscriptions.push(
    store,
    vscode.window.registerWebviewPanelSerializer(TX_DETAILS_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state) =>
        (await detailsPanels()).deserializeWebviewPanel(panel, state),
    }),
    { dispose: () => loaded?.dispose() },
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
      txDetailsSnapshot: () => loaded?.snapshot(),
    },
    store,
  };
}
