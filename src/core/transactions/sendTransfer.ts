/**
 * "Money moves": build → verify → confirm → sign locally → submit, for a transfer and for a sweep.
 *
 * Order matters: inputs are validated before any request (a typo costs no rate-limit headroom), the
 * gateway's build is verified before the user sees anything (the confirmation shows decoded bytes, not
 * claims), and the private key is read only after the user said yes: confirming and signing go through
 * the one signing path (core/signing/signingPath.ts), which execute and deploy use too.
 */
import { DEFAULT_GAS_AMOUNT, DEFAULT_GAS_PRICE, MAX_GAS_PER_TX, isHex, parseAddress } from '../protocol';
import { ValidationError } from '../gateway/errors';
import { recipientVerdict, type Recipient, type RecipientVerdict } from './transferInput';
import type {
  BuildTransferRequest,
  RequestOptions,
  SubmitRequest,
  SubmitResult,
  SweepRequest,
} from '../gateway/client';
import type { BuiltTransfer, DecodedUnsignedTx as GatewayDecoded, SweepResult } from '../gateway/schemas';
import { DUST_ATTO } from '../protocol';
import {
  confirmAndSign,
  submitSigned,
  throwIfAborted,
  type SentTransfer,
  type SigningDeps,
} from '../signing/signingPath';
import {
  sweepConfirmation,
  transferConfirmation,
  type ConfirmationOptions,
  type TokenMetadata,
} from '../signing/confirmation';
import {
  verifySweep,
  verifyTransfer,
  type TokenAmountRequest,
  type TransferRequest,
  type VerifiedSweep,
  type VerifyOptions,
} from '../signing/verify';
import { isList } from '../util/guards';

export { TransferDeclinedError, type ConfirmStage, type SentTransfer } from '../signing/signingPath';

/** The part of the gateway client this workflow needs (a structural type, so tests can fake it). */
export interface TransferClient {
  buildTransfer(request: BuildTransferRequest, options?: RequestOptions): Promise<BuiltTransfer>;
  submitTransaction(request: SubmitRequest, options?: RequestOptions): Promise<SubmitResult>;
  decodeUnsignedTx?(unsignedTx: string, options?: RequestOptions): Promise<GatewayDecoded>;
  buildSweep?(request: SweepRequest, options?: RequestOptions): Promise<SweepResult>;
}

export type ProgressStep =
  'validating' | 'building' | 'verifying' | 'naming-tokens' | 'confirming' | 'signing' | 'submitting';

/**
 * What the tokens a transaction moves are called (core/tokens `TokenCatalog.resolve`): the token list
 * offline, else one multicall per six unknown tokens. Asked after verification, before the confirmation.
 */
export type TokenMetadataPort = (tokenIds: readonly string[], signal?: AbortSignal) => Promise<TokenMetadata>;

/**
 * What a transfer or a sweep needs: the client, and the signing path's deps (the signer's public key and
 * the port that reads its private key after the confirmation, the confirmation port, the policy).
 */
export interface SendDeps extends SigningDeps {
  readonly client: TransferClient;
  readonly verify?: VerifyOptions;
  readonly confirmation?: ConfirmationOptions;
  /** Also ask the gateway's decode endpoint and require its decoding to re-encode to the bytes. */
  readonly crossCheckDecode?: boolean;
  readonly onProgress?: (step: ProgressStep) => void;
  /** Names the tokens in the confirmation; without it (or when it fails) tokens are shown raw. */
  readonly tokenMetadata?: TokenMetadataPort;
  /** Told when token names could not be read (the confirmation then shows the raw amounts and ids). */
  readonly onTokenMetadataError?: (error: unknown) => void;
}

export interface SentSigned extends SentTransfer {
  /** The policy skipped the confirmation (the user's setting, or a test run's argument). */
  readonly confirmationSkipped: boolean;
}

/** Part of a sweep went out before a later transaction failed; `submitted` lists what is on its way. */
export class SweepIncompleteError extends Error {
  readonly submitted: readonly SentTransfer[];
  readonly failedIndex: number;
  constructor(submitted: readonly SentTransfer[], failedIndex: number, total: number, cause: unknown) {
    super(
      `Sweep stopped at transaction ${failedIndex + 1} of ${total}: ${cause instanceof Error ? cause.message : String(cause)} (${submitted.length} already submitted)`,
      { cause },
    );
    this.name = 'SweepIncompleteError';
    this.submitted = submitted;
    this.failedIndex = failedIndex;
  }
}

