/**
 * `runTxScript`: a transaction's script run as a block runs it (`StatefulVM.runTxScript` in `VM.scala`),
 * for a chain that executes on this VM (the sandbox gateway) or a replay that knows a tx's inputs: the
 * caller's assets are its inputs less the fixed outputs and the gas fee, the script's bytes + 200 are
 * charged first (`VM.checkCodeSize`), then the script runs from the tx's gas. What it leaves is handed
 * back as the context leaves it (the world's changes, contract inputs, generated outputs in order, logs),
 * for the caller to apply to its own state; nothing here keeps anything.
 *
 * Unlike {@link emulateTxScript}, signatures are not mocked (a script that checks one fails as the node's
 * does without it), and the fork, network and block come from the request.
 */
import { bytesToHex } from '../protocol';
import { Balances, BalancesPerLockup } from './balances';
import type { DebugMessage, LogEntry } from './context';
import { decodeScript } from './decode';
import { VmFailure } from './failure';
import type { HardFork } from './forks';
import { VirtualMachine, type Outcome, type VmOptions } from './machine';
import { StatefulContext, type GeneratedOutput } from './statefulContext';
import type { Val } from './values';
import type { ContractAsset, MemoryWorldState } from './worldState';

export interface TxRunRequest {
  /** The TxScript's bytecode. */
  readonly script: Uint8Array;
  /** The world before the tx; its changes are the run's. */
  readonly world: MemoryWorldState;
  /** The signer's lockup script: the tx's inputs are all its. */
  readonly caller: Uint8Array;
  /** What the inputs hold beyond the fixed outputs and the gas fee: what the script may approve. */
  readonly callerAssets: ContractAsset;
  readonly txId: Uint8Array;
  readonly networkId: number;
  readonly timeStamp: number;
  readonly hardFork: HardFork;
  readonly group: number;
  /** Fixed outputs come first: generated outputs (and new contract ids) are numbered after them. */
  readonly fixedOutputsLength: number;
  readonly gasAmount: number;
  readonly gasPrice: bigint;
  readonly blockHash?: Uint8Array;
}

export interface TxRunResult {
  readonly outcome: Outcome;
  readonly gasUsed: number;
  readonly returns: readonly Val[];
  readonly generatedOutputs: readonly GeneratedOutput[];
  readonly contractInputs: ReadonlyArray<{ readonly contractId: string; readonly asset: ContractAsset }>;
  readonly createdContracts: ReadonlySet<string>;
  /** Every contract the run loaded (called or read), in the order first loaded. */
  readonly loadedContracts: readonly string[];
  readonly logs: readonly LogEntry[];
  readonly debugMessages: readonly DebugMessage[];
}

/** A block's target as a dry run's stand-in (no instruction the sandbox's contracts use reads it). */
const TARGET = (1n << 224n) - 1n;

export function runTxScript(request: TxRunRequest): TxRunResult {
  const run = startTxScript(request);
  return run.result(run.vm?.run());
}

/** A started run: step or run its VM (a debugger pauses it between instructions), then read its result. */
export interface StartedTxRun {
  /** Undefined when the run failed before its first instruction (the code-size charge, a bad script). */
  readonly vm: VirtualMachine | undefined;
  /** What the run left, once `vm` has completed, failed or been aborted (or failed before it started). */
  result(outcome?: Outcome): TxRunResult;
}

/** {@link runTxScript} without running: the VM is started on the script, paused before its first step. */
export function startTxScript(request: TxRunRequest, options: VmOptions = {}): StartedTxRun {
  const ctx = contextOf(request);
  const resultOf = (outcome: Outcome): TxRunResult => ({
    outcome,
    gasUsed: outcome.gasUsed,
    returns: outcome.status === 'completed' ? outcome.returns : [],
    generatedOutputs: ctx.generatedOutputs,
    contractInputs: ctx.contractInputs,
    createdContracts: ctx.createdContracts,
    loadedContracts: [...ctx.contractPool.keys()],
    logs: ctx.logs,
    debugMessages: ctx.debugMessages,
  });
  try {
    ctx.chargeContractCodeSize(request.script.length);
    const methods = decodeScript(request.script);
    const vm = new VirtualMachine(ctx, options);
    const started = vm.start({ code: { methods }, methodIndex: 0, args: [], collectReturns: true });
    return { vm, result: (outcome = started) => resultOf(outcome) };
  } catch (error) {
    if (!(error instanceof VmFailure)) throw error;
    const failed: Outcome = { status: 'failed', failure: error, gasUsed: ctx.gasUsed };
    return { vm: undefined, result: () => resultOf(failed) };
  }
}

function contextOf(request: TxRunRequest): StatefulContext {
  const balances = new Balances();
  balances.add(
    bytesToHex(request.caller),
    BalancesPerLockup.of(request.callerAssets.alph, request.callerAssets.tokens),
  );
  return new StatefulContext({
    blockEnv: {
      networkId: request.networkId,
      timeStamp: BigInt(request.timeStamp),
      target: TARGET,
      blockHash: request.blockHash ?? new Uint8Array(32),
      hardFork: request.hardFork,
    },
    txEnv: {
      txId: request.txId,
      prevOutputs: [{ lockupScript: request.caller, lockTime: 0n }],
      gasPrice: request.gasPrice,
      gasAmount: request.gasAmount,
      signatures: [],
    },
    gasLimit: request.gasAmount,
    worldState: request.world,
    group: request.group,
    fixedOutputsLength: request.fixedOutputsLength,
    initialBalances: balances,
    gasFee: 0n,
  });
}
