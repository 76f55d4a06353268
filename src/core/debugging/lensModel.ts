/**
 * What the CodeLenses on a `.ral` file say, computed from data the extension already holds: the
 * deployments file, the watch list with its loaded states, the loaded event feeds and the watcher's
 * deliveries. Nothing here sends a request, which is what lets lenses cost nothing while a file is shown
 * and nothing at all while it is not.
 */
import type { ArtifactRegistry, ContractArtifact, DriftCheck } from '../artifacts';
import type { RalphDecl, RalphScan } from '../ralph/scanner';
import { ageChangesAt, ageWords } from '../text/age';
import { gasLens, type GasMemory } from './gasMemory';

/** A contract instance the lenses talk about. */
export interface Instance {
  readonly address: string;
  readonly group?: number;
  /** Where it is known from: the deployments file, the watch list, or both. */
  readonly deployed: boolean;
  readonly watched: boolean;
  readonly drift?: DriftCheck;
}

/** An event the extension has seen (from a loaded feed or the watcher), enough to count and date it. */
export interface SeenEvent {
  readonly txId: string;
  readonly eventIndex: number;
  readonly timestamp?: number;
  /** Distinguishes identical emits in one transaction; the feed's key when it has one. */
  readonly key?: string;
}

/** The events a watched contract's lenses count, and where they come from (the tooltip says which). */
export interface SeenEvents {
  readonly events: readonly SeenEvent[];
  /** `listed`: the events the Watched Contracts view lists; `delivered`: only what the watcher brought. */
  readonly from: 'listed' | 'delivered';
}

/** An event as the Watched Contracts view lists it (its feed's id and the event). */
export interface ListedEvent {
  readonly id: string;
  readonly event: { readonly txId: string; readonly eventIndex: number; readonly timestamp?: number };
}

/**
 * What the lenses count for a watched contract: the very events its Events node lists, when that list is
 * loaded, so a lens never says fewer (or more) than the rows beside it; otherwise the watcher's
 * deliveries of this session (the list, once opened, holds them too).
 */
export function seenEventsOf(
  listed: readonly ListedEvent[] | undefined,
  delivered: readonly SeenEvent[],
): SeenEvents {
  if (listed === undefined) return { events: delivered, from: 'delivered' };
  return {
    events: listed.map((i) => ({
      txId: i.event.txId,
      eventIndex: i.event.eventIndex,
      key: i.id,
      ...(i.event.timestamp !== undefined ? { timestamp: i.event.timestamp } : {}),
    })),
    from: 'listed',
  };
}

export interface LensData {
  readonly registry: ArtifactRegistry;
  readonly network: string | undefined;
  /** Instances of an artifact: deployments of the network and watched contracts it describes. */
  instancesOf(artifact: ContractArtifact): Instance[];
  /** Events seen for a watched address (empty when none were loaded or delivered). */
  seenEvents(address: string): readonly SeenEvent[] | SeenEvents;
  /** What each method cost when it last ran (core/debugging/gasMemory.ts); no gas lenses without it. */
  readonly gas?: Pick<GasMemory, 'latest' | 'before'>;
}

export type LensCommand =
  | { readonly kind: 'watch'; readonly address: string; readonly name: string }
  | { readonly kind: 'showEvents'; readonly address: string }
  /**
   * `candidates`: with several instances (or none), the addresses the picker may offer: only contracts of
   * this artifact, so a method is never looked up by name in another contract.
   */
  | {
      readonly kind: 'simulate' | 'execute' | 'debug';
      readonly address?: string;
      readonly candidates?: readonly string[];
      readonly method: string;
    }
  | { readonly kind: 'none' };

export interface Lens {
  readonly line: number;
  readonly character: number;
  readonly title: string;
  readonly tooltip?: string;
  readonly command: LensCommand;
  /** The title holds an age ("last 3 min ago"): it reads differently from this moment (ms). */
  readonly changesAt?: number;
}

