import * as vscode from 'vscode';
import { themeIconOf } from '../views/themeIcon';
import type { ArtifactRegistry, ResolvedContract } from '../core/artifacts';
import { errorMessage } from '../core/errors';
import {
  callContracts,
  fetchEventsFrom,
  type ContractEvent,
  type ContractState,
  type GatewayClient,
} from '../core/gateway';
import type { Logger } from '../core/log';
import {
  contractRow,
  EventFeed,
  eventRow,
  eventsHeader,
  problemBadge,
  olderWindow,
  resolveWatched,
  shortAddress,
  stateRows,
  type FieldRow,
  type Row,
  type WatchedContract,
} from '../core/workflows/watchedContracts';
import { formatValue } from '../core/artifacts';
import { CommandIds } from '../constants';
import { DisposableBase } from '../util/lifecycle';

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
    }
  | { readonly kind: 'loadMore'; readonly id: string; readonly address: string }
  | { readonly kind: 'message'; readonly id: string; readonly row: Row };

export const ContextValues = {
  contract: 'alephium.contract',
  contractDrift: 'alephium.contract.drift',
  state: 'alephium.contractState',
  events: 'alephium.contractEvents',
  value: 'alephium.value',
  event: 'alephium.event',
  loadMore: 'alephium.loadMore',
  message: 'alephium.message',
} as const;

/** What the tree needs from the feature: the client, the registry and the profile's network. */
export interface ContractsTreeDeps {
  readonly log: Logger;
  client(): GatewayClient | undefined;
  registry(): Promise<ArtifactRegistry>;
  /** The registry last read, for synchronous rendering (a change re-renders anyway). */
  latestRegistry(): ArtifactRegistry;
  network(): string | undefined;
  pageSize(): number;
}

interface StateEntry {
  state?: ContractState;
  /** Results of the contract's zero-argument getters (through one multicall). */
  getters?: { name: string; value: string; type: string }[];
  error?: string;
  errorBadge?: string;
  loading?: Promise<void>;
}

/**
 * The Watched Contracts view. Data is loaded lazily: state when a contract is listed (its code hash
 * decides the drift badge), events when the Events node is opened, older events on "Load more…".
 * Loads in progress are shared, and a node object is reused per id so refreshes keep expansion.
 */
