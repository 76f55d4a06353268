/**
 * Which fields differ between two states of one contract: each state (a call result's `contracts[i]`)
 * decoded with the contract's artifact, its fields and its ALPH balance compared one by one, and the plain
 * lines that show it (changed first). Which two states, and how they are read, is eventStateDiff.ts's part.
 */
import { decodeState, formatValue, type FieldsSig, type StructsLike } from '../artifacts/vals';
import type { InputVal } from '../artifacts/vals';
import { attoToAlph } from '../protocol/units';

/** The part of a contract's state (a call result's `contracts[i]`) the diff reads. */
export interface ContractStateLike {
  readonly address: string;
  readonly immFields: readonly InputVal[];
  readonly mutFields: readonly InputVal[];
  readonly asset: { readonly attoAlphAmount: string };
}

export interface FieldChange {
  readonly name: string;
  readonly type: string;
  readonly before: string;
  readonly after: string;
  readonly changed: boolean;
}

export interface StateDiff {
  readonly fields: readonly FieldChange[];
  /** Set when the artifact does not describe the state (then `fields` holds the raw values). */
  readonly warning?: string;
  readonly changedCount: number;
}

/** The longest value shown (both ends of longer ones are kept). */
const MAX_VALUE_CHARS = 120;

function decoded(sig: FieldsSig, state: ContractStateLike, structs?: StructsLike) {
  const result = decodeState(sig, state.immFields, state.mutFields, structs);
  return result.ok ? { fields: result.fields } : { fields: result.raw, warning: result.error };
}

/** Field-by-field comparison of two states of one contract, plus its ALPH balance. */
export function diffStates(
  sig: FieldsSig,
  before: ContractStateLike,
  after: ContractStateLike,
  structs?: StructsLike,
): StateDiff {
  const a = decoded(sig, before, structs);
  const b = decoded(sig, after, structs);
  const names = [...new Set([...a.fields.map((f) => f.name), ...b.fields.map((f) => f.name)])];
  const fields: FieldChange[] = names.map((name) => {
    const x = a.fields.find((f) => f.name === name);
    const y = b.fields.find((f) => f.name === name);
    const beforeText = x ? formatValue(x.value, MAX_VALUE_CHARS) : '(none)';
    const afterText = y ? formatValue(y.value, MAX_VALUE_CHARS) : '(none)';
    return {
      name,
      type: (y ?? x)?.type ?? '?',
      before: beforeText,
      after: afterText,
      changed: beforeText !== afterText,
    };
  });
  const alphBefore = `${attoToAlph(before.asset.attoAlphAmount)} ALPH`;
  const alphAfter = `${attoToAlph(after.asset.attoAlphAmount)} ALPH`;
  fields.push({
    name: 'ALPH balance',
    type: 'U256',
    before: alphBefore,
    after: alphAfter,
    changed: alphBefore !== alphAfter,
  });
  const warning = a.warning ?? b.warning;
  return { fields, changedCount: fields.filter((f) => f.changed).length, ...(warning ? { warning } : {}) };
}

/** Plain lines for a results document: changed fields first, marked, then the unchanged ones. */
export function stateDiffLines(diff: StateDiff): string[] {
  const lines: string[] = [];
  if (diff.warning)
    lines.push(`The artifact does not describe this state (${diff.warning}); raw values are shown.`);
  const changed = diff.fields.filter((f) => f.changed);
  lines.push(
    changed.length === 0 ? 'Nothing changed in this contract in that block.' : `${changed.length} changed:`,
  );
  for (const f of changed) lines.push(`  ${f.name}: ${f.type} = ${f.before} → ${f.after}`);
  const same = diff.fields.filter((f) => !f.changed);
  if (same.length > 0) lines.push('Unchanged:');
  for (const f of same) lines.push(`  ${f.name}: ${f.type} = ${f.after}`);
  return lines;
}
