/**
 * Executing a prepared call: the execute-script transaction built by the gateway, verified against the
 * script built locally, and the confirmation's lines read from the verified bytes.
 */
import { describeScriptDifference } from '../../bytecode';
import { decodeUnsignedTx, formatAlph } from '../../protocol';
import type { VerifyOptions } from '../../signing/verify';
import type { TokenMetadata } from '../../signing/confirmation';
import {
  approvalText,
  changeText,
  feeWarningLines,
  type BuiltScriptTx,
  type ScriptClient,
  type ScriptVerifier,
} from './shared';
import { balanceChanges, type PreparedMethodCall } from './call';

/** Builds the execute-script transaction for a prepared call and verifies it. Throws TransferVerificationError. */
export async function buildAndVerifyExecute(
  client: Pick<ScriptClient, 'buildExecuteScript'>,
  call: PreparedMethodCall,
  fromPublicKey: string,
  simulatedGas: number | undefined,
  verify: VerifyOptions,
  verifier: ScriptVerifier,
  signal?: AbortSignal,
  /** Names of the approved tokens (the connection's TokenCatalog), resolved before the build. */
  tokenNames?: TokenMetadata,
): Promise<BuiltScriptTx> {
  const built = await client.buildExecuteScript(
    {
      fromPublicKey,
      bytecode: call.script,
      ...(call.approvedAttoAlph > 0n ? { attoAlphAmount: call.approvedAttoAlph.toString() } : {}),
      ...(call.approvedTokens.length > 0
        ? { tokens: call.approvedTokens.map((t) => ({ id: t.id, amount: t.amount.toString() })) }
        : {}),
      ...(call.gasAmount !== undefined ? { gasAmount: call.gasAmount } : {}),
    },
    { priority: 'user', ...(signal ? { signal } : {}) },
  );
  const verified = verifier.verifyScriptTx(
    {
      kind: 'execute',
      fromPublicKey,
      expectedScript: call.script,
      approvedAttoAlph: call.approvedAttoAlph,
      approvedTokens: call.approvedTokens,
      ...(call.gasAmount !== undefined ? { gasAmount: call.gasAmount } : {}),
      ...(simulatedGas !== undefined ? { simulatedGas } : {}),
      describeScriptDifference,
    },
    built,
    verify,
  );
  const changes = built.simulationResult
    ? balanceChanges(built.simulationResult.contractInputs, built.simulationResult.generatedOutputs)
    : [];
  const lines = [
    `Run ${call.contract}.${call.fn.name} (method ${call.methodIndex}) on ${call.address}`,
    `Arguments: ${call.args.length ? call.args.map((a) => `${a.type} ${JSON.stringify(a.value)}`).join(', ') : 'none'}`,
    `Script: ${call.scriptSource}, ${call.script.length / 2} bytes, byte-equal to the one built locally ✓`,
    `Approves: ${approvalText(call.approvedAttoAlph, call.approvedTokens, tokenNames)}`,
    `Outputs: only change back to you (${verified.change.length}) ✓; inputs: only yours (${decodeUnsignedTx(verified.unsignedTx).inputs.length}) ✓`,
    `Gas: ${verified.gasAmount} × ${verified.gasPrice} atto; fee ${formatAlph(verified.fee)}`,
    ...feeWarningLines(verified),
    ...(changes.length ? ['Balance changes (node simulation):', ...changes.map(changeText)] : []),
    `txId (recomputed locally): ${verified.txId}`,
  ];
  return { verified, balanceChanges: changes, lines };
}
