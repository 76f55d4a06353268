/** One bad entry of a deployments file is one lost entry: the others are kept, the bad one is a problem at its line. */
import assert from 'node:assert/strict';
import { ArtifactRegistry, parseDeploymentsText } from '../../../src/core/artifacts';
import { clone, fixtureFiles, fixtureJson } from './helpers';

const TESTNET = 'deployments/.deployments.testnet.json';
const BAD_KEY = '[Open](command:workbench.extensions.installExtension)';

/** The fixture's testnet file with three entries, the middle one under a key that is not Name or Name:tag. */
function fileWithBadKey(): string {
  const json = clone(fixtureJson(TESTNET)) as { contracts: Record<string, unknown> };
  const vault = json.contracts.Vault;
  json.contracts = { Vault: vault, [BAD_KEY]: vault, 'Vault:2': vault };
  return JSON.stringify(json, null, 2);
}

describe('artifacts: one bad deployments entry is one lost entry', () => {
  it('keeps the other entries and returns the bad one as a problem at its key', () => {
    const text = fileWithBadKey();
    const parsed = parseDeploymentsText(text, TESTNET);
    assert.deepEqual(
      parsed.contracts.map((c) => c.name),
      ['Vault', 'Vault:2'],
    );
    assert.equal(parsed.problems.length, 1);
    const problem = parsed.problems[0]!;
    assert.match(problem.message, /is not a deployment key/);
    assert.ok(!problem.message.includes(']('), 'the key is quoted inert');
    const keyLine = text.split('\n').findIndex((l) => l.includes(JSON.stringify(BAD_KEY)));
    assert.ok(keyLine > 0);
    assert.equal(problem.position?.line, keyLine);
    assert.equal(problem.position?.offset, text.indexOf(JSON.stringify(BAD_KEY)));
    assert.equal(
      text
        .split('\n')
        [keyLine]!.slice(problem.position?.column ?? 0)
        .startsWith('"[Open]'),
      true,
    );
  });

  it('a malformed entry (a bad code hash) is lost alone too, at its own key', () => {
    const json = clone(fixtureJson(TESTNET)) as { contracts: Record<string, Record<string, unknown>> };
    const vault = json.contracts.Vault!;
    json.contracts = { Vault: vault, 'Vault:broken': { ...vault, codeHash: 'zz' } };
    const text = JSON.stringify(json, null, 2);
    const parsed = parseDeploymentsText(text, TESTNET);
    assert.deepEqual(
      parsed.contracts.map((c) => c.name),
      ['Vault'],
    );
    assert.equal(parsed.problems[0]?.field, 'contracts.Vault:broken.codeHash');
    assert.equal(parsed.problems[0]?.position?.offset, text.indexOf('"Vault:broken"'));
  });

  it("the registry lists the file's good deployments and records one problem, not the whole file", () => {
    const files = fixtureFiles().map((f) =>
      f.path.endsWith(TESTNET) ? { ...f, text: fileWithBadKey() } : f,
    );
    assert.ok(
      files.some((f) => f.path.endsWith(TESTNET)),
      'the fixture has a testnet deployments file',
    );
    const registry = ArtifactRegistry.fromFiles(files);
    assert.deepEqual(
      registry
        .deployments('testnet')
        .map((d) => d.name)
        .sort(),
      ['Vault', 'Vault:2'],
    );
    assert.equal(registry.problems.length, 1);
    assert.ok(registry.problems[0]!.position !== undefined);
  });
});
