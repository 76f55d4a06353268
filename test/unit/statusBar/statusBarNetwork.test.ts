import { strict as assert } from 'node:assert';
import { statusBarView, type StatusBarInput } from '../../../src/core/statusBar/statusBarView';

const now = 1_700_000_000_000;
const base: StatusBarInput = {
  profileName: 'Sandbox',
  plan: 'free',
  network: 'devnet',
  mainnet: false,
  limitPerSecond: 5,
  headroom: undefined,
  usage: undefined,
  lastError: undefined,
  now,
};

describe('status bar: which network', () => {
  it('names the profile and its network beside the headroom', () => {
    assert.equal(statusBarView(base).text, '$(pulse) Alephium: Sandbox · devnet · 5/s');
    const view = statusBarView({
      ...base,
      profileName: 'testnet',
      network: 'testnet',
      headroom: { limit: 5, remaining: 4, resetAt: now + 500, observedAt: now },
    });
    // One word when the profile is named after its network.
    assert.match(view.text, /^\$\(pulse\) Alephium: testnet · 4\/5 req\/s · resets \d\d:\d\d:\d\d$/);
    assert.equal(view.colour, 'normal');
  });

  it('gives mainnet its own colour, which only an error overrides', () => {
    const mainnet = { ...base, profileName: 'Main', network: 'mainnet', mainnet: true };
    const view = statusBarView(mainnet);
    assert.equal(view.text, '$(pulse) Alephium: Main · mainnet · 5/s');
    assert.equal(view.severity, 'normal');
    assert.equal(view.colour, 'mainnet');
    assert.match(view.tooltip.markdown, /\*\*mainnet\*\*/);
    assert.equal(statusBarView(base).colour, 'normal');
    const rejected = statusBarView({
      ...mainnet,
      lastError: { kind: 'unauthorized', message: 'no', at: now },
    });
    assert.equal(rejected.text, '$(error) Alephium: Main · mainnet · API key rejected');
    assert.equal(rejected.colour, 'error');
    assert.equal(statusBarView({ ...mainnet, hasKey: false }).colour, 'mainnet');
  });

  it('says on a node profile where the node is instead of "no limit known"', () => {
    const view = statusBarView({
      ...base,
      profileName: 'Devnet',
      plan: 'node',
      limitPerSecond: undefined,
      nodeHost: '127.0.0.1:22973',
    });
    assert.equal(view.text, '$(pulse) Alephium: devnet · node 127.0.0.1:22973');
    assert.doesNotMatch(view.text, /no limit known/);
    assert.match(view.tooltip.markdown, /without a gateway: requests are paced only if it announces/);
  });

  it('shows a network or profile name from settings as plain text, never as an icon', () => {
    const view = statusBarView({ ...base, profileName: '$(alert) x', network: 'devnet' });
    assert.equal(view.text, '$(pulse) Alephium: $ (alert) x · devnet · 5/s');
  });
});
