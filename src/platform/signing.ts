/**
 * The VS Code side of the one signing path (core/signing/signingPath.ts): who signs (the public key from
 * SecretStorage, never the private key), how a confirmation is shown (a modal of inert text; for a sweep,
 * a typed answer that a reflexive Enter cannot give), the facts of the confirmation policy (the user's
 * setting, the caller's argument, the run mode), the network pin and cancellable progress. It decides
 * nothing about what may be signed: core does, and reads the private key only after the confirmation.
 */
import * as vscode from 'vscode';
import { withProgress } from './progress';
import type { GatewayClient } from '../core/gateway';
import type { Logger } from '../core/util/log';
import { addressFromPublicKey } from '../core/protocol';
import { UserCancelledError } from '../core/util/errors';
import type { Confirmation, SigningDeps } from '../core/signing/signingPath';
import { TransferDeclinedError, type ConfirmStage } from '../core/signing/refusals';
import { inert, inertLines } from '../core/text/inert';
import type { VerifyOptions } from '../core/signing/verify';
import { TransferVerificationError } from '../core/signing/verify/result';
import * as config from './config';
import type { SecretStore } from './secrets';
import type { Services } from '../services';
import { argValue, askTextOrCancel } from './prompts';
import { runMode } from './automation';
import { actionsEngine } from './lazyEngine';
import { askModal, askModalCancelFirst } from './notify';
import { startedByCaller } from './commands';
import { callerChoices, type SigningFlow } from '../core/signing/confirmPolicy';

export interface SignerContext {
  readonly client: GatewayClient;
  readonly profileName: string;
  readonly network: string;
  /** The signer's public key and address, read without the private key. */
  readonly publicKey: string;
  readonly fromAddress: string;
}

/** What the signing glue reads: the active profile's client, the signer key, and the log of skipped asks. */
export type SigningGlueDeps = Pick<Services, 'connection' | 'secrets' | 'log'>;

/** The active profile's client and the signer's public identity; no private key is read here. */
export async function signerContext(
  deps: Pick<SigningGlueDeps, 'connection' | 'secrets'>,
): Promise<SignerContext> {
  const client = deps.connection.requireClient();
  const profile = deps.connection.state.profile;
  const publicKey = await deps.secrets.getSignerPublicKey();
  if (!publicKey) throw new Error('No signer key is set. Run "Alephium: Import Signer Key" first.');
  return {
    client,
    profileName: profile?.name ?? '?',
    network: profile?.network ?? 'unknown',
    publicKey,
    fromAddress: addressFromPublicKey(publicKey),
  };
}

/** The signer's address if a key is stored (a dry run's caller), else undefined. */
export async function signerAddressIfAny(secrets: SecretStore): Promise<string | undefined> {
  const publicKey = await secrets.getSignerPublicKey().catch(() => undefined);
  return publicKey ? addressFromPublicKey(publicKey) : undefined;
}

/** The bytes' network id the profile allows (mainnet 0, testnet 1, a devnet's own id, never 0 or 1). */
export async function networkPinFor(ctx: SignerContext): Promise<VerifyOptions> {
  return (await actionsEngine()).networkPin(
    ctx.network,
    async () => (await ctx.client.getChainParams({ priority: 'user' })).networkId,
  );
}

/**
 * The modal confirmation. Its text is inert (names and values from the workspace or the chain cannot
 * form links). A confirmation that moves everything an address holds also asks for the destination's
 * last characters to be typed: a habit's Enter cannot accept it. One a caller asked for (the policy set
 * `askedBy`) says so first and has Cancel as its default button.
 */
async function confirmInModal(
  confirmation: Confirmation,
  stage: ConfirmStage,
  action: string,
): Promise<boolean> {
  const title =
    stage === 'first'
      ? confirmation.title
      : `Second confirmation: ${confirmation.secondConfirmationReason ?? ''}`;
  const button = stage === 'first' ? action : `Yes, sign on ${confirmation.network.name}`;
  const lines = confirmation.askedBy ? [confirmation.askedBy, ...confirmation.lines] : confirmation.lines;
  const ask = confirmation.askedBy ? askModalCancelFirst : askModal;
  const choice = await ask(inert`${title}`, inertLines(lines), button);
  if (choice !== button) return false;
  if (stage === 'first' && confirmation.movesEverything)
    return typedConfirmation(confirmation.movesEverything.to);
  return true;
}

