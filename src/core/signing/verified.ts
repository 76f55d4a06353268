/**
 * Verify-before-sign (docs/ARCHITECTURE.md, "Verify before signing": what you sign is what you asked for).
 *
 * The gateway builds the transaction, but we sign a txId, and a txId commits to *bytes* we did not
 * write. So before any signature exists we recompute txId = blake2b-256(unsignedTx), decode those bytes
 * locally, and prove that they spend only the sender's outputs, pay exactly the requested destinations
 * (plus change back to the sender), run only the script the user chose and pay a sane fee. Anything else
 * is refused with a message that says what differed, so the user can tell a tampering gateway from a typo.
 *
 * The checks live in ./verify/ (transfer.ts, sweep.ts, script.ts, over envelope.ts); this module issues
 * the result, a {@link VerifiedTransfer}: the only thing ./sign.ts accepts. It can only be created here
 * (an unexported token guards its constructor and a WeakSet records every instance issued), so no code
 * path can sign bytes that skipped verification.
 */
import type { BuildResponse, GatewayDecodeResponse, VerifyOptions } from './verify/envelope';
import type { VerifiedFields, VerifiedOutput, VerifiedScript, VerifiedToken } from './verify/result';
import { checkScriptTx, type ScriptTxRequest } from './verify/script';
import {
  checkSweep,
  type CheckedSweep,
  type SweepRequestToVerify,
  type SweepTxToVerify,
  type SweepVerifyOptions,
} from './verify/sweep';
import { checkTransfer, type TransferRequest } from './verify/transfer';

/** Never exported: holding it is what "this module made the object" means. */
const ISSUE: unique symbol = Symbol('VerifiedTransfer.issue');
const issued = new WeakSet<object>();

/**
 * A transaction whose bytes were proven to match the request. Immutable; only this module creates it.
 * `outputs` are the requested destinations as found in the bytes, `change` the outputs back to the
 * sender, `totalAlphSpent` = destinations' ALPH + fee (what leaves the sender), `tokensSpent` per token.
 */
export class VerifiedTransfer implements VerifiedFields {
  readonly kind!: 'transfer' | 'sweep' | 'script';
  readonly txId!: string;
  readonly unsignedTx!: string;
  readonly fromPublicKey!: string;
  readonly fromAddress!: string;
  readonly networkId!: number;
  readonly fromGroup!: number;
  readonly toGroup!: number;
  readonly gasAmount!: number;
  readonly gasPrice!: bigint;
  readonly fee!: bigint;
  readonly outputs!: readonly VerifiedOutput[];
  readonly change!: readonly VerifiedOutput[];
  readonly totalAlphSpent!: bigint;
  readonly tokensSpent!: readonly VerifiedToken[];
  readonly script?: VerifiedScript;

  /** @internal Callers cannot obtain the token, so `new VerifiedTransfer(...)` elsewhere always throws. */
  constructor(token: typeof ISSUE, fields: VerifiedFields) {
    if (token !== ISSUE)
      throw new Error('VerifiedTransfer can only be created by verifyTransfer/verifySweep');
    Object.assign(this, fields);
    deepFreeze(this);
    issued.add(this);
  }
}

export function isVerifiedTransfer(value: unknown): value is VerifiedTransfer {
  return typeof value === 'object' && value !== null && issued.has(value);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * Verifies a built transfer against the request. Throws TransferVerificationError listing every
 * difference; returns the {@link VerifiedTransfer} that may be confirmed and signed.
 */
export function verifyTransfer(
  request: TransferRequest,
  response: BuildResponse,
  gatewayDecode?: GatewayDecodeResponse,
  options: VerifyOptions = {},
): VerifiedTransfer {
  return new VerifiedTransfer(ISSUE, checkTransfer(request, response, gatewayDecode, options));
}

/** A verified sweep: its transactions, each a {@link VerifiedTransfer}, in the order they must be signed and submitted. */
export type VerifiedSweep = Omit<CheckedSweep, 'txs'> & { readonly txs: readonly VerifiedTransfer[] };

/**
 * Verifies every transaction of a sweep: txId recomputed, no script, inputs the sender's (and no input
 * spent by two of them, which would make all but one fail), and every output to `toAddress`, nothing to
 * anybody else, not even change. Problems are prefixed with the transaction's position.
 */
export function verifySweep(
  request: SweepRequestToVerify,
  unsignedTxs: readonly SweepTxToVerify[],
  options: SweepVerifyOptions = {},
): VerifiedSweep {
  const checked = checkSweep(request, unsignedTxs, options);
  return deepFreeze({ ...checked, txs: checked.txs.map((f) => new VerifiedTransfer(ISSUE, f)) });
}

/**
 * Verifies a built script transaction: the txId is blake2b of the bytes, the script is byte for byte the
 * one built locally (so the method, the arguments and the approved assets are exactly the user's), every
 * input is the signer's, every fixed output is change back to the signer (approved assets leave only
 * through the script, which approves exactly what the user approved), and gas and fee are within bounds.
 */
export function verifyScriptTx(
  request: ScriptTxRequest,
  response: BuildResponse,
  options: VerifyOptions = {},
): VerifiedTransfer {
  return new VerifiedTransfer(ISSUE, checkScriptTx(request, response, options));
}