const MAX_DESTINATIONS = 256;

function amountOf(field: string, value: unknown): bigint {
  if (typeof value === 'bigint') {
    if (value < 0n) throw new ValidationError(field, 'must not be negative');
    return value;
  }
  if (typeof value !== 'string' || !/^\d+$/.test(value)) {
    throw new ValidationError(
      field,
      `must be a non-negative integer of atto (bigint or digits), got ${String(value)}`,
    );
  }
  return BigInt(value);
}

/** Why a field's address was refused, in the address parser's own words where it has some. */
function addressReason(verdict: RecipientVerdict, address: unknown): string {
  if (verdict.kind === 'invalid') return verdict.reason;
  try {
    parseAddress(address as string);
  } catch (e) {
    return (e as Error).message;
  }
  return verdict.kind === 'hex'
    ? 'is hex; Alephium addresses are base58'
    : 'must be written without surrounding spaces';
}

/**
 * A destination's address under the one recipient rule (transferInput.ts `recipientVerdict`), worded as a
 * field error. The address must be exactly as the gateway will get it, so surrounding spaces are refused.
 */
function destinationAddress(field: string, address: unknown): Recipient {
  const verdict = recipientVerdict(address);
  if (verdict.kind === 'contract') {
    throw new ValidationError(
      field,
      'is a contract address; paying a contract needs a script, not a transfer',
    );
  }
  if (verdict.kind === 'ok' && verdict.address === address) return verdict.address;
  throw new ValidationError(field, addressReason(verdict, address));
}

declare const validatedBrand: unique symbol;
/**
 * A transfer request that passed {@link validateTransferRequest}: the one shape the gateway's build body
 * and the verifier's reference are both made from, so neither re-checks what it holds.
 */
export type ValidatedTransfer = TransferRequest & { readonly [validatedBrand]: true };

/**
 * Everything that can be checked without the network. Throws a ValidationError naming the field, so
 * the UI can point at it, and so no request (and no rate-limit headroom) is spent on a typo.
 */
export function validateTransferRequest(
  request: TransferRequest,
  signerPublicKey?: string,
): ValidatedTransfer {
  if (typeof request !== 'object' || request === null) throw new ValidationError('request', 'is required');
  if (!isHex(request.fromPublicKey, 33)) {
    throw new ValidationError('fromPublicKey', 'must be a 33-byte compressed public key in hex');
  }
  if (
    signerPublicKey !== undefined &&
    request.fromPublicKey.toLowerCase() !== signerPublicKey.toLowerCase()
  ) {
    throw new ValidationError(
      'fromPublicKey',
      "is not the signing key's public key; the node would reject the signature",
    );
  }
  const dests = request.destinations;
  if (!isList(dests) || dests.length === 0) {
    throw new ValidationError('destinations', 'must be a non-empty array');
  }
  if (dests.length > MAX_DESTINATIONS) {
    throw new ValidationError('destinations', `has ${dests.length} entries; at most ${MAX_DESTINATIONS}`);
  }
  dests.forEach((d, i) => {
    const at = `destinations[${i}]`;
    if (typeof d !== 'object' || d === null) throw new ValidationError(at, 'must be an object');
    destinationAddress(`${at}.address`, d.address);
    const amount = amountOf(`${at}.attoAlphAmount`, d.attoAlphAmount);
    if (amount < DUST_ATTO) {
      throw new ValidationError(
        `${at}.attoAlphAmount`,
        `${amount} atto is below the dust minimum of ${DUST_ATTO} atto (0.001 ALPH), also for token outputs`,
      );
    }
    if (d.tokens !== undefined) {
      if (!isList(d.tokens)) throw new ValidationError(`${at}.tokens`, 'must be an array');
      // Since Leman an asset output holds at most one token; one destination per token keeps the
      // output list predictable, which is what lets us verify it exactly.
      if (d.tokens.length > 1) {
        throw new ValidationError(`${at}.tokens`, 'holds several tokens; use one destination per token');
      }
      const tokens: readonly TokenAmountRequest[] = d.tokens;
      tokens.forEach((t, j) => {
        if (!isHex(t?.id, 32))
          throw new ValidationError(`${at}.tokens[${j}].id`, 'must be a 32-byte token id in hex');
        if (amountOf(`${at}.tokens[${j}].amount`, t.amount) === 0n) {
          throw new ValidationError(`${at}.tokens[${j}].amount`, 'must be positive');
        }
      });
    }
    if (d.lockTime !== undefined && (!Number.isSafeInteger(d.lockTime) || d.lockTime < 0)) {
      throw new ValidationError(`${at}.lockTime`, 'must be a non-negative integer of milliseconds');
    }
    if (d.message !== undefined && d.message !== '' && !isHex(d.message)) {
      throw new ValidationError(`${at}.message`, 'must be hex');
    }
  });
  if (request.gasAmount !== undefined) {
    const g = request.gasAmount;
    if (!Number.isInteger(g) || g < DEFAULT_GAS_AMOUNT || g > MAX_GAS_PER_TX) {
      throw new ValidationError(
        'gasAmount',
        `must be an integer from ${DEFAULT_GAS_AMOUNT} to ${MAX_GAS_PER_TX}`,
      );
    }
  }
  if (request.gasPrice !== undefined && amountOf('gasPrice', request.gasPrice) < DEFAULT_GAS_PRICE) {
    throw new ValidationError('gasPrice', `must be at least ${DEFAULT_GAS_PRICE} atto (the node's minimum)`);
  }
  return request as ValidatedTransfer;
}

