import { strict as assert } from 'node:assert';
import { decodeStoredKey, encodeBoundKey, keyForOrigin } from '../../../src/core/util/boundKey';

describe('API keys bound to the origin they were entered for', () => {
  const home = 'https://gateway.example/my-slug';

  it('hands the key out only for its own origin', () => {
    const stored = decodeStoredKey(encodeBoundKey('k3y-123456', home));
    assert.deepEqual(keyForOrigin(stored, home), { key: 'k3y-123456' });
    // A workspace pointed the profile elsewhere: the key must not travel there.
    assert.deepEqual(keyForOrigin(stored, 'https://evil.example/my-slug'), { boundTo: home });
    assert.deepEqual(keyForOrigin(stored, 'https://gateway.example/other-slug'), { boundTo: home });
  });

  it('binds a key stored before keys were bound at its first use', () => {
    assert.deepEqual(keyForOrigin(decodeStoredKey('plain-legacy-key'), home), {
      key: 'plain-legacy-key',
      bindNow: true,
    });
  });

  it('reads a key that merely starts with "{" as a plain key, and nothing as nothing', () => {
    assert.deepEqual(decodeStoredKey('{not-json-key'), { key: '{not-json-key' });
    assert.equal(decodeStoredKey(''), undefined);
    assert.equal(decodeStoredKey(undefined), undefined);
    assert.deepEqual(keyForOrigin(undefined, home), {});
  });
});
