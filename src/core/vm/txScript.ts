/**
 * `emulateTxScript`: runs an unsigned transaction's script the way the node's gas estimation does
 * (`TxScriptEmulator.emulateRaw` in `flow/gasestimation/`): the code size is checked and the script's
 * bytes + 200 are charged (`VM.checkCodeSize`), then `StatefulVM.runTxScriptMockup` runs the script
 * with its signature checks mocked, from the maximal gas per transaction; `gasUsed` is what it spent.
 *
 * Like the emulator, the caller's assets are its inputs less the gas fee, with the fixed outputs not
 * taken out (gas estimation emulates before the change output exists), so the change is a generated
 * output and is charged as one. The tx id, the fixed-output count (which numbers new contracts), the
 * gas fields and the network come from the transaction itself, so created contracts get the ids they
 * get on chain.
 */
import { bytesToHex, decodeUnsignedTx, groupOfHint, hexToBytes, type DecodedUnsignedTx } from '../protocol';
import { Balances, BalancesPerLockup } from './balances';
import { decodeScript } from './decode';
import { VmFailure } from './failure';
import { forkActivationsOf, hardForkAt, isForkEnabled, type HardFork } from './forks';
import { UnsupportedByVmError, VirtualMachine } from './machine';
import { mockupMethods } from './mockups';
import type { NodeContractState } from './nodeJson';
import { StatefulContext } from './statefulContext';
import { inputLockups, resultOf, type EmulateTxScriptResult } from './txScriptResult';
import { MemoryWorldState } from './worldState';

export type { EmulateTxScriptResult } from './txScriptResult';

export interface InputAsset {
  readonly address: string;
  readonly attoAlphAmount: string;
  readonly tokens?: ReadonlyArray<{ readonly id: string; readonly amount: string }>;
}

export interface EmulateTxScriptRequest {
  /** Hex of the whole unsigned tx: script, gas, inputs and the tx id come from it. */
  readonly unsignedTx: string;
  /** What each input holds, in input order; absent: 10^24 atto ALPH each, locked by the first signer. */
  readonly inputAssets?: readonly InputAsset[];
  /** The world before the tx, in the node's JSON shape, read lazily by contract address. */
  readonly contractState?: (address: string) => NodeContractState | undefined;
  /** Milliseconds since the epoch; picks the fork's rules (default: now). */
  readonly blockTimeStamp?: number;
}

const DEFAULT_INPUT_ALPH = 10n ** 24n;
/** `maximalGasPerTx` since Rhone (a quarter block's gas, halved), and `maximalGasPerTxPreRhone`. */
const MAX_GAS_PER_TX = 5_000_000;
const MAX_GAS_PER_TX_PRE_RHONE = 625_000;
/** The emulator signs with 16 random script signatures; mocked checks only count them. */
const MOCK_SIGNATURES = Array.from({ length: 16 }, () => new Uint8Array(64));
/** Stand-ins for the dry-run block: the node uses its best tip's hash and the next target. */
const DRY_RUN_TARGET = (1n << 224n) - 1n;

function callerBalances(lockups: readonly Uint8Array[], request: EmulateTxScriptRequest): Balances {
  const balances = new Balances();
  lockups.forEach((lockup, i) => {
    const asset = request.inputAssets?.[i];
    const alph = asset === undefined ? DEFAULT_INPUT_ALPH : BigInt(asset.attoAlphAmount);
    const tokens = (asset?.tokens ?? []).map((t) => [t.id, BigInt(t.amount)] as const);
    balances.add(bytesToHex(lockup), BalancesPerLockup.of(alph, tokens));
  });
  return balances;
}

function failed(error: string, gasUsed = 0): EmulateTxScriptResult {
  return { ok: false, error, gasUsed, contracts: [], events: [], debugMessages: [], generatedOutputs: [] };
}

export function emulateTxScript(request: EmulateTxScriptRequest): EmulateTxScriptResult {
  let tx: DecodedUnsignedTx;
  try {
    tx = decodeUnsignedTx(request.unsignedTx);
  } catch (error) {
    return failed(`InvalidUnsignedTx: ${(error as Error).message}`);
  }
  if (tx.scriptOpt === undefined) return failed('NoTxScript: the transaction has no script');
  const fork = hardForkAt(forkActivationsOf(tx.networkId), request.blockTimeStamp ?? Date.now());
  try {
    return runScript(tx, fork, request);
  } catch (error) {
    // Not a VM failure: a contract state that does not decode (the node's IOErrorLoadContract), an
    // input whose signer cannot be told, or a value of a type the VM does not have.
    if (error instanceof UnsupportedByVmError) return failed(`UnsupportedByVm: ${error.message}`);
    return failed(`InvalidInput: ${(error as Error).message}`);
  }
}

function runScript(
  tx: DecodedUnsignedTx,
  fork: HardFork,
  request: EmulateTxScriptRequest,
): EmulateTxScriptResult {
  const scriptBytes = hexToBytes(tx.scriptOpt ?? '');
  let methods;
  try {
    methods = mockupMethods(decodeScript(scriptBytes));
  } catch (error) {
    return failed(`SerdeError: ${(error as Error).message}`);
  }
  const lockups = inputLockups(tx, request.inputAssets);
  const gasFee = BigInt(tx.gasPrice) * BigInt(tx.gasAmount);
  const initialBalances = callerBalances(lockups, request);
  const first = lockups[0];
  if (first === undefined) return failed('NoTxInput');
  if (!initialBalances.subAlph(bytesToHex(first), gasFee)) return failed('UnableToPayGasFee');
  const worldState = new MemoryWorldState(request.contractState);
  const ctx = new StatefulContext({
    blockEnv: {
      networkId: tx.networkId,
      timeStamp: BigInt(request.blockTimeStamp ?? Date.now()),
      target: DRY_RUN_TARGET,
      blockHash: new Uint8Array(32),
      hardFork: fork,
    },
    txEnv: {
      txId: hexToBytes(tx.txId),
      prevOutputs: lockups.map((lockupScript) => ({ lockupScript, lockTime: 0n })),
      gasPrice: BigInt(tx.gasPrice),
      gasAmount: tx.gasAmount,
      signatures: MOCK_SIGNATURES,
    },
    gasLimit: isForkEnabled(fork, 'Rhone') ? MAX_GAS_PER_TX : MAX_GAS_PER_TX_PRE_RHONE,
    worldState,
    group: groupOfHint(tx.inputs[0]?.outputRef.hint ?? 0),
    fixedOutputsLength: tx.fixedOutputs.length,
    initialBalances,
    gasFee,
  });
  try {
    ctx.chargeContractCodeSize(scriptBytes.length);
  } catch (error) {
    if (error instanceof VmFailure) return failed(`${error.failure}: ${error.message}`, ctx.gasUsed);
    throw error;
  }
  const vm = new VirtualMachine(ctx);
  vm.start({ code: { methods }, methodIndex: 0, args: [] });
  return resultOf(vm.run(), ctx, worldState);
}
