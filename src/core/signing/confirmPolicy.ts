/**
 * When a confirmation may be skipped, and what a command's caller may do for the user: the one owner of
 * both rules (docs/ARCHITECTURE.md, "Each safety rule has one owner").
 *
 * In a user's VS Code, a command's arguments can come from anyone: another extension, a task or launch
 * configuration of a cloned workspace, a `command:` link. So arguments never skip a confirmation, touch a
 * key or choose where funds go without the user seeing it; only the extension's own test runs (VS Code's
 * `ExtensionMode.Test`) may drive it that way. The user's own settings may skip a confirmation off
 * mainnet, but only of a flow whose values the user chose; nothing skips it on mainnet.
 *
 * A flow a caller started (its arguments came from outside this extension's own palette, views, lenses
 * and panel) is confirmed in words that say a caller asked and what it chose, with Cancel as the
 * default button: VS Code does not say who the caller is, and one reflexive Enter must not pay.
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

/** The signing flows a caller may start. */
export type SigningFlow = 'transfer' | 'sweep' | 'execute' | 'deploy';

/** What a caller's argument object chose for the user: where funds go, how much, which script runs. */
export type CallerChoice = 'recipient' | 'amount' | 'script' | 'other values';

/**
 * The argument keys of the signing commands by what they choose. Keys that only say how the command
 * reports (`waitForConfirmation`, `show`) or ask to skip (`confirm`, decided apart) choose nothing;
 * any key not listed counts as "other values", so a new argument is confirmed until it is placed here.
 */
const CHOICE_OF_KEY: Readonly<Record<string, CallerChoice | null>> = {
  to: 'recipient',
  issueTokenTo: 'recipient',
  amount: 'amount',
  alph: 'amount',
  tokens: 'amount',
  issueTokenAmount: 'amount',
  gasAmount: 'amount',
  gasPrice: 'amount',
  address: 'script',
  method: 'script',
  args: 'script',
  candidates: 'script',
  artifact: 'script',
  fields: 'script',
  viewOnlyAsTransaction: 'script',
  allowDrift: 'script',
  confirm: null,
  waitForConfirmation: null,
  show: null,
  fromEditor: null,
};

const CHOICE_ORDER: readonly CallerChoice[] = ['recipient', 'amount', 'script', 'other values'];

/** What a signing command's argument object chose (keys with a value), in a fixed order. */
export function callerChoices(args: unknown): CallerChoice[] {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return [];
  const chosen = new Set<CallerChoice>();
  for (const [key, value] of Object.entries(args as Record<string, unknown>)) {
    if (value === undefined) continue;
    const choice = Object.hasOwn(CHOICE_OF_KEY, key) ? CHOICE_OF_KEY[key] : 'other values';
    if (choice) chosen.add(choice);
  }
  return CHOICE_ORDER.filter((c) => chosen.has(c));
}

/** A signing flow a caller started: which flow, and what its arguments chose. */
export interface CallerStart {
  readonly flow: SigningFlow;
  readonly chose: readonly CallerChoice[];
}

const FLOW_NOUN: Readonly<Record<SigningFlow, string>> = {
  transfer: 'transfer',
  sweep: 'sweep',
  execute: 'contract call',
  deploy: 'deploy',
};

function listed(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1] ?? ''}`;
}

/**
 * Who asked, in words, for `request` ("to remove the API key of …"): VS Code does not tell an extension
 * which task, link or extension ran its command, so the words name every kind of caller there is (this
 * extension's own language-model tools cannot run a command; another extension's chat tool can, like
 * any extension).
 */
export function callerAsked(request: string): string {
  return (
    `Not started by you from the palette or a view: a task, a command link, a keybinding or another ` +
    `extension (a chat assistant's tool among them) asked ${request}. VS Code does not say which. ` +
    `If you did not ask for it, choose Cancel.`
  );
}

/** {@link callerAsked} for a signing flow: what the caller chose, or that the user typed the values. */
export function callerWords(start: CallerStart): string {
  const chose =
    start.chose.length > 0
      ? ` and chose its ${listed(start.chose)}`
      : ' (you typed its values in the prompts)';
  return callerAsked(`for this ${FLOW_NOUN[start.flow]}${chose}`);
}

export interface ConfirmationFacts {
  /** The transaction is on mainnet (see {@link isMainnet}). */
  readonly mainnet: boolean;
  /** The user's own settings turned the confirmation off (a workspace cannot: see config.ts). */
  readonly skipBySetting: boolean;
  /** The caller passed `confirm: false`. */
  readonly skipByArgument: boolean;
  readonly mode: RunMode;
  /** Present when a caller, not the user's own palette or UI, started the flow with arguments. */
  readonly caller?: CallerStart;
}

export interface ConfirmationDecision {
  /** Show the confirmation and sign only if the user accepts it. */
  readonly ask: boolean;
  /** What decided it, for the log (empty when nothing asked to skip). */
  readonly reason: string;
  /**
   * Present when a caller started the flow (outside the extension's tests): the words that say so, shown
   * first in the confirmation, whose default button is then Cancel.
   */
  readonly askedBy?: string;
}

/**
 * The one rule: mainnet always asks; a caller that chose a recipient, an amount or a script always
 * brings the confirmation; elsewhere the user's setting may skip; an argument only in tests.
 */
export function confirmationDecision(facts: ConfirmationFacts): ConfirmationDecision {
  // In the extension's own tests the arguments act for the user, so a caller is the user there.
  const caller = facts.caller && !argumentsActForUser(facts.mode) ? facts.caller : undefined;
  const named = caller ? { askedBy: callerWords(caller) } : {};
  const askedToSkip = facts.skipBySetting || facts.skipByArgument;
  if (facts.mainnet) {
    return {
      ask: true,
      reason: askedToSkip ? 'A confirmation is never skipped on mainnet; asking.' : '',
      ...named,
    };
  }
  if (caller && caller.chose.length > 0) {
    return {
      ask: true,
      reason: askedToSkip
        ? `The command's caller chose the ${listed(caller.chose)}: a confirmation is skipped only for values you typed; asking.`
        : '',
      ...named,
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
      ...named,
    };
  }
  return { ask: true, reason: '', ...named };
}
