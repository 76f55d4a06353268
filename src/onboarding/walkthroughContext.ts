import * as vscode from 'vscode';
import {
  changedSteps,
  walkthroughProgress,
  type OnboardingFacts,
  type WalkthroughProgress,
  type WalkthroughStep,
} from '../core/onboarding/walkthroughProgress';
import { BuiltinCommands, ContextKeys } from '../constants';
import * as config from '../platform/config';
import type { Services } from '../services';

const STEP_KEYS: Readonly<Record<WalkthroughStep, string>> = {
  connected: ContextKeys.walkthroughConnected,
  signer: ContextKeys.walkthroughSigner,
  watched: ContextKeys.walkthroughWatched,
  simulated: ContextKeys.walkthroughSimulated,
  deployed: ContextKeys.walkthroughDeployed,
};

/** The owners the walkthrough's progress is read from; each change of one re-reads the facts. */
export type WalkthroughOwners = Pick<Services, 'secrets' | 'contracts' | 'artifacts' | 'tracked' | 'log'>;

type SecretFacts = Pick<OnboardingFacts, 'profile' | 'hasSigner'>;

/** What SecretStorage says: read again only when a secret or the active profile changes. */
async function secretFactsOf(owners: WalkthroughOwners): Promise<SecretFacts> {
  const profile = config.activeProfile();
  return {
    ...(profile
      ? {
          profile: {
            kind: profile.kind,
            hasApiKey: (await owners.secrets.getApiKey(profile.name)) !== undefined,
          },
        }
      : {}),
    hasSigner: (await owners.secrets.getSignerPublicKey()) !== undefined,
  };
}

/** What the extension holds in memory: read on every change (the watcher and the tracker change often). */
function localFactsOf(owners: WalkthroughOwners): Omit<OnboardingFacts, keyof SecretFacts> {
  const { contracts } = owners;
  return {
    watchedCount: contracts.watched.length,
    gasRunsVia: contracts.gas.all().map((r) => r.via),
    deploymentTxIds: owners.artifacts.latest.deployments(contracts.network).map((d) => d.txId),
    trackedTxIds: owners.tracked.records().map((r) => r.txId),
  };
}

/**
 * Publishes the walkthrough's context keys now and whenever an owner changes: one read at a time, and
 * one more after it when changes came meanwhile (the watcher and the tracker change often).
 */
export function publishWalkthroughProgress(owners: WalkthroughOwners): vscode.Disposable {
  let published: WalkthroughProgress | undefined;
  let secretFacts: Promise<SecretFacts> | undefined;
  let running = false;
  let again = false;
  let disposed = false;
  const update = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        secretFacts ??= secretFactsOf(owners);
        const next = walkthroughProgress({ ...(await secretFacts), ...localFactsOf(owners) });
        if (disposed) return;
        for (const step of changedSteps(published, next))
          await vscode.commands.executeCommand(BuiltinCommands.setContext, STEP_KEYS[step], next[step]);
        published = next;
      } while (again && !disposed);
    } catch (e) {
      secretFacts = undefined;
      owners.log.warn(`Walkthrough progress not updated: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      running = false;
    }
  };
  const changed = () => void update();
  const secretsChanged = () => {
    secretFacts = undefined;
    changed();
  };
  const subscriptions = [
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (config.affectsConnection(e)) secretsChanged();
    }),
    owners.secrets.onDidChange(secretsChanged),
    owners.contracts.model.onDidChange(changed),
    owners.contracts.gas.onDidChange(changed),
    owners.artifacts.onDidChange(changed),
    owners.tracked.onDidChange(changed),
  ];
  changed();
  return {
    dispose: () => {
      disposed = true;
      for (const s of subscriptions) s.dispose();
    },
  };
}
