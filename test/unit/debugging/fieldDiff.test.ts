import { strict as assert } from 'node:assert';
import { ArtifactRegistry } from '../../../src/core/artifacts';
import { diffStates, stateDiffLines, type ContractStateLike } from '../../../src/core/debugging/fieldDiff';
import { sandboxArtifactFiles } from '../artifacts/helpers';

const counter = ArtifactRegistry.fromFiles(sandboxArtifactFiles()).byName('Counter')!;
const ADDRESS = '22fnZLkZJUSyhXgboirmJktWkEBRk1pV8L6gfpc53hvVM';

/** A Counter state in the node's shape, from its artifact's field order. */
function counterState(values: Record<string, string>, atto: string): ContractStateLike {
  const imm: { type: string; value: unknown }[] = [];
  const mut: { type: string; value: unknown }[] = [];
  counter.fieldsSig.names.forEach((name, i) => {
    const type = counter.fieldsSig.types[i]!;
    const value = values[name] ?? (type === 'Address' ? ADDRESS : type === 'Bool' ? false : '0');
    (counter.fieldsSig.isMutable[i] ? mut : imm).push({ type, value });
  });
  return { address: ADDRESS, immFields: imm, mutFields: mut, asset: { attoAlphAmount: atto } };
}

describe('two states of a contract, field by field (core/debugging/fieldDiff)', () => {
  const mutable = counter.fieldsSig.names.filter((_, i) => counter.fieldsSig.isMutable[i]);

  it("shows each field's value before and after the event's block, changed fields first", () => {
    const field = mutable[0]!;
    const diff = diffStates(
      counter.fieldsSig,
      counterState({ [field]: '4' }, '100000000000000000'),
      counterState({ [field]: '9' }, '100000000000000000'),
    );
    assert.equal(diff.warning, undefined);
    assert.equal(diff.changedCount, 1);
    const change = diff.fields.find((f) => f.name === field);
    assert.deepEqual(change, { name: field, type: 'U256', before: '4', after: '9', changed: true });
    const lines = stateDiffLines(diff);
    assert.equal(lines[0], '1 changed:');
    assert.equal(lines[1], `  ${field}: U256 = 4 → 9`);
    assert.ok(lines.includes('  ALPH balance: U256 = 0.1 ALPH'), lines.join('\n'));
  });

  it('says when nothing changed, and counts a balance change as a change', () => {
    const same = counterState({}, '1');
    assert.equal(
      stateDiffLines(diffStates(counter.fieldsSig, same, same))[0],
      'Nothing changed in this contract in that block.',
    );
    const paid = diffStates(
      counter.fieldsSig,
      counterState({}, '0'),
      counterState({}, '2000000000000000000'),
    );
    assert.deepEqual(paid.fields.at(-1), {
      name: 'ALPH balance',
      type: 'U256',
      before: '0 ALPH',
      after: '2 ALPH',
      changed: true,
    });
  });

  it('falls back to raw values with the reason when the artifact does not fit the state', () => {
    const odd: ContractStateLike = {
      address: ADDRESS,
      immFields: [],
      mutFields: [
        { type: 'U256', value: '1' },
        { type: 'U256', value: '2' },
        { type: 'U256', value: '3' },
      ],
      asset: { attoAlphAmount: '0' },
    };
    const diff = diffStates(counter.fieldsSig, odd, odd);
    assert.match(diff.warning ?? '', /flatten to/);
    assert.match(stateDiffLines(diff)[0] ?? '', /^The artifact does not describe this state/);
  });
});