/** The gateway's build body, from the validated request (the only shape the transfer is written in). */
function toBuildRequest(request: ValidatedTransfer): BuildTransferRequest {
  return {
    fromPublicKey: request.fromPublicKey,
    destinations: request.destinations.map((d) => ({
      address: d.address,
      attoCoinAmount: String(d.attoAlphAmount),
      ...(d.tokens !== undefined && d.tokens.length > 0
        ? { tokens: d.tokens.map((t) => ({ id: t.id, amount: String(t.amount) })) }
        : {}),
      ...(d.lockTime !== undefined && d.lockTime !== 0 ? { lockTime: d.lockTime } : {}),
      ...(d.message !== undefined && d.message !== '' ? { message: d.message } : {}),
    })),
    ...(request.gasAmount !== undefined ? { gasAmount: request.gasAmount } : {}),
    ...(request.gasPrice !== undefined ? { gasPrice: String(request.gasPrice) } : {}),
  };
}

/**
 * Sends a transfer. Throws ValidationError (bad input, nothing requested), TransferVerificationError
 * (the gateway built something else, nothing signed), TransferDeclinedError (the user said no, nothing
 * signed), or the gateway client's errors.
 */
export async function sendTransfer(deps: SendDeps, request: TransferRequest): Promise<SentSigned> {
  deps.onProgress?.('validating');
  const validated = validateTransferRequest(request, deps.key.publicKey);
  throwIfAborted(deps.signal);
  const opts = deps.signal ? { signal: deps.signal } : undefined;

  deps.onProgress?.('building');
  const built = await deps.client.buildTransfer(toBuildRequest(validated), opts);
  deps.onProgress?.('verifying');
  let gatewayDecode: GatewayDecoded | undefined;
  if (deps.crossCheckDecode) {
    if (!deps.client.decodeUnsignedTx)
      throw new Error('crossCheckDecode needs a client with decodeUnsignedTx');
    gatewayDecode = await deps.client.decodeUnsignedTx(built.unsignedTx, opts);
  }
  const verified = verifyTransfer(validated, built, gatewayDecode, deps.verify);
  throwIfAborted(deps.signal);

  const tokens = await tokenMetadataFor(deps, verified.tokensSpent);
  const signed = await confirmAndSign(
    deps,
    [verified],
    transferConfirmation(verified, { ...deps.confirmation, ...(tokens ? { tokens } : {}) }),
  );
  deps.onProgress?.('submitting');
  const sent = await submitSigned(deps.client, verified, signed.signatures[0] as string);
  return { ...sent, confirmationSkipped: signed.confirmationSkipped };
}

/**
 * The names of the tokens a verified transaction moves, resolved before the confirmation is built. A
 * failed lookup is not a reason to refuse: the confirmation shows those tokens by raw amount and id.
 * Cancelling (the signal) still stops the flow.
 */
