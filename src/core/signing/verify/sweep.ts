/**
 * A sweep's transactions against the one destination: each one's txId recomputed, no script, inputs the
 * sender's (and no input spent by two of them, which would make all but one fail), and every output to
 * `toAddress`, nothing to anybody else, not even change. The fee cap holds for the whole set.
 */
import { formatAlph, parseAddress, type DecodedUnsignedTx } from '../../protocol';
import {
  DEFAULT_FEE_CAP_ATTO,
  checkEnvelope,
  checkGas,
  checkGroups,
  checkInputs,
  decodeChecked,
  senderAddress,
  type VerifyOptions,
} from './envelope';
import { addTokens, outputOf, sameLockup, toBigInt, tokenList } from './outputs';
import {
  TransferVerificationError,
  verifiedFields,
  type VerificationProblem,
  type VerifiedFields,
  type VerifiedOutput,
  type VerifiedToken,
} from './result';
import { isList } from '../../util/guards';

export interface SweepRequestToVerify {
  readonly fromPublicKey: string;
  readonly toAddress: string;
  /** The lockTime asked for the swept outputs (default 0). */
  readonly lockTime?: number;
  readonly gasAmount?: number;
  readonly gasPrice?: bigint | string;
}

export interface SweepTxToVerify {
  readonly txId: string;
  readonly unsignedTx: string;
  readonly gasAmount?: number;
  readonly gasPrice?: string;
}

export type SweepVerifyOptions = VerifyOptions & { fromGroup?: number; toGroup?: number };

/** A sweep's verified fields, one per transaction in signing order, with the set's totals. */
export interface CheckedSweep {
  readonly fromAddress: string;
  readonly toAddress: string;
  readonly txs: readonly VerifiedFields[];
  /** ALPH arriving at the destination, over all transactions. */
  readonly totalSwept: bigint;
  readonly totalFee: bigint;
  readonly tokensSwept: readonly VerifiedToken[];
}

interface SweepContext {
  readonly request: SweepRequestToVerify;
  readonly fromAddress: string;
  readonly feeCap: bigint;
  readonly requestedGas: { gasAmount?: number; gasPrice?: bigint };
  readonly options: SweepVerifyOptions;
  /** Which transaction spends each input seen so far (keys lowercase). */
  readonly spentInputs: Map<string, number>;
}

/** Every output of a sweep goes to the destination, spendable as asked, without a message. */
function checkSweepOutputs(
  outputs: readonly VerifiedOutput[],
  request: SweepRequestToVerify,
  problems: VerificationProblem[],
): void {
  const wantLock = request.lockTime ?? 0;
  if (outputs.length === 0) problems.push({ check: 'outputs', message: 'the transaction has no outputs' });
  outputs.forEach((o, i) => {
    if (!sameLockup(o.address, request.toAddress)) {
      problems.push({
        check: 'outputs',
        message: `output ${i} pays ${formatAlph(o.attoAlphAmount)} to ${o.address}, not to the sweep destination ${request.toAddress}`,
      });
    }
    if (o.lockTime !== wantLock) {
      problems.push({
        check: 'outputs',
        message: `output ${i} is locked until ${o.lockTime}, expected ${wantLock}`,
      });
    }
    if (o.message !== '') {
      problems.push({
        check: 'outputs',
        message: `output ${i} carries an unexpected message '${o.message}'`,
      });
    }
  });
}

/** No input of the set is spent by two of its transactions. */
function checkSharedInputs(
  decoded: DecodedUnsignedTx,
  k: number,
  spentInputs: Map<string, number>,
  problems: VerificationProblem[],
): void {
  for (const input of decoded.inputs) {
    const key = input.outputRef.key.toLowerCase();
    const other = spentInputs.get(key);
    if (other !== undefined && other !== k) {
      problems.push({ check: 'inputs', message: `input ${key} is also spent by sweep tx ${other}` });
    }
    spentInputs.set(key, k);
  }
}

/**
 * The checks of the k-th transaction; its problems go to `problems` prefixed with its position. Returns
 * its fields, or undefined when its bytes could not even be decoded.
 */
