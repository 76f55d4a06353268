/**
 * The decode tool: an unsigned transaction decoded locally, as Decode Unsigned Transaction does first
 * (the bytes are the authority: they are what a signature would commit to). No request is sent, nothing
 * is signed. A script's calls are named with the workspace's artifacts where they describe the callee.
 */
import { decodeUnsignedTx, groupsOfUnsignedTx, type DecodedUnsignedTx } from '../protocol/unsignedTx';
import { attoToAlph } from '../protocol/units';
import { ProtocolError } from '../protocol/errors';
import { callLine, explainScriptCalls, type ArtifactOf } from '../debugging/scriptReproduction';
import { errorMessage } from '../util/errors';
import { answer, chainValue } from './answerText';
import { TOOL_NAMES, ToolInputError } from './toolInput';

/** Decodes the bytes; bytes that are not a transaction are the model's input error, said as such. */
export function decodeForTool(hex: string): DecodedUnsignedTx {
  try {
    return decodeUnsignedTx(hex);
  } catch (e) {
    if (e instanceof ProtocolError || e instanceof RangeError)
      throw new ToolInputError(
        TOOL_NAMES.decodeUnsignedTx,
        `unsignedTx is not an unsigned transaction: ${errorMessage(e)}`,
      );
    throw e;
  }
}

/** A lock time in ms since 1970; one too far for a Date is said as the number. */
function lockTimeText(ms: number): string {
  return ms <= 8.64e15 ? new Date(ms).toISOString() : `${ms} ms after 1970`;
}

function scriptLines(scriptHex: string, artifactOf: ArtifactOf): string[] {
  const head = `Script: ${scriptHex.length / 2} bytes.`;
  try {
    const calls = explainScriptCalls(scriptHex, artifactOf);
    if (calls.length === 0) return [head, 'It calls no contract method that could be read from its bytes.'];
    return [
      head,
      'Contract calls (from the script bytes):',
      ...calls.map((c) => `- ${chainValue(callLine(c), 1000)}`),
    ];
  } catch (e) {
    return [head, `Its calls could not be read: ${chainValue(errorMessage(e))}`];
  }
}

export function decodedTxText(decoded: DecodedUnsignedTx, artifactOf: ArtifactOf): string {
  const fee = BigInt(decoded.gasAmount) * BigInt(decoded.gasPrice);
  const groups = decoded.inputs.length > 0 ? groupsOfUnsignedTx(decoded) : undefined;
  const lines = [
    `Unsigned transaction ${decoded.txId} (txId computed from the bytes), decoded locally: no request was sent, nothing was signed.`,
    `Version ${decoded.version}, network id ${decoded.networkId}${groups ? `, from group ${groups.fromGroup} to group ${groups.toGroup}` : ''}.`,
    `Gas: ${decoded.gasAmount} at ${decoded.gasPrice} attoALPH each; fee ${attoToAlph(fee)} ALPH.`,
    `Inputs: ${decoded.inputs.length}.`,
    `Fixed outputs: ${decoded.fixedOutputs.length}.`,
    ...decoded.fixedOutputs.map((o, i) => {
      const tokens = o.tokens.map((t) => `${chainValue(t.amount, 80)} of token ${chainValue(t.id, 80)}`);
      const extras = [
        ...(tokens.length > 0 ? [`tokens: ${tokens.join(', ')}`] : []),
        ...(o.lockTime > 0 ? [`locked until ${lockTimeText(o.lockTime)}`] : []),
        ...(o.message ? [`message (hex): ${chainValue(o.message, 200)}`] : []),
      ];
      return `- ${i + 1}. ${chainValue(o.address, 100)}: ${attoToAlph(o.attoAlphAmount)} ALPH${extras.length > 0 ? `; ${extras.join('; ')}` : ''}`;
    }),
    ...(decoded.scriptOpt ? scriptLines(decoded.scriptOpt, artifactOf) : ['No script: a transfer.']),
  ];
  return answer(lines);
}
