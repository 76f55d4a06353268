import * as vscode from 'vscode';
import { themeIconOf } from '../platform/themeIcon';
import type { ArtifactRegistry } from '../core/artifacts';
import type { WatchedContractsModel } from '../core/contracts/watching/watchedContractsModel';
import {
  contractRow,
  eventRow,
  eventsHeader,
  ROW_LABEL_CHARS,
  ROW_TOOLTIP_CHARS,
  shortAddress,
  stateDescription,
  stateRows,
  type FieldRow,
  type Row,
} from '../core/contracts/watching/rows';
import { formatValue } from '../core/artifacts';
import { plainText } from '../core/text/inert';
import { asOfSuffix, nextAgeChange } from '../core/text/age';
import { CommandIds, TreeItemContexts } from '../constants';
import { DisposableBase } from '../platform/lifecycle';
import { fromOwnUi } from '../platform/commands';
import type { ContractsService } from './contractsService';

/** Tree elements. Each kind has a stable id and a contextValue that menus match on. */
export type ContractNode =
  | { readonly kind: 'contract'; readonly id: string; readonly address: string }
  | { readonly kind: 'state'; readonly id: string; readonly address: string }
  | { readonly kind: 'events'; readonly id: string; readonly address: string }
  | { readonly kind: 'value'; readonly id: string; readonly address: string; readonly row: Row }
  | {
      readonly kind: 'event';
      readonly id: string;
      readonly address: string;
      readonly row: Row & { fields: FieldRow[] };
      /** Where the event happened: Show Transaction and What Changed take these from the row. */
      readonly txId: string;
      readonly blockHash: string;
      readonly eventIndex: number;
    }
  | { readonly kind: 'loadMore'; readonly id: string; readonly address: string }
  | { readonly kind: 'message'; readonly id: string; readonly row: Row };

/** How many open node ids the tree remembers for a switch back (the oldest are let go first). */
const OPEN_IDS_KEPT = 2000;

const ContextValues = {
  contract: TreeItemContexts.contract,
  contractDrift: TreeItemContexts.contractDrift,
  state: TreeItemContexts.contractState,
  events: TreeItemContexts.contractEvents,
  value: TreeItemContexts.value,
  event: TreeItemContexts.event,
  loadMore: TreeItemContexts.loadMore,
  message: TreeItemContexts.message,
} as const;

/**
 * The Watched Contracts view: a mapper of `WatchedContractsModel` (src/core), which holds and loads the
 * data (state when a contract is listed, its code hash deciding the drift badge; events when the Events
 * node is opened; older events on "Load more…"). Every model change re-renders from the root, and a node
 * object is reused per id so refreshes keep expansion.
 */
