/**
 * The model behind the Watched Contracts view, in plain Node: the persisted watch list, the event feed of
 * one contract (newest first, deduplicated, paged backwards with server cursors) and how a contract, its
 * state and its events are presented. The VS Code tree only maps these rows to TreeItems, so ordering,
 * ids, drift wording and paging are unit-tested here.
 */
import * as z from 'zod';
import {
  decodeEvent,
  decodeState,
  formatEventSummary,
  formatValue,
  type ArtifactRegistry,
  type ContractArtifact,
  type DecodedEvent,
  type DecodedField,
  type DriftCheck,
  type EventLike,
  type ResolvedContract,
} from '../artifacts';
import { addressType, attoToAlph, groupOfAddress, isValidAddress } from '../protocol';
import { isGatewayError } from '../gateway/errors';
import type { ContractState } from '../gateway/schemas';
import { codeSpan, markdownText, plainText, safeMarkdown, type SafeMarkdown } from '../text/inert';
import { RESULT_VALUE_CHARS } from '../text/resultDocument';

// ---- watch list ---------------------------------------------------------------------------------------

export interface WatchedContract {
  readonly address: string;
  readonly group: number;
  /** The name the user chose or the deployments file gave (`Counter`, `Counter:v2`). */
  readonly name?: string;
  /** The artifact chosen when the contract was added; otherwise the registry resolves it. */
  readonly artifactName?: string;
}

const WatchedSchema = z.object({
  address: z.string(),
  group: z.number().int().min(0).max(3),
  name: z.string().optional(),
  artifactName: z.string().optional(),
});

/** Why `text` is not a contract address, or undefined when it is one. Used while the user types. */
export function contractAddressProblem(text: string): string | undefined {
  const a = text.trim();
  if (!a) return 'Enter the base58 address of a deployed contract.';
  if (!isValidAddress(a)) return 'Not a valid Alephium address (base58, with a known type prefix).';
  const type = addressType(a);
  if (type !== 'P2C') return `This is a ${type} address; a contract address (P2C) is needed.`;
  return undefined;
}

export function makeWatched(address: string, extra: { name?: string; artifactName?: string } = {}) {
  const a = address.trim();
  const problem = contractAddressProblem(a);
  if (problem) throw new RangeError(problem);
  return {
    address: a,
    group: groupOfAddress(a),
    ...(extra.name ? { name: extra.name } : {}),
    ...(extra.artifactName ? { artifactName: extra.artifactName } : {}),
  } satisfies WatchedContract;
}

/**
 * The stored list, validated entry by entry: a hand-edited or older entry that no longer parses is
 * dropped instead of breaking the whole view, and duplicates keep their first occurrence.
 */
export function parseWatchList(raw: unknown): WatchedContract[] {
  if (!Array.isArray(raw)) return [];
  const out: WatchedContract[] = [];
  for (const item of raw) {
    const r = WatchedSchema.safeParse(item);
    if (!r.success || contractAddressProblem(r.data.address)) continue;
    if (out.some((w) => w.address === r.data.address)) continue;
    out.push({
      address: r.data.address,
      group: groupOfAddress(r.data.address),
      ...(r.data.name ? { name: r.data.name } : {}),
      ...(r.data.artifactName ? { artifactName: r.data.artifactName } : {}),
    });
  }
  return out;
}

export function addToWatchList(list: readonly WatchedContract[], entry: WatchedContract): WatchedContract[] {
  const i = list.findIndex((w) => w.address === entry.address);
  if (i < 0) return [...list, entry];
  // Re-adding updates the name/artifact (the user may be fixing a wrong artifact choice).
  const next = [...list];
  next[i] = { ...list[i], ...entry };
  return next;
}

export function removeFromWatchList(list: readonly WatchedContract[], address: string): WatchedContract[] {
  return list.filter((w) => w.address !== address);
}

