import { getterIndexes, type ArtifactRegistry, type ResolvedContract } from '../../artifacts';
import { errorMessage } from '../../util/errors';
import { Emitter, type Disposable, type Event } from '../../util/emitter';
import {
  callContracts,
  fetchEventsFrom,
  type ContractEvent,
  type ContractState,
  type GatewayClient,
  type RequestOptions,
} from '../../gateway';
import type { Logger } from '../../util/log';
import { resolveWatched, type WatchedContract } from './watchList';
import { EventFeed, MAX_FEED_EVENTS, olderWindow } from './eventFeed';
import { problemBadge } from './rows';

/** What the model needs from its host: the client, the artifacts and the profile's settings. */
export interface WatchedContractsModelDeps {
  readonly log: Logger;
  client(): GatewayClient | undefined;
  registry(): Promise<ArtifactRegistry>;
  network(): string | undefined;
  pageSize(): number;
  /** The clock (tests move it); default Date.now. */
  now?(): number;
}

/** A look at data older than this reads it again (the person is waiting for it now). */
export const LOOK_STALE_MS = 30_000;

export interface StateEntry {
  state?: ContractState;
  /** Results of the contract's zero-argument getters (through one multicall). */
  getters?: { name: string; value: string; type: string }[];
  error?: string;
  errorBadge?: string;
  loading?: Promise<void>;
  /** When the read under way (`loading`) was asked for (the model's order, as `askedAt`). */
  pendingSince?: number;
  /** When the state shown was read (ms): the view says its age once it is not fresh. */
  readAt?: number;
  /**
   * When the request that read it was made, on the model's own order of events (not a clock, which
   * may stand still between two steps): the state reflects every event the model had received by
   * then, and may miss any received after (see {@link WatchedContractsModel.stateBehindEvents}).
   */
  askedAt?: number;
}

/** What the model holds of one connection while another is active: its states and loaded feeds. */
interface HeldData {
  readonly states: Map<string, StateEntry>;
  readonly feeds: Map<string, EventFeed<ContractEvent>>;
  readonly feedCheckedAt: Map<string, number>;
  readonly eventsArrivedAt: Map<string, number>;
}

/** How many other connections' data is kept for a switch back (the oldest is let go first). */
export const HELD_SCOPES = 4;

/**
 * The data of the Watched Contracts view, as one observable model (no VS Code): the watch list, each
 * contract's state and getters, its event feed (newest first, Load more with the server's cursors) and
 * the watcher's deliveries. New events re-read the state, so what is shown never disagrees with itself.
 * `onDidChange` fires after every change; the tree maps the model and re-renders.
 */
export class WatchedContractsModel implements Disposable {
  private readonly changed = new Emitter<undefined>();
  readonly onDidChange: Event<undefined> = this.changed.event;
  private list: WatchedContract[] = [];
  private readonly states = new Map<string, StateEntry>();
  private readonly feeds = new Map<string, EventFeed<ContractEvent>>();
  private readonly feedLoads = new Map<string, Promise<void>>();
  private readonly feedErrors = new Map<string, string>();
  /** When each loaded feed was last known to hold every event up to the contract's count (ms). */
  private readonly feedCheckedAt = new Map<string, number>();
  /** When events newer than any the model held last arrived for a contract (the model's order). */
  private readonly eventsArrivedAt = new Map<string, number>();
  /** The model's order of reads and arrivals: each step takes the next number. */
  private order = 0;
  /** The connection whose data the maps hold (a profile on its origin and network). */
  private scope: string | undefined;
  /** Other connections' data, by scope, most recently left last. */
  private readonly held = new Map<string, HeldData>();
  /**
   * Moves on every scope change or reset: a read that started before writes nothing, so an answer
   * from another profile's gateway never lands in this one's view.
   */
  private epoch = 0;

