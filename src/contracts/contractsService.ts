/**
 * The contracts feature's service, which the tree, the panel, the commands, the actions and debugging
 * receive by name: the watch list of the active profile (persisted per workspace and profile), the model
 * of their state and events (core WatchedContractsModel), the background watcher, which artifact
 * describes an address (one rule for every view) and events named with it.
 */
import type * as vscode from 'vscode';
import {
  decodeEvent,
  type ArtifactRegistry,
  type ContractArtifact,
  type DecodedEvent,
  type DriftCheck,
  type EventLike,
  type ResolvedContract,
} from '../core/artifacts';
import type { ArtifactLookup } from '../core/contracts/actions';
import type { ContractEvent } from '../core/gateway';
import { GasMemory, type GasRecord } from '../core/debugging/gasMemory';
import { WatchedContractsModel } from '../core/contracts/watching/watchedContractsModel';
import {
  addToWatchList,
  makeWatched,
  parseWatchList,
  removeFromWatchList,
  resolveWatched,
  type WatchedContract,
} from '../core/contracts/watching/watchList';
import { shortAddress } from '../core/contracts/watching/rows';
import type { Inert } from '../core/text/inert';
import { StorageKeys } from '../constants';
import * as config from '../platform/config';
import { originOf } from '../platform/connection';
import { DisposableBase } from '../platform/lifecycle';
import { argString, pickContract } from '../platform/prompts';
import { EventWatch, type DeliveredEvent } from './eventWatch';
import type { WorkspaceArtifacts } from './workspaceArtifacts';
import type { Services } from '../services';

export type { WatchedContract } from '../core/contracts/watching/watchList';
export type { DeliveredEvent } from './eventWatch';

/**
 * What the service is built from: the one artifacts service (also behind the tx details webview's event names),
 * and the workspace's state, where the watch list and the watcher's cursors are kept.
 */
export type ContractsServiceDeps = Pick<Services, 'log' | 'connection' | 'artifacts' | 'workspaceState'>;

/** Names events the way the Watched Contracts view does. */
export type EventDecoder = (event: EventLike & { contractAddress: string }) => DecodedEvent;

export class ContractsService extends DisposableBase {
  /** The watched contracts' state and events; the tree maps it, the lenses count from it. */
  readonly model: WatchedContractsModel;
  readonly artifacts: WorkspaceArtifacts;
  /**
   * What each method cost when it last ran (Simulate, Call, Execute, the Gas Report), kept per workspace:
   * the gas lenses read it and the Gas Report re-runs the arguments it kept.
   */
  readonly gas: GasMemory;
  private readonly watch: EventWatch;

  constructor(private readonly deps: ContractsServiceDeps) {
    super();
    const { connection, artifacts, log } = deps;
    this.artifacts = artifacts;
    const state = deps.workspaceState;
    this.gas = this.register(
      new GasMemory({
        load: () => state.get(StorageKeys.gasMemory),
        save: (records) => void state.update(StorageKeys.gasMemory, records),
      }),
    );
    this.model = this.register(
      new WatchedContractsModel({
        log,
        client: () => connection.state.client,
        registry: () => artifacts.registry(),
        network: () => this.network,
        pageSize: () => config.eventPageSize(),
      }),
    );
    this.watch = this.register(new EventWatch(connection, deps.workspaceState, this.model, log));
    // New artifacts rename contracts and recompute drift from what is cached.
    this.register(artifacts.onDidChange(() => this.model.touch()));
    this.register(connection.onDidChange(() => this.connectionChanged()));
    // The list is read now (cheap, local); the watcher starts only if a client can be built, and the
    // client is built lazily by the connection, so activation sends no request.
    this.model.useScope(this.scopeNow());
    this.model.setList(this.readList());
    if (this.model.watched.length > 0) this.watch.rebuild();
  }

  get watched(): readonly WatchedContract[] {
    return this.model.watched;
  }

  /** The active profile's network: it chooses the deployments file. */
  get network(): string | undefined {
    return this.deps.connection.profile?.network;
  }

  /** Fires when the workspace's artifacts change (forms and lenses follow). */
  get onDidChangeArtifacts(): vscode.Event<ArtifactRegistry> {
    return this.artifacts.onDidChange;
  }

  /** Every batch the watcher delivered, loaded feed or not (the `.ral` lenses count from it). */
  get onWatcherEvents(): vscode.Event<{ address: string; events: readonly ContractEvent[] }> {
    return this.watch.onWatcherEvents;
  }

  /** Events the background watcher delivered in this session, in order (each should appear once). */
  get deliveredEvents(): readonly DeliveredEvent[] {
    return this.watch.deliveredEvents;
  }

  registry(): Promise<ArtifactRegistry> {
    return this.artifacts.registry();
  }

  // ---- the watch list ----------------------------------------------------------------------------------

  private get profileName(): string | undefined {
    return this.deps.connection.profile?.name;
  }

  private readList(): WatchedContract[] {
    const name = this.profileName;
    return name ? parseWatchList(this.deps.workspaceState.get(StorageKeys.watchList(name))) : [];
  }

  private async saveList(list: WatchedContract[]): Promise<void> {
    const name = this.profileName;
    if (!name) throw new Error('No gateway profile is active. Run "Alephium: Add Profile".');
    await this.deps.workspaceState.update(StorageKeys.watchList(name), list);
    this.model.setList(list);
  }

