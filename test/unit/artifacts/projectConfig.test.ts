import { strict as assert } from 'node:assert';
import {
  MAX_PROJECT_CONFIG_CHARS,
  projectFilesGlob,
  projectDirProblem,
  readProjectConfig,
} from '../../../src/core/artifacts/projectConfig';

const CLI_STYLE = `import { Configuration } from '@alephium/cli'

export type Settings = {}
const defaults: Settings = { btcPrice: 1 }

// a comment that names sourceDir: 'nope'
const configuration: Configuration<Settings> = {
  sourceDir: './ralph/',
  artifactDir: "build/artifacts",
  deploymentsDir: 'deploy',
  defaultNetwork: 'testnet',
  networks: {
    devnet: {
      nodeUrl: 'http://127.0.0.1:22973',
      privateKeys: ['a642942e67258589cd2b1822c631506632db5a12aabcf413604e785300d762a5'],
      networkId: 4,
      settings: { miningEnabled: true, nested: { deeper: { deepest: 1 } } },
    },
    "testnet": {
      nodeUrl: process.env.NODE_URL as string,
      mnemonic: 'vault alarm sad mass witness property virus style good flower rice alpha viable',
    },
    mainnet: { nodeUrl: \`https://\${host}\`, networkId: 'zero' },
  },
  /* sourceDir: 'also nope' */
}

export default configuration
`;

describe('project config (alephium.config.* read without running it)', () => {
  it('reads the folders, the networks and the default network written as literals', () => {
    const config = readProjectConfig(CLI_STYLE);
    assert.equal(config.sourceDir, 'ralph');
    assert.equal(config.artifactDir, 'build/artifacts');
    assert.equal(config.deploymentsDir, 'deploy');
    assert.equal(config.defaultNetwork, 'testnet');
    assert.deepEqual(config.networks.devnet, { nodeUrl: 'http://127.0.0.1:22973', networkId: 4 });
  });

  it('says which values it could not read and keeps the CLI defaults for them', () => {
    const config = readProjectConfig(CLI_STYLE);
    assert.deepEqual(config.networks.testnet, { networkId: 1 });
    assert.deepEqual(config.networks.mainnet, { networkId: 0 });
    assert.deepEqual(config.problems, [
      'networks.testnet.nodeUrl is not used: it is not a plain string',
      'networks.mainnet.nodeUrl is not used: it is not a plain string',
      'networks.mainnet.networkId is not a number from 0 to 255; 0 is used',
    ]);
  });

  it('never reads a private key or a mnemonic', () => {
    const shown = JSON.stringify(readProjectConfig(CLI_STYLE));
    assert.ok(!shown.includes('a642942e'), shown);
    assert.ok(!shown.includes('vault alarm'), shown);
  });

  it("uses the CLI's defaults when the config names no folder", () => {
    const config = readProjectConfig(
      "export default { networks: { devnet: { nodeUrl: 'http://localhost:22973' } } }",
    );
    assert.equal(config.sourceDir, 'contracts');
    assert.equal(config.artifactDir, 'artifacts');
    assert.equal(config.deploymentsDir, 'deployments');
    assert.deepEqual(config.networks, { devnet: { nodeUrl: 'http://localhost:22973', networkId: 4 } });
    assert.deepEqual(config.problems, []);
  });

  it('reads a JSON project file the same way', () => {
    const config = readProjectConfig('{"sourceDir": "src/contracts", "artifactDir": "out"}');
    assert.equal(config.sourceDir, 'src/contracts');
    assert.equal(config.artifactDir, 'out');
  });

  it('refuses folders that would widen a search or leave the project, and node URLs with credentials', () => {
    const config = readProjectConfig(`export default {
      sourceDir: '../elsewhere', artifactDir: '**/x', deploymentsDir: '{a,b}',
      networks: { devnet: { nodeUrl: 'http://user:pw@127.0.0.1:22973' }, testnet: { nodeUrl: 'file:///etc/passwd' } },
    }`);
    assert.equal(config.sourceDir, 'contracts');
    assert.equal(config.artifactDir, 'artifacts');
    assert.equal(config.deploymentsDir, 'deployments');
    assert.deepEqual(config.networks.devnet, { networkId: 4 });
    assert.deepEqual(config.networks.testnet, { networkId: 1 });
    assert.equal(config.problems.length, 5, config.problems.join('\n'));
    assert.ok(config.problems.some((p) => p.includes('carries credentials')));
  });

  it('names each kind of bad folder', () => {
    assert.equal(projectDirProblem('contracts'), undefined);
    assert.equal(projectDirProblem('./a/b-c_d.e/'), undefined);
    assert.match(projectDirProblem('/abs') ?? '', /absolute/);
    assert.match(projectDirProblem('a/../b') ?? '', /leaves/);
    assert.match(projectDirProblem('a\\b') ?? '', /characters/);
    assert.match(projectDirProblem('$HOME') ?? '', /characters/);
    assert.match(projectDirProblem('') ?? '', /empty/);
  });

  it('reads hostile text in one pass: deep nesting, unbalanced brackets and unterminated strings end cleanly', () => {
    const deep = 'export default ' + '{a:'.repeat(60_000) + '1' + '}'.repeat(60_000);
    assert.equal(readProjectConfig(deep).sourceDir, 'contracts');
    const unbalanced = "export default { sourceDir: 'x', a: ]]]]" + ')'.repeat(100_000);
    assert.equal(readProjectConfig(unbalanced).sourceDir, 'x');
    assert.equal(readProjectConfig("{ sourceDir: 'never closed").sourceDir, 'contracts');
    assert.equal(readProjectConfig('/* never closed ' + 'x'.repeat(200_000)).sourceDir, 'contracts');
  });

  it('reads nothing from a config larger than the bound', () => {
    const huge = `export default { sourceDir: 'big' }` + ' '.repeat(MAX_PROJECT_CONFIG_CHARS);
    const config = readProjectConfig(huge);
    assert.equal(config.sourceDir, 'contracts');
    assert.match(config.problems[0] ?? '', /over 256 KB/);
  });
});

describe('project files pattern', () => {
  it("is today's pattern for the CLI's defaults, and adds each configured folder once", () => {
    assert.equal(
      projectFilesGlob([]),
      '**/{artifacts/**/*.ral.json,artifacts/.project.json,artifacts/**/.project.json,artifacts/.deployments.*.json,deployments/.deployments.*.json}',
    );
    const custom = readProjectConfig("export default { artifactDir: 'build', deploymentsDir: 'deploy' }");
    const glob = projectFilesGlob([custom, custom]);
    assert.ok(glob.includes(',build/**/*.ral.json,'), glob);
    assert.ok(glob.endsWith(',deployments/.deployments.*.json,deploy/.deployments.*.json}'), glob);
    assert.equal(glob.split('build/**/*.ral.json').length, 2);
  });
});