  constructor(private readonly deps: WatchedContractsModelDeps) {}

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /** When the events listed were last known complete (a load, a refresh, a watcher delivery or check). */
  eventsCheckedAt(address: string): number | undefined {
    return this.feeds.get(address)?.loaded ? this.feedCheckedAt.get(address) : undefined;
  }

  /**
   * The watcher read the contract's count and found nothing new (or delivered what was): a loaded feed
   * is complete as of now. (Its glue forwards `EventWatcher.onPolled` here.)
   */
  watcherChecked(address: string, count: number): void {
    const f = this.feeds.get(address);
    if (!f?.loaded || count > (f.count ?? 0)) return;
    this.feedCheckedAt.set(address, this.now());
    this.changed.fire(undefined);
  }

  /**
   * A person looks at a contract's State or Events (expanded it, came back to the window): what is
   * older than {@link LOOK_STALE_MS} is read again now, at the user's priority. Fresh data costs nothing.
   */
  async looked(address: string, part: 'state' | 'events'): Promise<void> {
    if (!this.list.some((w) => w.address === address)) return;
    const now = this.now();
    const old = (at: number | undefined) => at === undefined || now - at >= LOOK_STALE_MS;
    if (part === 'state') {
      const entry = this.states.get(address);
      if (entry?.state && !entry.loading && old(entry.readAt)) await this.loadStates([address], true, 'user');
      return;
    }
    if (
      this.feeds.get(address)?.loaded &&
      !this.feedLoads.has(address) &&
      old(this.feedCheckedAt.get(address))
    )
      await this.refreshEvents(address).catch((e: unknown) => {
        this.feedErrors.set(address, errorMessage(e));
        this.changed.fire(undefined);
      });
  }

  /**
   * Another view read the contract's event count (Show Latest Events): when it is ahead of a loaded
   * feed, the feed reads the events it misses from its own cursor, so the two never disagree.
   */
  async noteEventCount(address: string, count: number): Promise<void> {
    const f = this.feeds.get(address);
    if (!f?.loaded || count <= (f.count ?? 0)) return;
    await this.refreshEvents(address, count).catch((e: unknown) => {
      this.feedErrors.set(address, errorMessage(e));
      this.changed.fire(undefined);
    });
  }

  stateOf(address: string): StateEntry | undefined {
    return this.states.get(address);
  }

  /**
   * The state shown was asked for before the newest events arrived, so it may not include them yet:
   * the row says so until the re-read those events started has answered.
   */
  stateBehindEvents(address: string): boolean {
    const entry = this.states.get(address);
    const arrived = this.eventsArrivedAt.get(address);
    return entry?.state !== undefined && arrived !== undefined && (entry.askedAt ?? -1) < arrived;
  }

  /**
   * Events newer than any held arrived (a first load, a refresh, the watcher): a state that is shown
   * and was asked for before them is read again (one state read and one getters multicall, in the
   * background), so State never stays older than the Events beside it.
   */
  private eventsArrived(address: string): void {
    const at = ++this.order;
    this.eventsArrivedAt.set(address, at);
    const entry = this.states.get(address);
    // A read under way was asked for before these events: it may miss them, so one more is asked for
    // (the client joins it to an identical request that is not sent yet, so a queue costs nothing).
    if (entry?.state || entry?.loading) void this.loadStates([address], true);
  }

  /** The feed of a contract, created empty (not loaded) on first use. */
  feed(address: string): EventFeed<ContractEvent> {
    let f = this.feeds.get(address);
    if (!f) {
      f = new EventFeed<ContractEvent>(address);
      this.feeds.set(address, f);
    }
    return f;
  }

  feedIfAny(address: string): EventFeed<ContractEvent> | undefined {
    return this.feeds.get(address);
  }

  feedError(address: string): string | undefined {
    return this.feedErrors.get(address);
  }

  /** Something outside the data changed (the artifacts): listeners re-render from what is held. */
  touch(): void {
    this.changed.fire(undefined);
  }

  dispose(): void {
    this.changed.dispose();
  }