/** For a sweep: type the last 6 characters of the destination, which the prompt shows in full. */
async function typedConfirmation(destination: string): Promise<boolean> {
  const expected = destination.slice(-6);
  if (expected.length < 6) return false;
  const typed = await askTextOrCancel({
    title: inert`Move everything this address holds?`,
    prompt: inert`Type the last 6 characters of the destination ${destination} to sign the sweep (Escape cancels).`,
    validate: (v) =>
      v.trim() === '' || v.trim() === expected ? undefined : inert`These are not its last 6 characters.`,
  });
  return typed?.trim() === expected;
}

/**
 * The signing path's deps for one command: the key (public part now, private part read by core after the
 * confirmation), the modal, and the policy's facts. `args` is the command's argument object: its
 * `confirm: false` counts only in the extension's own test runs, and when a caller rather than the
 * extension's own UI passed it, what it chose decides with the policy (core/signing/confirmPolicy.ts).
 */
export function signingDeps(
  deps: SigningGlueDeps,
  ctx: SignerContext,
  args: unknown,
  action: string,
  flow: SigningFlow,
  signal?: AbortSignal,
): SigningDeps {
  return {
    key: { publicKey: ctx.publicKey, readPrivateKey: () => deps.secrets.getSignerKey() },
    confirm: (confirmation, stage) => confirmInModal(confirmation, stage, action),
    policy: {
      skipBySetting: !config.confirmBeforeSigning(),
      skipByArgument: argValue(args, 'confirm') === false,
      mode: runMode(),
      ...(startedByCaller(args) ? { caller: { flow, chose: callerChoices(args) } } : {}),
    },
    log: (line) => deps.log.info(line),
    ...(signal ? { signal } : {}),
  };
}

/**
 * The words for a build the node refused for want of ALPH ("Not enough balance: got N, expected M"): in ALPH
 * beside atto with the signer's balance (one more request, only on this failure). Undefined for any
 * other error.
 */
export async function shortOfAlphWords(ctx: SignerContext, error: unknown): Promise<string | undefined> {
  const detail =
    error instanceof Error && 'detail' in error && typeof error.detail === 'string'
      ? error.detail
      : undefined;
  if (detail === undefined) return undefined;
  // The words live in the lazily loaded engine, which a build has already loaded.
  const engine = await actionsEngine().catch(() => undefined);
  const short = engine?.shortOfAlph(detail);
  if (!engine || !short) return undefined;
  const balance = await ctx.client
    .getAddressBalance(ctx.fromAddress, { priority: 'user', fresh: true })
    .catch(() => undefined);
  return engine.shortOfAlphText(short, ctx.fromAddress, balance);
}

/** {@link shortOfAlphWords} as the error a command shows, or the error as it was. */
export async function withBalanceWords(ctx: SignerContext, error: unknown): Promise<unknown> {
  const words = await shortOfAlphWords(ctx, error);
  return words === undefined ? error : new Error(words, { cause: error });
}

/** Declining is a cancellation (quiet); a refused build is an error that says what differed. */
export function rethrowRefusal(log: Logger, error: unknown): never {
  if (error instanceof TransferDeclinedError) {
    log.info(`${error.message}; nothing was signed.`);
    throw new UserCancelledError();
  }
  if (error instanceof TransferVerificationError) {
    log.error(
      `Refused before signing (${error.problems.length} problem(s)):\n${error.problems.map((p) => `  [${p.check}] ${p.message}`).join('\n')}`,
    );
  }
  throw error;
}

/** Progress in a notification with a Cancel button, wired to an AbortSignal. */
export function withCancellableProgress<T>(
  title: string,
  run: (report: (message: string) => void, signal: AbortSignal) => Promise<T>,
): Thenable<T> {
  return withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      try {
        return await run((message) => progress.report({ message }), controller.signal);
      } finally {
        sub.dispose();
      }
    },
  );
}
