import * as vscode from 'vscode';
import { themeIconOf } from './themeIcon';
import { fetchNodeStatus, type NodeStatus } from '../core/workflows/nodeStatus';
import type { ConnectionManager } from '../connection';
import type { Logger } from '../core/log';
import { DisposableBase } from '../util/lifecycle';

type NodeItem =
  | { kind: 'row'; label: string; description?: string; tooltip?: string; icon?: string; id: string }
  | { kind: 'chains'; id: string };

const SYNC_ICONS: Record<NodeStatus['sync'], [string, string]> = {
  synced: ['pass', 'testing.iconPassed'],
  syncing: ['sync~spin', 'charts.yellow'],
  unreachable: ['debug-disconnect', 'errorForeground'],
  unauthorized: ['lock', 'errorForeground'],
  error: ['error', 'errorForeground'],
};

/** Refresh while visible; the status changes slowly and every refresh costs 20 requests. */
const REFRESH_MS = 60_000;

/**
 * The Node view: active profile and base URL (never the key), sync state, version, chain params,
 * hashrate and the heights of all 16 chains. It turns to "syncing" as soon as the client meets a 503
 * and refreshes by itself when the node reports synced again.
 */
export class NodeTreeProvider extends DisposableBase implements vscode.TreeDataProvider<NodeItem> {
  private readonly changed = this.register(new vscode.EventEmitter<NodeItem | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private status: NodeStatus | undefined;
  private loading: Promise<void> | undefined;
  private followUp: Promise<void> | undefined;
  private clientSubscription: { dispose(): void } | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private visible = false;

  constructor(
    private readonly connection: ConnectionManager,
    private readonly log: Logger,
  ) {
    super();
    this.register(connection.onDidChange(() => this.onConnectionChanged()));
    this.register({ dispose: () => this.stop() });
  }

  /** Called by the composition root with the view, to refresh only while it is visible. */
  attach(view: vscode.TreeView<NodeItem>): void {
    this.register(
      view.onDidChangeVisibility((e) => {
        this.visible = e.visible;
        if (e.visible) this.startTimer();
        else this.stop();
      }),
    );
    this.visible = view.visible;
    if (this.visible) this.startTimer();
  }

  get current(): NodeStatus | undefined {
    return this.status;
  }

  /**
   * Loads the status. A refresh asked for while a load runs is not merged into it (that load may hold
   * answers from before the change, e.g. "unsynced" from before the node recovered): one more load
   * follows it, and the returned promise settles after that one.
   */
  refresh(): Promise<void> {
    if (this.loading) {
      this.followUp ??= this.loading.then(() => {
        this.followUp = undefined;
        return this.refresh();
      });
      return this.followUp;
    }
    this.loading = this.load().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private onConnectionChanged(): void {
    this.status = undefined;
    this.subscribeToClient();
    this.changed.fire(undefined);
    if (this.visible) void this.refresh();
  }

  private subscribeToClient(): void {
    this.clientSubscription?.dispose();
    const client = this.connection.state.client;
    this.clientSubscription = client?.onSyncState((e) => {
      if (e.state === 'syncing' && this.status) {
        this.status = { ...this.status, sync: 'syncing', problem: 'The node reported 503: still syncing.' };
        this.changed.fire(undefined);
      } else if (e.state === 'synced') {
        void this.refresh();
      }
    });
  }

  private startTimer(): void {
    if (this.timer) return;
    if (!this.clientSubscription) this.subscribeToClient();
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), REFRESH_MS);
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async load(): Promise<void> {
    const client = this.connection.state.client;
    if (!client) {
      this.status = undefined;
      this.changed.fire(undefined);
      return;
    }
    const status = await fetchNodeStatus(client, () => Date.now());
    // The profile or key changed while this load ran (its client was disposed, its requests cancelled):
    // its answer is stale, and the load that the change started will replace it.
    if (this.connection.state.client !== client) return;
    this.status = status;
    if (status.problem) this.log.debug(`Node status: ${status.sync}: ${status.problem}`);
    this.changed.fire(undefined);
  }

  getTreeItem(element: NodeItem): vscode.TreeItem {
    if (element.kind === 'chains') {
      const item = new vscode.TreeItem('Chains', vscode.TreeItemCollapsibleState.Collapsed);
      item.id = element.id;
      const known = this.status?.heights.filter((h) => h.height !== undefined) ?? [];
      item.description = known.length
        ? `16 chains, heights ${Math.min(...known.map((h) => h.height!))}–${Math.max(...known.map((h) => h.height!))}`
        : '16 chains';
      item.iconPath = new vscode.ThemeIcon('git-merge');
      return item;
    }
    const item = new vscode.TreeItem(element.label, vscode.TreeItemCollapsibleState.None);
    item.id = element.id;
    if (element.description !== undefined) item.description = element.description;
    if (element.tooltip) item.tooltip = element.tooltip;
    if (element.icon) item.iconPath = themeIconOf(element.icon);
    item.contextValue = 'alephium.node.row';
    return item;
  }

  getChildren(element?: NodeItem): NodeItem[] {
    const { profile, problem } = this.connection.state;
    // No profile: an empty tree lets the view's welcome content guide the user.
    if (!profile) return [];
    if (element?.kind === 'chains') {
      return (this.status?.heights ?? []).map((h) => ({
        kind: 'row',
        id: `chain-${h.fromGroup}-${h.toGroup}`,
        label: `${h.fromGroup} → ${h.toGroup}`,
        description: h.height === undefined ? 'unavailable' : `height ${h.height}`,
      }));
    }
    if (element) return [];
    const rows: NodeItem[] = [
      {
        kind: 'row',
        id: 'profile',
        label: `Profile: ${profile.name}`,
        description: `${profile.kind} · ${profile.network}`,
        icon: 'account',
      },
      {
        kind: 'row',
        id: 'url',
        label: 'Base URL',
        description:
          profile.kind === 'gateway' ? `${profile.baseUrl} /${profile.slug ?? ''}` : profile.baseUrl,
        icon: 'globe',
      },
    ];
    if (problem) {
      rows.push({
        kind: 'row',
        id: 'problem',
        label: 'Profile problem',
        description: problem,
        tooltip: problem,
        icon: 'warning|errorForeground',
      });
      return rows;
    }
    const s = this.status;
    if (!s) {
      rows.push({ kind: 'row', id: 'sync', label: 'Sync', description: 'checking…', icon: 'loading~spin' });
      return rows;
    }
    const [icon, color] = SYNC_ICONS[s.sync];
    rows.push({
      kind: 'row',
      id: 'sync',
      label: 'Sync',
      description: s.sync,
      icon: `${icon}|${color}`,
      ...(s.problem ? { tooltip: s.problem } : {}),
    });
    if (s.version)
      rows.push({ kind: 'row', id: 'version', label: 'Version', description: s.version, icon: 'versions' });
    if (s.networkId !== undefined)
      rows.push({
        kind: 'row',
        id: 'network',
        label: 'Network id',
        description: `${s.networkId} · ${s.groups ?? '?'} groups`,
        icon: 'symbol-enum',
      });
    if (s.hashrate)
      rows.push({
        kind: 'row',
        id: 'hashrate',
        label: 'Hashrate',
        description: s.hashrate,
        icon: 'dashboard',
      });
    if (s.heights.length) rows.push({ kind: 'chains', id: 'chains' });
    return rows;
  }
}