function short(address: string): string {
  return address.length > 16 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

function driftWord(d: DriftCheck | undefined): string {
  if (!d) return 'code not checked';
  if (d.status === 'match') return d.debugBuild ? 'code matches (debug build)' : 'code matches';
  if (d.status === 'drift') return '⚠ code drift';
  return 'code not checked';
}

/** "2 min ago" from a timestamp, relative to `now` (the words every view uses for an age). */
export function ago(timestamp: number, now: number): string {
  return ageWords(timestamp, now);
}

/** When the first of these lenses reads differently by itself (an age moves); undefined: never. */
export function lensesChangeAt(lenses: readonly Lens[]): number | undefined {
  let next: number | undefined;
  for (const l of lenses)
    if (l.changesAt !== undefined && (next === undefined || l.changesAt < next)) next = l.changesAt;
  return next;
}

/** Counts events of one index, each once (a feed and the watcher may both hold one). */
export function tallyEvents(
  events: readonly SeenEvent[],
  eventIndex: number,
): { count: number; last: number | undefined } {
  const seen = new Set<string>();
  let last: number | undefined;
  for (const e of events) {
    if (e.eventIndex !== eventIndex) continue;
    const key = e.key ?? `${e.txId}:${e.eventIndex}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (e.timestamp !== undefined && (last === undefined || e.timestamp > last)) last = e.timestamp;
  }
  return { count: seen.size, last };
}

/** The lenses of one scanned file. `executeAvailable`: the contract actions (Execute, Debug) exist in this build. */
export function lensesFor(
  scan: RalphScan,
  data: LensData,
  options: { now: number; executeAvailable: boolean },
): Lens[] {
  const lenses: Lens[] = [];
  const at = (d: RalphDecl) => ({ line: d.span.start.line, character: d.span.start.character });
  const instancesCache = new Map<string, Instance[]>();
  const instances = (artifact: ContractArtifact) => {
    let list = instancesCache.get(artifact.name);
    if (!list) {
      list = data.instancesOf(artifact);
      instancesCache.set(artifact.name, list);
    }
    return list;
  };
  for (const d of scan.decls) {
    if (d.kind === 'contract') {
      const artifact = data.registry.byName(d.name);
      if (!artifact) continue;
      const list = instances(artifact);
      if (list.length === 0) {
        lenses.push({
          ...at(d),
          title: `not deployed${data.network ? ` on ${data.network}` : ''} (no deployment or watched instance)`,
          command: { kind: 'none' },
        });
        continue;
      }
      for (const i of list) {
        lenses.push({
          ...at(d),
          title: `${short(i.address)}${data.network ? ` · ${data.network}` : ''}${i.group !== undefined ? ` · group ${i.group}` : ''} · ${driftWord(i.drift)}`,
          tooltip: `${i.address}${i.drift ? `\n${i.drift.message}` : ''}`,
          command: i.watched ? { kind: 'showEvents', address: i.address } : { kind: 'none' },
        });
        if (!i.watched) {
          lenses.push({
            ...at(d),
            title: 'Watch',
            command: { kind: 'watch', address: i.address, name: d.name },
          });
        }
      }
      continue;
    }
    if (!d.container) continue;
    const artifact = data.registry.byName(d.container);
    if (!artifact) continue;
    if (d.kind === 'event') {
      const index = artifact.eventsSig.findIndex((e) => e.name === d.name);
      if (index < 0) continue;
      for (const i of instances(artifact).filter((x) => x.watched)) {
        const seen = data.seenEvents(i.address);
        const { events, from } = 'from' in seen ? seen : { events: seen, from: undefined };
        const { count, last } = tallyEvents(events, index);
        const where =
          instances(artifact).filter((x) => x.watched).length > 1 ? ` at ${short(i.address)}` : '';
        lenses.push({
          ...at(d),
          title:
            count === 0
              ? `no ${d.name} seen yet${where}`
              : `${count} ${d.name} seen${where}${last !== undefined ? ` · last ${ago(last, options.now)}` : ''}`,
          tooltip:
            from === 'listed'
              ? 'Counted from the events listed under Events in Watched Contracts (no extra request).'
              : from === 'delivered'
                ? "Counted from the events the watcher delivered since this window opened: open the contract's Events in Watched Contracts to count the ones listed there (no extra request)."
                : 'Counted from the events this window loaded or the watcher delivered (no extra request).',
          command: { kind: 'showEvents', address: i.address },
          ...(count > 0 && last !== undefined ? { changesAt: ageChangesAt(last, options.now) } : {}),
        });
      }
      continue;
    }
    if (d.kind === 'function' && d.isPublic && d.hasBody) {
      if (!artifact.functions.some((f) => f.name === d.name)) continue;
      const list = instances(artifact);
      const address = list.length === 1 ? list[0]!.address : undefined;
      const target = address ? { address } : { candidates: list.map((x) => x.address) };
      const gas = data.gas ? gasLens(data.gas, d.container, d.name, artifact.codeHash) : undefined;
      if (gas) lenses.push({ ...at(d), ...gas, command: { kind: 'simulate', ...target, method: d.name } });
      lenses.push({
        ...at(d),
        title: 'Simulate',
        tooltip: `Dry-run ${d.container}.${d.name} through call-contract`,
        command: { kind: 'simulate', ...target, method: d.name },
      });
      if (options.executeAvailable) {
        lenses.push({
          ...at(d),
          title: 'Execute',
          tooltip: `Sign and send ${d.container}.${d.name}`,
          command: { kind: 'execute', ...target, method: d.name },
        });
        lenses.push({
          ...at(d),
          title: 'Debug',
          tooltip: `Run ${d.container}.${d.name} in VS Code's debugger on the project's VM, from the contract's state (1 request; nothing is signed)`,
          command: { kind: 'debug', ...target, method: d.name },
        });
      }
    }
  }
  return lenses;
}
