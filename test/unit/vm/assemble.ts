/**
 * Test helpers: build instructions and methods by name, the way a hand-written assembly listing reads,
 * and run them on a fresh VM with a default environment.
 */
import {
  ExecutionContext,
  VirtualMachine,
  opcodeByName,
  type BlockEnv,
  type HardFork,
  type Instr,
  type Method,
  type Operand,
  type Outcome,
  type TxEnv,
  type Val,
} from '../../../src/core/vm';

export function instr(name: string, operand: Operand = { kind: 'none' }): Instr {
  const info = opcodeByName(name);
  if (info.operand !== operand.kind) throw new Error(`${name} takes a ${info.operand} operand`);
  return { code: info.code, name, info, operand };
}

export const byteOp = (name: string, value: number): Instr => instr(name, { kind: 'byte', value });
export const jumpOp = (name: string, value: number): Instr => instr(name, { kind: 'offset', value });
export const u256Op = (value: bigint): Instr => instr('U256Const', { kind: 'u256', value });
export const i256Op = (value: bigint): Instr => instr('I256Const', { kind: 'i256', value });
export const bytesOp = (value: Uint8Array): Instr => instr('BytesConst', { kind: 'bytes', value });

/** A listing where each line is an instruction name or an already built instruction. */
export function ops(...items: ReadonlyArray<string | Instr>): Instr[] {
  return items.map((item) => (typeof item === 'string' ? instr(item) : item));
}

export function method(instrs: readonly Instr[], shape: Partial<Omit<Method, 'instrs'>> = {}): Method {
  return {
    isPublic: true,
    usePreapprovedAssets: false,
    useContractAssets: false,
    usePayToContractOnly: false,
    argsLength: 0,
    localsLength: 0,
    returnLength: 0,
    ...shape,
    instrs,
  };
}

export interface RunOptions {
  readonly fork?: HardFork;
  readonly gasLimit?: number;
  readonly args?: readonly Val[];
  readonly blockEnv?: Partial<BlockEnv>;
  readonly txEnv?: Partial<TxEnv>;
  readonly contractId?: Uint8Array;
}

export function context(options: RunOptions = {}): ExecutionContext {
  return new ExecutionContext({
    blockEnv: {
      networkId: 4,
      timeStamp: 1_700_000_000_000n,
      target: 0x1d00ffffn,
      hardFork: options.fork ?? 'Danube',
      ...options.blockEnv,
    },
    txEnv: {
      txId: new Uint8Array(32).fill(7),
      prevOutputs: [],
      gasPrice: 100_000_000_000n,
      gasAmount: 20_000,
      signatures: [],
      ...options.txEnv,
    },
    gasLimit: options.gasLimit ?? 1_000_000,
  });
}

/** Runs method 0 of `methods` to the end, keeping its returns. */
export function runMethods(methods: readonly Method[], options: RunOptions = {}): Outcome {
  const vm = new VirtualMachine(context(options));
  const code = options.contractId === undefined ? { methods } : { methods, contractId: options.contractId };
  const started = vm.start({ code, methodIndex: 0, args: options.args ?? [], collectReturns: true });
  if (started.status === 'failed') return started;
  return vm.run();
}

/** Runs one method made of `instrs` that returns `returnLength` values. */
export function runOps(instrs: readonly Instr[], returnLength = 1, options: RunOptions = {}): Outcome {
  return runMethods([method(instrs, { returnLength })], options);
}

export function expectCompleted(outcome: Outcome): { returns: readonly Val[]; gasUsed: number } {
  if (outcome.status !== 'completed') {
    const why =
      outcome.status === 'failed' ? `${outcome.failure.failure}: ${outcome.failure.message}` : outcome.status;
    throw new Error(`Expected the run to complete, it ended ${why}`);
  }
  return outcome;
}

export function expectFailure(outcome: Outcome): { failure: string; message: string; gasUsed: number } {
  if (outcome.status !== 'failed') throw new Error(`Expected a failure, the run ended ${outcome.status}`);
  return { failure: outcome.failure.failure, message: outcome.failure.message, gasUsed: outcome.gasUsed };
}

/**
 * sum(n) = 1 + 2 + ... + n with locals n, i, sum. Gas: 10 to set up (two constants at 2, two stores
 * at 3), 48 per iteration (six loads and stores at 3, U256Le and two U256Add at 3, a constant at 2,
 * IfFalse and Jump at 8), 17 for the last test that exits, 3 to load the result, 0 to return: 30 + 48n.
 */
export const SUM: Method = method(
  ops(
    'U256Const0',
    byteOp('StoreLocal', 2),
    'U256Const1',
    byteOp('StoreLocal', 1),
    byteOp('LoadLocal', 1), // pc 4: the loop starts here
    byteOp('LoadLocal', 0),
    'U256Le',
    jumpOp('IfFalse', 9), // to pc 7 + 9 + 1 = 17
    byteOp('LoadLocal', 2),
    byteOp('LoadLocal', 1),
    'U256Add',
    byteOp('StoreLocal', 2),
    byteOp('LoadLocal', 1),
    'U256Const1',
    'U256Add',
    byteOp('StoreLocal', 1),
    jumpOp('Jump', -13), // to pc 16 - 13 + 1 = 4
    byteOp('LoadLocal', 2),
    'Return',
  ),
  { argsLength: 1, localsLength: 3, returnLength: 1 },
);