export class ContractsTreeProvider extends DisposableBase implements vscode.TreeDataProvider<ContractNode> {
  private readonly changed = this.register(new vscode.EventEmitter<ContractNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly nodes = new Map<string, ContractNode>();
  /** Contracts whose node is expanded (their State and Events rows show). */
  private readonly expanded = new Set<string>();
  /**
   * Every node id the person left open, also of contracts not listed now: VS Code forgets a row's
   * expansion once the row is gone (another profile's list), so a switch back opens them again from here.
   */
  private readonly openIds = new Set<string>();
  private viewVisible = false;
  private readonly lookedAtEmitter = this.register(new vscode.EventEmitter<readonly string[]>());
  /** The contracts the user looks at changed (see {@link lookedAt}). */
  readonly onDidChangeLookedAt = this.lookedAtEmitter.event;

  constructor(private readonly contracts: ContractsService) {
    super();
    this.register(this.model.onDidChange(() => this.changed.fire(undefined)));
  }

  /** The model this tree maps (owned by the contracts service). */
  private get model(): WatchedContractsModel {
    return this.contracts.model;
  }

  /**
   * The view showing this tree: whether it is visible and which contract nodes are expanded say which
   * contracts the user looks at, so the watcher polls those first.
   */
  bindView(view: vscode.TreeView<ContractNode>): void {
    this.viewVisible = view.visible;
    this.followLooks(view);
    this.register(
      view.onDidChangeVisibility((e) => {
        this.viewVisible = e.visible;
        this.lookedAtEmitter.fire(this.lookedAt);
      }),
    );
    this.register(view.onDidExpandElement((e) => this.setExpanded(e.element, true)));
    this.register(view.onDidCollapseElement((e) => this.setExpanded(e.element, false)));
    this.register(view.onDidExpandElement((e) => this.rememberOpen(e.element.id, true)));
    this.register(view.onDidCollapseElement((e) => this.rememberOpen(e.element.id, false)));
  }

  /** Contracts whose state or events show in the visible view: their nodes are expanded. */
  get lookedAt(): readonly string[] {
    if (!this.viewVisible) return [];
    const listed = new Set(this.model.watched.map((w) => w.address));
    return [...this.expanded].filter((a) => listed.has(a));
  }

  private rememberOpen(id: string, open: boolean): void {
    this.openIds.delete(id);
    if (!open) return;
    this.openIds.add(id);
    // Bounded: the oldest ids go first (a set keeps insertion order).
    for (const old of this.openIds) {
      if (this.openIds.size <= OPEN_IDS_KEPT) break;
      this.openIds.delete(old);
    }
  }

  /** How a node with children starts: open when the person left it open. */
  private collapsible(id: string): vscode.TreeItemCollapsibleState {
    return this.openIds.has(id)
      ? vscode.TreeItemCollapsibleState.Expanded
      : vscode.TreeItemCollapsibleState.Collapsed;
  }

  private setExpanded(n: ContractNode, expanded: boolean): void {
    if (n.kind !== 'contract' || this.expanded.has(n.address) === expanded) return;
    if (expanded) this.expanded.add(n.address);
    else this.expanded.delete(n.address);
    this.lookedAtEmitter.fire(this.lookedAt);
  }

  // ---- ages, and reading again what a person looks at ------------------------------------------------

  /** State and Events nodes the person has open: a look (focus, the view shown) reads them if old. */
  private readonly open = new Map<string, Extract<ContractNode, { kind: 'state' | 'events' }>>();
  private ageTimer: ReturnType<typeof setTimeout> | undefined;

  /**
   * Follows what the person looks at in `view`: opening State or Events reads it again when it is
   * older than half a minute, and so does coming back to the window or showing the view; while the view
   * is visible, the ages its rows show move ("as of 3 min ago") without a request.
   */
  private followLooks(view: vscode.TreeView<ContractNode>): void {
    const look = (n: ContractNode) => {
      if (n.kind === 'state' || n.kind === 'events') void this.model.looked(n.address, n.kind);
    };
    this.register(
      view.onDidExpandElement(({ element }) => {
        if (element.kind !== 'state' && element.kind !== 'events') return;
        this.open.set(element.id, element);
        look(element);
      }),
    );
    this.register(view.onDidCollapseElement(({ element }) => this.open.delete(element.id)));
    const lookAtOpen = () => [...this.open.values()].forEach(look);
    this.register(
      view.onDidChangeVisibility(({ visible }) => {
        this.viewVisible = visible;
        if (visible) lookAtOpen();
        this.scheduleAges();
      }),
    );
    this.register(
      vscode.window.onDidChangeWindowState(({ focused }) => {
        if (focused && this.viewVisible) lookAtOpen();
      }),
    );
    this.register(this.model.onDidChange(() => this.scheduleAges()));
    this.register({ dispose: () => clearTimeout(this.ageTimer) });
    this.viewVisible = view.visible;
    this.scheduleAges();
  }

  /** One timer: the next moment an age shown on a State or Events row reads differently. */
  private scheduleAges(): void {
    clearTimeout(this.ageTimer);
    this.ageTimer = undefined;
    if (!this.viewVisible) return;
    const times = this.model.watched.flatMap((w) => [
      this.model.stateOf(w.address)?.readAt,
      this.model.eventsCheckedAt(w.address),
    ]);
    const now = Date.now();
    const at = nextAgeChange(times, now);
    if (at === undefined) return;
    this.ageTimer = setTimeout(
      () => {
        for (const n of this.nodes.values())
          if (n.kind === 'state' || n.kind === 'events') this.changed.fire(n);
        this.scheduleAges();
      },
      Math.max(0, at - now) + 50,
    );
  }

  private node<N extends ContractNode>(n: N): N {
    const existing = this.nodes.get(n.id) as N | undefined;
    if (existing && existing.kind === n.kind && !('row' in n)) return existing;
    // The view's elements are the extension's own UI: a command run from a row is the user's.
    this.nodes.set(n.id, fromOwnUi(n));
    return n;
  }

  // ---- TreeDataProvider --------------------------------------------------------------------------------

  getTreeItem(n: ContractNode): vscode.TreeItem {
    switch (n.kind) {
      case 'contract': {
        const row = this.contractRowOf(n.address);
        const item = new vscode.TreeItem(row.label, this.collapsible(n.id));
        return this.decorate(
          item,
          n.id,
          row,
          this.isDrift(n.address) ? ContextValues.contractDrift : ContextValues.contract,
        );
      }
      case 'state': {
        // The state is read when events arrive or someone looks: between those it says how old it is.
        const readAt = this.model.stateOf(n.address)?.readAt;
        const age = asOfSuffix(readAt, Date.now()).replace(/^, /, '');
        const description = stateDescription(age, this.model.stateBehindEvents(n.address));
        return this.decorate(
          new vscode.TreeItem('State', this.collapsible(n.id)),
          n.id,
          { label: 'State', icon: 'symbol-field', ...(description ? { description } : {}) },
          ContextValues.state,
        );
      }
      case 'events': {
        const f = this.model.feedIfAny(n.address);
        const header = f?.loaded ? eventsHeader(f.size, f.count) : undefined;
        const age = asOfSuffix(this.model.eventsCheckedAt(n.address), Date.now());
        const item = new vscode.TreeItem('Events', this.collapsible(n.id));
        return this.decorate(
          item,
          n.id,
          {
            label: 'Events',
            icon: 'symbol-event',
            ...header,
            ...(header ? { description: `${header.description}${age}` } : {}),
          },
          ContextValues.events,
        );
      }
      case 'value':
      case 'message':
        return this.decorate(
          new vscode.TreeItem(n.row.label, vscode.TreeItemCollapsibleState.None),
          n.id,
          n.row,
          n.kind === 'value' ? ContextValues.value : ContextValues.message,
        );
      case 'event': {
        const item = new vscode.TreeItem(
          n.row.label,
          n.row.fields.length ? this.collapsible(n.id) : vscode.TreeItemCollapsibleState.None,
        );
        return this.decorate(item, n.id, n.row, ContextValues.event);
      }
      case 'loadMore': {
        const item = new vscode.TreeItem('Load more…', vscode.TreeItemCollapsibleState.None);
        item.command = { command: CommandIds.loadMoreEvents, title: 'Load more…', arguments: [n] };
        return this.decorate(
          item,
          n.id,
          { label: 'Load more…', icon: 'ellipsis', tooltip: 'Load older events' },
          ContextValues.loadMore,
        );
      }
    }
  }

  private decorate(item: vscode.TreeItem, id: string, row: Row, contextValue: string): vscode.TreeItem {
    item.id = id;
    item.contextValue = contextValue;
    if (row.description !== undefined) item.description = row.description;
    if (row.tooltip) item.tooltip = row.tooltip;
    if (row.icon) item.iconPath = themeIconOf(row.icon);
    if (row.accessibilityLabel) item.accessibilityInformation = { label: row.accessibilityLabel };
    return item;
  }

  private isDrift(address: string): boolean {
    if (!this.model.watched.some((x) => x.address === address)) return false;
    return this.contracts.resolvedNow(address).drift.status === 'drift';
  }

  private get registryNow(): ArtifactRegistry {
    return this.contracts.artifacts.latest;
  }

  private contractRowOf(address: string): Row {
    const w = this.model.watched.find((x) => x.address === address) ?? { address, group: 0 };
    const entry = this.model.stateOf(address);
    const resolved = this.contracts.resolvedNow(address);
    return contractRow({
      watched: w,
      resolved,
      codeHash: entry?.state?.codeHash,
      ...(entry?.error !== undefined ? { error: entry.error } : {}),
      ...(entry?.errorBadge !== undefined ? { errorBadge: entry.errorBadge } : {}),
    });
  }

  getChildren(n?: ContractNode): Promise<ContractNode[]> {
    // VS Code asks for a contract's children when its node is expanded, also when it restores the node
    // expanded after a reload (which fires no expand event).
    if (n?.kind === 'contract') this.setExpanded(n, true);
    if (n) this.rememberOpen(n.id, true);
    return this.childrenOf(n);
  }

  private async childrenOf(n?: ContractNode): Promise<ContractNode[]> {
    await this.contracts.registry();
    if (!n) {
      // Listing contracts reads their state in the background: its code hash decides the drift badge.
      void this.model.loadStates(
        this.model.watched.map((w) => w.address),
        false,
        'background',
      );
      return this.model.watched.map((w) =>
        this.node({ kind: 'contract', id: `contract:${w.address}`, address: w.address }),
      );
    }
    switch (n.kind) {
      case 'contract':
        return [
          this.node({ kind: 'state', id: `${n.id}/state`, address: n.address }),
          this.node({ kind: 'events', id: `${n.id}/events`, address: n.address }),
        ];
      case 'state':
        return this.stateChildren(n);
      case 'events':
        return this.eventChildren(n);
      case 'event':
        return n.row.fields.map((row, i) =>
          this.node({ kind: 'value', id: `${n.id}/f${i}`, address: n.address, row }),
        );
      default:
        return [];
    }
  }

  /** A message row; its text can hold a gateway's error or a model's warning: plain text, capped. */
  private message(id: string, label: string, tooltip?: string, icon = 'info'): ContractNode {
    return this.node({
      kind: 'message',
      id,
      row: {
        label: plainText(label, ROW_LABEL_CHARS),
        ...(tooltip ? { tooltip: plainText(tooltip, ROW_TOOLTIP_CHARS, true), description: '' } : {}),
        icon,
      },
    });
  }

  private async stateChildren(n: Extract<ContractNode, { kind: 'state' }>): Promise<ContractNode[]> {
    await this.model.loadStates([n.address]);
    const entry = this.model.stateOf(n.address);
    if (!entry?.state) {
      return [
        this.message(
          `${n.id}/error`,
          `Could not read the state: ${entry?.error ?? 'unknown error'}`,
          entry?.error,
          'warning',
        ),
      ];
    }
    const resolved = await this.model.resolved(n.address);
    const { rows, warning } = stateRows(resolved?.artifact, entry.state, this.registryNow, resolved?.drift);
    const out: ContractNode[] = [];
    if (warning) out.push(this.message(`${n.id}/warning`, `⚠ ${warning}`, warning, 'warning'));
    rows.forEach((row) =>
      out.push(this.node({ kind: 'value', id: `${n.id}/${row.label}`, address: n.address, row })),
    );
    for (const g of entry.getters ?? []) {
      const row: Row = {
        label: `${g.name}()`,
        description: formatValue(g.value, 40),
        tooltip: `${g.name}() → ${g.type}\n${g.value}`,
        icon: 'symbol-method',
        copy: g.value,
      };
      out.push(this.node({ kind: 'value', id: `${n.id}/getter/${g.name}`, address: n.address, row }));
    }
    out.push(
      this.node({
        kind: 'value',
        id: `${n.id}/codeHash`,
        address: n.address,
        row: {
          label: 'codeHash',
          description: shortAddress(entry.state.codeHash),
          tooltip: entry.state.codeHash,
          icon: 'symbol-key',
          copy: entry.state.codeHash,
        },
      }),
    );
    return out;
  }

  private async eventChildren(n: Extract<ContractNode, { kind: 'events' }>): Promise<ContractNode[]> {
    const f = this.model.feed(n.address);
    await Promise.all([
      this.model.loadStates([n.address]),
      f.loaded ? undefined : this.model.loadLatestEvents(n.address),
    ]);
    const error = this.model.feedError(n.address);
    if (!f.loaded) {
      return [
        this.message(
          `${n.id}/error`,
          `Could not read the events: ${error ?? 'unknown error'}`,
          error,
          'warning',
        ),
      ];
    }
    const resolved = await this.model.resolved(n.address);
    const out: ContractNode[] = [];
    if (error) out.push(this.message(`${n.id}/error`, `⚠ ${error}`, error, 'warning'));
    if (f.size === 0) out.push(this.message(`${n.id}/empty`, 'No events yet'));
    for (const item of f.items()) {
      const row = eventRow(item.event, resolved?.artifact, {
        registry: this.registryNow,
        ...(resolved?.drift ? { drift: resolved.drift } : {}),
      });
      const { txId, blockHash, eventIndex } = item.event;
      out.push(
        this.node({ kind: 'event', id: item.id, address: n.address, row, txId, blockHash, eventIndex }),
      );
    }
    if (f.hasOlder) out.push(this.node({ kind: 'loadMore', id: `${n.id}/more`, address: n.address }));
    return out;
  }

  // ---- read-only view for tests and the API ---------------------------------------------------------

  /** The rendered tree with State and Events expanded (labels and descriptions only). */
  async snapshot(): Promise<ContractSnapshot[]> {
    const out: ContractSnapshot[] = [];
    for (const c of await this.childrenOf()) {
      await this.model.loadStates([(c as { address: string }).address]);
      const item = this.getTreeItem(c);
      const [stateNode, eventsNode] = await this.childrenOf(c);
      const render = async (x: ContractNode | undefined) =>
        x
          ? (await this.childrenOf(x)).map((k) => {
              const t = this.getTreeItem(k);
              return {
                label: labelText(t.label),
                description: String(t.description ?? ''),
                contextValue: t.contextValue ?? '',
              };
            })
          : [];
      out.push({
        address: (c as { address: string }).address,
        label: labelText(item.label),
        description: String(item.description ?? ''),
        tooltip: typeof item.tooltip === 'string' ? item.tooltip : '',
        contextValue: item.contextValue ?? '',
        state: await render(stateNode),
        events: await render(eventsNode),
      });
    }
    return out;
  }
}

export interface SnapshotRow {
  readonly label: string;
  readonly description: string;
  readonly contextValue: string;
}

export interface ContractSnapshot extends SnapshotRow {
  readonly address: string;
  readonly tooltip: string;
  readonly state: SnapshotRow[];
  readonly events: SnapshotRow[];
}

/** A tree item's label as text: a `TreeItemLabel` (label with highlights) prints its label, not `[object Object]`. */
function labelText(label: string | vscode.TreeItemLabel | undefined): string {
  return typeof label === 'string' ? label : (label?.label ?? '');
}
