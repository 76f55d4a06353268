/**
 * The end of a TxScript run (`StatefulContext.cleanBalances` and `generateOutput` in `Context.scala`,
 * `MutBalancesPerLockup.toTxOutput`): the gas paid by `payGasFee!` goes back to the first input, the
 * contracts' assets still in use join the output balances, Danube tops up dust from the caller, the
 * caller's change is flushed, and every balance becomes outputs, each generated one charged 4,500 gas
 * (a contract output equal to the contract's input is not regenerated, and costs nothing).
 */
import {
  addressFromContractId,
  addressFromLockupScript,
  bytesToHex,
  equalBytes,
  hexToBytes,
} from '../protocol';
import type { BalancesPerLockup } from './balances';
import { fail } from './failure';
import { isForkEnabled, type HardFork } from './forks';
import { TX_OUTPUT_BASE_GAS } from './gas';
import { contractIdOfKey, unloadedText, type GeneratedOutput, type StatefulContext } from './statefulContext';
import type { ContractAsset } from './worldState';

/** `dustUtxoAmount` (0.001 ALPH), `minimalAlphInContract` (0.1 ALPH since Rhone, 1 ALPH before). */
export const DUST_UTXO_AMOUNT = 10n ** 15n;
export const MINIMAL_ALPH_IN_CONTRACT = 10n ** 17n;
const MAX_TOKEN_PER_CONTRACT_UTXO = 8;

export function minimalContractDeposit(fork: HardFork): bigint {
  return isForkEnabled(fork, 'Rhone') ? MINIMAL_ALPH_IN_CONTRACT : 10n ** 18n;
}

function formatAlph(atto: bigint): string {
  const whole = atto / 10n ** 18n;
  const frac = (atto % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '');
  return `${whole}${frac === '' ? '' : `.${frac}`} ALPH`;
}

/** The node's `LowerThanContractMinimalBalance` text (it always quotes Rhone's 0.1 ALPH). */
export function lowerThanMinimalText(alph: bigint): string {
  return `Contract output contains ${formatAlph(alph)},less than contract minimal balance ${formatAlph(MINIMAL_ALPH_IN_CONTRACT)}`;
}

/** `toTxOutput` since Leman: an asset lockup gets one dust output per token and the rest in ALPH. */
export function toTxOutputs(
  key: string,
  b: BalancesPerLockup,
  fork: HardFork,
  lockTime = 0n,
): GeneratedOutput[] {
  const tokens = b.tokenVector();
  const lockupScript = hexToBytes(key);
  const invalid = (): never =>
    fail(
      'InvalidOutputBalances',
      `InvalidOutputBalances(${addressFromLockupScript(lockupScript)},${tokens.length},${b.alph})`,
    );
  if (b.alph === 0n) return tokens.length === 0 ? [] : invalid();
  const contractId = contractIdOfKey(key);
  if (contractId !== undefined) {
    if (isForkEnabled(fork, 'Leman') && b.alph < minimalContractDeposit(fork)) {
      fail('LowerThanContractMinimalBalance', lowerThanMinimalText(b.alph));
    }
    if (tokens.length > MAX_TOKEN_PER_CONTRACT_UTXO) {
      fail(
        'InvalidTokenNumForContractOutput',
        `InvalidTokenNumForContractOutput(${addressFromContractId(contractId)},${tokens.length})`,
      );
    }
    return [{ lockupScript, alph: b.alph, tokens, lockTime: 0n }];
  }
  if (!isForkEnabled(fork, 'Leman')) return [{ lockupScript, alph: b.alph, tokens, lockTime }];
  const tokenDust = DUST_UTXO_AMOUNT * BigInt(tokens.length);
  const outputs: GeneratedOutput[] = tokens.map((t) => ({
    lockupScript,
    alph: DUST_UTXO_AMOUNT,
    tokens: [t],
    lockTime,
  }));
  if (b.alph === tokenDust) return outputs;
  if (b.alph < tokenDust + DUST_UTXO_AMOUNT) return invalid();
  return [...outputs, { lockupScript, alph: b.alph - tokenDust, tokens: [], lockTime }];
}

function sameAsset(output: GeneratedOutput, input: ContractAsset): boolean {
  if (output.alph !== input.alph || output.tokens.length !== input.tokens.length) return false;
  return output.tokens.every(
    ([id, amount], i) => input.tokens[i]?.[0] === id && input.tokens[i]?.[1] === amount,
  );
}

/** `generateOutput`: contract outputs replace the contract's input; asset outputs are appended. */
export function generateOutput(ctx: StatefulContext, output: GeneratedOutput): void {
  const contractId = contractIdOfKey(bytesToHex(output.lockupScript));
  if (contractId === undefined) {
    ctx.generatedOutputs.push(output);
    ctx.chargeGas(TX_OUTPUT_BASE_GAS);
    return;
  }
  // Before Leman a contract output is always a new one (`generateContractOutputSimple`).
  if (!isForkEnabled(ctx.hardFork, 'Leman')) {
    writeContractOutput(ctx, contractId, output, (o) => ctx.generatedOutputs.push(o));
    return;
  }
  const inputIndex = ctx.contractInputs.findIndex((i) => i.contractId === contractId);
  if (inputIndex === -1) fail('ContractAssetUnloaded', unloadedText(contractId));
  const created = isForkEnabled(ctx.hardFork, 'Danube')
    ? ctx.generatedOutputs.findIndex((o) => equalBytes(o.lockupScript, output.lockupScript))
    : -1;
  if (created !== -1) {
    ctx.contractInputs.splice(inputIndex, 1);
    writeContractOutput(ctx, contractId, output, (o) => (ctx.generatedOutputs[created] = o));
    return;
  }
  const input = ctx.contractInputs[inputIndex];
  if (input !== undefined && sameAsset(output, input.asset)) {
    ctx.contractInputs.splice(inputIndex, 1);
    ctx.markAssetFlushed(contractId);
    return;
  }
  writeContractOutput(ctx, contractId, output, (o) => ctx.generatedOutputs.push(o));
}

