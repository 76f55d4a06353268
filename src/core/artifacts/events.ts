/**
 * Contract events decoded against an artifact. The node returns `eventIndex` and flattened `fields`
 * without names; the artifact's `eventsSig` (in the compiler's final order: parent interfaces first) gives
 * them names and types. Negative indices are the VM's system events. Anything that does not fit (an index
 * the artifact does not have, a wrong field count) is shown raw with a hint, never guessed.
 */
import type { ContractArtifact } from './artifact';
import type { DriftCheck } from './registry';
import {
  decodeFields,
  formatValue,
  rawFields,
  type DecodedField,
  type InputVal,
  type StructsLike,
} from './vals';

export const CONTRACT_CREATED_INDEX = -1;
export const CONTRACT_DESTROYED_INDEX = -2;
export const DEBUG_INDEX = -3;

/** The part of an event record decoding needs; every event endpoint's record has these. */
export interface EventLike {
  readonly eventIndex: number;
  readonly fields: readonly InputVal[];
}

export type EventKind = 'declared' | 'system' | 'unknown';

export interface DecodedEvent {
  readonly name: string;
  readonly index: number;
  readonly fields: readonly DecodedField[];
  readonly kind: EventKind;
  /** Shown next to the event: drift, unknown index, or fields that do not fit the signature. */
  readonly warning?: string;
}

export interface DecodeEventOptions {
  readonly structs?: StructsLike;
  /** The contract's drift check; a drift puts a warning on every event, as the names may be wrong. */
  readonly drift?: DriftCheck;
}

const SYSTEM_EVENTS: Readonly<Record<number, { name: string; fieldNames: string[] }>> = {
  [CONTRACT_CREATED_INDEX]: {
    name: 'ContractCreated',
    fieldNames: ['address', 'parentAddress', 'stdInterfaceId'],
  },
  [CONTRACT_DESTROYED_INDEX]: { name: 'ContractDestroyed', fieldNames: ['address'] },
  [DEBUG_INDEX]: { name: 'Debug', fieldNames: ['message'] },
};

/**
 * UTF-8 text of a Debug message's hex. Invalid UTF-8 is replaced rather than rejected: the message is for
 * humans, and a partial message beats none.
 */
export function decodeDebugMessage(hex: string): string | undefined {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return undefined;
  return Buffer.from(hex, 'hex').toString('utf8');
}

function valueOf(v: InputVal): string | boolean {
  return typeof v.value === 'boolean' || typeof v.value === 'string' ? v.value : JSON.stringify(v.value);
}

function decodeSystem(event: EventLike): Omit<DecodedEvent, 'warning'> & { problem?: string } {
  const sig = SYSTEM_EVENTS[event.eventIndex] as { name: string; fieldNames: string[] };
  // System event fields vary slightly (parentAddress is a ByteVec "" for a top-level contract), so they
  // keep the type they arrived with instead of being checked against a fixed signature.
  const fields: DecodedField[] = event.fields.map((v, i) => {
    const name = sig.fieldNames[i] ?? `#${i}`;
    if (event.eventIndex === DEBUG_INDEX && i === 0 && v.type === 'ByteVec' && typeof v.value === 'string') {
      const text = decodeDebugMessage(v.value);
      if (text !== undefined) return { name, type: 'String', value: text };
    }
    return { name, type: String(v.type), value: valueOf(v) };
  });
  const problem =
    event.fields.length !== sig.fieldNames.length
      ? `${sig.name} normally has ${sig.fieldNames.length} field(s), got ${event.fields.length}`
      : undefined;
  return { name: sig.name, index: event.eventIndex, fields, kind: 'system', ...(problem ? { problem } : {}) };
}

export function decodeEvent(
  event: EventLike,
  artifact: ContractArtifact | undefined,
  options: DecodeEventOptions = {},
): DecodedEvent {
  const warnings: string[] = [];
  if (options.drift?.status === 'drift') warnings.push(`Code drift: ${options.drift.message}`);
  const finish = (e: Omit<DecodedEvent, 'warning'>, extra?: string): DecodedEvent => {
    const all = extra ? [...warnings, extra] : warnings;
    return all.length > 0 ? { ...e, warning: all.join(' ') } : e;
  };

  if (event.eventIndex < 0 && SYSTEM_EVENTS[event.eventIndex]) {
    const { problem, ...decoded } = decodeSystem(event);
    return finish(decoded, problem);
  }
  const sig = event.eventIndex >= 0 ? artifact?.eventsSig[event.eventIndex] : undefined;
  if (!sig) {
    const hint = !artifact
      ? 'no artifact for this contract: add its .ral.json to the workspace to see names'
      : event.eventIndex < 0
        ? `index ${event.eventIndex} is not a known system event`
        : `artifact ${artifact.name} has ${artifact.eventsSig.length} event(s); index ${event.eventIndex} unknown: recompile or check the address`;
    return finish(
      {
        name: `Event#${event.eventIndex}`,
        index: event.eventIndex,
        fields: rawFields(event.fields),
        kind: 'unknown',
      },
      hint,
    );
  }
  const decoded = decodeFields(sig.fieldNames, sig.fieldTypes, event.fields, options.structs);
  if (!decoded.ok) {
    return finish(
      { name: sig.name, index: event.eventIndex, fields: decoded.raw, kind: 'unknown' },
      `fields do not fit ${sig.name}: ${decoded.error}; shown raw (recompile or check the address)`,
    );
  }
  return finish(
    { name: sig.name, index: event.eventIndex, fields: decoded.fields, kind: 'declared' },
    decoded.problems ? `${decoded.problems.join('; ')}: shown raw` : undefined,
  );
}

export interface SummaryOptions {
  /** Longer values keep their ends around an ellipsis (default 20 characters). */
  readonly maxValueLength?: number;
}

/** `Incremented(by=1DrDy…oK6r, newCount=42)`, prefixed with ⚠ when the event carries a warning. */
export function formatEventSummary(event: DecodedEvent, options: SummaryOptions = {}): string {
  const max = options.maxValueLength ?? 20;
  const args = event.fields.map((f) => `${f.name}=${formatValue(f.value, max)}`).join(', ');
  return `${event.warning ? '⚠ ' : ''}${event.name}(${args})`;
}
