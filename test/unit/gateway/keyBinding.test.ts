import { strict as assert } from 'node:assert';
import {
  apiKeyPromptWords,
  decodeStoredKey,
  encodeBoundKey,
  keyForOrigin,
  keyMoveWords,
} from '../../../src/core/gateway/keyBinding';

describe('API keys bound to the origin they were entered for', () => {
  const home = 'https://gateway.example/my-slug';

  it('hands the key out only for its own origin', () => {
    const stored = decodeStoredKey(encodeBoundKey('k3y-123456', home));
    assert.deepEqual(keyForOrigin(stored, home), { key: 'k3y-123456' });
    // A workspace pointed the profile elsewhere: the key must not travel there.
    assert.deepEqual(keyForOrigin(stored, 'https://evil.example/my-slug'), { boundTo: home });
    assert.deepEqual(keyForOrigin(stored, 'https://gateway.example/other-slug'), { boundTo: home });
  });

  it("binds a key stored before keys were bound at its first use, for the user's own profile", () => {
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

describe('an API key moves to another origin only when the user says so (core/gateway/keyBinding)', () => {
  const home = 'https://gateway.example/my-slug';
  const evil = 'https://evil.example/my-slug';

  it('does not bind a key stored without an origin to a profile that comes from the workspace', () => {
    const legacy = decodeStoredKey('plain-legacy-key');
    // A cloned repository's settings may define a profile of the same name pointing anywhere.
    assert.deepEqual(keyForOrigin(legacy, evil, { profileFromWorkspace: true }), { unbound: true });
    // The user's own profile: bound where it has always gone.
    assert.deepEqual(keyForOrigin(legacy, home, { profileFromWorkspace: false }), {
      key: 'plain-legacy-key',
      bindNow: true,
    });
    // A bound key goes only to its origin, wherever the profile comes from.
    const bound = decodeStoredKey(encodeBoundKey('k3y-123456', home));
    assert.deepEqual(keyForOrigin(bound, home, { profileFromWorkspace: true }), { key: 'k3y-123456' });
    assert.deepEqual(keyForOrigin(bound, evil, { profileFromWorkspace: true }), { boundTo: home });
  });

  it('asks in words that name the new origin, the old one, and a profile from the workspace', () => {
    const words = keyMoveWords({ profile: 'Main', from: home, to: evil, profileFromWorkspace: true });
    assert.match(
      words.message.text,
      /Send the API key of profile "Main" to https:\/\/evil\.example\/my-slug\?/,
    );
    assert.match(words.detail.text, /entered for https:\/\/gateway\.example\/my-slug/);
    assert.match(words.detail.text, /no longer to https:\/\/gateway\.example\/my-slug/);
    assert.match(words.detail.text, /defined by this workspace's settings/);
    assert.equal(words.action, 'Send the Key to evil.example');
    const own = keyMoveWords({ profile: 'Main', from: undefined, to: home, profileFromWorkspace: false });
    assert.match(own.detail.text, /without the address it was entered for/);
    assert.ok(!own.detail.text.includes("workspace's settings"));
  });

  it('keeps link syntax of a workspace-chosen origin and name inert', () => {
    const words = keyMoveWords({
      profile: '[Allow](command:alephium.setApiKey)',
      from: home,
      to: 'https://x.example/[a](command:x)',
      profileFromWorkspace: true,
    });
    assert.ok(!words.message.text.includes(']('), words.message.text);
    assert.ok(!words.detail.text.includes(']('), words.detail.text);
  });

  it("says in Set API Key's prompt where the key will be sent", () => {
    const prompt = apiKeyPromptWords('Main', evil, true).text;
    assert.match(prompt, /sent to https:\/\/evil\.example\/my-slug/);
    assert.match(prompt, /comes from this workspace's settings/);
    assert.ok(!apiKeyPromptWords('Main', home, false).text.includes('workspace'));
  });
});