export class ContractsTreeProvider extends DisposableBase implements vscode.TreeDataProvider<ContractNode> {
  private readonly changed = this.register(new vscode.EventEmitter<ContractNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private list: WatchedContract[] = [];
  private readonly states = new Map<string, StateEntry>();
  private readonly feeds = new Map<string, EventFeed<ContractEvent>>();
  private readonly feedLoads = new Map<string, Promise<void>>();
  private readonly feedErrors = new Map<string, string>();
  private readonly nodes = new Map<string, ContractNode>();

  constructor(private readonly deps: ContractsTreeDeps) {
    super();
  }

  /** The watch list changed (add, remove, profile switch): forget data of contracts no longer listed. */
  setList(list: readonly WatchedContract[]): void {
    this.list = [...list];
    const keep = new Set(list.map((w) => w.address));
    for (const map of [this.states, this.feeds, this.feedLoads, this.feedErrors] as Map<string, unknown>[])
      for (const k of [...map.keys()]) if (!keep.has(k)) map.delete(k);
    this.changed.fire(undefined);
  }

  get watched(): readonly WatchedContract[] {
    return this.list;
  }

  /** Everything cached is dropped (another profile or chain): the next render reads afresh. */
  resetData(): void {
    this.states.clear();
    this.feeds.clear();
    this.feedLoads.clear();
    this.feedErrors.clear();
    this.changed.fire(undefined);
  }

  /** The artifacts changed: names and drift are recomputed from cached data. */
  artifactsChanged(): void {
    this.changed.fire(undefined);
  }

  private node<N extends ContractNode>(n: N): N {
    const existing = this.nodes.get(n.id) as N | undefined;
    if (existing && existing.kind === n.kind && !('row' in n)) return existing;
    this.nodes.set(n.id, n);
    return n;
  }

  // ---- data ------------------------------------------------------------------------------------------

  private requireClient(): GatewayClient {
    const c = this.deps.client();
    if (!c) throw new Error('No gateway profile is active. Run "Alephium: Add Profile".');
    return c;
  }

  async resolved(address: string): Promise<ResolvedContract | undefined> {
    const w = this.list.find((x) => x.address === address);
    if (!w) return undefined;
    const registry = await this.deps.registry();
    return resolveWatched(registry, w, this.states.get(address)?.state?.codeHash, this.deps.network());
  }

  /** Loads (or reloads, with `fresh`) the state and getters of some contracts; getters share multicalls. */
  loadStates(addresses: readonly string[], fresh = false): Promise<void> {
    const todo = addresses.filter(
      (a) => fresh || (!this.states.get(a)?.state && !this.states.get(a)?.loading),
    );
    const pending = addresses.map((a) => this.states.get(a)?.loading).filter((p): p is Promise<void> => !!p);
    if (todo.length === 0) return Promise.all(pending).then(() => undefined);
    const run = this.readStates(todo, fresh);
    for (const a of todo) this.states.set(a, { ...this.states.get(a), loading: run });
    return Promise.all([run, ...pending]).then(() => undefined);
  }

  private async readStates(addresses: readonly string[], fresh: boolean): Promise<void> {
    let client: GatewayClient;
    try {
      client = this.requireClient();
    } catch (e) {
      for (const a of addresses) this.states.set(a, { error: errorMessage(e), errorBadge: problemBadge(e) });
      this.changed.fire(undefined);
      return;
    }
    // A re-read after new events is background work: user actions go first.
    const options = fresh ? { fresh: true, priority: 'background' as const } : {};
    await Promise.all(
      addresses.map(async (a) => {
        try {
          const state = await client.getContractState(a, options);
          this.states.set(a, { ...this.states.get(a), state, loading: undefined });
          delete this.states.get(a)!.error;
          delete this.states.get(a)!.errorBadge;
        } catch (e) {
          this.states.set(a, { error: errorMessage(e), errorBadge: problemBadge(e) });
        }
      }),
    );
    await this.readGetters(client, addresses);
    this.changed.fire(undefined);
  }

  /**
   * Zero-argument methods with returns (getters) read through multicall: one request for up to 20
   * calls, which matters on a 5 requests/s plan. The artifact does not say which methods are public,
   * so a getter the node refuses is simply left out (and logged).
   */
  private async readGetters(client: GatewayClient, addresses: readonly string[]): Promise<void> {
    const registry = await this.deps.registry();
    const calls: { address: string; name: string; type: string; methodIndex: number; group: number }[] = [];
    for (const a of addresses) {
      const w = this.list.find((x) => x.address === a);
      const entry = this.states.get(a);
      if (!w || !entry?.state) continue;
      const resolved = resolveWatched(registry, w, entry.state.codeHash, this.deps.network());
      // Calling by index into a drifted artifact would call some other method.
      if (!resolved.artifact || resolved.drift.status === 'drift') continue;
      resolved.artifact.functions.forEach((fn, methodIndex) => {
        if (fn.paramTypes.length === 0 && fn.returnTypes.length === 1)
          calls.push({ address: a, name: fn.name, type: fn.returnTypes[0]!, methodIndex, group: w.group });
      });
    }
    if (calls.length === 0) return;
    const outcomes = await callContracts(
      client,
      calls.map((c) => ({ address: c.address, group: c.group, methodIndex: c.methodIndex, args: [] })),
    );
    const byAddress = new Map<string, { name: string; value: string; type: string }[]>();
    outcomes.forEach((o, i) => {
      const c = calls[i]!;
      if (!o.ok) {
        this.deps.log.debug(`getter ${c.name} of ${c.address}: ${errorMessage(o.error)}`);
        return;
      }
      const v = o.result.returns[0];
      const value =
        v === undefined
          ? ''
          : typeof v.value === 'string' || typeof v.value === 'boolean'
            ? String(v.value)
            : JSON.stringify(v.value);
      const list = byAddress.get(c.address) ?? [];
      list.push({ name: c.name, value, type: c.type });
      byAddress.set(c.address, list);
    });
    for (const a of addresses) {
      const entry = this.states.get(a);
      if (entry) entry.getters = byAddress.get(a) ?? [];
    }
  }

  private feed(address: string): EventFeed<ContractEvent> {
    let f = this.feeds.get(address);
    if (!f) {
      f = new EventFeed<ContractEvent>(address);
      this.feeds.set(address, f);
    }
    return f;
  }

  /** The latest page of events (start = count - pageSize), paged with nextStart up to the count. */
  loadLatestEvents(address: string): Promise<void> {
    const running = this.feedLoads.get(address);
    if (running) return running;
    const run = (async () => {
      try {
        const client = this.requireClient();
        const count = await client.getContractEventCount(address);
        const start = Math.max(0, count - this.deps.pageSize());
        const slice = await fetchEventsFrom(client, address, start, {
          until: count,
          pageSize: this.deps.pageSize(),
        });
        this.feed(address).setLatest({
          events: slice.events,
          nextStart: Math.max(slice.nextStart, start),
          count,
          start,
        });
        this.feedErrors.delete(address);
      } catch (e) {
        this.feedErrors.set(address, errorMessage(e));
      } finally {
        this.feedLoads.delete(address);
        this.changed.fire(undefined);
      }
    })();
    this.feedLoads.set(address, run);
    return run;
  }

  /** "Load more…": the window of offsets before the oldest loaded one. A load in progress is reused. */
  loadMore(address: string): Promise<number> {
    const running = this.feedLoads.get(address);
    if (running) return running.then(() => 0);
    const f = this.feed(address);
    if (!f.loaded) return this.loadLatestEvents(address).then(() => f.size);
    const end = f.olderEnd;
    if (end === undefined) return Promise.resolve(0);
    let added = 0;
    const run = (async () => {
      try {
        const client = this.requireClient();
        const { start, until } = olderWindow(end, this.deps.pageSize());
        const slice = await fetchEventsFrom(client, address, start, {
          until,
          pageSize: this.deps.pageSize(),
        });
        added = f.addOlder(slice.events, start);
      } catch (e) {
        this.feedErrors.set(address, errorMessage(e));
      } finally {
        this.feedLoads.delete(address);
        this.changed.fire(undefined);
      }
    })();
    this.feedLoads.set(address, run);
    return run.then(() => added);
  }

  /**
   * A user refresh of one loaded feed: reads current-count and fetches from the feed's nextStart only
   * if it grew (the same rule as polling, at user priority).
   */
  async refreshEvents(address: string): Promise<number> {
    const f = this.feeds.get(address);
    if (!f?.loaded) return 0;
    await this.feedLoads.get(address);
    const client = this.requireClient();
    const count = await client.getContractEventCount(address);
    if (count <= (f.count ?? 0)) return 0;
    const slice = await fetchEventsFrom(client, address, f.nextStart ?? 0, { until: count, pageSize: 100 });
    const added = f.addNewer(slice.events, { nextStart: slice.nextStart, count });
    this.changed.fire(undefined);
    return added;
  }

  /**
   * Events from the watcher (each once): shown at once in a loaded feed. New events mean the contract's
   * state may have changed, so a state that is shown is read again (one state read and one getters
   * multicall per growth, at background priority), or the view would show an event beside the old state.
   */
  addWatcherEvents(address: string, events: readonly ContractEvent[]): void {
    if (events.length === 0) return;
    const f = this.feeds.get(address);
    if (f?.loaded && f.addNewer(events) > 0) this.changed.fire(undefined);
    if (this.states.get(address)?.state) void this.loadStates([address], true);
  }

  // ---- TreeDataProvider --------------------------------------------------------------------------------

  getTreeItem(n: ContractNode): vscode.TreeItem {
    switch (n.kind) {
      case 'contract': {
        const row = this.contractRowOf(n.address);
        const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.Collapsed);
        return this.decorate(
          item,
          n.id,
          row,
          this.isDrift(n.address) ? ContextValues.contractDrift : ContextValues.contract,
        );
      }
      case 'state':
        return this.decorate(
          new vscode.TreeItem('State', vscode.TreeItemCollapsibleState.Collapsed),
          n.id,
          { label: 'State', icon: 'symbol-field' },
          ContextValues.state,
        );
      case 'events': {
        const f = this.feeds.get(n.address);
        const header = f?.loaded ? eventsHeader(f.size, f.count) : undefined;
        const item = new vscode.TreeItem('Events', vscode.TreeItemCollapsibleState.Collapsed);
        return this.decorate(
          item,
          n.id,
          { label: 'Events', icon: 'symbol-event', ...header },
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
          n.row.fields.length
            ? vscode.TreeItemCollapsibleState.Collapsed
            : vscode.TreeItemCollapsibleState.None,
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
    return item;
  }

  private isDrift(address: string): boolean {
    const w = this.list.find((x) => x.address === address);
    if (!w) return false;
    const entry = this.states.get(address);
    return (
      resolveWatched(this.registryNow, w, entry?.state?.codeHash, this.deps.network()).drift.status ===
      'drift'
    );
  }

  private get registryNow(): ArtifactRegistry {
    return this.deps.latestRegistry();
  }

  private contractRowOf(address: string): Row {
    const w = this.list.find((x) => x.address === address) ?? { address, group: 0 };
    const entry = this.states.get(address);
    const resolved = resolveWatched(this.registryNow, w, entry?.state?.codeHash, this.deps.network());
    return contractRow({
      watched: w,
      resolved,
      codeHash: entry?.state?.codeHash,
      ...(entry?.error !== undefined ? { error: entry.error } : {}),
      ...(entry?.errorBadge !== undefined ? { errorBadge: entry.errorBadge } : {}),
    });
  }

  async getChildren(n?: ContractNode): Promise<ContractNode[]> {
    await this.deps.registry();
    if (!n) {
      // Listing contracts reads their state in the background: its code hash decides the drift badge.
      void this.loadStates(this.list.map((w) => w.address));
      return this.list.map((w) =>
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

  private message(id: string, label: string, tooltip?: string, icon = 'info'): ContractNode {
    return this.node({
      kind: 'message',
      id,
      row: { label, ...(tooltip ? { tooltip, description: '' } : {}), icon },
    });
  }

  private async stateChildren(n: Extract<ContractNode, { kind: 'state' }>): Promise<ContractNode[]> {
    await this.loadStates([n.address]);
    const entry = this.states.get(n.address);
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
    const resolved = await this.resolved(n.address);
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
    const f = this.feed(n.address);
    await Promise.all([
      this.loadStates([n.address]),
      f.loaded ? undefined : this.loadLatestEvents(n.address),
    ]);
    const error = this.feedErrors.get(n.address);
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
    const resolved = await this.resolved(n.address);
    const out: ContractNode[] = [];
    if (error) out.push(this.message(`${n.id}/error`, `⚠ ${error}`, error, 'warning'));
    if (f.size === 0) out.push(this.message(`${n.id}/empty`, 'No events yet'));
    for (const item of f.items()) {
      const row = eventRow(item.event, resolved?.artifact, {
        registry: this.registryNow,
        ...(resolved?.drift ? { drift: resolved.drift } : {}),
      });
      out.push(this.node({ kind: 'event', id: item.id, address: n.address, row }));
    }
    if (f.hasOlder) out.push(this.node({ kind: 'loadMore', id: `${n.id}/more`, address: n.address }));
    return out;
  }

  // ---- read-only view for tests and the API ---------------------------------------------------------

  /** The rendered tree with State and Events expanded (labels and descriptions only). */
  async snapshot(): Promise<ContractSnapshot[]> {
    const out: ContractSnapshot[] = [];
    for (const c of await this.getChildren()) {
      await this.loadStates([(c as { address: string }).address]);
      const item = this.getTreeItem(c);
      const [stateNode, eventsNode] = await this.getChildren(c);
      const render = async (x: ContractNode | undefined) =>
        x
          ? (await this.getChildren(x)).map((k) => {
              const t = this.getTreeItem(k);
              return {
                label: String(t.label),
                description: String(t.description ?? ''),
                contextValue: t.contextValue ?? '',
              };
            })
          : [];
      out.push({
        address: (c as { address: string }).address,
        label: String(item.label),
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
