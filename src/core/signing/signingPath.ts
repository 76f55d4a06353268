/**
 * The one path from verified bytes to a signature: every transfer, sweep, execute and deploy goes
 * through {@link confirmAndSign} (docs/ARCHITECTURE.md, "Each safety rule has one owner").
 *
 * In order, and nowhere else:
 * 1. only a {@link VerifiedTransfer} (made by verifyTransfer/verifySweep/verifyScriptTx after every check:
 *    bytes, outputs, network pin, gas and fee bounds) is accepted;
 * 2. the confirmation policy decides whether to ask (core/signing/confirmPolicy.ts: mainnet always asks,
 *    only the user's own setting may skip elsewhere, a caller's `confirm: false` only in test runs);
 * 3. the user confirms (twice on mainnet or above a value threshold);
 * 4. only then is the private key read, once, through the port the glue gives; it signs the batch and
 *    is dropped. Nothing here logs it, returns it or hands it to the client.
 *
 * The glue gives two ports (show a confirmation, read the key) and the facts of the policy; it decides
 * nothing about what may be signed.
 */
import type { RequestOptions, SubmitRequest, SubmitResult } from '../gateway/client';
import {
  NotVerifiedError,
  isVerifiedTransfer,
  signVerifiedTransfer,
  type VerifiedTransfer,
  type VerifyOptions,
} from './verify';
import { confirmationDecision, type CallerStart, type NetworkText, type RunMode } from './confirmPolicy';
import { acceptedNetworkIds } from '../node/networkCheck';
import { TransferDeclinedError, type ConfirmStage } from './refusals';

export { TransferDeclinedError, type ConfirmStage };

/** The signer as the signing path sees it: a public key, and a way to read the private key when allowed. */
export interface SignerKey {
  /** The signer's public key (hex, compressed): what transactions are built and verified for. */
  readonly publicKey: string;
  /**
   * Reads the private key (hex). Called once per confirmed batch, after the user said yes, never before;
   * undefined when no key is stored any more.
   */
  readonly readPrivateKey: () => Promise<string | undefined> | string | undefined;
}

/** What the user is asked to approve, built from the verified bytes only (never from a gateway's claims). */
export interface Confirmation {
  readonly title: string;
  /** One fact per line, in reading order. */
  readonly lines: readonly string[];
  readonly network: NetworkText;
  /** Mainnet or above the value threshold: ask a second time. */
  readonly requiresSecondConfirmation: boolean;
  readonly secondConfirmationReason?: string;
  /** The question of the second confirmation, e.g. "Really send 1.5 ALPH in total on mainnet?". */
  readonly secondQuestion?: string;
  /** The transaction moves everything an address holds (a sweep) to `to`: asked in a way Enter cannot accept. */
  readonly movesEverything?: { readonly to: string };
  /**
   * Set by the policy when a caller, not the user, started the flow: who asked, in words, shown first;
   * the confirmation's default button is then Cancel.
   */
  readonly askedBy?: string;
}

/** The facts the confirmation policy decides on, besides the network (which comes from the bytes). */
export interface SigningPolicy {
  /** The user's own setting `alephium.transactions.confirmBeforeSigning` is false. */
  readonly skipBySetting: boolean;
  /** The command's caller passed `confirm: false`. */
  readonly skipByArgument: boolean;
  readonly mode: RunMode;
  /** Present when a caller (a task, a link, another extension) started the flow with arguments. */
  readonly caller?: CallerStart;
}

export interface SigningDeps {
  readonly key: SignerKey;
  /** Shows the confirmation; resolves true to go ahead. Called a second time with stage 'second' when asked. */
  readonly confirm: (confirmation: Confirmation, stage: ConfirmStage) => Promise<boolean>;
  /** Absent: always ask. */
  readonly policy?: SigningPolicy;
  /** Where the policy's reason goes when something asked to skip (the output channel). */
  readonly log?: (line: string) => void;
  readonly signal?: AbortSignal;
  readonly onProgress?: (step: 'confirming' | 'signing') => void;
}

export interface SignedBatch {
  /** One signature per verified transaction, in order. */
  readonly signatures: readonly string[];
  /** The policy skipped the confirmation (the user's setting, or a test run's argument). */
  readonly confirmationSkipped: boolean;
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    const reason: unknown = signal.reason;
    throw reason instanceof Error
      ? reason
      : Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' });
  }
}

/** The text of the second confirmation: short and explicit, so it is not clicked through by habit. */
function secondConfirmation(confirmation: Confirmation): Confirmation {
  const question =
    confirmation.secondQuestion ??
    `${confirmation.secondConfirmationReason ?? ''} Really sign this on ${confirmation.network.name}?`.trim();
  return { ...confirmation, lines: [question, ...confirmation.lines] };
}

/**
 * Confirms (as the policy says) and signs a batch of verified transactions with the signer's key, read
 * only after the confirmation. Throws TransferDeclinedError when the user says no, NotVerifiedError for
 * anything verification did not make or made for another signer.
 */
