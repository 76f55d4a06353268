import assert from 'node:assert/strict';
import { ArtifactError } from '../../../src/core/artifacts';
import { newDeploymentWarnings } from '../../../src/core/artifacts/deploymentProblems';

const FILE = 'deployments/.deployments.testnet.json';
const at = { offset: 10, line: 3, column: 4, length: 6 };

describe('artifacts: a bad deployments entry is warned about once', () => {
  it('warns on the first read, not on the re-reads that follow; a new problem warns again', () => {
    const warned = new Set<string>();
    const first = [
      new ArtifactError(`${FILE}: contracts: "x y" is not a deployment key`, FILE, 'contracts', at),
    ];
    const lines = newDeploymentWarnings(first, warned);
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /1 deployment entry is skipped; the file's other deployments are used/);
    assert.match(lines[0]!, /See the Problems view/);
    for (let reread = 0; reread < 5; reread++) assert.deepEqual(newDeploymentWarnings(first, warned), []);
    const second = [
      ...first,
      new ArtifactError(`${FILE}: contracts: "a b" is not a deployment key`, FILE, 'contracts', at),
    ];
    assert.equal(newDeploymentWarnings(second, warned).length, 1);
  });

  it('problems of artifacts (not deployments files) are not this warning', () => {
    const problem = new ArtifactError('Counter.ral.json: bad', 'artifacts/Counter.ral.json', 'name');
    assert.deepEqual(newDeploymentWarnings([problem], new Set()), []);
  });
});