  private get maps(): Map<string, unknown>[] {
    return [
      this.states,
      this.feeds,
      this.feedLoads,
      this.feedErrors,
      this.feedCheckedAt,
      this.eventsArrivedAt,
    ] as Map<string, unknown>[];
  }

  /** The watch list changed (add, remove, profile switch): forget data of contracts no longer listed. */
  setList(list: readonly WatchedContract[]): void {
    this.list = [...list];
    const keep = new Set(list.map((w) => w.address));
    for (const map of this.maps) for (const k of [...map.keys()]) if (!keep.has(k)) map.delete(k);
    this.changed.fire(undefined);
  }

  /**
   * The connection is now `scope` (a profile on its origin and network; undefined: none). The same
   * scope keeps everything (a new API key changes no figure on chain). Another scope puts this one's
   * states and loaded feeds aside and shows what was kept of the new one, if it was active before:
   * a switch away and back shows the same contracts, artifacts and events at once, each with the age
   * it was read at, and the watcher (whose cursors persist per profile) brings what happened since.
   */
  useScope(scope: string | undefined): void {
    if (scope === this.scope) return;
    if (this.scope !== undefined) this.hold(this.scope);
    this.clearData();
    const back = scope === undefined ? undefined : this.held.get(scope);
    if (scope !== undefined) this.held.delete(scope);
    if (back) {
      for (const [a, entry] of back.states) this.states.set(a, entry);
      for (const [a, feed] of back.feeds) this.feeds.set(a, feed);
      for (const [a, at] of back.feedCheckedAt) this.feedCheckedAt.set(a, at);
      for (const [a, at] of back.eventsArrivedAt) this.eventsArrivedAt.set(a, at);
    }
    this.scope = scope;
    this.changed.fire(undefined);
  }

  /** Keeps what is complete of the current scope: read states and loaded feeds, not loads under way. */
  private hold(scope: string): void {
    const states = new Map<string, StateEntry>();
    for (const [a, entry] of this.states) {
      if (!entry.state) continue;
      const { loading: _loading, pendingSince: _pending, ...kept } = entry;
      states.set(a, kept);
    }
    const feeds = new Map([...this.feeds].filter(([, f]) => f.loaded));
    this.held.delete(scope);
    this.held.set(scope, {
      states,
      feeds,
      feedCheckedAt: new Map(this.feedCheckedAt),
      eventsArrivedAt: new Map(this.eventsArrivedAt),
    });
    while (this.held.size > HELD_SCOPES) this.held.delete(this.held.keys().next().value!);
  }

  private clearData(): void {
    this.epoch++;
    for (const map of this.maps) map.clear();
  }

  get watched(): readonly WatchedContract[] {
    return this.list;
  }

  /** Everything cached is dropped, also what was kept of other scopes: the next render reads afresh. */
  resetData(): void {
    this.clearData();
    this.held.clear();
    this.changed.fire(undefined);
  }

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

  /**
   * Loads (or reloads, with `fresh`) the state and getters of some contracts; getters share multicalls.
   * A fresh read is background work unless a person is looking at it (`priority: 'user'`).
   */
  loadStates(
    addresses: readonly string[],
    fresh = false,
    priority: 'user' | 'background' = fresh ? 'background' : 'user',
  ): Promise<void> {
    const todo = addresses.filter(
      (a) => fresh || (!this.states.get(a)?.state && !this.states.get(a)?.loading),
    );
    const pending = addresses.map((a) => this.states.get(a)?.loading).filter((p): p is Promise<void> => !!p);
    if (todo.length === 0) return Promise.all(pending).then(() => undefined);
    const askedAt = ++this.order;
    const own: { run?: Promise<void> } = {};
    const run = this.readStates(todo, fresh, priority, askedAt, own);
    own.run = run;
    for (const a of todo) this.states.set(a, { ...this.states.get(a), loading: run, pendingSince: askedAt });
    return Promise.all([run, ...pending]).then(() => undefined);
  }

