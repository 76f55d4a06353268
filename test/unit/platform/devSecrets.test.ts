import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Logger } from '../../../src/core/util/log';
import { decodeStoredKey } from '../../../src/core/gateway/keyBinding';
import {
  importDevSecrets,
  type DevSecretsOptions,
  type DevSecretsTarget,
} from '../../../src/platform/devSecrets';

const API_KEY = 'sandbox-free-key-0123456789';
const SIGNER = 'ab'.repeat(32);
const SANDBOX_ORIGIN = 'http://127.0.0.1:9/sandbox';

/** `npm start`'s development host, with the sandbox profile of its workspace settings. */
function dev(file: string | undefined): DevSecretsOptions {
  return { mode: 'development', originOf: (name) => (name === 'Sandbox' ? SANDBOX_ORIGIN : undefined), file };
}

/** SecretStorage as a map, like VS Code web's after a reload that lost (or kept) it. */
function memoryStore(initial: Record<string, string> = {}): DevSecretsTarget & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    // As SecretStore stores them: bound to an origin when one is given.
    getApiKey: (profile) => Promise.resolve(decodeStoredKey(data.get(`api:${profile}`))?.key),
    setApiKey: (profile, key, origin) => {
      data.set(`api:${profile}`, origin === undefined ? key : JSON.stringify({ key, origin }));
      return Promise.resolve();
    },
    getSignerPublicKey: () => Promise.resolve(data.has('signer') ? 'public-key-of-the-signer' : undefined),
    setSignerKey: (key) => {
      data.set('signer', key);
      return Promise.resolve();
    },
  };
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (m: string) => void lines.push(m);
  return { lines, trace: push, debug: push, info: push, warn: push, error: push };
}

describe('importDevSecrets (npm start hands its test keys to the extension)', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-secrets-'));
    file = path.join(dir, 'dev-secrets.json');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('does nothing without a secrets file (any real setup)', async () => {
    const store = memoryStore();
    assert.equal(await importDevSecrets(store, recordingLogger(), dev(undefined)), false);
    assert.equal(await importDevSecrets(store, recordingLogger(), dev(file)), false);
    assert.equal(store.data.size, 0);
  });

  it('imports both keys, and imports them again after a reload lost them', async () => {
    fs.writeFileSync(file, JSON.stringify({ profile: 'Sandbox', apiKey: API_KEY, signerPrivateKey: SIGNER }));
    const store = memoryStore();
    const log = recordingLogger();
    assert.equal(await importDevSecrets(store, log, dev(file)), true);
    assert.deepEqual(decodeStoredKey(store.data.get('api:Sandbox')), {
      key: API_KEY,
      origin: SANDBOX_ORIGIN,
    });
    assert.equal(store.data.get('signer'), SIGNER);
    assert.ok(log.lines.every((l) => !l.includes(API_KEY) && !l.includes(SIGNER)));

    // A second activation with the keys still there changes nothing; one whose storage came back empty
    // (what Reload Window can do in VS Code web) gets them again.
    assert.equal(await importDevSecrets(store, log, dev(file)), false);
    store.data.clear();
    assert.equal(await importDevSecrets(store, log, dev(file)), true);
    assert.equal(await store.getApiKey('Sandbox'), API_KEY);
    assert.equal(store.data.get('signer'), SIGNER);
  });

  it('leaves keys the user set in the session alone', async () => {
    fs.writeFileSync(file, JSON.stringify({ profile: 'Sandbox', apiKey: API_KEY, signerPrivateKey: SIGNER }));
    const store = memoryStore({ 'api:Sandbox': 'users-own-key', signer: 'cd'.repeat(32) });
    assert.equal(await importDevSecrets(store, recordingLogger(), dev(file)), false);
    assert.equal(store.data.get('api:Sandbox'), 'users-own-key');
    assert.equal(store.data.get('signer'), 'cd'.repeat(32));
  });

  it('reports a malformed file without quoting its content', async () => {
    fs.writeFileSync(file, API_KEY);
    const store = memoryStore();
    const log = recordingLogger();
    assert.equal(await importDevSecrets(store, log, dev(file)), false);
    assert.equal(store.data.size, 0);
    assert.equal(log.lines.length, 1);
    assert.match(log.lines[0] as string, /not valid JSON/);
    assert.ok(!(log.lines[0] as string).includes(API_KEY.slice(0, 8)));
  });

  it('never imports into an installed extension (production mode), whatever the environment says', async () => {
    fs.writeFileSync(file, JSON.stringify({ profile: 'Sandbox', apiKey: API_KEY, signerPrivateKey: SIGNER }));
    const store = memoryStore();
    const log = recordingLogger();
    assert.equal(await importDevSecrets(store, log, { ...dev(file), mode: 'production' }), false);
    assert.equal(store.data.size, 0);
    assert.match(log.lines.join('\n'), /not imported into an installed extension/);
    // The extension's own test runs and `npm start`'s development host do import.
    assert.equal(await importDevSecrets(store, log, { ...dev(file), mode: 'test' }), true);
  });

  it("binds the sandbox's API key to the sandbox profile's origin, and skips it when there is no such profile", async () => {
    fs.writeFileSync(file, JSON.stringify({ profile: 'Sandbox', apiKey: API_KEY }));
    const bound = memoryStore();
    assert.equal(await importDevSecrets(bound, recordingLogger(), dev(file)), true);
    // Stored bound: sent to the sandbox only, never bound to whatever origin first asks for it.
    assert.equal(decodeStoredKey(bound.data.get('api:Sandbox'))?.origin, SANDBOX_ORIGIN);

    const noProfile = memoryStore();
    const log = recordingLogger();
    const options = { ...dev(file), originOf: () => undefined };
    assert.equal(await importDevSecrets(noProfile, log, options), false);
    assert.equal(noProfile.data.size, 0);
    assert.match(log.lines.join('\n'), /no profile "Sandbox" is set up/);
  });
});
