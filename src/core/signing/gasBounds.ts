/**
 * How much gas a script transaction may carry when the user did not ask for an amount: the one owner of
 * the gas bounds of Execute and Deploy (transfers have theirs in verify/envelope.ts's `transferGasBound`).
 *
 * The gateway builds the transaction and chooses its gas; a tampering gateway can raise it, and the fee
 * with it (gas × price), up to the node's 1 ALPH cap. So every script transaction has a bound that does
 * not come from the gateway alone:
 *
 * - Deploy: from the size of the deploy script. Honest nodes charge about 57,000 gas plus about 2 per
 *   script byte; some real testnet deployments (an older node's estimate) carry about 152,000. The bound,
 *   the transfer bound of the transaction's inputs and outputs + 130,000 + 8 per script byte, holds every
 *   one of the 93 real deploy transactions we checked (111 to 2,579 script bytes, 57,125 to 153,613 gas)
 *   and refuses a gateway's 4,667,200 for a 58,340-gas deploy.
 * - Execute: the dry run's gas (+25 % and what the inputs and outputs need), and, because the dry run
 *   comes from the same gateway, an absolute ceiling of 500,000 gas (real calls use 42,000 to 73,000).
 *   A call that really needs more says so with an explicit gas amount, which the user then sees.
 *
 * Below those bounds the confirmation still warns, in words, when the fee is far above what such a
 * transaction usually costs ({@link scriptFeeWarning}).
 */
import { DEFAULT_GAS_AMOUNT, DEFAULT_GAS_PRICE, attoToAlph } from '../protocol';

export type ScriptKind = 'execute' | 'deploy';

/** What an honest node asks for a transfer of this shape (1,000 + 4,200 per input + 4,500 per output, +25 %). */
export function shapeGas(inputs: number, outputs: number): number {
  const schedule = 1_000 + 4_200 * inputs + 4_500 * outputs;
  return Math.ceil(Math.max(DEFAULT_GAS_AMOUNT, schedule) * 1.25);
}

export const DEPLOY_GAS_BASE = 130_000;
export const DEPLOY_GAS_PER_SCRIPT_BYTE = 8;
/** The most gas an execute may carry without an explicit gas amount, whatever the dry run said. */
export const EXECUTE_GAS_CEILING = 500_000;
/** The dry run's gas may grow this much between the simulation and the build (state moves on). */
export const DRY_RUN_MARGIN = 1.25;

export interface ScriptShape {
  readonly kind: ScriptKind;
  readonly scriptBytes: number;
  readonly inputs: number;
  readonly outputs: number;
  /** The gas a dry run of the same script used (execute). */
  readonly simulatedGas?: number;
}

export interface GasBound {
  readonly maxGas: number;
  /** How the bound was made, for a refusal that says what it compared. */
  readonly rule: string;
}

/** The most gas a script transaction of this shape may carry when no gas amount was requested. */
export function scriptGasBound(shape: ScriptShape): GasBound {
  const io = shapeGas(shape.inputs, shape.outputs);
  if (shape.kind === 'deploy') {
    const maxGas = io + DEPLOY_GAS_BASE + DEPLOY_GAS_PER_SCRIPT_BYTE * shape.scriptBytes;
    return {
      maxGas,
      rule: `a deploy script of ${shape.scriptBytes} bytes with ${shape.inputs} input(s) and ${shape.outputs} output(s) needs at most ${maxGas}`,
    };
  }
  if (shape.simulatedGas !== undefined) {
    const fromDryRun = io + Math.ceil(shape.simulatedGas * DRY_RUN_MARGIN);
    if (fromDryRun <= EXECUTE_GAS_CEILING)
      return {
        maxGas: fromDryRun,
        rule: `the dry run used ${shape.simulatedGas}; with what ${shape.inputs} input(s) and ${shape.outputs} output(s) need, at most ${fromDryRun}`,
      };
  }
  return {
    maxGas: EXECUTE_GAS_CEILING,
    rule: `a contract call without an explicit gas amount may use at most ${EXECUTE_GAS_CEILING}${shape.simulatedGas !== undefined ? ` (the dry run claimed ${shape.simulatedGas})` : ''}; pass a gas amount if this call really needs more`,
  };
}

/** The gas such a transaction usually needs: what the warning compares the fee with. */
export function usualScriptGas(kind: ScriptKind, scriptBytes: number): number {
  return kind === 'deploy' ? 57_000 + 2 * scriptBytes : 60_000;
}

/** The fee is worth a warning above this multiple of the usual one. */
export const FEE_WARNING_FACTOR = 2.5;

/**
 * A sentence for the confirmation when the fee is far above what such a transaction usually costs
 * (at the minimum gas price), or undefined when it is not.
 */
export function scriptFeeWarning(
  kind: ScriptKind,
  scriptBytes: number,
  gasAmount: number,
  fee: bigint,
): string | undefined {
  const usualFee = BigInt(usualScriptGas(kind, scriptBytes)) * DEFAULT_GAS_PRICE;
  if (Number(fee) <= Number(usualFee) * FEE_WARNING_FACTOR) return undefined;
  const times = Number(fee) / Number(usualFee);
  const what = kind === 'deploy' ? `a deploy of this size (${scriptBytes} script bytes)` : 'a contract call';
  return `⚠ The fee, ${attoToAlph(fee)} ALPH (gas ${gasAmount}), is ${times >= 10 ? Math.round(times) : times.toFixed(1)} times what ${what} usually costs (about ${attoToAlph(usualFee)} ALPH): sign only if you expected that.`;
}
