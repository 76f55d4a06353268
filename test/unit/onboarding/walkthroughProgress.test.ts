import { strict as assert } from 'node:assert';
import {
  changedSteps,
  walkthroughProgress,
  WALKTHROUGH_STEPS,
  type OnboardingFacts,
} from '../../../src/core/onboarding/walkthroughProgress';

const FRESH: OnboardingFacts = {
  hasSigner: false,
  watchedCount: 0,
  gasRunsVia: [],
  deploymentTxIds: [],
  trackedTxIds: [],
};

describe('walkthrough progress (the context keys its steps complete on)', () => {
  it('has every step open in a fresh install', () => {
    const p = walkthroughProgress(FRESH);
    for (const step of WALKTHROUGH_STEPS) assert.equal(p[step], false, step);
  });

  it('counts a gateway profile as connected only once its API key is stored; a node profile at once', () => {
    assert.equal(
      walkthroughProgress({ ...FRESH, profile: { kind: 'gateway', hasApiKey: false } }).connected,
      false,
    );
    assert.equal(
      walkthroughProgress({ ...FRESH, profile: { kind: 'gateway', hasApiKey: true } }).connected,
      true,
    );
    assert.equal(
      walkthroughProgress({ ...FRESH, profile: { kind: 'node', hasApiKey: false } }).connected,
      true,
    );
  });

  it('reads the signer, the watch list and the dry runs from their owners', () => {
    assert.equal(walkthroughProgress({ ...FRESH, hasSigner: true }).signer, true);
    assert.equal(walkthroughProgress({ ...FRESH, watchedCount: 1 }).watched, true);
    assert.equal(walkthroughProgress({ ...FRESH, gasRunsVia: ['execute'] }).simulated, false);
    assert.equal(walkthroughProgress({ ...FRESH, gasRunsVia: ['execute', 'simulate'] }).simulated, true);
  });

  it('counts a deploy only when the deployments file names a transaction this workspace tracks', () => {
    const cliOnly = { ...FRESH, deploymentTxIds: ['aa'], trackedTxIds: ['bb'] };
    assert.equal(walkthroughProgress(cliOnly).deployed, false, 'a file the CLI wrote alone');
    assert.equal(walkthroughProgress({ ...cliOnly, trackedTxIds: ['bb', 'aa'] }).deployed, true);
    assert.equal(walkthroughProgress({ ...FRESH, trackedTxIds: ['aa'] }).deployed, false, 'a transfer');
  });

  it('publishes every step the first time, then only the steps that changed', () => {
    const first = walkthroughProgress(FRESH);
    assert.deepEqual(changedSteps(undefined, first), [...WALKTHROUGH_STEPS]);
    assert.deepEqual(changedSteps(first, first), []);
    const next = walkthroughProgress({ ...FRESH, hasSigner: true, watchedCount: 2 });
    assert.deepEqual(changedSteps(first, next), ['signer', 'watched']);
  });
});