/** Storage key of a profile's watch list: per workspace (workspaceState) AND per profile. */
export function watchListKey(profileName: string): string {
  return `alephium.watchedContracts.${profileName}`;
}

/** Prefix of the watcher's cursor keys: a cursor is only meaningful on the chain it was read from. */
export function cursorKeyPrefix(profileName: string): string {
  return `alephium.eventCursor.${profileName}.`;
}

// ---- resolving artifacts --------------------------------------------------------------------------------

/**
 * Artifact and drift of a watched contract: an explicitly chosen artifact wins; otherwise the
 * deployments file of the profile's network, then the on-chain code hash.
 */
export function resolveWatched(
  registry: ArtifactRegistry,
  watched: WatchedContract,
  onChainCodeHash: string | undefined,
  network: string | undefined,
): ResolvedContract {
  const chosen = watched.artifactName ? registry.byName(watched.artifactName) : undefined;
  if (chosen) {
    const match = registry.matchAddress(watched.address, network);
    return {
      deployment: match?.deployment,
      network: match?.network,
      artifact: chosen,
      drift: registry.checkDrift(chosen, onChainCodeHash),
    };
  }
  return registry.resolve(watched.address, onChainCodeHash, network);
}

// ---- event feed ---------------------------------------------------------------------------------------

export interface FeedEvent<E extends EventLike = EventLike> {
  /** Stable across refreshes and reloads: the same event keeps its tree id (and expansion state). */
  readonly id: string;
  readonly event: E;
}

type KeyedEvent = EventLike & { readonly txId: string };

/** Same identity as the watcher's dedupe key (tx, index, typed values), for any event record. */
function feedKey(event: KeyedEvent): string {
  return `${event.txId}:${event.eventIndex}:${JSON.stringify(event.fields.map((f) => [f.type, f.value]))}`;
}

/** The most events a feed keeps as new ones arrive; older ones are read again by "Load more…". */
export const MAX_FEED_EVENTS = 1000;

interface FeedEntry<E> {
  readonly key: string;
  readonly id: string;
  readonly event: E;
}

/**
 * Events added together, oldest first, with the offset where they start. A window read from the server
 * (`exact`) holds events at offsets from `start` up to the next run's start. Live events (the watcher's)
 * only lie at or after `start` (the feed's cursor when they came): their offsets are not known.
 */
interface FeedRun<E> {
  readonly start: number;
  readonly exact: boolean;
  readonly entries: readonly FeedEntry<E>[];
}

/**
 * The events of one contract as the view shows them: newest first, each once. Three sources feed it:
 * the latest window (count - N), older windows ("Load more…", read backwards with server cursors
 * inside each window) and new events from the watcher or a refresh. Events are identified by the
 * watcher's dedupe key, so an event reported by two sources appears once.
 *
 * Memory is bounded: when new events take the feed past {@link MAX_FEED_EVENTS}, its oldest windows are
 * dropped whole and "Load more…" starts where the oldest kept window starts, so the dropped events are
 * read again on demand and none is lost or shown twice. When only live events are left to drop (their
 * offsets are unknown), the feed starts over: it is unloaded, and the view reads the latest window
 * again. Adding is linear in the events added, whatever they repeat.
 */
export class EventFeed<E extends KeyedEvent = KeyedEvent> {
  /** Chain order (oldest first); rendered reversed. */
  private runs: FeedRun<E>[] = [];
  private total = 0;
  /** The key of every event held (each is held once). */
  private readonly keys = new Set<string>();
  /** Per short id: the next number to give (ids stay unique) and how many held events use it. */
  private readonly occurrences = new Map<string, { next: number; held: number }>();
  /** Offset where the oldest loaded window starts; 0 means nothing older exists. */
  private older: number | undefined;
  /** The server cursor after the newest loaded event (where a refresh continues). */
  private newer: number | undefined;
  /** The current-count the feed last saw. */
  private knownCount: number | undefined;

