// Whether SecretStorage kept what was stored (src/core/util/secretPersistence.ts).
import { strict as assert } from 'node:assert';
import { nextGeneration, secretsKept, SECRETS_NOT_KEPT } from '../../../src/core/util/secretPersistence';

describe('SecretStorage that does not persist', () => {
  it('a reload that brings back an older generation (or none) is not kept', () => {
    assert.equal(secretsKept(3, '2'), false, 'the older value came back');
    assert.equal(secretsKept(3, undefined), false, 'nothing came back');
    assert.equal(secretsKept(3, 'garbage'), false);
  });

  it('the generation written, or a newer one from another window, is kept', () => {
    assert.equal(secretsKept(3, '3'), true);
    assert.equal(secretsKept(3, '4'), true);
  });

  it('nothing recorded yet (a first run, or state that is not kept either) is nothing to compare', () => {
    assert.equal(secretsKept(undefined, undefined), true);
    assert.equal(secretsKept('3', '1'), true);
    assert.equal(secretsKept(0, undefined), true);
  });

  it('generations count up from 1', () => {
    assert.equal(nextGeneration(undefined), 1);
    assert.equal(nextGeneration(4), 5);
    assert.equal(nextGeneration(-2), 1);
  });

  it('says plainly that keys imported here last only for this window', () => {
    assert.match(SECRETS_NOT_KEPT, /last only for this window/);
  });
});
