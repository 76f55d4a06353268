import { strict as assert } from 'node:assert';
import { DEFAULT_DEVNET_URL, devnetPreset, devnetPresetLabel } from '../../../src/core/profiles/devnetPreset';
import { readProjectConfig } from '../../../src/core/artifacts/projectConfig';

const config = (devnet: string) =>
  readProjectConfig(`export default { networks: { devnet: { ${devnet} } } }`);

describe('the Local devnet preset of Add Profile', () => {
  it('is a node profile on devnet at 127.0.0.1:22973, network id 4, without a project config', () => {
    const preset = devnetPreset([]);
    assert.deepEqual(preset, {
      kind: 'node',
      network: 'devnet',
      baseUrl: DEFAULT_DEVNET_URL,
      networkId: 4,
      from: 'default',
    });
    assert.equal(devnetPresetLabel(preset), 'Local devnet (http://127.0.0.1:22973, network id 4)');
  });

  it("takes the workspace config's devnet nodeUrl and networkId", () => {
    const preset = devnetPreset([
      readProjectConfig('export default { networks: { testnet: {} } }'),
      config("nodeUrl: 'http://localhost:12973/', networkId: 5"),
    ]);
    assert.equal(preset.baseUrl, 'http://localhost:12973');
    assert.equal(preset.networkId, 5);
    assert.equal(preset.from, 'workspace');
    assert.equal(devnetPresetLabel(preset), 'Local devnet (http://localhost:12973, network id 5)');
  });

  it('does not offer a plain http URL to another machine, nor a devnet on mainnet or testnet ids', () => {
    const remote = devnetPreset([config("nodeUrl: 'http://192.168.1.20:22973'")]);
    assert.equal(remote.baseUrl, DEFAULT_DEVNET_URL);
    assert.match(remote.skipped ?? '', /must use https/);
    const onMainnet = devnetPreset([config("nodeUrl: 'http://127.0.0.1:22973', networkId: 0")]);
    assert.equal(onMainnet.from, 'default');
    assert.equal(onMainnet.networkId, 4);
    assert.match(onMainnet.skipped ?? '', /networkId 0/);
    // A later config with a usable URL is still taken.
    const next = devnetPreset([
      config("nodeUrl: 'http://10.0.0.1:22973'"),
      config("nodeUrl: 'https://devnet.example:22973'"),
    ]);
    assert.equal(next.baseUrl, 'https://devnet.example:22973');
  });

  it('strips a long run of trailing slashes in linear time', () => {
    const preset = devnetPreset([
      { networks: { devnet: { nodeUrl: `http://127.0.0.1:22973${'/'.repeat(100_000)}`, networkId: 4 } } },
    ]);
    assert.equal(preset.baseUrl, 'http://127.0.0.1:22973');
  });
});
