import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { nearestProjectRoot } from '../../../src/core/artifacts/projectRoots';

describe('nearestProjectRoot', () => {
  const ws = path.resolve('/ws');
  const at = (...parts: string[]) => path.join(ws, ...parts);

  it('takes the deepest config folder above the file', () => {
    const roots = [ws, at('packages', 'token')];
    assert.equal(nearestProjectRoot(ws, roots, at('packages', 'token', 'build', 'Token.ral.json')), roots[1]);
    assert.equal(nearestProjectRoot(ws, roots, at('build', 'Counter.ral.json')), ws);
  });

  it('is undefined when no config folder holds the file', () => {
    assert.equal(nearestProjectRoot(ws, [at('a')], at('b', 'artifacts', 'X.ral.json')), undefined);
    assert.equal(nearestProjectRoot(ws, [], at('artifacts', 'X.ral.json')), undefined);
  });

  it('never takes a config folder outside the workspace folder', () => {
    const outside = path.resolve('/');
    assert.equal(nearestProjectRoot(ws, [outside], at('artifacts', 'X.ral.json')), undefined);
    assert.equal(nearestProjectRoot(at('inner'), [ws], at('inner', 'artifacts', 'X.ral.json')), undefined);
  });

  it('does not take a sibling folder that only shares a name prefix', () => {
    assert.equal(nearestProjectRoot(ws, [at('app')], at('app2', 'artifacts', 'X.ral.json')), undefined);
  });
});
