/**
 * What every contract action shares: the gateway calls it needs, the verifier it is handed, and the
 * arguments the user types for a call or a deploy (approved ALPH and tokens, gas, field values) read into
 * typed values once, with an ArgumentError naming the field when they are not.
 */
import { ArgumentError, parseType, type ArtifactRegistry } from '../../artifacts';
import type {
  BuildDeployContractRequest,
  BuildExecuteScriptRequest,
  CallTxScriptRequest,
  ContractCall,
  RequestOptions,
  SubmitRequest,
  SubmitResult,
} from '../../gateway/client';
import type {
  BuiltDeployContract,
  BuiltExecuteScript,
  CallContractResult,
  CallTxScriptResult,
} from '../../gateway/schemas';
import { attoToAlph, blake2b256, bytesToHex, hexToBytes, isHash32 } from '../../protocol';
import type { BalanceChangeView, MethodCallRequest } from '../actionViews';
import { scriptFeeWarning } from '../../signing/gasBounds';
import { tokenText, type TokenMetadata } from '../../signing/confirmation';
import type { TransferVerificationError, VerifiedTransfer, verifyScriptTx } from '../../signing/verify';
import { isList, scalarText } from '../../util/guards';

/**
 * The verifier is handed in by the caller instead of imported: the extension loads this module lazily as
 * its own bundle, and only the verifier instance of the signer's bundle issues transactions the signer
 * accepts (its record of verified transactions is per module instance).
 */
export interface ScriptVerifier {
  readonly verifyScriptTx: typeof verifyScriptTx;
  readonly TransferVerificationError: typeof TransferVerificationError;
}

/** The part of the gateway client these workflows need (structural, so tests can fake it). */
export interface ScriptClient {
  callContract(call: ContractCall, options?: RequestOptions): Promise<CallContractResult>;
  callTxScript(request: CallTxScriptRequest, options?: RequestOptions): Promise<CallTxScriptResult>;
  buildExecuteScript(
    request: BuildExecuteScriptRequest,
    options?: RequestOptions,
  ): Promise<BuiltExecuteScript>;
  buildDeployContract(
    request: BuildDeployContractRequest,
    options?: RequestOptions,
  ): Promise<BuiltDeployContract>;
  submitTransaction(request: SubmitRequest, options?: RequestOptions): Promise<SubmitResult>;
}

export interface ApprovedToken {
  readonly id: string;
  readonly amount: bigint;
}

const MAX_TOKENS = 16;

export function tokenAmounts(tokens: MethodCallRequest['tokens'], field: string): ApprovedToken[] {
  if (tokens === undefined) return [];
  if (!isList(tokens)) throw new ArgumentError(`${field} must be a list of {id, amount}`, field);
  if (tokens.length > MAX_TOKENS) throw new ArgumentError(`${field}: at most ${MAX_TOKENS} tokens`, field);
  const seen = new Set<string>();
  return tokens.map((t, i) => {
    const id = String(t?.id ?? '')
      .trim()
      .toLowerCase();
    if (!isHash32(id)) {
      throw new ArgumentError(`${field}[${i}].id must be a 32-byte token id in hex`, `${field}[${i}].id`);
    }
    if (seen.has(id))
      throw new ArgumentError(`${field}[${i}]: token ${id} is listed twice`, `${field}[${i}].id`);
    seen.add(id);
    const text = String(t?.amount ?? '')
      .trim()
      .replace(/_/g, '');
    if (!/^\d+$/.test(text) || BigInt(text) === 0n) {
      throw new ArgumentError(
        `${field}[${i}].amount must be a positive integer in the token's smallest unit, got '${text.slice(0, 40)}'`,
        `${field}[${i}].amount`,
      );
    }
    return { id, amount: BigInt(text) };
  });
}

export function gasOf(gasAmount: unknown): number | undefined {
  if (gasAmount === undefined || gasAmount === null || gasAmount === '') return undefined;
  const n = typeof gasAmount === 'string' ? Number(gasAmount) : gasAmount;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 5_000_000) {
    throw new ArgumentError(
      `gasAmount must be an integer from 1 to 5000000, got ${scalarText(gasAmount) ?? typeof gasAmount}`,
      'gasAmount',
    );
  }
  return n;
}

/** Bool prompts give 'true'/'false' text; JSON types are parsed; everything else stays text. */
export function fieldValue(type: string, input: string, registry?: ArtifactRegistry): unknown {
  const node = parseType(type, registry?.structs);
  const text = input.trim();
  if (node.kind === 'array' || node.kind === 'tuple' || node.kind === 'struct') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ArgumentError(`'${text.slice(0, 60)}' is not JSON (${type} takes a JSON value)`, type);
    }
  }
  if (type === 'Bool') {
    if (text === 'true') return true;
    if (text === 'false') return false;
  }
  return text;
}

export function blake2b256Hex(hex: string): string {
  return bytesToHex(blake2b256(hexToBytes(hex)));
}

// ---- executing --------------------------------------------------------------------------------------

export interface BuiltScriptTx {
  readonly verified: VerifiedTransfer;
  /** Exact balance changes from the build's own simulation (contract inputs vs generated outputs). */
  readonly balanceChanges: readonly BalanceChangeView[];
  /** Lines of the confirmation, built from the verified bytes. */
  readonly lines: readonly string[];
}

/** The confirmation's warning, in words, when a verified script's fee is far above the usual (gasBounds.ts). */
export function feeWarningLines(verified: VerifiedTransfer): string[] {
  const script = verified.script;
  if (!script) return [];
  const warning = scriptFeeWarning(script.kind, script.bytecode.length / 2, verified.gasAmount, verified.fee);
  return warning ? [warning] : [];
}

/**
 * ALPH and tokens a script approves or deposits, in the confirmation's words: a token known to the
 * catalog by its symbol and decimal amount, always beside its raw amount and whole id (signing/confirmation.ts
 * `tokenText`, the transfer confirmation's owner); an unknown token by its raw amount and whole id.
 */
export function approvalText(alph: bigint, tokens: readonly ApprovedToken[], names?: TokenMetadata): string {
  if (alph === 0n && tokens.length === 0) return 'nothing';
  return [
    ...(alph > 0n ? [`${attoToAlph(alph)} ALPH`] : []),
    ...tokens.map((t) => tokenText(t.id, t.amount, names?.get(t.id.toLowerCase())).text),
  ].join(', ');
}

export function changeText(c: BalanceChangeView): string {
  const tokens = c.tokens.map((t) => `${t.amount} ${t.name ?? `${t.id.slice(0, 12)}…`}`).join(', ');
  return `  ${c.address}: ${c.alph} ALPH${tokens ? `, ${tokens}` : ''}`;
}
