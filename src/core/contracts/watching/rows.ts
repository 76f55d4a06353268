/**
 * How the Watched Contracts view presents a contract, its state and its events: rows with their codicon
 * names, badges and tooltips, built here in plain Node so the wording is unit-tested. Every outside text
 * goes through the inert text owner; the VS Code tree only maps these rows to TreeItems.
 */

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
} from '../../artifacts';
import { attoToAlph } from '../../protocol';
import { isGatewayError } from '../../gateway/errors';
import type { ContractState } from '../../gateway/schemas';
import type { LatestEvents } from '../../gateway/paging';
import type { WatchedContract } from './watchList';
import { plainText, safeMarkdown, type SafeMarkdown } from '../../text/inert';

export interface Row {
  readonly label: string;
  readonly description?: string;
  readonly tooltip?: string;
  /** Codicon id, optionally `id|themeColor`. */
  readonly icon?: string;
  /** The full value "Copy Value" puts on the clipboard. */
  readonly copy?: string;
  /** What a screen reader says for a row whose state is otherwise shown only by its icon. */
  readonly accessibilityLabel?: string;
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
    ...(row.accessibilityLabel !== undefined
      ? { accessibilityLabel: plainText(row.accessibilityLabel, ROW_DESCRIPTION_CHARS) }
      : {}),
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
  shortfall?: string,
): SafeMarkdown {
  // Only the name is outside text (a deployments key or a watched name); the rest is ours, unescaped.
  const what =
    listed === asked
      ? safeMarkdown`Latest ${listed} event(s)`
      : shortfall !== undefined
        ? safeMarkdown`${listed} event(s) read (${asked} asked for)`
        : safeMarkdown`All ${listed} listed event(s) (${asked} asked for)`;
  const title = safeMarkdown`${what} of ${name}, newest first (event counter ${counter}, Debug events included)`;
  return shortfall !== undefined ? safeMarkdown`${title}: ${shortfall}` : title;
}

/**
 * What a latest-events read stopped at its request cap did not read, in words (undefined when it read
 * everything it was asked for): said in the listing's title, in the command's result and to a chat model.
 */
export function latestEventsShortfall(
  latest: Pick<LatestEvents, 'unread' | 'requests' | 'events'>,
): string | undefined {
  if (latest.unread === undefined) return undefined;
  const cap = `stopped at the cap of ${latest.requests} requests`;
  return latest.unread === 'older'
    ? `${cap}; older events may exist; ${latest.events.length} read`
    : `${cap} before the newest events were read; ${latest.events.length} read, the newest missing`;
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

/**
 * The State node's description: its age once it is not fresh (`asOf`, from core/text/age.ts) and, while
 * events newer than its read are listed beside it, that it is older than they are (its re-read is under
 * way, or failed and the age says since when).
 */
export function stateDescription(asOf: string, behindEvents: boolean): string | undefined {
  const parts = [asOf, behindEvents ? 'older than the newest event' : ''].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : undefined;
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
  const unread = input.errorBadge ?? '⚠ unreachable';
  // The badge for the eye, and in words for a screen reader (the icon alone tells the states apart).
  const { badge, spoken } =
    input.error !== undefined
      ? { badge: unread, spoken: `state not read: ${unread.replace(/^⚠ /, '')}` }
      : drift?.status === 'drift'
        ? { badge: '⚠ code drift', spoken: 'code drift: the artifact does not match the code on chain' }
        : drift?.status === 'match'
          ? {
              badge: drift.debugBuild ? '✓ debug build' : '✓',
              spoken: `code matches the artifact${drift.debugBuild ? ' (debug build)' : ''}`,
            }
          : resolved?.artifact
            ? { badge: '', spoken: 'code not compared with the artifact yet' }
            : { badge: 'no artifact', spoken: 'no artifact' };
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
    accessibilityLabel: `Contract ${name}, ${shortAddress(watched.address)}, group ${watched.group}, ${spoken}`,
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
    ...stateWarning(drift, decoded.problems),
  };
}

function stateWarning(
  drift: DriftCheck | undefined,
  problems: readonly string[] | undefined,
): { warning?: string } {
  const parts = [
    drift?.status === 'drift' ? `Code drift: ${drift.message}` : undefined,
    problems ? `${problems.join('; ')}: shown raw.` : undefined,
  ].filter((p) => p !== undefined);
  return parts.length > 0 ? { warning: parts.join(' ') } : {};
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
  const kind =
    decoded.kind === 'unknown' ? 'Unknown event' : decoded.kind === 'system' ? 'System event' : 'Event';
  return inertRow({
    label: `${decoded.warning ? '⚠ ' : ''}${decoded.name}`,
    accessibilityLabel: `${kind} ${decoded.name}${decoded.warning ? `, warning: ${decoded.warning}` : ''}${args ? `, ${args}` : ''}`,
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