  constructor(
    private readonly address: string,
    private readonly maxEvents = MAX_FEED_EVENTS,
  ) {}

  get loaded(): boolean {
    return this.older !== undefined;
  }

  get size(): number {
    return this.total;
  }

  /** Where a window of older events ends (exclusive), when there are any. */
  get olderEnd(): number | undefined {
    return this.older !== undefined && this.older > 0 ? this.older : undefined;
  }

  get hasOlder(): boolean {
    return this.olderEnd !== undefined;
  }

  get nextStart(): number | undefined {
    return this.newer;
  }

  get count(): number | undefined {
    return this.knownCount;
  }

  /** The events not held yet, each with its key and id; they are held from now on. */
  private take(events: readonly E[]): FeedEntry<E>[] {
    const entries: FeedEntry<E>[] = [];
    // Two identical emits in one transaction are two events: the n-th repeat kept from this batch is
    // numbered `#n`. One count per key (not a search of the batch), so identical events stay linear.
    const repeats = new Map<string, number>();
    for (const event of events) {
      const base = feedKey(event);
      const n = repeats.get(base) ?? 0;
      const key = n === 0 ? base : `${base}#${n}`;
      if (this.keys.has(key)) continue;
      repeats.set(base, n + 1);
      this.keys.add(key);
      const short = `${event.txId.slice(0, 16)}:${event.eventIndex}`;
      const seen = this.occurrences.get(short) ?? { next: 0, held: 0 };
      this.occurrences.set(short, { next: seen.next + 1, held: seen.held + 1 });
      entries.push({ key, id: `${this.address}/event/${short}/${seen.next}`, event });
    }
    this.total += entries.length;
    return entries;
  }

  /**
   * Drops the oldest windows while the feed holds more than its bound (never the newest run). Older
   * windows the user asked for with "Load more…" are kept until new events arrive.
   */
  private trim(): void {
    while (this.total > this.maxEvents && this.runs.length > 1) {
      const oldest = this.runs[0]!;
      if (!oldest.exact) {
        // Live events have no known offset, so no cursor could read them again: start over.
        this.clear();
        this.older = undefined;
        return;
      }
      this.runs.shift();
      this.total -= oldest.entries.length;
      for (const entry of oldest.entries) this.forget(entry);
      // Everything dropped lies before the next run's start; "Load more…" continues from there.
      this.older = this.runs[0]!.start;
    }
  }

  private forget(entry: FeedEntry<E>): void {
    this.keys.delete(entry.key);
    const short = `${entry.event.txId.slice(0, 16)}:${entry.event.eventIndex}`;
    const seen = this.occurrences.get(short);
    if (!seen || seen.held <= 1) this.occurrences.delete(short);
    else this.occurrences.set(short, { next: seen.next, held: seen.held - 1 });
  }

  private clear(): void {
    this.runs = [];
    this.total = 0;
    this.keys.clear();
    this.occurrences.clear();
  }

  /** The latest window (start = count - N) replaced what was loaded: the view starts over. */
  setLatest(slice: { events: readonly E[]; nextStart: number; count: number; start: number }): void {
    this.clear();
    this.older = slice.start;
    this.newer = slice.nextStart;
    this.knownCount = slice.count;
    const entries = this.take(slice.events);
    if (entries.length > 0) this.runs.push({ start: slice.start, exact: true, entries });
  }

  /** A window of older events (start .. previous start) was read; returns how many were new. */
  addOlder(events: readonly E[], start: number): number {
    this.older = Math.min(this.older ?? start, start);
    const entries = this.take(events);
    if (entries.length > 0) this.runs.unshift({ start, exact: true, entries });
    return entries.length;
  }

