import { strict as assert } from 'node:assert';
import { devnetPreset, devnetPresetDescription } from '../../../src/core/profiles/devnetPreset';
import { readProjectConfig } from '../../../src/core/artifacts/projectConfig';

const fromConfig = (nodeUrl: string) =>
  devnetPreset([readProjectConfig(`export default { networks: { devnet: { nodeUrl: '${nodeUrl}' } } }`)]);

describe('the Local devnet preset in a remote window', () => {
  it('says nothing of where it runs in a local window', () => {
    assert.equal(
      devnetPresetDescription(devnetPreset([]), undefined),
      'a node profile for @alephium/cli devnet: no more steps',
    );
    assert.equal(
      devnetPresetDescription(fromConfig('http://localhost:12973'), undefined),
      "from this workspace's alephium.config: a node profile, no more steps",
    );
  });

  it('says the devnet is on the machine where the workspace runs, naming the kind of remote', () => {
    assert.equal(
      devnetPresetDescription(devnetPreset([]), 'ssh-remote'),
      'a node profile for @alephium/cli devnet on the machine where the workspace runs (SSH): no more steps',
    );
    assert.equal(
      devnetPresetDescription(fromConfig('http://127.0.0.1:12973'), 'wsl'),
      "from this workspace's alephium.config, on the machine where the workspace runs (WSL): a node profile, no more steps",
    );
    assert.match(devnetPresetDescription(devnetPreset([]), 'dev-container'), /runs \(Dev Container\)/);
    assert.match(devnetPresetDescription(devnetPreset([]), 'codespaces'), /runs \(Codespaces\)/);
  });

  it('names no remote it does not know, and says nothing for a devnet on another host', () => {
    assert.equal(
      devnetPresetDescription(devnetPreset([]), 'some-resolver'),
      'a node profile for @alephium/cli devnet on the machine where the workspace runs: no more steps',
    );
    assert.equal(
      devnetPresetDescription(devnetPreset([]), 'constructor'),
      'a node profile for @alephium/cli devnet on the machine where the workspace runs: no more steps',
    );
    assert.equal(
      devnetPresetDescription(fromConfig('https://devnet.example.org'), 'ssh-remote'),
      "from this workspace's alephium.config: a node profile, no more steps",
    );
  });
});
