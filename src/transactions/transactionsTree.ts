import * as vscode from 'vscode';
import { plainText } from '../core/text/inert';
import { trackedRowsChangeAt, trackedTxView, type TrackedTxView } from '../core/transactions/txDetailsModel';
import type { TxStatusKind } from '../core/transactions/txDetailsProtocol';
import { CommandIds, TreeItemContexts } from '../constants';
import { DisposableBase } from '../platform/lifecycle';
import type { TrackedTransactions } from './trackedTransactions';

/** A row of the Transactions view; also what commands from its context menu receive. */
export interface TxNode {
  readonly kind: 'tx';
  readonly txId: string;
}

const ICONS: Record<TxStatusKind, [string, string | undefined]> = {
  unsigned: ['file-binary', undefined],
  'not-found-yet': ['search', 'charts.yellow'],
  mempool: ['loading~spin', undefined],
  confirming: ['sync~spin', 'charts.blue'],
  confirmed: ['pass', 'testing.iconPassed'],
  failed: ['error', 'errorForeground'],
  unknown: ['question', 'charts.yellow'],
};

/**
 * The Transactions view: one row per tracked transaction with its live status. Reading the list is
 * what restores persisted records and resumes their polling, so nothing polls before it is shown.
 */
export class TransactionsTreeProvider extends DisposableBase implements vscode.TreeDataProvider<TxNode> {
  private readonly changed = this.register(new vscode.EventEmitter<TxNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  /**
   * Grace countdowns and "not found yet" texts age, and so does a finished row's count ("as of 3 min
   * ago"): refresh while something is pending, or an age moves, and the view is visible.
   */
  private timer: ReturnType<typeof setInterval> | undefined;
  /**
   * One element object per txId for as long as the row exists. VS Code finds the row to re-render by the
   * identity of the element it was given: firing a fresh `{ kind, txId }` object matches no row, and the
   * row then kept its first status (MemPooled) for good.
   */
  private readonly nodes = new Map<string, TxNode>();
  /** When rows were last rendered: an age they show moves at `trackedRowsChangeAt` from then. */
  private renderedAt: number | undefined;

  constructor(private readonly store: TrackedTransactions) {
    super();
    this.register(
      store.onDidChange((txId) => {
        const node = txId === undefined ? undefined : this.nodes.get(txId.toLowerCase());
        // A tx the tree has not shown yet is a new row: only a refresh of the root adds it.
        this.changed.fire(node);
      }),
    );
    this.register({ dispose: () => this.stopTimer() });
  }

  attach(view: vscode.TreeView<TxNode>): void {
    this.register(view.onDidChangeVisibility((e) => (e.visible ? this.startTimer() : this.stopTimer())));
    if (view.visible) this.startTimer();
  }

  private startTimer(): void {
    this.timer ??= setInterval(() => {
      const records = this.store.records();
      const now = Date.now();
      // A row re-rendered alone (its tx changed) counts too: ages are measured from the last render.
      const ageChangesAt =
        this.renderedAt === undefined ? undefined : trackedRowsChangeAt(records, this.renderedAt);
      const ageMoved = ageChangesAt !== undefined && now >= ageChangesAt;
      if (ageMoved || records.some((r) => r.outcome === undefined)) this.changed.fire(undefined);
    }, 5_000);
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** What each row shows (label, description), in order: read by tests and the extension's API. */
  snapshot(): TrackedTxView[] {
    const now = Date.now();
    return this.store.records().map((r) => trackedTxView(r, now));
  }

  getChildren(element?: TxNode): TxNode[] {
    if (element) return [];
    this.store.ensureRestored();
    const records = this.store.records();
    this.renderedAt = Date.now();
    const shown = new Set(records.map((r) => r.txId));
    for (const txId of this.nodes.keys()) if (!shown.has(txId)) this.nodes.delete(txId);
    return records.map((r) => this.nodeOf(r.txId));
  }

  private nodeOf(txId: string): TxNode {
    let node = this.nodes.get(txId);
    if (!node) {
      node = { kind: 'tx', txId };
      this.nodes.set(txId, node);
    }
    return node;
  }

  getTreeItem(node: TxNode): vscode.TreeItem {
    const record = this.store.record(node.txId);
    if (!record) return new vscode.TreeItem(node.txId);
    this.renderedAt = Date.now();
    const view = trackedTxView(record, this.renderedAt);
    // A label can come from a command's caller (Track Transaction's `label`), a reason from the gateway.
    const item = new vscode.TreeItem(plainText(view.label, 120), vscode.TreeItemCollapsibleState.None);
    item.id = `tx:${record.txId}`;
    item.description = plainText(view.description, 200);
    item.tooltip = plainText(view.tooltip, 1500, true);
    const [icon, color] = ICONS[view.status.kind];
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    item.accessibilityInformation = { label: plainText(view.accessibilityLabel, 300) };
    // Every finished row matches /^alephium\.tx\./ as before; a failed one also gets Explain inline.
    item.contextValue = view.active
      ? TreeItemContexts.txPending
      : view.status.kind === 'failed'
        ? TreeItemContexts.txFailed
        : TreeItemContexts.txDone;
    item.command = {
      command: CommandIds.showTransaction,
      title: 'Show Transaction',
      arguments: [
        {
          txId: record.txId,
          ...(record.fromGroup !== undefined ? { fromGroup: record.fromGroup } : {}),
          ...(record.toGroup !== undefined ? { toGroup: record.toGroup } : {}),
        },
      ],
    };
    return item;
  }
}
