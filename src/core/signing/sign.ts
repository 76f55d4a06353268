/**
 * The signing step: a verified transaction's txId signed with the sender's key. It accepts only what
 * ./verified.ts issued, so no code path can sign bytes that skipped verification.
 */
import { txIdFromUnsignedTx } from '../protocol';
import { publicKeyFromPrivateKey, signTxId, verifyTxIdSignature } from '../protocol/keys';
import { isVerifiedTransfer, type VerifiedTransfer } from './verified';

export interface SignedTransfer {
  readonly txId: string;
  readonly unsignedTx: string;
  readonly signature: string;
  readonly fromGroup: number;
  readonly toGroup: number;
}

/** Raised when something that did not come out of verification is handed to the signer. */
export class NotVerifiedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotVerifiedError';
  }
}

/**
 * Signs a verified transfer's txId with the sender's key (ECDSA over the 32 txId bytes, low-S). The
 * key must be the one whose public key the transfer was verified for; it is never echoed in errors.
 */
export function signVerifiedTransfer(verified: VerifiedTransfer, privateKeyHex: string): SignedTransfer {
  if (!isVerifiedTransfer(verified)) {
    throw new NotVerifiedError(
      'Refusing to sign: only a transaction returned by verifyTransfer/verifySweep can be signed',
    );
  }
  // Frozen, so this cannot differ; recomputing costs microseconds and keeps the invariant local.
  if (txIdFromUnsignedTx(verified.unsignedTx) !== verified.txId) {
    throw new NotVerifiedError('Refusing to sign: the txId no longer matches the verified bytes');
  }
  let publicKey: string;
  try {
    publicKey = publicKeyFromPrivateKey(privateKeyHex);
  } catch (e) {
    throw new NotVerifiedError(`Cannot sign: ${(e as Error).message}`);
  }
  if (publicKey !== verified.fromPublicKey) {
    throw new NotVerifiedError(
      `Cannot sign: the signing key's public key ${publicKey} is not the sender ${verified.fromPublicKey} the transaction was verified for`,
    );
  }
  const signature = signTxId(verified.txId, privateKeyHex);
  // A signature the node would reject is worse than none: it burns a submit and confuses the user.
  if (!verifyTxIdSignature(verified.txId, signature, publicKey)) {
    throw new NotVerifiedError('Signing produced a signature that does not verify');
  }
  return {
    txId: verified.txId,
    unsignedTx: verified.unsignedTx,
    signature,
    fromGroup: verified.fromGroup,
    toGroup: verified.toGroup,
  };
}
