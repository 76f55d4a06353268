/**
 * A transfer's bytes against what the user asked for: outputs [0, n) are the n destinations in order
 * (address, amount, tokens, lockTime, message), every later output is change to the sender, and no
 * script runs. The common checks (txId, decoding, inputs, gas, groups) are ./envelope.ts.
 */
import {
  DUST_ATTO,
  formatAlph,
  groupsOfUnsignedTx,
  parseAddress,
  type DecodedUnsignedTx,
} from '../../protocol';
import {
  DEFAULT_FEE_CAP_ATTO,
  checkEnvelope,
  checkGas,
  checkGatewayDecode,
  checkGroups,
  checkInputs,
  decodeChecked,
  fundingTxsProblem,
  senderAddress,
  type BuildResponse,
  type GatewayDecodeResponse,
  type VerifyOptions,
} from './envelope';
import {
  addTokens,
  normalizeTokens,
  outputOf,
  sameLockup,
  sameTokens,
  toBigInt,
  tokenList,
  tokensText,
} from './outputs';
import {
  TransferVerificationError,
  verifiedFields,
  type VerificationProblem,
  type VerifiedFields,
  type VerifiedOutput,
  type VerifiedToken,
} from './result';
import { isList } from '../../util/guards';

export interface TokenAmountRequest {
  readonly id: string;
  readonly amount: bigint | string;
}

export interface TransferDestinationRequest {
  readonly address: string;
  readonly attoAlphAmount: bigint | string;
  readonly tokens?: readonly TokenAmountRequest[];
  /** Milliseconds; 0 or absent means spendable at once. */
  readonly lockTime?: number;
  /** Hex of the output's additional data; absent means empty. */
  readonly message?: string;
}

/** What the user asked for: the reference every built transaction is compared to. */
export interface TransferRequest {
  readonly fromPublicKey: string;
  readonly destinations: readonly TransferDestinationRequest[];
  readonly gasAmount?: number;
  readonly gasPrice?: bigint | string;
}

interface NormalizedDestination {
  readonly address: string;
  readonly attoAlphAmount: bigint;
  readonly tokens: readonly VerifiedToken[];
  readonly lockTime: number;
  readonly message: string;
}

function normalizeRequest(request: TransferRequest): {
  destinations: NormalizedDestination[];
  gasAmount?: number;
  gasPrice?: bigint;
} {
  if (!isList(request.destinations) || request.destinations.length === 0) {
    throw new TransferVerificationError([{ check: 'request', message: 'the request has no destinations' }]);
  }
  const destinations = request.destinations.map((d, i) => {
    const where = `destinations[${i}]`;
    try {
      parseAddress(d.address);
    } catch (e) {
      throw new TransferVerificationError([
        { check: 'request', message: `${where}.address: ${(e as Error).message}` },
      ]);
    }
    return {
      address: d.address,
      attoAlphAmount: toBigInt(d.attoAlphAmount, `${where}.attoAlphAmount`),
      tokens: normalizeTokens(d.tokens ?? [], `${where}.tokens`),
      lockTime: d.lockTime ?? 0,
      message: (d.message ?? '').toLowerCase(),
    };
  });
  return {
    destinations,
    ...(request.gasAmount !== undefined ? { gasAmount: request.gasAmount } : {}),
    ...(request.gasPrice !== undefined ? { gasPrice: toBigInt(request.gasPrice, 'gasPrice') } : {}),
  };
}

/**
 * Outputs [0, n) must be the n destinations in order (the node writes them first, in request order);
 * every later output must be change to the sender: spendable at once (a time-locked "change" would
 * freeze our own money), without a message, at most one ALPH-only change and at most one token-change
 * output per token (since Leman an asset output holds at most one token).
 */
