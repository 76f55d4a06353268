import * as vscode from 'vscode';
import type { TrackedTxView } from '../core/transactions/txDetailsModel';
import { CommandIds, ViewIds } from '../constants';
import { registerCommandsOnFirstUse } from '../platform/commands';
import type { Services } from '../services';
import { TransactionsTreeProvider } from './transactionsTree';
import type * as TxDetailsHost from './txDetails/host';
import type { TxDetailsPanels, TxDetailsSnapshot } from './txDetails/host';
import { TX_DETAILS_VIEW_TYPE, type TxDetailsState } from '../core/transactions/txDetailsProtocol';
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

/**
 * The services the feature uses: the tracked transactions it shows, the contracts service that names their
 * events as the Watched Contracts view does, and the failures whose Explain Transaction answers are the
 * details panel's "What happened"; and the active profile's explorer (the page's Open in Explorer).
 */
export type TransactionsFeatureDeps = Pick<
  Services,
  'log' | 'redactor' | 'connection' | 'secrets' | 'tracked' | 'contracts' | 'failures' | 'extensionUri'
> & { readonly explorer?: { known(): boolean; open(txId: string): void } };

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
): TransactionsApi {
  // The details panels (host, model, rendering) load on first use; activation registers their serializer,
  // which VS Code asks for while activating, to revive panels after a reload.
  let loaded: TxDetailsPanels | undefined;
  const detailsPanels = lazyModule(async (): Promise<TxDetailsPanels> => {
    const m: typeof TxDetailsHost = await import('./txDetails/host');
    const created = new m.TxDetailsPanels(
      {
        ...deps,
        eventDecoder: () => deps.contracts.eventDecoder(),
        tokenNames: (ids) => deps.connection.tokenMetadata(ids),
        explanations: deps.failures.explanations,
      },
      false,
    );
    return (loaded = created);
  });
  const panels: TxDetailsPanelsHandle = {
    show: async (state) => void (await detailsPanels()).show(state),
    showUnsigned: async (state, check) => void (await detailsPanels()).showUnsigned(state, check),
  };
  const tree = new TransactionsTreeProvider(deps.tracked);
  const view = vscode.window.createTreeView(ViewIds.transactions, {
    treeDataProvider: tree,
    showCollapseAll: false,
  });
  tree.attach(view);
  context.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(TX_DETAILS_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state) =>
        (await detailsPanels()).deserializeWebviewPanel(panel, state),
    }),
    { dispose: () => loaded?.dispose() },
    tree,
    view,
    // Their code (the send, sweep and decode flows) is a chunk of its own, loaded on the first run of one.
    ...registerCommandsOnFirstUse({ ...deps, panels }, TRANSACTION_COMMAND_IDS, async () => {
      return (await import('./transactionCommands')).TRANSACTION_COMMANDS;
    }),
  );
  return {
    transactionsSnapshot: () => tree.snapshot(),
    txDetailsSnapshot: () => loaded?.snapshot(),
  };
}
