/**
 * The node's `test-contract` as a function (`ServerUtils.runTestContract`, `ContractRunner.run` and
 * `api/model/TestContract.scala`): the existing contracts and the contract under test are written to
 * a fresh world (a private method under test is made public), then a generated script approves every
 * input asset (the first input less the gas fee) and calls the method through `CallExternal`, with the
 * maximal gas per tx; `gasUsed` is what that run spent. A run that ends short of ALPH for dust is
 * retried up to three times with the missing amount as an extra input, as the node does.
 */
import { bytesToHex, contractIdFromAddress, hexToBytes, lockupScriptFromAddress } from '../protocol';
import { Balances, BalancesPerLockup } from './balances';
import { decodeContract, type Instr, type Method, type Operand } from './decode';
import { VmFailure } from './failure';
import { DEVNET_FORKS, forkActivationsOf, hardForkAt, isForkEnabled } from './forks';
import { VirtualMachine, type VmOptions } from './machine';
import { valFromNode, type NodeContractState, type NodeToken, type NodeVal } from './nodeJson';
import { opcodeByName } from './opcodes';
import { lowerThanMinimalText, minimalContractDeposit } from './settlement';
import { StatefulContext } from './statefulContext';
import { testResultOf, type TestContractResult } from './testContractResult';
import type { Val } from './values';
import { MemoryWorldState, recordFromNode } from './worldState';

export type { TestContractResult } from './testContractResult';

interface AssetState {
  readonly attoAlphAmount: string;
  readonly tokens?: readonly NodeToken[];
}

export interface TestContractRequest {
  readonly group?: number;
  readonly blockHash?: string;
  readonly blockTimeStamp?: number;
  readonly txId?: string;
  /** The address the contract under test gets (default: the zero contract id's). */
  readonly address?: string;
  readonly callerContractAddress?: string;
  readonly bytecode: string;
  readonly initialImmFields?: readonly NodeVal[];
  readonly initialMutFields?: readonly NodeVal[];
  /** Default: 1 ALPH. */
  readonly initialAsset?: AssetState;
  readonly methodIndex?: number;
  readonly args?: readonly NodeVal[];
  readonly existingContracts?: readonly NodeContractState[];
  readonly inputAssets?: ReadonlyArray<{ readonly address: string; readonly asset: AssetState }>;
  readonly dustAmount?: string;
  /** Not in the node's request (it runs on its own network): the devnet's 4 by default. */
  readonly networkId?: number;
}

/** `nonCoinbaseMinGasPrice` × `maximalGasPerTx`: the fee every test run is charged up front. */
const GAS_PRICE = 100_000_000_000n;
const MAX_GAS_PER_TX = 5_000_000;
const TEST_GAS_FEE = GAS_PRICE * BigInt(MAX_GAS_PER_TX);
const MAX_RETRIES = 3;
const DEVNET_ID = 4;

function mk(name: string, operand: Operand = { kind: 'none' }): Instr {
  const info = opcodeByName(name);
  return { code: info.code, name, info, operand };
}

/** `Val.toConstInstr`. */
function constOf(v: Val): Instr {
  switch (v.type) {
    case 'Bool':
      return mk(v.value ? 'ConstTrue' : 'ConstFalse');
    case 'I256':
      return mk('I256Const', { kind: 'i256', value: v.value });
    case 'U256':
      return mk('U256Const', { kind: 'u256', value: v.value });
    case 'ByteVec':
      return mk('BytesConst', { kind: 'bytes', value: v.value });
    case 'Address':
      return mk('AddressConst', { kind: 'address', value: v.value });
  }
}

interface Input {
  readonly lockup: Uint8Array;
  readonly alph: bigint;
  readonly tokens: ReadonlyArray<readonly [string, bigint]>;
}

/** `ContractRunner.approveAsset`: each input approves all it holds, the first less the gas fee. */
function approvals(inputs: readonly Input[]): Instr[] {
  return inputs.flatMap((input, i) => {
    const address = mk('AddressConst', { kind: 'address', value: input.lockup });
    const alph = i === 0 ? input.alph - TEST_GAS_FEE : input.alph;
    const tokens = input.tokens.flatMap(([id, amount]) => [
      address,
      mk('BytesConst', { kind: 'bytes', value: hexToBytes(id) }),
      mk('U256Const', { kind: 'u256', value: amount }),
      mk('ApproveToken'),
    ]);
    return [address, mk('U256Const', { kind: 'u256', value: alph }), mk('ApproveAlph'), ...tokens];
  });
}

