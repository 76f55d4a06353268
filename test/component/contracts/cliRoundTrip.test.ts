/**
 * The CLI accepts the extension's deployments entry unchanged: a Counter deployed on the sandbox's devnet
 * with the extension's code (the debug build, as the CLI deploys on a devnet), recorded in
 * `deployments/.deployments.devnet.json` by the extension's writer, then `@alephium/cli`'s own `deploy()`
 * run over that file with a deploy script calling `deployer.deployContract(Counter, …)` with the same
 * initial fields and `skipRecompileOnDeployment: true`, saved as the CLI's deploy command saves it. The CLI
 * must skip the deploy (no transaction built or sent) and leave the file byte for byte as it was.
 *
 * The CLI sends no Authorization header; a loopback proxy in this test adds the sandbox key's Bearer header
 * (the sandbox's auth stays as it is). Everything talks to 127.0.0.1 only.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Deployments, deploy, getDeploymentFilePath, type Configuration } from '@alephium/cli';
import { ArtifactRegistry } from '../../../src/core/artifacts';
import { updateDeploymentsFile } from '../../../src/core/artifacts/deploymentsFile';
import { GatewayClient } from '../../../src/core/gateway/client';
import { publicKeyFromPrivateKey } from '../../../src/core/protocol/keys';
import {
  addDeployment,
  buildAndVerifyDeploy,
  deploymentRecord,
  prepareDeploy,
} from '../../../src/core/contracts/actions';
import {
  TransferVerificationError,
  signVerifiedTransfer,
  verifyScriptTx,
} from '../../../src/core/signing/verify';
import { startSandbox, type Sandbox } from '../../../sandbox';
import { sandboxProfile } from '../../../sandbox/testing/helpers';

const ROOT = join(import.meta.dirname, '../../..');
const ARTIFACTS = join(ROOT, 'sandbox/project/artifacts');
const KEY = 'sbx_cli_round_trip';
/** The @alephium/web3 the CLI loads (its CommonJS build): the deploy script must use the same instance. */
const WEB3_OF_CLI = createRequire(join(ROOT, 'node_modules/@alephium/cli/package.json')).resolve(
  '@alephium/web3',
);

