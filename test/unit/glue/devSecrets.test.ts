import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { importDevSecrets } from '../../../src/devSecrets';
import type { Logger } from '../../../src/core/log';
import type { SecretStore } from '../../../src/secrets';

/** SecretStorage as a reloaded VS Code web window may have it: a map that starts empty. */
function memorySecrets(): SecretStore & { apiKeys: Map<string, string>; signer?: string } {
  const apiKeys = new Map<string, string>();
  const store = {
    apiKeys,
    signer: undefined as string | undefined,
    getApiKey: (name: string) => Promise.resolve(apiKeys.get(name)),
    setApiKey: (name: string, key: string) => Promise.resolve(void apiKeys.set(name, key)),
    getSignerKey: () => Promise.resolve(store.signer),
    setSignerKey: (key: string) => Promise.resolve(void (store.signer = key)),
  };
  return store as unknown as SecretStore & { apiKeys: Map<string, string>; signer?: string };
}

const quiet = { info() {}, warn() {}, error() {}, debug() {}, trace() {} } as unknown as Logger;

describe("npm start's test keys (devSecrets)", () => {
  let dir: string;
  let file: string;
  const saved = process.env.ALEPHIUM_GATEWAY_DEV_SECRETS_FILE;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alephium-devsecrets-'));
    file = path.join(dir, 'dev-secrets.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ profile: 'Sandbox', apiKey: 'sbx_free_test', signerPrivateKey: 'ab'.repeat(32) }),
    );
    process.env.ALEPHIUM_GATEWAY_DEV_SECRETS_FILE = file;
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    if (saved === undefined) delete process.env.ALEPHIUM_GATEWAY_DEV_SECRETS_FILE;
    else process.env.ALEPHIUM_GATEWAY_DEV_SECRETS_FILE = saved;
  });

  it('imports the keys again after a reload came back with an empty SecretStorage', async () => {
    assert.equal(await importDevSecrets(memorySecrets(), quiet), true);
    // The first import must not consume the file: the reload's activation needs it again.
    const afterReload = memorySecrets();
    assert.equal(await importDevSecrets(afterReload, quiet), true);
    assert.equal(afterReload.apiKeys.get('Sandbox'), 'sbx_free_test');
    assert.equal(afterReload.signer, 'ab'.repeat(32));
  });

  it('leaves alone a key the user set in the session', async () => {
    const secrets = memorySecrets();
    secrets.apiKeys.set('Sandbox', 'the-users-own-key');
    await importDevSecrets(secrets, quiet);
    assert.equal(secrets.apiKeys.get('Sandbox'), 'the-users-own-key');
  });

  it('does nothing outside npm start (no variable)', async () => {
    delete process.env.ALEPHIUM_GATEWAY_DEV_SECRETS_FILE;
    const secrets = memorySecrets();
    assert.equal(await importDevSecrets(secrets, quiet), false);
    assert.equal(secrets.apiKeys.size, 0);
  });
});
