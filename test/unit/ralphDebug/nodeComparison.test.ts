/** Honest answers (issue 31, "Honest answers"): a local run compared with the node's answer to the same question. */
import assert from 'node:assert/strict';
import { comparisonLines, nodeAnswerOf } from '../../../src/core/ralphDebug/nodeComparison';
import type { RunEnd } from '../../../src/core/ralphDebug/target';

const ADDRESS = '22xkgsMEMWyXCM96Y24WMrAW5aY6DDPVx6YhKDxL1pzP9';
const local: RunEnd = {
  ok: true,
  returns: [],
  gasUsed: 6510,
  fieldsAfter: [],
  contractsAfter: [{ address: ADDRESS, immFields: [], mutFields: [{ type: 'U256', value: '1' }] }],
  events: 1,
};

describe('the node compared with the local run', () => {
  it('says the two agree, naming the gas and the events', () => {
    const node = nodeAnswerOf({ ok: true, gasUsed: 6510, events: 1, contracts: local.contractsAfter })!;
    assert.deepEqual(comparisonLines(local, node), [
      "The node's dry run of the same script at the same state agrees: it completed, gas 6510, with the same fields after and 1 event(s).",
    ]);
  });

  it('says every difference with both sides named: gas, events, fields', () => {
    const node = nodeAnswerOf({
      ok: true,
      gasUsed: 6512,
      events: 2,
      contracts: [{ address: ADDRESS, immFields: [], mutFields: [{ type: 'U256', value: '2' }] }],
    })!;
    assert.deepEqual(comparisonLines(local, node), [
      `The node's dry run of the same script at the same state differs from this local run: gas 6510 here, 6512 on the node; 1 event(s) here, 2 on the node; the fields of ${ADDRESS}: 1 here, 2 on the node.`,
    ]);
  });

  it('says which side failed when only one did', () => {
    const node = nodeAnswerOf({ ok: false, error: 'VM execution error: OutOfGas' })!;
    assert.match(
      comparisonLines(local, node)[0] ?? '',
      /differs .*the run completed here, the node's failed \(VM execution error: OutOfGas\)/,
    );
  });

  it('ignores a malformed answer rather than comparing with it', () => {
    assert.equal(nodeAnswerOf('yes'), undefined);
    assert.equal(nodeAnswerOf({ gasUsed: 1 }), undefined);
    const odd = nodeAnswerOf({
      ok: true,
      gasUsed: 'many',
      contracts: [{ address: 1 }, { address: ADDRESS, immFields: [1], mutFields: [] }],
    });
    assert.deepEqual(odd, { ok: true, contracts: [] });
  });
});
