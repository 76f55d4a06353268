/**
 * What a verification proves, or why it refuses: the facts every verified transaction carries (read from
 * its bytes, never from the gateway's claims) and the refusal that lists every difference it found.
 * Plain data: the brand that makes these facts signable is issued in ../verified.ts only.
 */
import type { DecodedUnsignedTx } from '../../protocol';

export type VerificationCheck =
  | 'request'
  | 'funding-txs'
  | 'txid'
  | 'decode'
  | 'gateway-decode'
  | 'network'
  | 'script'
  | 'inputs'
  | 'outputs'
  | 'gas'
  | 'fee'
  | 'groups';

export interface VerificationProblem {
  readonly check: VerificationCheck;
  readonly message: string;
}

/**
 * The built transaction is not what was asked for. `problems` lists every difference found (not only
 * the first), so one refusal tells the whole story; `check` is the first one's, for branching.
 */
export class TransferVerificationError extends Error {
  readonly problems: readonly VerificationProblem[];
  readonly check: VerificationCheck;

  constructor(problems: readonly VerificationProblem[]) {
    const first = problems[0] ?? { check: 'request' as const, message: 'verification failed' };
    super(
      problems.length === 1
        ? `Refusing to sign: ${first.message}`
        : `Refusing to sign (${problems.length} problems): ${problems.map((p) => p.message).join('; ')}`,
    );
    this.name = 'TransferVerificationError';
    this.problems = problems;
    this.check = first.check;
  }

  has(check: VerificationCheck): boolean {
    return this.problems.some((p) => p.check === check);
  }
}

export interface VerifiedToken {
  readonly id: string;
  readonly amount: bigint;
}

export interface VerifiedOutput {
  readonly address: string;
  readonly attoAlphAmount: bigint;
  readonly tokens: readonly VerifiedToken[];
  readonly lockTime: number;
  readonly message: string;
}

/** What a verified script transaction runs: the exact script, and the assets it approves. */
export interface VerifiedScript {
  readonly kind: 'execute' | 'deploy';
  /** The script's hex, byte-equal to the one built locally from the user's choice. */
  readonly bytecode: string;
  readonly approvedAttoAlph: bigint;
  readonly approvedTokens: readonly VerifiedToken[];
}

export interface VerifiedFields {
  readonly kind: 'transfer' | 'sweep' | 'script';
  readonly txId: string;
  readonly unsignedTx: string;
  readonly fromPublicKey: string;
  readonly fromAddress: string;
  readonly networkId: number;
  readonly fromGroup: number;
  readonly toGroup: number;
  readonly gasAmount: number;
  readonly gasPrice: bigint;
  readonly fee: bigint;
  readonly outputs: readonly VerifiedOutput[];
  readonly change: readonly VerifiedOutput[];
  readonly totalAlphSpent: bigint;
  readonly tokensSpent: readonly VerifiedToken[];
  /** Set for script transactions (execute, deploy). */
  readonly script?: VerifiedScript;
}

/** What every kind of verification checked the same way: the bytes, the sender, the gas and the groups. */
export interface VerifiedEnvelope {
  readonly txId: string;
  readonly unsignedTx: string;
  readonly fromPublicKey: string;
  readonly fromAddress: string;
  readonly decoded: DecodedUnsignedTx;
  readonly groups: { readonly fromGroup: number; readonly toGroup: number };
  readonly gasPrice: bigint;
  readonly fee: bigint;
}

/** What each kind adds: where the value goes, and for scripts what runs. */
export type VerifiedPayload = Pick<
  VerifiedFields,
  'outputs' | 'change' | 'totalAlphSpent' | 'tokensSpent' | 'script'
>;

/** The fields of a verified transaction, written once for transfers, sweeps and scripts. */
export function verifiedFields(
  kind: VerifiedFields['kind'],
  envelope: VerifiedEnvelope,
  payload: VerifiedPayload,
): VerifiedFields {
  return {
    kind,
    txId: envelope.txId,
    unsignedTx: envelope.unsignedTx.toLowerCase(),
    fromPublicKey: envelope.fromPublicKey.toLowerCase(),
    fromAddress: envelope.fromAddress,
    networkId: envelope.decoded.networkId,
    fromGroup: envelope.groups.fromGroup,
    toGroup: envelope.groups.toGroup,
    gasAmount: envelope.decoded.gasAmount,
    gasPrice: envelope.gasPrice,
    fee: envelope.fee,
    outputs: payload.outputs,
    change: payload.change,
    totalAlphSpent: payload.totalAlphSpent,
    tokensSpent: payload.tokensSpent,
    ...(payload.script ? { script: payload.script } : {}),
  };
}