function callerMethod(
  inputs: readonly Input[],
  args: readonly Val[],
  target: Method,
  index: number,
  id: string,
): Method {
  const call = [
    ...args.map(constOf),
    mk('U256Const', { kind: 'u256', value: BigInt(target.argsLength) }),
    mk('U256Const', { kind: 'u256', value: BigInt(target.returnLength) }),
    mk('BytesConst', { kind: 'bytes', value: hexToBytes(id) }),
    mk('CallExternal', { kind: 'byte', value: index }),
  ];
  return {
    isPublic: true,
    usePreapprovedAssets: inputs.length > 0,
    useContractAssets: false,
    usePayToContractOnly: false,
    argsLength: 0,
    localsLength: 0,
    returnLength: target.returnLength,
    instrs: [...approvals(inputs), ...call],
  };
}

/** `TestContract.toComplete`: a private method under test is made public (its first byte). */
export function testCodeOf(bytecode: Uint8Array, methodIndex: number): Uint8Array {
  const contract = decodeContract(bytecode);
  const method = contract.methods[methodIndex];
  if (method === undefined) throw new Error(`Invalid method index ${methodIndex}`);
  if (method.isPublic) return bytecode;
  const ends = contract.methodIndexes;
  const header = bytecode.length - (ends[ends.length - 1] ?? 0);
  const patched = Uint8Array.from(bytecode);
  patched[header + (methodIndex === 0 ? 0 : (ends[methodIndex - 1] ?? 0))] = 1;
  return patched;
}

function inputsOf(request: TestContractRequest, dust: bigint): Input[] {
  const given = (request.inputAssets ?? []).map((input, i) => ({
    lockup: lockupScriptFromAddress(input.address),
    alph: BigInt(input.asset.attoAlphAmount) + (i === 0 ? TEST_GAS_FEE : 0n),
    tokens: (input.asset.tokens ?? []).map((t) => [t.id, BigInt(t.amount)] as const),
  }));
  const first = given[0];
  // `createTxEnv`: the dust retry adds an input of the first input's address holding only ALPH.
  return first === undefined || dust === 0n
    ? given
    : [...given, { lockup: first.lockup, alph: dust, tokens: [] }];
}

function worldOf(request: TestContractRequest, contractId: string, code: Uint8Array): MemoryWorldState {
  const world = new MemoryWorldState();
  for (const state of request.existingContracts ?? []) {
    world.putContract(recordFromNode(contractIdFromAddress(state.address), state));
  }
  const asset = request.initialAsset ?? { attoAlphAmount: (10n ** 18n).toString() };
  world.putContract({
    contractId,
    bytecode: code,
    immFields: (request.initialImmFields ?? []).map(valFromNode),
    mutFields: (request.initialMutFields ?? []).map(valFromNode),
    asset: {
      alph: BigInt(asset.attoAlphAmount),
      tokens: (asset.tokens ?? []).map((t) => [t.id, BigInt(t.amount)] as const),
    },
  });
  return world;
}

function balancesOf(inputs: readonly Input[]): Balances {
  const balances = new Balances();
  for (const input of inputs)
    balances.add(bytesToHex(input.lockup), BalancesPerLockup.of(input.alph, input.tokens));
  return balances;
}

/** A test run started and not yet run: a debugger steps `vm`, then `finish` reads the result. */
export interface StartedTestContract {
  readonly vm: VirtualMachine;
  /** The id the contract under test runs at. */
  readonly contractId: string;
  finish(outcome: ReturnType<VirtualMachine['run']>): { result: TestContractResult; shortBy?: bigint };
}

function attempt(
  request: TestContractRequest,
  dust: bigint,
): { result: TestContractResult; shortBy?: bigint } {
  const started = startTestContract(request, dust);
  return started.finish(started.vm.run());
}

/**
 * `testContract` without running and without the dust retries: the VM is started on the generated caller,
 * paused before its first instruction. Throws for a request the node would refuse before running.
 */
