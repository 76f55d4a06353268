/**
 * When a confirmation may be skipped, and what a command's caller may do for the user: the one owner of
 * both rules (docs/ARCHITECTURE.md, "Each safety rule has one owner").
 *
 * In a user's VS Code, a command's arguments can come from anyone: another extension, a task or launch
 * configuration of a cloned workspace, a `command:` link. So arguments never skip a confirmation, touch a
 * key or choose where funds go without the user seeing it; only the extension's own test runs (VS Code's
 * `ExtensionMode.Test`) may drive it that way. The user's own settings may skip a confirmation off
 * mainnet; nothing skips it on mainnet.
 */

/** How VS Code runs the extension: installed (production), from its sources (development), or its tests. */
export type RunMode = 'production' | 'development' | 'test';

/**
 * Whether the arguments a command was called with may act for the user: skip a confirmation, replace or
 * delete a key, add or remove a profile without asking. Only in the extension's own test runs; a
 * development host (`npm start`) is treated like a user's VS Code, since it opens real workspaces too.
 */
export function argumentsActForUser(mode: RunMode): boolean {
  return mode === 'test';
}

/** Mainnet is the bytes' network id 0, or a profile that says "mainnet" (whichever is stricter). */
export const MAINNET_NETWORK_ID = 0;

export function isMainnet(networkId: number | undefined, profileNetwork?: string): boolean {
  return networkId === MAINNET_NETWORK_ID || profileNetwork?.trim().toLowerCase() === 'mainnet';
}

export const TESTNET_NETWORK_ID = 1;

/** A network as a confirmation names it. */
export interface NetworkText {
  /** "mainnet", "testnet" or "devnet (id N)". */
  readonly name: string;
  readonly networkId: number;
  readonly isMainnet: boolean;
}

export function networkText(networkId: number, profileNetwork?: string): NetworkText {
  const name =
    networkId === MAINNET_NETWORK_ID
      ? 'mainnet'
      : networkId === TESTNET_NETWORK_ID
        ? 'testnet'
        : `devnet (id ${networkId})`;
  return { name, networkId, isMainnet: isMainnet(networkId, profileNetwork) };
}

export interface ConfirmationFacts {
  /** The transaction is on mainnet (see {@link isMainnet}). */
  readonly mainnet: boolean;
  /** The user's own settings turned the confirmation off (a workspace cannot: see config.ts). */
  readonly skipBySetting: boolean;
  /** The caller passed `confirm: false`. */
  readonly skipByArgument: boolean;
  readonly mode: RunMode;
}

export interface ConfirmationDecision {
  /** Show the confirmation and sign only if the user accepts it. */
  readonly ask: boolean;
  /** What decided it, for the log (empty when nothing asked to skip). */
  readonly reason: string;
}

/** The one rule: mainnet always asks; elsewhere the user's setting may skip; an argument only in tests. */
export function confirmationDecision(facts: ConfirmationFacts): ConfirmationDecision {
  const askedToSkip = facts.skipBySetting || facts.skipByArgument;
  if (facts.mainnet) {
    return {
      ask: true,
      reason: askedToSkip ? 'A confirmation is never skipped on mainnet; asking.' : '',
    };
  }
  if (facts.skipBySetting) {
    return {
      ask: false,
      reason:
        'Confirmation skipped: alephium.transactions.confirmBeforeSigning is false in your user settings.',
    };
  }
  if (facts.skipByArgument && argumentsActForUser(facts.mode)) {
    return { ask: false, reason: 'Confirmation skipped: argument confirm: false (extension test run).' };
  }
  if (facts.skipByArgument) {
    return {
      ask: true,
      reason: `The caller's argument confirm: false is ignored in ${facts.mode} mode (only your own settings can skip a confirmation); asking.`,
    };
  }
  return { ask: true, reason: '' };
}
