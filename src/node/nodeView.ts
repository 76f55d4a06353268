import * as vscode from 'vscode';
import { inert, plainText } from '../core/text/inert';
import { networkMismatch } from '../core/node/networkCheck';
import { showWarning } from '../platform/notify';
import { themeIconOf } from '../platform/themeIcon';
import {
  chainsDescription,
  nodeStatusChangesAt,
  syncAccessibilityLabel,
  syncDescription,
  syncTooltip,
  type NodeStatus,
} from '../core/node/nodeStatus';
import { NodeStatusModel } from '../core/node/nodeStatusModel';
import type { ConnectionManager } from '../platform/connection';
import type { Logger } from '../core/util/log';
import { DisposableBase } from '../platform/lifecycle';
import { TreeItemContexts } from '../constants';

type NodeItem =
  | {
      kind: 'row';
      label: string;
      description?: string;
      tooltip?: string;
      icon?: string;
      id: string;
      /** For a row whose state only its icon shows (the Sync row). */
      a11y?: string;
    }
  | { kind: 'chains'; id: string };

const SYNC_ICONS: Record<NodeStatus['sync'], [string, string]> = {
  synced: ['pass', 'testing.iconPassed'],
  syncing: ['sync~spin', 'charts.yellow'],
  noKey: ['key', 'charts.yellow'],
  unreachable: ['debug-disconnect', 'errorForeground'],
  unauthorized: ['lock', 'errorForeground'],
  quota: ['circle-slash', 'errorForeground'],
  rateLimited: ['watch', 'charts.yellow'],
  error: ['error', 'errorForeground'],
};

/**
 * The Node view: active profile and base URL (never the key), sync state, version, chain params,
 * hashrate and, while the Chains node is open, the heights of all 16 chains. A mapper of
 * `NodeStatusModel` (src/core), which owns the
 * probing: "syncing" as soon as the node answers 503, "synced" again at the next check by itself, and a
 * fresh probe on every Refresh.
 */
