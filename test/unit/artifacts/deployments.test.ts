import assert from 'node:assert/strict';
import {
  ArtifactError,
  ArtifactRegistry,
  networkOfDeploymentsPath,
  parseDeployments,
  parseDeploymentsText,
} from '../../../src/core/artifacts';
import {
  ADDR_G1,
  TOKEN,
  VAULT,
  VAULT_DEBUG_HASH,
  VAULT_HASH,
  VAULT_SECOND,
  clone,
  fixtureFiles,
  fixtureJson,
  fixtureText,
} from './helpers';

const DEVNET = 'deployments/.deployments.devnet.json';
const TESTNET = 'deployments/.deployments.testnet.json';

describe('artifacts: deployments files', () => {
  it('reads the array form (one object per deployer) with name → address, code hash, group', () => {
    const d = parseDeploymentsText(fixtureText(DEVNET), DEVNET);
    assert.equal(d.network, 'devnet');
    assert.equal(d.deployers.length, 2);
    assert.deepEqual(
      d.contracts.map((c) => [c.name, c.artifactName, c.address, c.group]),
      [
        ['SimpleToken', 'SimpleToken', TOKEN, 1],
        ['Vault', 'Vault', VAULT, 1],
        ['Vault:second', 'Vault', VAULT_SECOND, 2],
      ],
    );
    assert.equal(d.contracts[1]?.codeHash, VAULT_DEBUG_HASH);
  });

  it('reads the single-object form', () => {
    const d = parseDeployments(fixtureJson(TESTNET), TESTNET);
    assert.equal(d.network, 'testnet');
    assert.deepEqual(d.deployers, [ADDR_G1]);
    assert.deepEqual(
      d.contracts.map((c) => [c.name, c.address, c.codeHash]),
      [['Vault', VAULT, VAULT_HASH]],
    );
  });

  it('takes the network from the conventional file name only', () => {
    assert.equal(networkOfDeploymentsPath('/ws/deployments/.deployments.mainnet.json'), 'mainnet');
    assert.equal(networkOfDeploymentsPath('C:\\ws\\artifacts\\.deployments.devnet.json'), 'devnet');
    assert.equal(networkOfDeploymentsPath('deployments/deployments.json'), undefined);
  });

  it('rejects an address that is not the address of its contract id, naming the field', () => {
    const json = clone(fixtureJson(TESTNET)) as {
      contracts: { Vault: { contractInstance: { address: string } } };
    };
    json.contracts.Vault.contractInstance.address = TOKEN;
    const parsed = parseDeployments(json, TESTNET);
    assert.equal(parsed.contracts.length, 0);
    const [e] = parsed.problems;
    assert.ok(e instanceof ArtifactError);
    assert.equal(e.field, 'contracts.Vault.contractInstance');
    assert.match(e.message, /is not the address of contract id/);
  });

  it('rejects a wrong group and a malformed address with file and field', () => {
    const group = clone(fixtureJson(TESTNET)) as {
      contracts: { Vault: { contractInstance: { groupIndex: number } } };
    };
    group.contracts.Vault.contractInstance.groupIndex = 3;
    assert.match(
      parseDeployments(group, TESTNET).problems[0]?.message ?? '',
      /groupIndex: 3, but the address is in group 1/,
    );
    const bad = clone(fixtureJson(TESTNET)) as { deployerAddress: string };
    bad.deployerAddress = 'not-an-address';
    assert.throws(
      () => parseDeployments(bad, TESTNET),
      (e: unknown) =>
        e instanceof ArtifactError &&
        e.field === 'deployerAddress' &&
        /^\.deployments\.testnet\.json: deployerAddress/.test(e.message),
    );
  });
});

describe('artifacts: deployment keys', () => {
  it('accepts Name and Name:tag keys and refuses any other, naming the file and the key', () => {
    const ok = clone(fixtureJson(TESTNET)) as { contracts: Record<string, unknown> };
    const vault = ok.contracts.Vault;
    ok.contracts = { Vault: vault, 'Vault:2': vault, 'Vault:v1.2-rc_3': vault };
    assert.deepEqual(
      parseDeployments(ok, TESTNET).contracts.map((c) => [c.name, c.artifactName]),
      [
        ['Vault', 'Vault'],
        ['Vault:2', 'Vault'],
        ['Vault:v1.2-rc_3', 'Vault'],
      ],
    );
    for (const key of [
      '[Open](command:workbench.extensions.installExtension)',
      'Vault:[x](command:y)',
      'Vault two',
      ':tag',
      'Vault:',
      'Vault:a:b',
      'Vault\u202e',
      'V'.repeat(200),
    ]) {
      const bad = clone(fixtureJson(TESTNET)) as { contracts: Record<string, unknown> };
      bad.contracts = { [key]: vault };
      const caught = parseDeployments(bad, TESTNET).problems[0];
      assert.ok(caught instanceof ArtifactError, key);
      assert.equal(caught.field, 'contracts');
      assert.match(
        caught.message,
        /^\.deployments\.testnet\.json: contracts: ".*" is not a deployment key: Name or Name:tag/,
      );
      assert.ok(!caught.message.includes(']('), caught.message);
    }
  });
});