/** A loopback proxy to `target` that adds the sandbox key, as a user's gateway profile would. */
async function authProxy(target: string): Promise<{ url: string; server: Server }> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const out = httpRequest(
      {
        host: '127.0.0.1',
        port: upstream.port,
        method: req.method,
        path: `${upstream.pathname}${req.url ?? '/'}`,
        headers: { ...req.headers, host: upstream.host, authorization: `Bearer ${KEY}` },
        timeout: 10_000,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('timeout', () => out.destroy(new Error('upstream timeout')));
    out.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  return { url: `http://127.0.0.1:${address.port}`, server };
}

/** The project's deploy script, as a user writes it: Counter from its artifact and .project.json. */
function deployScript(owner: string): string {
  const info = `require(${JSON.stringify(join(ARTIFACTS, '.project.json'))}).infos.Counter`;
  return `const web3 = require(${JSON.stringify(WEB3_OF_CLI)});
const artifact = require(${JSON.stringify(join(ARTIFACTS, 'Counter.ral.json'))});
const info = ${info};
class CounterInstance extends web3.ContractInstance {}
class CounterFactory extends web3.ContractFactory {
  at(address) { return new CounterInstance(address); }
}
const Counter = new CounterFactory(web3.Contract.fromJson(artifact, info.bytecodeDebugPatch, info.codeHashDebug));
exports.default = async (deployer) => {
  await deployer.deployContract(Counter, {
    initialFields: { owner: ${JSON.stringify(owner)}, count: 0n, paused: false },
  });
};
`;
}

describe('@alephium/cli accepts the extension’s devnet deployments entry unchanged', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let client: GatewayClient;
  let proxy: { url: string; server: Server };
  let project: string;

  before(async () => {
    // Blocks come by themselves, as on a devnet: a CLI that redeployed would see its tx confirmed and the
    // test would fail on its assertions rather than wait for a block.
    sb = await startSandbox({ blockTimeMs: 250 });
    sb.limiter.add(KEY, 'enterprise', 'active', { perSecond: 10_000, perMonth: 10_000_000 });
    client = new GatewayClient({
      profile: sandboxProfile(sb, 'enterprise', { perSecond: 10_000 }),
      keyProvider: () => KEY,
      retry: { maxServerRetries: 0 },
    });
    proxy = await authProxy(sb.apiUrl);
    project = mkdtempSync(join(tmpdir(), 'alephium-cli-round-trip-'));
    mkdirSync(join(project, 'artifacts'));
    mkdirSync(join(project, 'scripts'));
    for (const f of ['Counter.ral.json', '.project.json'])
      copyFileSync(join(ARTIFACTS, f), join(project, 'artifacts', f));
  });
  after(async () => {
    client.dispose();
    await new Promise<void>((resolve) => proxy.server.close(() => resolve()));
    await sb.close();
    rmSync(project, { recursive: true, force: true });
  });

  it('skips the deploy of Counter: no transaction built or sent, the file byte-identical', async () => {
    const account = sb.accounts[0]!;
    const signer = { ...account, publicKey: publicKeyFromPrivateKey(account.privateKey) };
    // The extension's devnet deploy, as the Deploy command runs it (the network id pins the debug build).
    const registry = ArtifactRegistry.fromFiles(
      ['Counter.ral.json', '.project.json'].map((n) => ({
        path: `artifacts/${n}`,
        text: readFileSync(join(ARTIFACTS, n), 'utf8'),
      })),
    );
    const fields = { owner: signer.address, count: '0', paused: 'false' };
    const prepared = prepareDeploy(
      { artifact: 'Counter', fields },
      registry.byName('Counter')!,
      signer.address,
      registry,
      { networkId: 4 },
    );
    assert.equal(prepared.codeBuild, 'debug');
    const built = await buildAndVerifyDeploy(
      client,
      prepared,
      signer.publicKey,
      {},
      {
        verifyScriptTx,
        TransferVerificationError,
      },
    );
    const signed = signVerifiedTransfer(built.verified, signer.privateKey);
    await client.submitTransaction(signed);
    sb.mine();
    const status = await client.getTxStatus(signed.txId, {}, { fresh: true });
    assert.equal(status.type, 'Confirmed');
    const record = deploymentRecord(prepared, built, {
      name: 'Counter',
      signature: signed.signature,
      blockHash: status.type === 'Confirmed' ? status.blockHash : undefined,
    });
    const written = await updateDeploymentsFile(project, 'devnet', (existing) =>
      addDeployment(existing, record),
    );
    const before = readFileSync(written.file);

    // The CLI's deploy command over that file (scripts/deploy.ts's deployAndSaveProgress).
    writeFileSync(join(project, 'scripts', '0_deploy_counter.js'), deployScript(signer.address));
    const configuration: Configuration = {
      sourceDir: join(project, 'contracts'),
      artifactDir: join(project, 'artifacts'),
      deploymentScriptDir: join(project, 'scripts'),
      deploymentsDir: join(project, 'deployments'),
      skipRecompileOnDeployment: true,
      networks: {
        devnet: { nodeUrl: proxy.url, networkId: 4, privateKeys: [signer.privateKey], confirmations: 1 },
      } as Configuration['networks'],
    };
    const deploymentsFile = getDeploymentFilePath(configuration, 'devnet');
    assert.equal(deploymentsFile, written.file, 'the CLI reads the file the extension wrote');
    const deployments = await Deployments.from(deploymentsFile);
    const buildsBefore = sb.requests.filter((r) => /unsigned-tx|submit/.test(r.path)).length;
    const ran = await deploy(configuration, 'devnet', deployments, undefined, undefined, true);
    await deployments.saveToFile(deploymentsFile, configuration, false);

    assert.equal(ran, true, 'the CLI ran the deploy script');
    assert.equal(
      sb.requests.filter((r) => /unsigned-tx|submit/.test(r.path)).length,
      buildsBefore,
      'no transaction was built or sent: the deploy was skipped',
    );
    assert.ok(
      sb.requests.some((r) => r.path.includes(`/transactions/status`) && r.path.includes(signed.txId)),
      'the CLI checked that the recorded transaction exists (through the proxy)',
    );
    assert.equal(sb.chain.mempoolSize, 0);
    assert.deepEqual(readFileSync(deploymentsFile), before, 'the deployments file is byte-identical');
  });
});