export class NodeTreeProvider extends DisposableBase implements vscode.TreeDataProvider<NodeItem> {
  private readonly changed = this.register(new vscode.EventEmitter<NodeItem | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly model = this.register(new NodeStatusModel());
  private visible = false;
  /** Renders again when an age the rows show moves ("1 min ago" → "2 min ago"), only while visible. */
  private ageTimer: ReturnType<typeof setTimeout> | undefined;
  /** The node's network id as last seen, with the profile (name and base URL) it was seen for. */
  private seenNetwork: { readonly profileKey: string; readonly networkId: number } | undefined;
  /** Each mismatch (profile, URL, network, id) is warned about once a session. */
  private readonly warnedMismatches = new Set<string>();

  constructor(
    private readonly connection: ConnectionManager,
    private readonly log: Logger,
  ) {
    super();
    this.register(
      connection.onDidChange(() => {
        this.model.setClient(this.connection.state.client);
        // Same client, new key (Set API Key): "no API key" or "unauthorized" is read again now.
        this.model.looked();
        void this.checkNetwork();
      }),
    );
    this.register(
      this.model.onDidChange((status) => {
        if (status?.problem) this.log.debug(`Node status: ${status.sync}: ${status.problem}`);
        if (status?.networkId !== undefined) this.noteNetworkId(status.networkId);
        // Every row may change with a new status: refresh from the root.
        this.render();
      }),
    );
    // Coming back to the window is looking again: what is older than half a minute is read now.
    this.register(
      vscode.window.onDidChangeWindowState((state) => {
        if (state.focused) this.model.looked();
      }),
    );
    this.register({ dispose: () => clearTimeout(this.ageTimer) });
  }

  /**
   * On connect (a new profile, URL or key): the node's network id against the profile's network, so a
   * mismatch is said now rather than at the first signature. Chain params are cached forever by the
   * client, so this is one request per connection (shared with the Node view's own read); a node that
   * does not answer yet is checked when it does (the view's probe, the next connect).
   */
  private async checkNetwork(): Promise<void> {
    const { client, profile } = this.connection.state;
    if (!client || !profile) return;
    try {
      const params = await client.getChainParams({ priority: 'background', purpose: 'node' });
      if (this.connection.state.client === client) this.noteNetworkId(params.networkId);
    } catch (error) {
      this.log.debug(
        `Network check of "${profile.name}" not done yet: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private profileKey(): string | undefined {
    const profile = this.connection.state.profile;
    return profile ? `${profile.name}|${profile.baseUrl}|${profile.network}` : undefined;
  }

  /** Remembers the node's id for the active profile; a mismatch is warned about once and shown in the view. */
  private noteNetworkId(networkId: number): void {
    const profile = this.connection.state.profile;
    const profileKey = this.profileKey();
    if (!profile || profileKey === undefined) return;
    const before = this.seenNetwork;
    this.seenNetwork = { profileKey, networkId };
    const mismatch = networkMismatch(profile.network, networkId);
    if (mismatch && !this.warnedMismatches.has(`${profileKey}|${networkId}`)) {
      this.warnedMismatches.add(`${profileKey}|${networkId}`);
      this.log.warn(`Profile "${profile.name}": ${mismatch}`);
      void showWarning(inert`Profile "${profile.name}": ${mismatch}`);
    }
    if (before?.profileKey !== profileKey || before.networkId !== networkId) this.render();
  }

  /** The mismatch sentence for the active profile, when its node was seen on another network. */
  get networkMismatch(): string | undefined {
    const profile = this.connection.state.profile;
    const seen = this.seenNetwork;
    if (!profile || !seen || seen.profileKey !== this.profileKey()) return undefined;
    return networkMismatch(profile.network, seen.networkId);
  }

  private render(): void {
    this.changed.fire(undefined);
    clearTimeout(this.ageTimer);
    this.ageTimer = undefined;
    if (!this.visible) return;
    const now = Date.now();
    const at = nodeStatusChangesAt(this.model.current, now);
    if (at !== undefined) this.ageTimer = setTimeout(() => this.render(), Math.max(0, at - now) + 50);
  }

  /** Called by the composition root with the view, to probe only while it is visible. */
  attach(view: vscode.TreeView<NodeItem>): void {
    this.register(view.onDidChangeVisibility((e) => this.setVisible(e.visible)));
    // 16 requests a read: the heights are read only while someone has the Chains node open.
    this.register(
      view.onDidExpandElement((e) => {
        if (e.element.kind === 'chains') this.model.setChainsExpanded(true);
      }),
    );
    this.register(
      view.onDidCollapseElement((e) => {
        if (e.element.kind === 'chains') this.model.setChainsExpanded(false);
      }),
    );
    this.setVisible(view.visible);
  }

  get current(): NodeStatus | undefined {
    return this.model.current;
  }

  /** Sends a fresh probe (abandoning one in flight) and settles once the view shows its answer. */
  refresh(): Promise<void> {
    this.model.setClient(this.connection.state.client);
    return this.model.refresh();
  }

  private setVisible(visible: boolean): void {
    this.visible = visible;
    // The client is built lazily: only once someone looks.
    if (visible) this.model.setClient(this.connection.state.client);
    this.model.setVisible(visible);
    this.render();
  }

  getTreeItem(element: NodeItem): vscode.TreeItem {
    if (element.kind === 'chains') {
      const item = new vscode.TreeItem('Chains', vscode.TreeItemCollapsibleState.Collapsed);
      item.id = element.id;
      const status = this.model.current;
      item.description = status
        ? chainsDescription(status, Date.now())
        : '16 chains: open to read their heights';
      item.iconPath = new vscode.ThemeIcon('git-merge');
      return item;
    }
    // Rows hold what the node said (its version, an error's text): plain text, capped.
    const item = new vscode.TreeItem(plainText(element.label, 120), vscode.TreeItemCollapsibleState.None);
    item.id = element.id;
    if (element.description !== undefined) item.description = plainText(element.description, 300);
    if (element.tooltip) item.tooltip = plainText(element.tooltip, 1500, true);
    if (element.icon) item.iconPath = themeIconOf(element.icon);
    if (element.a11y) item.accessibilityInformation = { label: plainText(element.a11y, 300) };
    item.contextValue = TreeItemContexts.nodeRow;
    return item;
  }

  getChildren(element?: NodeItem): NodeItem[] {
    const { profile, problem } = this.connection.state;
    // No profile: an empty tree lets the view's welcome content guide the user.
    if (!profile) return [];
    if (element?.kind === 'chains') {
      return (this.model.current?.heights ?? []).map((h) => ({
        kind: 'row',
        id: `chain-${h.fromGroup}-${h.toGroup}`,
        label: `${h.fromGroup} → ${h.toGroup}`,
        description: h.height === undefined ? `not read (${h.problem ?? 'error'})` : `height ${h.height}`,
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
    const mismatch = this.networkMismatch;
    if (mismatch)
      rows.push({
        kind: 'row',
        id: 'networkMismatch',
        label: 'Network mismatch',
        description: mismatch,
        tooltip: mismatch,
        icon: 'warning|errorForeground',
      });
    const s = this.model.current;
    if (!s) {
      const a11y = syncAccessibilityLabel(undefined, Date.now());
      rows.push({
        kind: 'row',
        id: 'sync',
        label: 'Sync',
        description: 'checking…',
        icon: 'loading~spin',
        a11y,
        tooltip: syncTooltip(undefined),
      });
      return rows;
    }
    const [icon, color] = SYNC_ICONS[s.sync];
    rows.push({
      kind: 'row',
      id: 'sync',
      label: 'Sync',
      description: syncDescription(s, Date.now()),
      icon: `${icon}|${color}`,
      a11y: syncAccessibilityLabel(s, Date.now()),
      tooltip: syncTooltip(s),
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
    if (s.sync === 'synced' || s.heights.length) rows.push({ kind: 'chains', id: 'chains' });
    return rows;
  }
}
