import { strict as assert } from 'node:assert';
import * as core from '../../../src/core';
import * as bytecode from '../../../src/core/bytecode';

// The names the workflows and docs/core-api.md rely on, from both entry points.
describe('bytecode public API', () => {
  it('exports the documented functions from src/core/bytecode and src/core', () => {
    for (const name of [
      'buildScriptBytecode',
      'encodeContractFields',
      'buildContractBytecode',
      'buildMethodCallScript',
      'decodeScriptCalls',
      'describeScriptDifference',
      'buildDeployScript',
      'parseDeployScript',
      'decodeScript',
      'encodeScript',
    ]) {
      assert.equal(typeof (bytecode as Record<string, unknown>)[name], 'function', `bytecode.${name}`);
      assert.equal(
        (core as Record<string, unknown>)[name],
        (bytecode as Record<string, unknown>)[name],
        `core.${name}`,
      );
    }
  });
});