function checkSweepTx(
  tx: SweepTxToVerify,
  k: number,
  ctx: SweepContext,
  problems: VerificationProblem[],
): VerifiedFields | undefined {
  const local: VerificationProblem[] = [];
  const prefixed = (list: readonly VerificationProblem[]) =>
    list.map((p) => ({ ...p, message: `sweep tx ${k}: ${p.message}` }));
  let decoded: DecodedUnsignedTx;
  let txId: string;
  try {
    ({ decoded, txId } = decodeChecked(tx.unsignedTx, tx.txId, local));
  } catch (e) {
    if (!(e instanceof TransferVerificationError)) throw e;
    problems.push(...prefixed(e.problems));
    return undefined;
  }
  checkEnvelope(decoded, ctx.options, local);
  checkInputs(decoded, ctx.request.fromPublicKey, local);
  checkSharedInputs(decoded, k, ctx.spentInputs, local);
  const outputs = decoded.fixedOutputs.map((o, i) => outputOf(o, `fixedOutputs[${i}]`));
  checkSweepOutputs(outputs, ctx.request, local);
  const { gasPrice, fee } = checkGas(decoded, tx, ctx.requestedGas, ctx.feeCap, local);
  const { fromGroup, toGroup } = ctx.options;
  const groups = checkGroups(decoded, ctx.fromAddress, { fromGroup, toGroup }, local);
  problems.push(...prefixed(local));
  const tokens = new Map<string, bigint>();
  for (const o of outputs) addTokens(tokens, o.tokens);
  return verifiedFields(
    'sweep',
    {
      txId,
      unsignedTx: tx.unsignedTx,
      fromPublicKey: ctx.request.fromPublicKey,
      fromAddress: ctx.fromAddress,
      decoded,
      groups,
      gasPrice,
      fee,
    },
    {
      outputs,
      change: [],
      totalAlphSpent: outputs.reduce((s, o) => s + o.attoAlphAmount, 0n) + fee,
      tokensSpent: tokenList(tokens),
    },
  );
}

function sweepContext(request: SweepRequestToVerify, options: SweepVerifyOptions): SweepContext {
  const fromAddress = senderAddress(request.fromPublicKey);
  try {
    parseAddress(request.toAddress);
  } catch (e) {
    throw new TransferVerificationError([
      { check: 'request', message: `toAddress: ${(e as Error).message}` },
    ]);
  }
  return {
    request,
    fromAddress,
    feeCap: options.feeCapAtto ?? DEFAULT_FEE_CAP_ATTO,
    requestedGas: {
      ...(request.gasAmount !== undefined ? { gasAmount: request.gasAmount } : {}),
      ...(request.gasPrice !== undefined ? { gasPrice: toBigInt(request.gasPrice, 'gasPrice') } : {}),
    },
    options,
    spentInputs: new Map(),
  };
}

/**
 * Every check of every transaction of a sweep. Throws {@link TransferVerificationError} listing every
 * difference, each prefixed with its transaction's position; returns the fields ../verified.ts issues.
 */
export function checkSweep(
  request: SweepRequestToVerify,
  unsignedTxs: readonly SweepTxToVerify[],
  options: SweepVerifyOptions = {},
): CheckedSweep {
  const ctx = sweepContext(request, options);
  if (!isList(unsignedTxs) || unsignedTxs.length === 0) {
    throw new TransferVerificationError([
      { check: 'outputs', message: 'the sweep has no transactions to sign' },
    ]);
  }
  const problems: VerificationProblem[] = [];
  const txs: VerifiedFields[] = [];
  unsignedTxs.forEach((tx, k) => {
    const fields = checkSweepTx(tx, k, ctx, problems);
    if (fields) txs.push(fields);
  });
  // The cap is what the user may lose to fees in one go: a sweep of N transactions must not cost N caps.
  const totalFee = txs.reduce((s, f) => s + f.fee, 0n);
  if (totalFee > ctx.feeCap) {
    problems.push({
      check: 'gas',
      message: `the sweep's fees add up to ${formatAlph(totalFee)} over ${txs.length} transaction(s), above the cap of ${formatAlph(ctx.feeCap)}`,
    });
  }
  if (problems.length > 0) throw new TransferVerificationError(problems);
  const tokens = new Map<string, bigint>();
  for (const t of txs) addTokens(tokens, t.tokensSpent);
  return {
    fromAddress: ctx.fromAddress,
    toAddress: request.toAddress,
    txs,
    totalSwept: txs.reduce((s, t) => s + t.totalAlphSpent - t.fee, 0n),
    totalFee,
    tokensSwept: tokenList(tokens),
  };
}