async function tokenMetadataFor(
  deps: SendDeps,
  tokens: readonly { readonly id: string }[],
): Promise<TokenMetadata | undefined> {
  if (!deps.tokenMetadata || tokens.length === 0) return undefined;
  deps.onProgress?.('naming-tokens');
  let metadata: TokenMetadata | undefined;
  try {
    metadata = await deps.tokenMetadata(
      tokens.map((t) => t.id),
      deps.signal,
    );
  } catch (error) {
    throwIfAborted(deps.signal);
    deps.onTokenMetadataError?.(error);
  }
  throwIfAborted(deps.signal);
  return metadata;
}

export interface SweepToSend {
  readonly fromPublicKey: string;
  readonly toAddress: string;
  readonly gasPrice?: bigint | string;
}

export interface SentSweep {
  readonly toAddress: string;
  readonly txs: readonly SentTransfer[];
  readonly totalSwept: bigint;
  readonly totalFee: bigint;
  readonly confirmationSkipped: boolean;
}

/**
 * Sweeps an address: one build, every transaction verified, one confirmation for the set, then each
 * signed and submitted in order. A failure part-way throws SweepIncompleteError with what went out.
 */
export async function sendSweep(deps: SendDeps, request: SweepToSend): Promise<SentSweep> {
  deps.onProgress?.('validating');
  if (!isHex(request.fromPublicKey, 33)) {
    throw new ValidationError('fromPublicKey', 'must be a 33-byte compressed public key in hex');
  }
  if (request.fromPublicKey.toLowerCase() !== deps.key.publicKey.toLowerCase()) {
    throw new ValidationError('fromPublicKey', "is not the signing key's public key");
  }
  const destination = recipientVerdict(request.toAddress);
  if (destination.kind === 'contract') {
    throw new ValidationError('toAddress', 'is a contract address; sweep to an asset address');
  }
  if (destination.kind !== 'ok' || destination.address !== request.toAddress) {
    throw new ValidationError('toAddress', addressReason(destination, request.toAddress));
  }
  if (request.gasPrice !== undefined && amountOf('gasPrice', request.gasPrice) < DEFAULT_GAS_PRICE) {
    throw new ValidationError('gasPrice', `must be at least ${DEFAULT_GAS_PRICE} atto`);
  }
  if (!deps.client.buildSweep) throw new Error('sendSweep needs a client with buildSweep');
  throwIfAborted(deps.signal);

  deps.onProgress?.('building');
  const built = await deps.client.buildSweep(
    {
      fromPublicKey: request.fromPublicKey,
      toAddress: request.toAddress,
      ...(request.gasPrice !== undefined ? { gasPrice: String(request.gasPrice) } : {}),
    },
    deps.signal ? { signal: deps.signal } : undefined,
  );
  deps.onProgress?.('verifying');
  const sweep: VerifiedSweep = verifySweep(
    {
      fromPublicKey: request.fromPublicKey,
      toAddress: request.toAddress,
      ...(request.gasPrice !== undefined ? { gasPrice: request.gasPrice } : {}),
    },
    built.unsignedTxs,
    {
      ...deps.verify,
      ...(built.fromGroup !== undefined ? { fromGroup: built.fromGroup } : {}),
    },
  );
  throwIfAborted(deps.signal);
  // One confirmation covers the set; every transaction is signed with one read of the key, then each
  // is submitted in order.
  const tokens = await tokenMetadataFor(
    deps,
    sweep.txs.flatMap((t) => t.tokensSpent),
  );
  const signed = await confirmAndSign(
    deps,
    sweep.txs,
    sweepConfirmation(sweep, { ...deps.confirmation, ...(tokens ? { tokens } : {}) }),
  );
  deps.onProgress?.('submitting');
  const sent: SentTransfer[] = [];
  for (const [i, tx] of sweep.txs.entries()) {
    try {
      sent.push(await submitSigned(deps.client, tx, signed.signatures[i] as string));
    } catch (error) {
      if (sent.length === 0) throw error;
      throw new SweepIncompleteError(sent, i, sweep.txs.length, error);
    }
  }
  return {
    toAddress: sweep.toAddress,
    txs: sent,
    totalSwept: sweep.totalSwept,
    totalFee: sweep.totalFee,
    confirmationSkipped: signed.confirmationSkipped,
  };
}