  /**
   * New events (from the watcher or a refresh), in chain order; returns how many were new. With a
   * cursor they are the window from the feed's `nextStart` to the cursor; without, live deliveries.
   * A cursor with a `count` says the window reached that count: every live event delivered before
   * was on chain by then, so it lies inside the window too, and joins it.
   */
  addNewer(events: readonly E[], cursor?: { nextStart: number; count?: number }): number {
    const from = this.newer ?? this.older ?? 0;
    if (cursor) {
      this.newer = Math.max(this.newer ?? 0, cursor.nextStart);
      if (cursor.count !== undefined) this.knownCount = Math.max(this.knownCount ?? 0, cursor.count);
    }
    // Only a loaded feed takes live events: an unloaded one reads its latest window when opened, which
    // includes them, and keeping them would make that window look partly loaded.
    if (!this.loaded) return 0;
    let entries = this.take(events);
    const added = entries.length;
    if (cursor?.count !== undefined) {
      // Live runs since the last window all started at `from` (only a cursor moves it).
      const live: (readonly FeedEntry<E>[])[] = [];
      while (this.runs.length > 0 && !this.runs[this.runs.length - 1]!.exact)
        live.unshift(this.runs.pop()!.entries);
      entries = [...live.flat(), ...entries];
    }
    if (entries.length > 0) this.runs.push({ start: from, exact: cursor !== undefined, entries });
    this.trim();
    return added;
  }

  /** Newest first, as rendered. */
  items(): FeedEvent<E>[] {
    const out: FeedEvent<E>[] = [];
    for (let r = this.runs.length - 1; r >= 0; r--) {
      const entries = this.runs[r]!.entries;
      for (let i = entries.length - 1; i >= 0; i--)
        out.push({ id: entries[i]!.id, event: entries[i]!.event });
    }
    return out;
  }
}

/** The window "Load more…" reads: at most `pageSize` offsets before `end`. */
export function olderWindow(end: number, pageSize: number): { start: number; until: number } {
  return { start: Math.max(0, end - pageSize), until: end };
}

// ---- presentation ---------------------------------------------------------------------------------------

export interface Row {
  readonly label: string;
  readonly description?: string;
  readonly tooltip?: string;
  /** Codicon id, optionally `id|themeColor`. */
  readonly icon?: string;
  /** The full value "Copy Value" puts on the clipboard. */
  readonly copy?: string;
}

/** The longest label, description and tooltip of a tree row (outside text is capped to these). */
export const ROW_LABEL_CHARS = 200;
export const ROW_DESCRIPTION_CHARS = 300;
export const ROW_TOOLTIP_CHARS = 4000;

/**
 * A row as the tree may show it: names and values come from a workspace or the chain, so every text
 * goes through plainText (one line, capped, no link or icon syntax; the tooltip keeps its lines).
 * What "Copy Value" copies stays as it is.
 */
function inertRow<R extends Row>(row: R): R {
  return {
    ...row,
    label: plainText(row.label, ROW_LABEL_CHARS),
    ...(row.description !== undefined
      ? { description: plainText(row.description, ROW_DESCRIPTION_CHARS) }
      : {}),
    ...(row.tooltip !== undefined ? { tooltip: plainText(row.tooltip, ROW_TOOLTIP_CHARS, true) } : {}),
  };
}