describe('artifacts: registry, address matching and drift', () => {
  const reg = ArtifactRegistry.fromFiles(fixtureFiles());

  it('indexes contracts, scripts, structs and deployments without problems', () => {
    assert.deepEqual(
      reg.problems.map((p) => p.message),
      [],
    );
    assert.deepEqual(reg.contracts.map((c) => c.name).sort(), ['SimpleToken', 'Vault']);
    assert.deepEqual(
      reg.scripts.map((s) => s.name),
      ['Deposit'],
    );
    assert.deepEqual([...reg.structs.keys()], ['Position', 'Account']);
    assert.equal(reg.deployments('devnet').length, 3);
    assert.equal(reg.deployments().length, 4);
  });

  it('finds artifacts by name and by code hash (release and debug build)', () => {
    assert.equal(reg.byName('Vault')?.codeHash, VAULT_HASH);
    assert.equal(reg.byCodeHash(VAULT_HASH.toUpperCase())?.name, 'Vault');
    assert.equal(reg.byCodeHash(VAULT_DEBUG_HASH)?.name, 'Vault');
    assert.equal(reg.byCodeHash('00'.repeat(32)), undefined);
  });

  it('matches an address to its deployment name and artifact, also for a Name:tag deployment', () => {
    const m = reg.matchAddress(VAULT_SECOND);
    assert.equal(m?.deployment?.name, 'Vault:second');
    assert.equal(m?.artifact?.name, 'Vault');
    assert.equal(m?.network, 'devnet');
    assert.equal(reg.matchAddress(VAULT, 'testnet')?.network, 'testnet');
    assert.equal(reg.matchAddress(VAULT_SECOND, 'testnet'), undefined);
  });

  it('drift: match, match with the debug build, drift with a hint, unknown', () => {
    const vault = reg.byName('Vault')!;
    assert.equal(reg.checkDrift(vault, VAULT_HASH).status, 'match');
    const dbg = reg.checkDrift(vault, VAULT_DEBUG_HASH);
    assert.deepEqual([dbg.status, dbg.debugBuild], ['match', true]);
    const drift = reg.checkDrift(vault, 'ab'.repeat(32));
    assert.equal(drift.status, 'drift');
    assert.match(drift.message, /differs from artifact Vault \(94d86638…\)\. Recompile/);
    const other = reg.checkDrift(vault, reg.byName('SimpleToken')!.codeHash);
    assert.equal(other.status, 'drift');
    assert.equal(other.matchingArtifact?.name, 'SimpleToken');
    assert.equal(reg.checkDrift(undefined, 'ab'.repeat(32)).status, 'unknown');
    assert.equal(reg.checkDrift(vault, undefined).status, 'unknown');
  });

  it('resolve: deployments first (so a recompiled artifact shows drift), then the code hash', () => {
    const r = reg.resolve(VAULT_SECOND, 'cd'.repeat(32));
    assert.equal(r.artifact?.name, 'Vault');
    assert.equal(r.drift.status, 'drift');
    const byHash = reg.resolve('tgx7VNFoP9DJiFMFgXXtafQZkUvyEdDHT9ryamHJYrjq', VAULT_HASH);
    assert.deepEqual(
      [byHash.artifact?.name, byHash.deployment, byHash.drift.status],
      ['Vault', undefined, 'match'],
    );
  });

  it('records a broken file as a problem and keeps the others', () => {
    const files = fixtureFiles().map((f) =>
      f.path.endsWith('SimpleToken.ral.json')
        ? { ...f, text: f.text.replace('"codeHash"', '"codeHashh"') }
        : f,
    );
    const r = ArtifactRegistry.fromFiles(files);
    assert.equal(r.problems.length, 1);
    assert.match(r.problems[0]!.message, /SimpleToken\.ral\.json: codeHash:/);
    assert.equal(r.byName('Vault')?.name, 'Vault');
    assert.equal(r.byName('SimpleToken'), undefined);
  });
});
