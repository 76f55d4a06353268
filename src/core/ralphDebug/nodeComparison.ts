/**
 * Honest answers (issue 31): a replay carries the node's answer to the same question (its dry run of the
 * same script at the same state); when the local run ends, the Debug Console says whether the two agree
 * on the outcome, the gas, the events and each contract's fields, and where they differ it says that first.
 */
import type { NodeVal } from '../vm/nodeJson';
import type { ContractFields, RunEnd } from './target';

/** What the node answered for the same script at the same state. */
export interface NodeAnswer {
  readonly ok: boolean;
  readonly gasUsed?: number;
  readonly error?: string;
  readonly contracts?: readonly ContractFields[];
  readonly events?: number;
}

const isVal = (v: unknown): v is NodeVal =>
  typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string';

/** A configuration's `node`, checked (it comes from a workspace file or the glue); undefined when absent or malformed. */
export function nodeAnswerOf(value: unknown): NodeAnswer | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.ok !== 'boolean') return undefined;
  const contracts = Array.isArray(v.contracts)
    ? v.contracts.flatMap((c: unknown): ContractFields[] => {
        const o = c as Record<string, unknown> | null;
        if (!o || typeof o.address !== 'string' || !Array.isArray(o.immFields) || !Array.isArray(o.mutFields))
          return [];
        if (!o.immFields.every(isVal) || !o.mutFields.every(isVal)) return [];
        return [{ address: o.address, immFields: o.immFields, mutFields: o.mutFields }];
      })
    : undefined;
  return {
    ok: v.ok,
    ...(Number.isSafeInteger(v.gasUsed) ? { gasUsed: v.gasUsed as number } : {}),
    ...(typeof v.error === 'string' ? { error: v.error.slice(0, 600) } : {}),
    ...(contracts ? { contracts } : {}),
    ...(Number.isSafeInteger(v.events) ? { events: v.events as number } : {}),
  };
}

const valsText = (vals: readonly NodeVal[]): string => vals.map((v) => String(v.value)).join(', ');

/** The differences, each as a phrase naming both sides; empty when the two agree. */
function differences(local: RunEnd, node: NodeAnswer): string[] {
  if (local.ok !== node.ok)
    return [
      local.ok
        ? `the run completed here, the node's failed (${node.error ?? 'no reason given'})`
        : `the run failed here (${local.error}), the node's completed`,
    ];
  const out: string[] = [];
  if (node.gasUsed !== undefined && node.gasUsed !== local.gasUsed)
    out.push(`gas ${local.gasUsed} here, ${node.gasUsed} on the node`);
  if (!local.ok || !node.ok) return out;
  if (node.events !== undefined && node.events !== local.events)
    out.push(`${local.events} event(s) here, ${node.events} on the node`);
  for (const theirs of node.contracts ?? []) {
    const mine = local.contractsAfter.find((c) => c.address === theirs.address);
    if (!mine) continue;
    const a = valsText([...mine.immFields, ...mine.mutFields]);
    const b = valsText([...theirs.immFields, ...theirs.mutFields]);
    if (a !== b) out.push(`the fields of ${theirs.address}: ${a} here, ${b} on the node`);
  }
  return out;
}

/** The Debug Console's lines on the node's answer, to print before the local run's own summary. */
export function comparisonLines(local: RunEnd, node: NodeAnswer): string[] {
  const diffs = differences(local, node);
  if (diffs.length > 0)
    return [
      `The node's dry run of the same script at the same state differs from this local run: ${diffs.join('; ')}.`,
    ];
  const gas = node.gasUsed === undefined ? '' : `, gas ${node.gasUsed}`;
  const what = local.ok
    ? `completed${gas}, with the same fields after and ${local.events} event(s)`
    : `failed${gas}${node.error ? ` (the node: ${node.error.slice(0, 300)})` : ''}`;
  return [`The node's dry run of the same script at the same state agrees: it ${what}.`];
}