export function shortAddress(address: string): string {
  return address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-6)}` : address;
}

export interface ContractRowInput {
  readonly watched: WatchedContract;
  readonly resolved: ResolvedContract | undefined;
  readonly codeHash: string | undefined;
  /** Why the state could not be read (shown as a warning). */
  readonly error?: string;
  /** The short badge for that error (`problemBadge`); "⚠ unreachable" when not given. */
  readonly errorBadge?: string;
}

/**
 * The badge a contract row shows when its state could not be read: what went wrong, in words a user can
 * act on. A rejected key is not an unreachable node (the user must fix the key, not the network).
 */
export function problemBadge(error: unknown): string {
  if (isGatewayError(error)) {
    switch (error.kind) {
      case 'unauthorized':
        return '⚠ API key rejected';
      case 'missingKey':
        return '⚠ no API key';
      case 'network':
      case 'timeout':
        return '⚠ unreachable';
      case 'unavailable':
        return '⚠ node syncing';
      case 'rateLimited':
        return '⚠ rate limited';
      case 'notFound':
        return '⚠ no contract at this address';
      default:
        return '⚠ error';
    }
  }
  return '⚠ error';
}

/**
 * The title of a "Show Latest Events" listing: the number it lists, not the number asked for (a contract
 * may have fewer), nor the event counter (which also counts Debug events the node does not list).
 */
export function latestEventsTitle(
  name: string,
  asked: number,
  listed: number,
  counter: number,
): SafeMarkdown {
  // Only the name is outside text (a deployments key or a watched name); the rest is ours, unescaped.
  const what =
    listed === asked
      ? safeMarkdown`Latest ${listed} event(s)`
      : safeMarkdown`All ${listed} listed event(s) (${asked} asked for)`;
  return safeMarkdown`${what} of ${name}, newest first (event counter ${counter}, Debug events included)`;
}

/**
 * The Events node's description: how many events the list shows, never the contract's event counter,
 * which also counts Debug events that the node does not list (the counter goes in the tooltip).
 */
export function eventsHeader(
  shown: number,
  counter: number | undefined,
): { description: string; tooltip: string } {
  return {
    description: `${shown} shown · newest first`,
    tooltip:
      counter === undefined
        ? `${shown} event(s) shown, newest first.`
        : `${shown} event(s) shown, newest first. The contract's event counter is at ${counter}: it also counts Debug events, which the node does not list.`,
  };
}

const DRIFT_ICON: Record<DriftCheck['status'], string> = {
  match: 'symbol-class',
  drift: 'warning|list.warningForeground',
  unknown: 'question',
};

/**
 * The contract row: name (watch entry, deployments file, artifact, else the short address), the group
 * and a drift badge in the description, and a tooltip that says what the badge means.
 */
export function contractRow(input: ContractRowInput): Row {
  const { watched, resolved, codeHash } = input;
  const name =
    watched.name ?? resolved?.deployment?.name ?? resolved?.artifact?.name ?? shortAddress(watched.address);
  const drift = resolved?.drift;
  const badge =
    input.error !== undefined
      ? (input.errorBadge ?? '⚠ unreachable')
      : drift?.status === 'drift'
        ? '⚠ code drift'
        : drift?.status === 'match'
          ? drift.debugBuild
            ? '✓ debug build'
            : '✓'
          : resolved?.artifact
            ? ''
            : 'no artifact';
  const tooltip = [
    `${name}`,
    `Address: ${watched.address}`,
    `Group: ${watched.group}`,
    resolved?.artifact
      ? `Artifact: ${resolved.artifact.name}${resolved.artifact.file ? ` (${resolved.artifact.file})` : ''}`
      : 'Artifact: none',
    codeHash ? `On-chain code hash: ${codeHash}` : undefined,
    drift ? `${drift.status === 'drift' ? 'Code drift: ' : ''}${capitalise(drift.message)}` : undefined,
    input.error ? `Could not read the state: ${input.error}` : undefined,
  ]
    .filter((l): l is string => l !== undefined)
    .join('\n');
  return inertRow({
    label: name,
    description: [shortAddress(watched.address), `group ${watched.group}`, badge].filter(Boolean).join(' · '),
    tooltip,
    icon:
      input.error !== undefined ? 'warning|list.warningForeground' : DRIFT_ICON[drift?.status ?? 'unknown'],
    copy: watched.address,
  });
}

function capitalise(s: string): string {
  return s ? s[0]!.toUpperCase() + s.slice(1) : s;
}

export interface FieldRow extends Row {
  readonly mutable?: boolean;
}