  /**
   * Takes one contract's answer, unless the scope changed since it was asked (another profile's
   * gateway answered) or a read asked for later already answered (two reads crossed on the way).
   */
  private settleState(
    address: string,
    read: { state: ContractState } | { error: unknown },
    askedAt: number,
    own: { run?: Promise<void> },
  ): boolean {
    const next: StateEntry = { ...this.states.get(address) };
    // Another read started later still runs: its mark stays.
    if (next.loading === own.run) {
      delete next.loading;
      delete next.pendingSince;
    }
    if (next.state && (next.askedAt ?? -1) > askedAt) {
      this.states.set(address, next);
      return false;
    }
    if ('state' in read) {
      delete next.error;
      delete next.errorBadge;
      this.states.set(address, { ...next, state: read.state, readAt: this.now(), askedAt });
    } else {
      const { loading, pendingSince } = next;
      this.states.set(address, {
        ...(loading ? { loading } : {}),
        ...(pendingSince !== undefined ? { pendingSince } : {}),
        error: errorMessage(read.error),
        errorBadge: problemBadge(read.error),
      });
    }
    return true;
  }

  private async readStates(
    addresses: readonly string[],
    fresh: boolean,
    priority: 'user' | 'background',
    askedAt: number,
    own: { run?: Promise<void> },
  ): Promise<void> {
    const epoch = this.epoch;
    let client: GatewayClient;
    try {
      client = this.requireClient();
    } catch (e) {
      for (const a of addresses) this.states.set(a, { error: errorMessage(e), errorBadge: problemBadge(e) });
      this.changed.fire(undefined);
      return;
    }
    // A re-read after new events, or the listing's read for drift badges, is background work: user
    // actions go first (and it does not colour the status bar as if the user had sent it). The ledger
    // counts it for the watched contracts (a user-priority read counts as the user's).
    const options: RequestOptions = { ...(fresh ? { fresh: true } : {}), priority, purpose: 'contracts' };
    const taken = await Promise.all(
      addresses.map(async (a) => {
        const read = await client.getContractState(a, options).then(
          (state) => ({ state }),
          (error: unknown) => ({ error }),
        );
        return epoch === this.epoch && this.settleState(a, read, askedAt, own) ? [a] : [];
      }),
    );
    if (epoch !== this.epoch) return;
    // The getters go with the state they belong to: a background re-read's multicall is background too.
    await this.readGetters(client, taken.flat(), options, { epoch, askedAt });
    if (epoch === this.epoch) this.changed.fire(undefined);
  }