export function checkTransferOutputs(
  decoded: DecodedUnsignedTx,
  destinations: readonly NormalizedDestination[],
  fromAddress: string,
  problems: VerificationProblem[],
): { outputs: VerifiedOutput[]; change: VerifiedOutput[] } {
  const all = decoded.fixedOutputs.map((o, i) => outputOf(o, `fixedOutputs[${i}]`));
  const outputs: VerifiedOutput[] = [];
  const change: VerifiedOutput[] = [];
  if (all.length < destinations.length) {
    problems.push({
      check: 'outputs',
      message: `the transaction has ${all.length} output(s), fewer than the ${destinations.length} requested destination(s)`,
    });
  }
  destinations.forEach((want, i) => {
    const got = all[i];
    if (!got) return;
    outputs.push(got);
    if (!sameLockup(got.address, want.address)) {
      problems.push({
        check: 'outputs',
        message: `output ${i} pays ${got.address}, but destination ${i} is ${want.address}`,
      });
    }
    if (got.attoAlphAmount !== want.attoAlphAmount) {
      problems.push({
        check: 'outputs',
        message: `output ${i} carries ${formatAlph(got.attoAlphAmount)}, but destination ${i} asked for ${formatAlph(want.attoAlphAmount)}`,
      });
    }
    if (!sameTokens(got.tokens, want.tokens)) {
      problems.push({
        check: 'outputs',
        message: `output ${i} carries ${tokensText(got.tokens)}, but destination ${i} asked for ${tokensText(want.tokens)}`,
      });
    }
    if (got.lockTime !== want.lockTime) {
      problems.push({
        check: 'outputs',
        message: `output ${i} is locked until ${got.lockTime}, but destination ${i} asked for lockTime ${want.lockTime}`,
      });
    }
    if (got.message !== want.message) {
      problems.push({
        check: 'outputs',
        message: `output ${i} carries message '${got.message}', but destination ${i} asked for '${want.message}'`,
      });
    }
  });
  let alphChange = 0;
  const tokenChange = new Set<string>();
  all.slice(destinations.length).forEach((o, k) => {
    const i = destinations.length + k;
    const what = `output ${i} (${formatAlph(o.attoAlphAmount)}${o.tokens.length > 0 ? `, ${tokensText(o.tokens)}` : ''})`;
    if (!sameLockup(o.address, fromAddress)) {
      problems.push({
        check: 'outputs',
        message: `${what} pays ${o.address}: it is neither a requested destination nor change to the sender ${fromAddress}`,
      });
      return;
    }
    change.push(o);
    if (o.lockTime !== 0) {
      problems.push({ check: 'outputs', message: `change ${what} is time-locked until ${o.lockTime}` });
    }
    if (o.message !== '') {
      problems.push({
        check: 'outputs',
        message: `change ${what} carries an unexpected message '${o.message}'`,
      });
    }
    if (o.tokens.length === 0) {
      if (++alphChange > 1) {
        problems.push({
          check: 'outputs',
          message: `${what} is a second ALPH change output; at most one is expected`,
        });
      }
    } else if (o.tokens.length > 1) {
      problems.push({
        check: 'outputs',
        message: `change ${what} holds several tokens; token change holds one`,
      });
    } else {
      const id = (o.tokens[0] as VerifiedToken).id;
      if (tokenChange.has(id)) {
        problems.push({ check: 'outputs', message: `${what} is a second change output for token ${id}` });
      }
      tokenChange.add(id);
    }
    if (o.attoAlphAmount < DUST_ATTO) {
      problems.push({ check: 'outputs', message: `change ${what} is below the dust minimum` });
    }
  });
  return { outputs, change };
}

/**
 * Every check of a built transfer against the request. Throws {@link TransferVerificationError} listing
 * every difference; returns the verified fields (../verified.ts turns them into a VerifiedTransfer).
 */
export function checkTransfer(
  request: TransferRequest,
  response: BuildResponse,
  gatewayDecode?: GatewayDecodeResponse,
  options: VerifyOptions = {},
): VerifiedFields {
  const funding = fundingTxsProblem(response);
  if (funding) throw new TransferVerificationError([funding]);
  const fromAddress = senderAddress(request.fromPublicKey);
  const normalized = normalizeRequest(request);
  const feeCap = options.feeCapAtto ?? DEFAULT_FEE_CAP_ATTO;
  const problems: VerificationProblem[] = [];

  const { decoded, txId } = decodeChecked(response.unsignedTx, response.txId, problems);
  const local = decoded.inputs.length > 0 ? groupsOfUnsignedTx(decoded) : undefined;
  if (gatewayDecode) checkGatewayDecode(response.unsignedTx, txId, gatewayDecode, local, problems);
  checkEnvelope(decoded, options, problems);
  checkInputs(decoded, request.fromPublicKey, problems);
  const { outputs, change } = checkTransferOutputs(decoded, normalized.destinations, fromAddress, problems);
  const { gasPrice, fee } = checkGas(
    decoded,
    { gasAmount: response.gasAmount, gasPrice: response.gasPrice },
    normalized,
    feeCap,
    problems,
  );
  const groups = checkGroups(decoded, fromAddress, response, problems);
  if (problems.length > 0) throw new TransferVerificationError(problems);

  const spentTokens = new Map<string, bigint>();
  for (const o of outputs) addTokens(spentTokens, o.tokens);
  return verifiedFields(
    'transfer',
    {
      txId,
      unsignedTx: response.unsignedTx,
      fromPublicKey: request.fromPublicKey,
      fromAddress,
      decoded,
      groups,
      gasPrice,
      fee,
    },
    {
      outputs,
      change,
      totalAlphSpent: outputs.reduce((s, o) => s + o.attoAlphAmount, 0n) + fee,
      tokensSpent: tokenList(spentTokens),
    },
  );
}