/** A decoded field as a row: `name` with its value, the type in the tooltip. */
export function fieldRow(field: DecodedField, mutable?: boolean): FieldRow {
  const value = formatValue(field.value);
  return inertRow({
    label: field.name,
    description: formatValue(field.value, 40),
    tooltip: `${field.name}: ${field.type}${mutable === undefined ? '' : mutable ? ' (mutable)' : ' (immutable)'}\n${value}`,
    icon: mutable ? 'symbol-variable' : 'symbol-constant',
    copy: value,
    ...(mutable !== undefined ? { mutable } : {}),
  });
}

/**
 * A token's id is the id of the contract that issued it: when a deployments file of the workspace knows
 * that contract, its name names the token (no request needed). Undefined otherwise.
 */
export function tokenIssuerName(tokenId: string, registry: ArtifactRegistry | undefined): string | undefined {
  const id = tokenId.toLowerCase();
  return registry?.deployments().find((d) => d.contractId === id)?.name;
}

export interface StateRows {
  readonly rows: FieldRow[];
  /** Set when the values could not be matched to the artifact (shown raw). */
  readonly warning?: string;
}

/** State fields named from `fieldsSig` (immFields and mutFields merged back in declaration order). */
export function stateRows(
  artifact: ContractArtifact | undefined,
  state: Pick<ContractState, 'immFields' | 'mutFields' | 'asset' | 'codeHash'>,
  registry?: ArtifactRegistry,
  drift?: DriftCheck,
): StateRows {
  const asset: FieldRow = inertRow({
    label: 'ALPH balance',
    description: `${attoToAlph(String(state.asset.attoAlphAmount))} ALPH`,
    tooltip: `${state.asset.attoAlphAmount} attoALPH${state.asset.tokens?.length ? `\n${state.asset.tokens.map((t) => `${t.id}: ${t.amount}`).join('\n')}` : ''}`,
    icon: 'credit-card',
    copy: String(state.asset.attoAlphAmount),
  });
  const tokens: FieldRow[] = (state.asset.tokens ?? []).map((t) => {
    const issuer = tokenIssuerName(t.id, registry);
    return inertRow({
      label: `Token ${issuer ?? shortAddress(t.id)}`,
      description: String(t.amount),
      tooltip: `${issuer ? `${issuer} token\n` : ''}${t.id}\n${t.amount}`,
      icon: 'symbol-number',
      copy: String(t.amount),
    });
  });
  if (!artifact) {
    const raw = decodeState({ names: [], types: [], isMutable: [] }, state.immFields, state.mutFields);
    const fields = raw.ok ? raw.fields : raw.raw;
    return {
      rows: [...fields.map((f) => fieldRow(f, f.name.startsWith('mut'))), asset, ...tokens],
      warning: 'No artifact describes this contract: fields are shown raw.',
    };
  }
  const decoded = decodeState(artifact.fieldsSig, state.immFields, state.mutFields, registry?.structs);
  if (!decoded.ok) {
    return {
      rows: [...decoded.raw.map((f) => fieldRow(f, f.name.startsWith('mut'))), asset, ...tokens],
      warning: `The state does not fit ${artifact.name}: ${decoded.error}. Shown raw.`,
    };
  }
  const mutable = new Map(
    artifact.fieldsSig.names.map((n, i) => [n, artifact.fieldsSig.isMutable[i] === true]),
  );
  return {
    rows: [...decoded.fields.map((f) => fieldRow(f, mutable.get(f.name))), asset, ...tokens],
    ...(drift?.status === 'drift' ? { warning: `Code drift: ${drift.message}` } : {}),
  };
}

export interface EventRow extends Row {
  readonly decoded: DecodedEvent;
  readonly fields: FieldRow[];
}