  /**
   * Zero-argument methods with returns (getters) read through multicall: one request for up to 20
   * calls, which matters on a 5 requests/s plan. The artifact does not say which methods are public,
   * so a getter the node refuses is simply left out (and logged).
   */
  private async readGetters(
    client: GatewayClient,
    addresses: readonly string[],
    options: RequestOptions,
    read: { epoch: number; askedAt: number },
  ): Promise<void> {
    const registry = await this.deps.registry();
    const calls: { address: string; name: string; type: string; methodIndex: number; group: number }[] = [];
    for (const a of addresses) {
      const w = this.list.find((x) => x.address === a);
      const entry = this.states.get(a);
      if (!w || !entry?.state) continue;
      const resolved = resolveWatched(registry, w, entry.state.codeHash, this.deps.network());
      // Calling by index into a drifted artifact would call some other method.
      if (!resolved.artifact || resolved.drift.status === 'drift') continue;
      for (const methodIndex of getterIndexes(resolved.artifact)) {
        const fn = resolved.artifact.functions[methodIndex]!;
        calls.push({ address: a, name: fn.name, type: fn.returnTypes[0]!, methodIndex, group: w.group });
      }
    }
    if (calls.length === 0) return;
    const outcomes = await callContracts(
      client,
      calls.map((c) => ({ address: c.address, group: c.group, methodIndex: c.methodIndex, args: [] })),
      options,
    );
    if (read.epoch !== this.epoch) return;
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
      // Getters go with the state they were read with, never beside a state read later.
      if (entry?.askedAt === read.askedAt) entry.getters = byAddress.get(a) ?? [];
    }
  }

  /** The latest page of events (start = count - pageSize), paged with nextStart up to the count. */
  loadLatestEvents(address: string): Promise<void> {
    const running = this.feedLoads.get(address);
    if (running) return running;
    const epoch = this.epoch;
    const run = (async () => {
      try {
        const client = this.requireClient();
        const count = await client.getContractEventCount(address);
        const start = Math.max(0, count - this.deps.pageSize());
        // A window of n offsets holds at most n events, however the server pages it.
        const slice = await fetchEventsFrom(client, address, start, {
          until: count,
          pageSize: this.deps.pageSize(),
          maxEvents: Math.max(1, count - start),
        });
        if (epoch !== this.epoch) return;
        this.feed(address).setLatest({
          events: slice.events,
          nextStart: Math.max(slice.nextStart, start),
          count,
          start,
        });
        this.feedCheckedAt.set(address, this.now());
        this.feedErrors.delete(address);
        if (slice.events.length > 0) this.eventsArrived(address);
      } catch (e) {
        if (epoch === this.epoch) this.feedErrors.set(address, errorMessage(e));
      } finally {
        if (epoch === this.epoch) {
          this.feedLoads.delete(address);
          this.changed.fire(undefined);
        }
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
    const epoch = this.epoch;
    const run = (async () => {
      try {
        const client = this.requireClient();
        const { start, until } = olderWindow(end, this.deps.pageSize());
        const slice = await fetchEventsFrom(client, address, start, {
          until,
          pageSize: this.deps.pageSize(),
          maxEvents: Math.max(1, until - start),
        });
        // A feed put aside by a profile switch still takes its page: it is that profile's.
        added = f.addOlder(slice.events, start);
      } catch (e) {
        if (epoch === this.epoch) this.feedErrors.set(address, errorMessage(e));
      } finally {
        if (epoch === this.epoch) {
          this.feedLoads.delete(address);
          this.changed.fire(undefined);
        }
      }
    })();
    this.feedLoads.set(address, run);
    return run.then(() => added);
  }

  /**
   * A user refresh of one loaded feed: reads current-count and fetches from the feed's nextStart only
   * if it grew (the same rule as polling, at user priority). At most a feed's worth of events is read;
   * when more are waiting, the count is not taken, so the next refresh continues from the cursor.
   */
  async refreshEvents(address: string, knownCount?: number): Promise<number> {
    const f = this.feeds.get(address);
    if (!f?.loaded) return 0;
    await this.feedLoads.get(address);
    const epoch = this.epoch;
    const client = this.requireClient();
    const count = knownCount ?? (await client.getContractEventCount(address));
    const checkedAt = this.now();
    if (epoch !== this.epoch) return 0;
    if (count <= (f.count ?? 0)) {
      this.feedCheckedAt.set(address, checkedAt);
      this.changed.fire(undefined);
      return 0;
    }
    const slice = await fetchEventsFrom(client, address, f.nextStart ?? 0, {
      until: count,
      pageSize: 100,
      maxEvents: MAX_FEED_EVENTS,
    });
    if (epoch !== this.epoch) return 0;
    const complete = slice.nextStart >= count || slice.events.length < MAX_FEED_EVENTS;
    const added = f.addNewer(slice.events, { nextStart: slice.nextStart, ...(complete ? { count } : {}) });
    if (complete) this.feedCheckedAt.set(address, checkedAt);
    // New events may have changed the state shown beside them.
    if (added > 0) this.eventsArrived(address);
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
    // The watcher delivers everything up to the count it just read: the feed is complete as of now.
    if (f?.loaded) this.feedCheckedAt.set(address, this.now());
    if (f?.loaded && f.addNewer(events) > 0) this.changed.fire(undefined);
    this.eventsArrived(address);
  }
}
