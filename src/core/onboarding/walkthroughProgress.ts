/**
 * Which steps of the "Get started" walkthrough are done, derived from what the extension's state owners
 * hold (the profile settings, SecretStorage, the watch list, the gas memory of dry runs, the tracked
 * transactions and the deployments file). The glue publishes each as a context key that the step's
 * `completionEvents` (`onContext:`) read, so a step completes by itself however the user did the thing:
 * from the walkthrough's button, the palette, a view or the contract panel.
 */

export type WalkthroughStep = 'connected' | 'signer' | 'watched' | 'simulated' | 'deployed';

export const WALKTHROUGH_STEPS: readonly WalkthroughStep[] = [
  'connected',
  'signer',
  'watched',
  'simulated',
  'deployed',
];

export interface OnboardingFacts {
  /** The active profile, if any: a gateway needs its API key, a node (the devnet preset) needs none. */
  readonly profile?: { readonly kind: 'gateway' | 'node'; readonly hasApiKey: boolean };
  /** A signer key is stored (its public key is read, never the private key). */
  readonly hasSigner: boolean;
  /** How many contracts the active profile watches. */
  readonly watchedCount: number;
  /** How each remembered dry run or execution ran (the gas memory's `via`). */
  readonly gasRunsVia: readonly string[];
  /** The txIds of the contracts in the active network's deployments file. */
  readonly deploymentTxIds: readonly string[];
  /** The txIds this workspace sent or tracks. */
  readonly trackedTxIds: readonly string[];
}

export type WalkthroughProgress = Readonly<Record<WalkthroughStep, boolean>>;

/**
 * The one derivation. "Deployed" is a contract in the deployments file whose transaction this workspace
 * tracks (a deploy from the extension is both), so a file written by the CLI alone does not count.
 */
export function walkthroughProgress(facts: OnboardingFacts): WalkthroughProgress {
  const tracked = new Set(facts.trackedTxIds);
  return {
    connected: facts.profile !== undefined && (facts.profile.kind === 'node' || facts.profile.hasApiKey),
    signer: facts.hasSigner,
    watched: facts.watchedCount > 0,
    simulated: facts.gasRunsVia.includes('simulate'),
    deployed: facts.deploymentTxIds.some((txId) => tracked.has(txId)),
  };
}

/** The steps whose value differs from what was last published (all of them the first time). */
export function changedSteps(
  previous: WalkthroughProgress | undefined,
  next: WalkthroughProgress,
): WalkthroughStep[] {
  return WALKTHROUGH_STEPS.filter((step) => previous?.[step] !== next[step]);
}