/** An event as a row: its name, its fields summarised, and a tooltip with tx, block and any warning. */
export function eventRow(
  event: EventLike & { txId?: string; blockHash?: string; timestamp?: number },
  artifact: ContractArtifact | undefined,
  options: { drift?: DriftCheck; registry?: ArtifactRegistry } = {},
): EventRow {
  const decoded = decodeEvent(event, artifact, {
    ...(options.drift ? { drift: options.drift } : {}),
    ...(options.registry ? { structs: options.registry.structs } : {}),
  });
  const summary = formatEventSummary(decoded);
  const args = summary.slice(summary.indexOf('(') + 1, -1);
  const tooltip = [
    `${decoded.name} (eventIndex ${decoded.index}${decoded.kind === 'system' ? ', system event' : ''})`,
    ...decoded.fields.map((f) => `${f.name}: ${f.type} = ${formatValue(f.value)}`),
    event.txId ? `tx ${event.txId}` : undefined,
    event.blockHash ? `block ${event.blockHash}` : undefined,
    event.timestamp !== undefined ? new Date(event.timestamp).toISOString() : undefined,
    decoded.warning ? `⚠ ${decoded.warning}` : undefined,
  ]
    .filter((l): l is string => l !== undefined)
    .join('\n');
  return inertRow({
    label: `${decoded.warning ? '⚠ ' : ''}${decoded.name}`,
    description: args,
    tooltip,
    icon:
      decoded.kind === 'unknown'
        ? 'question'
        : decoded.kind === 'system'
          ? 'gear'
          : decoded.warning
            ? 'warning|list.warningForeground'
            : 'symbol-event',
    copy: JSON.stringify(
      {
        name: decoded.name,
        eventIndex: decoded.index,
        fields: Object.fromEntries(decoded.fields.map((f) => [f.name, f.value])),
        ...(event.txId ? { txId: event.txId } : {}),
      },
      null,
      2,
    ),
    decoded,
    fields: decoded.fields.map((f) => fieldRow(f)),
  });
}

/** Events of any listing decoded for a document or quick pick, each with the artifact of its emitter. */
export function decodeListing<T extends EventLike & { contractAddress: string }>(
  events: readonly T[],
  artifactOf: (address: string) => { artifact?: ContractArtifact; drift?: DriftCheck } | undefined,
  registry?: ArtifactRegistry,
): (T & { decoded: DecodedEvent })[] {
  return events.map((e) => {
    const found = artifactOf(e.contractAddress);
    return {
      ...e,
      decoded: decodeEvent(e, found?.artifact, {
        ...(found?.drift ? { drift: found.drift } : {}),
        ...(registry ? { structs: registry.structs } : {}),
      }),
    };
  });
}

/**
 * A markdown document of decoded events (Events by Transaction Id / Block Hash, Show Latest Events).
 * Names, addresses and values come from the chain and the workspace: each is escaped (markdownText) or
 * put in a code span that cannot be broken out of (codeSpan), so no link, image or HTML can form. A
 * plain-string title is escaped whole; a SafeMarkdown one is this extension's own Markdown.
 */
export function eventsMarkdown(
  title: string | SafeMarkdown,
  events: readonly (EventLike & {
    decoded: DecodedEvent;
    contractAddress?: string;
    txId?: string;
    blockHash?: string;
  })[],
): string {
  const heading = typeof title === 'string' ? markdownText(title) : title.markdown;
  const lines = [`# ${heading}`, ''];
  if (events.length === 0) lines.push('_No events._');
  events.forEach((e, i) => {
    const d = e.decoded;
    lines.push(`## ${i + 1}. ${markdownText(d.name)} (eventIndex ${d.index})`);
    if (e.contractAddress) lines.push(`- contract: ${codeSpan(e.contractAddress)}`);
    if (e.txId) lines.push(`- tx: ${codeSpan(e.txId)}`);
    if (e.blockHash) lines.push(`- block: ${codeSpan(e.blockHash)}`);
    for (const f of d.fields)
      lines.push(
        `- **${markdownText(f.name)}** (${markdownText(f.type)}): ${codeSpan(formatValue(f.value), RESULT_VALUE_CHARS)}`,
      );
    if (d.warning) lines.push(`- ⚠ ${markdownText(d.warning)}`);
    lines.push('');
  });
  return lines.join('\n');
}