export function startTestContract(
  request: TestContractRequest,
  dust = 0n,
  options: VmOptions = {},
): StartedTestContract {
  const networkId = request.networkId ?? DEVNET_ID;
  const timeStamp = request.blockTimeStamp ?? Date.now();
  const forks = networkId === DEVNET_ID ? DEVNET_FORKS : forkActivationsOf(networkId);
  const fork = hardForkAt(forks, timeStamp);
  const contractId = request.address === undefined ? '00'.repeat(32) : contractIdFromAddress(request.address);
  const methodIndex = request.methodIndex ?? 0;
  const original = hexToBytes(request.bytecode, 'Contract bytecode');
  const code = testCodeOf(original, methodIndex);
  const world = worldOf(request, contractId, code);
  const inputs = inputsOf(request, dust);
  const balances = balancesOf(inputs);
  const first = inputs[0];
  if (first !== undefined) balances.subAlph(bytesToHex(first.lockup), TEST_GAS_FEE);
  const ctx = new StatefulContext({
    blockEnv: {
      networkId,
      timeStamp: BigInt(timeStamp),
      target: (1n << 224n) - 1n,
      blockHash: hexToBytes(request.blockHash ?? '00'.repeat(32)),
      hardFork: fork,
    },
    txEnv: {
      txId: hexToBytes(request.txId ?? '00'.repeat(32)),
      prevOutputs: inputs.map((i) => ({ lockupScript: i.lockup, lockTime: 0n })),
      gasPrice: GAS_PRICE,
      gasAmount: MAX_GAS_PER_TX,
      signatures: [],
    },
    gasLimit: MAX_GAS_PER_TX,
    worldState: world,
    group: request.group ?? 0,
    fixedOutputsLength: 0,
    initialBalances: balances,
    gasFee: TEST_GAS_FEE,
  });
  const target = decodeContract(code).methods[methodIndex] as Method;
  const args = (request.args ?? []).map(valFromNode);
  const caller = callerMethod(inputs, args, target, methodIndex, contractId);
  const callerId = request.callerContractAddress;
  const vm = new VirtualMachine(ctx, options);
  const entry = {
    methods: [caller],
    ...(callerId === undefined ? {} : { contractId: hexToBytes(contractIdFromAddress(callerId)) }),
  };
  vm.start({ code: entry, methodIndex: 0, args: [], collectReturns: true });
  const meta = { contractId, original, code, existing: request.existingContracts ?? [] };
  return {
    vm,
    contractId,
    finish: (ran) => {
      const outcome = checkContractOutputs(ran, ctx);
      const shortBy = outcome.status === 'failed' ? outcome.failure.required : undefined;
      const result = testResultOf(outcome, ctx, world, meta);
      return shortBy === undefined ? { result } : { result, shortBy };
    },
  };
}

/** `VM.checkContractAttoAlphAmounts` of `prepareResult`: no contract output under the deposit. */
function checkContractOutputs(
  outcome: ReturnType<VirtualMachine['run']>,
  ctx: StatefulContext,
): ReturnType<VirtualMachine['run']> {
  if (outcome.status !== 'completed' || !isForkEnabled(ctx.hardFork, 'Leman')) return outcome;
  const low = ctx.generatedOutputs.find(
    (o) => o.lockupScript[0] === 3 && o.alph < minimalContractDeposit(ctx.hardFork),
  );
  if (low === undefined) return outcome;
  const failure = new VmFailure('LowerThanContractMinimalBalance', lowerThanMinimalText(low.alph));
  return { status: 'failed', failure, gasUsed: outcome.gasUsed };
}

export function testContract(request: TestContractRequest): TestContractResult {
  try {
    return testWithRetries(request);
  } catch (error) {
    // A request the node would refuse before running (bad bytecode, method index, address).
    return {
      ok: false,
      error: `Invalid test request: ${(error as Error).message}`,
      gasUsed: 0,
      debugMessages: [],
    };
  }
}

function testWithRetries(request: TestContractRequest): TestContractResult {
  let dust = BigInt(request.dustAmount ?? '0');
  const retries = dust === 0n ? MAX_RETRIES : 0;
  let run = attempt(request, dust);
  for (let i = 0; i < retries && run.shortBy !== undefined; i++) {
    dust += run.shortBy;
    run = attempt(request, dust);
  }
  return run.result;
}