export async function confirmAndSign(
  deps: SigningDeps,
  verified: readonly VerifiedTransfer[],
  confirmation: Confirmation,
): Promise<SignedBatch> {
  if (verified.length === 0) throw new NotVerifiedError('Nothing to sign');
  for (const tx of verified) {
    if (!isVerifiedTransfer(tx)) throw new NotVerifiedError('Refusing to sign an unverified transaction');
    if (tx.fromPublicKey !== deps.key.publicKey.toLowerCase())
      throw new NotVerifiedError("Refusing to sign: the transaction was not verified for the signer's key");
  }
  throwIfAborted(deps.signal);
  const decision = confirmationDecision({
    // Mainnet by the bytes as well as by the profile: the stricter of the two wins.
    mainnet: confirmation.network.isMainnet || verified.some((tx) => tx.networkId === 0),
    skipBySetting: deps.policy?.skipBySetting ?? false,
    skipByArgument: deps.policy?.skipByArgument ?? false,
    mode: deps.policy?.mode ?? 'production',
    ...(deps.policy?.caller ? { caller: deps.policy.caller } : {}),
  });
  if (decision.reason)
    deps.log?.(`${decision.reason}\n${[confirmation.title, ...confirmation.lines].join('\n')}`);
  if (decision.ask) {
    const shown = decision.askedBy ? { ...confirmation, askedBy: decision.askedBy } : confirmation;
    deps.onProgress?.('confirming');
    if (!(await deps.confirm(shown, 'first'))) throw new TransferDeclinedError('first');
    if (confirmation.requiresSecondConfirmation) {
      throwIfAborted(deps.signal);
      if (!(await deps.confirm(secondConfirmation(shown), 'second')))
        throw new TransferDeclinedError('second');
    }
  }
  throwIfAborted(deps.signal);
  deps.onProgress?.('signing');
  // The only read of the private key: after the confirmation, for this batch, then out of scope.
  const privateKey = await deps.key.readPrivateKey();
  if (!privateKey) throw new NotVerifiedError('No signer key is stored any more; nothing was signed.');
  const signatures = verified.map((tx) => signVerifiedTransfer(tx, privateKey).signature);
  return { signatures, confirmationSkipped: !decision.ask };
}

/** The part of the gateway client that submits. */
export interface SubmitClient {
  submitTransaction(request: SubmitRequest, options?: RequestOptions): Promise<SubmitResult>;
}

export interface SentTransfer {
  /** Our txId (blake2b of the bytes we signed): the one to track, whatever the gateway echoes. */
  readonly txId: string;
  readonly fromGroup: number;
  readonly toGroup: number;
  readonly fee: bigint;
  /** The bytes that were signed (hex), so a pending transaction can be shown at once. */
  readonly unsignedTx: string;
  readonly signature: string;
  /** The submit answer was lost and the status endpoint vouched for the tx instead. */
  readonly recovered: boolean;
}

/** Submits one signed, verified transaction (the client recovers lost answers itself). */
export async function submitSigned(
  client: SubmitClient,
  verified: VerifiedTransfer,
  signature: string,
  options?: RequestOptions,
): Promise<SentTransfer> {
  const submitted = await client.submitTransaction(
    {
      unsignedTx: verified.unsignedTx,
      signature,
      fromGroup: verified.fromGroup,
      toGroup: verified.toGroup,
    },
    options,
  );
  return {
    txId: verified.txId,
    fromGroup: verified.fromGroup,
    toGroup: verified.toGroup,
    fee: verified.fee,
    unsignedTx: verified.unsignedTx,
    signature,
    recovered: submitted.recovered,
  };
}

/**
 * One verified transaction, confirmed, signed and submitted: what Execute and Deploy do (transfers and
 * sweeps go through sendTransfer.ts, which uses the same two steps).
 */
export async function confirmSignAndSubmit(
  deps: SigningDeps & { readonly client: SubmitClient },
  verified: VerifiedTransfer,
  confirmation: Confirmation,
): Promise<SentTransfer & { readonly confirmationSkipped: boolean }> {
  const { signatures, confirmationSkipped } = await confirmAndSign(deps, [verified], confirmation);
  // After signing, cancelling is no longer offered: a signature that exists should reach the node.
  const sent = await submitSigned(deps.client, verified, signatures[0] as string, { priority: 'user' });
  return { ...sent, confirmationSkipped };
}

/**
 * What the bytes' network id may be: a mainnet or testnet profile gets exactly its id; a devnet profile
 * (arbitrary ids) the id its node reports, and never mainnet's or testnet's, which would make the signed
 * transaction replayable there. The ids come from core/node/networkCheck.ts `acceptedNetworkIds`, the
 * rule the connect-time check uses too.
 */
export async function networkPin(
  profileNetwork: string,
  nodeNetworkId: () => Promise<number>,
): Promise<VerifyOptions> {
  const accepted = acceptedNetworkIds(profileNetwork);
  if ('exactly' in accepted) return { expectedNetworkId: accepted.exactly };
  return { expectedNetworkId: await nodeNetworkId(), refusedNetworkIds: accepted.refused };
}