  /** Adds (or updates) a watched contract and starts watching its events. */
  async add(entry: WatchedContract): Promise<void> {
    await this.saveList(addToWatchList(this.readList(), entry));
    this.watch.watch(entry.address);
  }

  /** Stops watching a contract and forgets its cursor. */
  async remove(address: string): Promise<void> {
    await this.saveList(removeFromWatchList(this.readList(), address));
    await this.watch.unwatch(address);
  }

  /**
   * What the model's data belongs to: a profile's name, where its requests go and its network. A new
   * key or proxy changes none of these (nothing read is stale); a profile whose URL or network changed
   * under the same name is another chain, read afresh.
   */
  private scopeNow(): string | undefined {
    const profile = this.deps.connection.profile;
    return profile ? JSON.stringify([profile.name, originOf(profile), profile.network]) : undefined;
  }

  private connectionChanged(): void {
    // Another profile means another watch list and, possibly, another chain: its data is put aside and
    // what was kept of the new one shows again (a switch away and back loses nothing it had read).
    this.model.useScope(this.scopeNow());
    this.model.setList(this.readList());
    this.watch.rebuild();
  }

  /** Remembers what a method cost in a run that succeeded (the lenses refresh from `gas.onDidChange`). */
  rememberGas(run: Omit<GasRecord, 'at'>): void {
    try {
      this.gas.record({ ...run, at: Date.now() });
    } catch (e) {
      // A figure for the lens is never worth failing the run it came from.
      this.deps.log.warn(`Gas of ${run.contract}.${run.method} not remembered: ${String(e)}`);
    }
  }

  /** The user just changed this contract: poll it ahead of its planned turn. */
  pollSoon(address: string): void {
    this.watch.pollSoon(address);
  }

  /** The contracts whose state or events the user looks at: the watcher polls them first. */
  setLookedAt(addresses: readonly string[]): void {
    this.watch.setLookedAt(addresses);
  }

  /** The watched entry of an address, or a new one (validated) for an address that is not watched. */
  entry(address: string): WatchedContract {
    return this.watched.find((w) => w.address === address) ?? makeWatched(address);
  }

  // ---- which artifact describes a contract: one rule ---------------------------------------------------

  /**
   * Artifact and drift of any contract address: a watched contract's chosen artifact, else the
   * deployments file of the profile's network, else the on-chain code hash (by default the one its state
   * last read). Synchronous over the registry last read, for rendering.
   */
  resolvedNow(address: string, onChainCodeHash?: string): ResolvedContract {
    return this.resolveIn(this.artifacts.latest, address, onChainCodeHash);
  }

  /** {@link resolvedNow} after the workspace's artifacts were read. */
  async resolve(address: string, onChainCodeHash?: string): Promise<ResolvedContract> {
    return this.resolveIn(await this.registry(), address, onChainCodeHash);
  }

  private resolveIn(
    registry: ArtifactRegistry,
    address: string,
    onChainCodeHash: string | undefined,
  ): ResolvedContract {
    const codeHash = onChainCodeHash ?? this.model.stateOf(address)?.state?.codeHash;
    const watched = this.watched.find((w) => w.address === address);
    return watched
      ? resolveWatched(registry, watched, codeHash, this.network)
      : registry.resolve(address, codeHash, this.network);
  }

  /** Artifacts and drift of several addresses, resolved once, for decoding a listing. */
  async artifactLookup(addresses: readonly string[]): Promise<ArtifactLookup> {
    const map = new Map<string, { artifact?: ContractArtifact; drift?: DriftCheck }>();
    for (const a of new Set(addresses)) {
      const r = await this.resolve(a);
      map.set(a, { ...(r.artifact ? { artifact: r.artifact } : {}), drift: r.drift });
    }
    return (a: string) => map.get(a);
  }

  /**
   * Watched contracts are named with the artifact the view uses for them (chosen by hand, drift
   * included); any other contract with the registry's match by address. One rule for every view.
   */
  async eventDecoder(): Promise<EventDecoder> {
    const registry = await this.registry();
    const watched = await this.artifactLookup(this.watched.map((w) => w.address));
    return (event) => {
      const found = watched(event.contractAddress) ?? {
        artifact: registry.matchAddress(event.contractAddress)?.artifact,
      };
      return decodeEvent(event, found.artifact, {
        ...(found.drift ? { drift: found.drift } : {}),
        structs: registry.structs,
      });
    };
  }

  /** A watched contract as pickers name it, like the tree: its entry's name, the deployment's, the artifact's. */
  describe(w: WatchedContract, registry: ArtifactRegistry): { label: string; description: string } {
    const resolved = resolveWatched(registry, w, undefined, this.network);
    const name = w.name ?? resolved.deployment?.name ?? resolved.artifact?.name;
    return {
      label: name ?? shortAddress(w.address),
      description: `${name ? `${shortAddress(w.address)} · ` : ''}group ${w.group}`,
    };
  }
}

/** The watched contract a command's argument names (`address`), or the one the user picks from the list. */
export async function watchedOrPick(
  contracts: ContractsService,
  args: unknown,
  title: Inert,
): Promise<WatchedContract> {
  const address = argString(args, 'address');
  if (address) return contracts.entry(address);
  const registry = await contracts.registry();
  return pickContract(contracts.watched, (w) => contracts.describe(w, registry), args, title);
}
