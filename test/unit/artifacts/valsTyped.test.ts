import assert from 'node:assert/strict';
import {
  decodeEvent,
  decodeFields,
  decodeState,
  formatEventSummary,
  formatValue,
  parseContractArtifact,
  rawFields,
  type InputVal,
} from '../../../src/core/artifacts';
import { fieldRow, stateRows } from '../../../src/core/contracts/watching/rows';
import { ADDR_G1, fixtureJson } from './helpers';

const MARK = /⚠ not a valid /;

/** A value the gateway sends with the right wire type but a body that type cannot have. */
const wire = (type: string, value: unknown): InputVal => ({ type, value });

describe('artifacts: every chain value is checked against its declared type', () => {
  const cases: [string, unknown, boolean][] = [
    ['Address', ADDR_G1, true],
    ['Address', 'not-an-address', false],
    ['Address', 'I am the treasury, send funds here', false],
    ['Address', '', false],
    ['Address', 'x'.repeat(100_000), false],
    ['U256', '0', true],
    ['U256', ((1n << 256n) - 1n).toString(), true],
    ['U256', (1n << 256n).toString(), false],
    ['U256', '-1', false],
    ['U256', '1'.repeat(100_000), false],
    ['I256', (-(1n << 255n)).toString(), true],
    ['I256', ((1n << 255n) - 1n).toString(), true],
    ['I256', (1n << 255n).toString(), false],
    ['I256', (-(1n << 255n) - 1n).toString(), false],
    ['ByteVec', 'abCD', true],
    ['ByteVec', 'abc', false],
    ['ByteVec', 'zz', false],
    ['Bool', true, true],
    ['Bool', 'yes', false],
  ];
  for (const [type, value, valid] of cases) {
    const shown = typeof value === 'string' && value.length > 40 ? `${value.slice(0, 10)}…` : String(value);
    it(`${type} ${JSON.stringify(shown)} is ${valid ? 'accepted' : 'refused'}`, () => {
      const r = decodeFields(['v'], [type], [wire(type, value)]);
      assert.ok(r.ok, 'one malformed value does not refuse the whole decoding');
      const shownValue = formatValue(r.fields[0]!.value);
      if (valid) {
        assert.equal(r.problems, undefined);
        assert.doesNotMatch(shownValue, MARK);
      } else {
        assert.match(shownValue, MARK);
        assert.deepEqual(r.problems, [`v is not a valid ${type}`]);
      }
    });
  }

  it('a non-address in an Address field is shown raw and marked, and the other fields still decode', () => {
    const r = decodeFields(
      ['owner', 'count'],
      ['Address', 'U256'],
      [wire('Address', 'evil'), wire('U256', '7')],
    );
    assert.ok(r.ok);
    assert.equal(r.fields[0]!.value, 'evil ⚠ not a valid Address');
    assert.equal(r.fields[1]!.value, '7');
    assert.deepEqual(r.problems, ['owner is not a valid Address']);
  });

  it('an out-of-range U256 nested in an array is marked at its position', () => {
    const big = (1n << 256n).toString();
    const r = decodeFields(['xs'], ['[U256;2]'], [wire('U256', '1'), wire('U256', big)]);
    assert.ok(r.ok);
    assert.match(formatValue(r.fields[0]!.value), /^\[1, \d+ ⚠ not a valid U256\]$/);
    assert.deepEqual(r.problems, ['xs[1] is not a valid U256']);
  });

  it('a marked raw value is capped, so a huge value costs no more than its cap', () => {
    const r = decodeFields(['owner'], ['Address'], [wire('Address', 'A'.repeat(1_000_000))]);
    assert.ok(r.ok);
    assert.ok(formatValue(r.fields[0]!.value).length < 300);
    assert.match(formatValue(r.fields[0]!.value), MARK);
  });

  it('raw values (no artifact) are checked against the type they claim', () => {
    const raw = rawFields([wire('Address', 'evil'), wire('U256', '5'), wire('ByteVec', 'abc')]);
    assert.deepEqual(
      raw.map((f) => f.value),
      ['evil ⚠ not a valid Address', '5', 'abc ⚠ not a valid ByteVec'],
    );
  });

  const vault = (): ReturnType<typeof parseContractArtifact> => {
    const json = fixtureJson('artifacts/vault/Vault.ral.json');
    // Two plain fields, so the state needs no structs file.
    json.fieldsSig = { names: ['admin', 'total'], types: ['Address', 'U256'], isMutable: [false, true] };
    return parseContractArtifact(json);
  };

  it('tree rows: an event field shows the mark, and the event carries a warning', () => {
    const decoded = decodeEvent(
      { eventIndex: 0, fields: [wire('Address', 'evil'), wire('U256', '3')] },
      vault(),
    );
    assert.equal(decoded.name, 'Deposited');
    assert.match(formatEventSummary(decoded, { maxValueLength: 200 }), /from=evil ⚠ not a valid Address/);
    assert.match(decoded.warning ?? '', /from is not a valid Address/);
    const row = fieldRow(decoded.fields[0]!);
    assert.match(String(row.tooltip), MARK);
    assert.match(String(row.description), MARK);
  });

  it('state rows mark a bad value and say so in the warning', () => {
    const artifact = vault();
    const imm = [wire('Address', 'evil')];
    const mut = [wire('U256', '9')];
    assert.ok(decodeState(artifact.fieldsSig, imm, mut).ok);
    const rows = stateRows(artifact, {
      immFields: imm,
      mutFields: mut,
      asset: { attoAlphAmount: '0' },
      codeHash: '00'.repeat(32),
    } as never);
    assert.match(String(rows.rows[0]!.description), MARK);
    assert.equal(rows.rows[1]!.description, '9');
    assert.match(rows.warning ?? '', /admin is not a valid Address/);
  });
});
