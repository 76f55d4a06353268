// The extension's requests behind a company's network, in the real VS Code: `http.proxy` (with
// `http.proxyAuthorization`) names a CONNECT proxy the test runs on 127.0.0.1, and the gateway (the
// sandbox behind an https front) has a certificate that only the test's own CA vouches for, trusted
// through NODE_EXTRA_CA_CERTS. `gateway.test` has no address anywhere but in the proxy's table, so an
// answer from it went through the proxy; an answer from https://localhost went straight.
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { startSandbox, type Sandbox } from '../../../sandbox';
import type { AlephiumGatewayApi } from '../../../src/extension';
import { CommandIds } from '../../../src/constants';
import {
  PROXIED_HOST,
  makeTestCertificates,
  startConnectProxy,
  startTlsFront,
  type TestCertificates,
  type TestProxy,
} from '../../helpers/tlsNetwork';
import { extensionApi, removeProfile } from './sandboxFixture';
import { until } from '../../helpers/until';

const PROXIED = 'Through the proxy';
const DIRECT = 'TLS on this machine';
const PROXY_AUTHORIZATION = 'Basic cHJveHktdXNlcjpwcm94eS1wYXNz';

async function setHttp(name: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('http').update(name, value, vscode.ConfigurationTarget.Global);
  await until(`http.${name} to read back`, () =>
    vscode.workspace.getConfiguration('http').inspect(name)?.globalValue === value ? true : undefined,
  );
}

/** Adds a gateway profile at `baseUrl` (it becomes the active one) and gives it the sandbox's key. */
async function connect(sandbox: Sandbox, name: string, baseUrl: string) {
  await vscode.commands.executeCommand(CommandIds.addProfile, {
    name,
    kind: 'gateway',
    baseUrl,
    slug: sandbox.slug,
    network: 'devnet',
    plan: 'pro',
  });
  return vscode.commands.executeCommand<{ ok: boolean; message: string }>(CommandIds.setApiKey, {
    key: sandbox.apiKeys.pro,
  });
}

describe("requests through VS Code's proxy to a gateway a custom CA vouches for", () => {
  let api: AlephiumGatewayApi;
  let sandbox: Sandbox;
  let certificates: TestCertificates;
  let front: { port: number; close(): Promise<void> };
  let proxy: TestProxy;
  const previousExtraCertificates = process.env.NODE_EXTRA_CA_CERTS;

  before(async () => {
    api = await extensionApi();
    certificates = makeTestCertificates();
    sandbox = await startSandbox({ port: 0, blockTimeMs: 0 });
    front = await startTlsFront(certificates, Number(new URL(sandbox.baseUrl).port));
    proxy = await startConnectProxy({ authorization: PROXY_AUTHORIZATION });
    // Node reads the variable once at start; the extension reads it again for each client it builds.
    process.env.NODE_EXTRA_CA_CERTS = certificates.caFile;
    await setHttp('proxyAuthorization', PROXY_AUTHORIZATION);
    await setHttp('proxy', proxy.url);
  });

  after(async () => {
    await removeProfile(PROXIED).catch(() => undefined);
    await removeProfile(DIRECT).catch(() => undefined);
    await setHttp('proxy', undefined);
    await setHttp('proxyAuthorization', undefined);
    if (previousExtraCertificates === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
    else process.env.NODE_EXTRA_CA_CERTS = previousExtraCertificates;
    await proxy?.close();
    await front?.close();
    await sandbox?.close();
    certificates?.remove();
  });

  it('reaches https://gateway.test through the CONNECT proxy of http.proxy; the key never crosses it in clear', async () => {
    const checked = await connect(sandbox, PROXIED, `https://${PROXIED_HOST}:${front.port}`);
    assert.equal(checked.ok, true, checked.message);
    assert.match(checked.message, /node v4\.6\.0/);
    await api.refreshNode();
    const status = api.nodeStatus();
    assert.equal(status?.sync, 'synced', status?.problem);
    assert.equal(status?.version, 'v4.6.0');
    assert.ok(proxy.log.length >= 1, 'the proxy was asked');
    for (const entry of proxy.log) {
      assert.equal(entry.line, `CONNECT ${PROXIED_HOST}:${front.port}`);
      assert.equal(entry.headers['proxy-authorization'], PROXY_AUTHORIZATION);
      assert.equal(entry.headers.authorization, undefined);
    }
    const through = proxy.sentThrough();
    assert.ok(through.length > 0);
    assert.equal(through.includes(sandbox.apiKeys.pro), false, 'the key went only inside TLS');
  });

  it('reaches https://localhost directly with the same CA: loopback never goes through the proxy', async () => {
    const checked = await connect(sandbox, DIRECT, `https://localhost:${front.port}`);
    assert.equal(checked.ok, true, checked.message);
    await api.refreshNode();
    assert.equal(api.nodeStatus()?.sync, 'synced', api.nodeStatus()?.problem);
    // Requests of the previous profile may still open tunnels to gateway.test; none is for this machine.
    assert.deepEqual(
      proxy.log.filter((entry) => entry.line !== `CONNECT ${PROXIED_HOST}:${front.port}`),
      [],
      'no CONNECT for this machine',
    );
  });
});
