import { strict as assert } from 'node:assert';
import {
  EXECUTE_GAS_CEILING,
  scriptFeeWarning,
  scriptGasBound,
  shapeGas,
} from '../../../src/core/signing/gasBounds';

describe('gas bounds of script transactions (core/signing/gasBounds.ts)', () => {
  it('bounds a deploy by its script size, with room for the 152,000 some nodes estimate', () => {
    const small = scriptGasBound({ kind: 'deploy', scriptBytes: 139, inputs: 1, outputs: 1 });
    assert.equal(small.maxGas, shapeGas(1, 1) + 130_000 + 8 * 139);
    assert.ok(small.maxGas > 152_000 && small.maxGas < 160_000);
    const large = scriptGasBound({ kind: 'deploy', scriptBytes: 2_579, inputs: 1, outputs: 1 });
    assert.ok(large.maxGas > 62_063 * 2, 'a large honest deploy has room to spare');
    assert.match(large.rule, /a deploy script of 2579 bytes/);
  });

  it('bounds an execute by its dry run, under an absolute ceiling a lying dry run cannot lift', () => {
    const honest = scriptGasBound({
      kind: 'execute',
      scriptBytes: 60,
      inputs: 1,
      outputs: 1,
      simulatedGas: 30_000,
    });
    assert.equal(honest.maxGas, shapeGas(1, 1) + 37_500);
    const lying = scriptGasBound({
      kind: 'execute',
      scriptBytes: 60,
      inputs: 1,
      outputs: 1,
      simulatedGas: 3_000_000,
    });
    assert.equal(lying.maxGas, EXECUTE_GAS_CEILING);
    assert.match(lying.rule, /the dry run claimed 3000000/);
    assert.equal(
      scriptGasBound({ kind: 'execute', scriptBytes: 60, inputs: 1, outputs: 1 }).maxGas,
      EXECUTE_GAS_CEILING,
    );
  });

  it('warns in words only when the fee is far above what such a transaction usually costs', () => {
    const price = 100_000_000_000n;
    assert.equal(scriptFeeWarning('execute', 60, 55_000, 55_000n * price), undefined);
    assert.equal(scriptFeeWarning('deploy', 300, 58_340, 58_340n * price), undefined);
    assert.match(
      scriptFeeWarning('deploy', 300, 4_667_200, 4_667_200n * price) ?? '',
      /The fee, 0\.46672 ALPH \(gas 4667200\), is 81 times what a deploy of this size \(300 script bytes\) usually costs/,
    );
  });
});