function writeContractOutput(
  ctx: StatefulContext,
  contractId: string,
  output: GeneratedOutput,
  place: (o: GeneratedOutput) => void,
): void {
  ctx.chargeGas(TX_OUTPUT_BASE_GAS);
  ctx.markAssetFlushed(contractId);
  const record = ctx.worldState.getContract(contractId);
  if (record !== undefined)
    ctx.worldState.putContract({ ...record, asset: { alph: output.alph, tokens: output.tokens } });
  place(output);
}

function outputGeneratedBalances(ctx: StatefulContext): void {
  for (const [key, balances] of ctx.outputBalances.all) {
    const contractId = contractIdOfKey(key);
    if (contractId !== undefined && !ctx.assetStatus.has(contractId))
      fail('ContractAssetUnloaded', unloadedText(contractId));
    for (const output of toTxOutputs(key, balances, ctx.hardFork)) generateOutput(ctx, output);
  }
}

function reimburseGas(ctx: StatefulContext): void {
  if (!isForkEnabled(ctx.hardFork, 'Rhone') || ctx.gasFeePaid === 0n) return;
  const first = ctx.txEnv.prevOutputs[0];
  if (first !== undefined && !ctx.outputBalances.addAlph(bytesToHex(first.lockupScript), ctx.gasFeePaid)) {
    fail('InvalidBalances');
  }
}

function outputRemainingContractAssets(ctx: StatefulContext): void {
  if (!isForkEnabled(ctx.hardFork, 'Rhone')) return;
  for (const [contractId, status] of ctx.assetStatus) {
    if (status.kind === 'using' && !ctx.outputBalances.add(`03${contractId}`, status.balances))
      fail('InvalidBalances');
  }
}

function flushCallerBalances(ctx: StatefulContext): void {
  const caller = ctx.txCallerBalance;
  if (caller === undefined) return;
  if (!ctx.outputBalances.merge(caller.approved) || !ctx.outputBalances.merge(caller.remaining))
    fail('InvalidBalances');
}

/** `utxoMinimalAlphAmountToCover`: what an output of these balances lacks to be above dust. */
function alphToCover(key: string, b: BalancesPerLockup): bigint {
  if (contractIdOfKey(key) !== undefined)
    return b.alph < MINIMAL_ALPH_IN_CONTRACT ? MINIMAL_ALPH_IN_CONTRACT - b.alph : 0n;
  const tokenDust = DUST_UTXO_AMOUNT * BigInt(b.tokens.size);
  if (b.alph > tokenDust)
    return b.alph < tokenDust + DUST_UTXO_AMOUNT ? tokenDust + DUST_UTXO_AMOUNT - b.alph : 0n;
  return tokenDust - b.alph;
}

/** `coverExtraAlphAmount`: the first input's remaining, then its approved ALPH, fund the target. */
export function coverExtraAlph(ctx: StatefulContext, target: BalancesPerLockup, amount: bigint): void {
  const caller = ctx.txCallerBalance ?? fail('TxCallerBalanceNotAvailable');
  const callerKey = bytesToHex(ctx.firstTxInputLockup());
  let left = amount;
  for (const source of [caller.remaining, caller.approved]) {
    const balances = left === 0n ? undefined : source.get(callerKey);
    if (balances === undefined) continue;
    const moved = left < balances.alph ? left : balances.alph;
    balances.subAlph(moved);
    target.addAlph(moved);
    left -= moved;
  }
  if (left !== 0n) {
    fail(
      'InsufficientFundsForUTXODustAmount',
      `Insufficient funds to cover the minimum amount for contract UTXO (0.1 ALPH) or asset UTXO (0.001 ALPH). You are short by ${formatAlph(left)}. Please ensure transaction caller approves enough ALPH.`,
      { required: left },
    );
  }
  ctx.totalAutoFundDust += amount;
}

function coverUtxoMinimalAmounts(ctx: StatefulContext): void {
  for (const [key, balances] of ctx.outputBalances.all) {
    if (ctx.isTxCaller(key)) continue;
    const amount = alphToCover(key, balances);
    if (amount > 0n) coverExtraAlph(ctx, balances, amount);
  }
}

function checkAllAssetsFlushed(ctx: StatefulContext): void {
  for (const [contractId, status] of ctx.assetStatus) {
    if (status.kind !== 'flushed') {
      fail(
        'EmptyContractAsset',
        `No assets for contract ${addressFromContractId(contractId)}, a minimum of ${formatAlph(MINIMAL_ALPH_IN_CONTRACT)} is required`,
      );
    }
  }
}

/** `cleanBalances`: Danube covers dust before flushing the caller; earlier forks flush first. */
export function cleanBalances(ctx: StatefulContext): void {
  if (isForkEnabled(ctx.hardFork, 'Danube')) {
    reimburseGas(ctx);
    outputRemainingContractAssets(ctx);
    coverUtxoMinimalAmounts(ctx);
    flushCallerBalances(ctx);
  } else {
    flushCallerBalances(ctx);
    reimburseGas(ctx);
    outputRemainingContractAssets(ctx);
  }
  outputGeneratedBalances(ctx);
  checkAllAssetsFlushed(ctx);
}
