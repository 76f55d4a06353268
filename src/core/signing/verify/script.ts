/**
 * A script transaction's bytes (execute a method, deploy a contract) against what the user chose: the
 * script is byte for byte the one built locally, every fixed output is change back to the signer (the
 * approved assets leave only through the script), and the gas is under the script's own bound.
 */
import { isHex, type DecodedUnsignedTx } from '../../protocol';
import { scriptGasBound } from '../gasBounds';
import {
  DEFAULT_FEE_CAP_ATTO,
  checkEnvelope,
  checkGas,
  checkGroups,
  checkInputs,
  decodeChecked,
  fundingTxsProblem,
  senderAddress,
  type BuildResponse,
  type VerifyOptions,
} from './envelope';
import { normalizeTokens, toBigInt } from './outputs';
import { checkTransferOutputs, type TokenAmountRequest } from './transfer';
import {
  TransferVerificationError,
  verifiedFields,
  type VerificationProblem,
  type VerifiedFields,
} from './result';

/** What the user chose, as the reference a built script transaction is compared to. */
export interface ScriptTxRequest {
  readonly kind: 'execute' | 'deploy';
  readonly fromPublicKey: string;
  /**
   * The script the transaction must carry, built locally: for execute the very bytecode sent to the
   * gateway, for deploy the script the node compiles around the contract's bytecode and fields.
   */
  readonly expectedScript: string;
  /** The assets the script approves (they are inside `expectedScript`; listed for the confirmation). */
  readonly approvedAttoAlph: bigint;
  readonly approvedTokens: readonly TokenAmountRequest[];
  readonly gasAmount?: number;
  readonly gasPrice?: bigint | string;
  /**
   * The gas a dry run of the same script used; with no gas requested, the built gas may be at most
   * this plus what its inputs and outputs cost (+25 %), so a gateway cannot inflate the fee.
   */
  readonly simulatedGas?: number;
  /** Says what differs between the expected and the built script ("calls method 3 instead of 1"). */
  readonly describeScriptDifference?: (expected: string, actual: string) => string | undefined;
}

/** The script the bytes carry is the expected one, and there is one. */
function checkScript(
  decoded: DecodedUnsignedTx,
  request: ScriptTxRequest,
  expectedScript: string,
  problems: VerificationProblem[],
): void {
  const actualScript = (decoded.scriptOpt ?? '').toLowerCase();
  if (actualScript === '') {
    problems.push({
      check: 'script',
      message: 'the transaction carries no script: it would not run anything',
    });
  } else if (actualScript !== expectedScript) {
    const why = request.describeScriptDifference?.(expectedScript, actualScript);
    problems.push({
      check: 'script',
      message: `the transaction's script is not the one built for your ${request.kind === 'deploy' ? 'deployment' : 'call'}${why ? `: ${why}` : ''} (${actualScript.length / 2} bytes, expected ${expectedScript.length / 2})`,
    });
  }
}

/**
 * Every script transaction has a gas bound that does not come from the gateway alone (gasBounds.ts):
 * the deploy script's size, or the dry run's gas under an absolute ceiling.
 */
function checkScriptGasBound(
  decoded: DecodedUnsignedTx,
  request: ScriptTxRequest,
  expectedScript: string,
  problems: VerificationProblem[],
): void {
  if (request.gasAmount !== undefined) return;
  const bound = scriptGasBound({
    kind: request.kind,
    scriptBytes: expectedScript.length / 2,
    inputs: decoded.inputs.length,
    outputs: decoded.fixedOutputs.length,
    ...(request.simulatedGas !== undefined ? { simulatedGas: request.simulatedGas } : {}),
  });
  if (decoded.gasAmount > bound.maxGas) {
    problems.push({ check: 'gas', message: `gasAmount is ${decoded.gasAmount}, but ${bound.rule}` });
  }
}

/**
 * Every check of a built script transaction. Throws {@link TransferVerificationError} listing every
 * difference; returns the verified fields (../verified.ts turns them into a VerifiedTransfer).
 */
export function checkScriptTx(
  request: ScriptTxRequest,
  response: BuildResponse,
  options: VerifyOptions = {},
): VerifiedFields {
  const funding = fundingTxsProblem(response);
  if (funding) throw new TransferVerificationError([funding]);
  const fromAddress = senderAddress(request.fromPublicKey);
  const expectedScript = request.expectedScript.toLowerCase();
  if (!isHex(expectedScript) || expectedScript.length === 0) {
    throw new TransferVerificationError([{ check: 'request', message: 'the expected script is not hex' }]);
  }
  const approvedTokens = normalizeTokens(request.approvedTokens, 'approvedTokens');
  const requestedGasPrice =
    request.gasPrice !== undefined ? toBigInt(request.gasPrice, 'gasPrice') : undefined;
  const feeCap = options.feeCapAtto ?? DEFAULT_FEE_CAP_ATTO;
  const problems: VerificationProblem[] = [];

  const { decoded, txId } = decodeChecked(response.unsignedTx, response.txId, problems);
  checkEnvelope(decoded, options, problems, true);
  checkScript(decoded, request, expectedScript, problems);
  checkInputs(decoded, request.fromPublicKey, problems);
  const { change } = checkTransferOutputs(decoded, [], fromAddress, problems);
  const requested = {
    ...(request.gasAmount !== undefined ? { gasAmount: request.gasAmount } : {}),
    ...(requestedGasPrice !== undefined ? { gasPrice: requestedGasPrice } : {}),
  };
  // The transfer-shape bound does not apply to scripts; their own bound is checked below.
  const { gasPrice, fee } = checkGas(
    decoded,
    { gasAmount: response.gasAmount, gasPrice: response.gasPrice },
    { ...requested, gasAmount: request.gasAmount ?? decoded.gasAmount },
    feeCap,
    problems,
  );
  checkScriptGasBound(decoded, request, expectedScript, problems);
  const groups = checkGroups(decoded, fromAddress, response, problems);
  if (problems.length > 0) throw new TransferVerificationError(problems);

  return verifiedFields(
    'script',
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
      outputs: [],
      change,
      totalAlphSpent: request.approvedAttoAlph + fee,
      tokensSpent: approvedTokens,
      script: {
        kind: request.kind,
        bytecode: expectedScript,
        approvedAttoAlph: request.approvedAttoAlph,
        approvedTokens,
      },
    },
  );
}
