/**
 * The interpreter loop (`VM.scala` `executeFrames`, `Frame.scala` `execute`), one instruction per
 * `step()` so that a debugger can stop between any two. A step runs the instruction at the top frame's
 * pc, or the implicit `Return` when the pc has reached the end of the method, as the node does.
 *
 * Per instruction: the fork check (`InactiveInstr`), then the fixed gas of a `GasSimple` instruction,
 * then its semantics; size-priced instructions charge inside. A failure leaves gas as charged so far.
 */
import { BalanceState, type Balances } from './balances';
import {
  chainCallerOutputs,
  checkExternalLength,
  completeLastFrame,
  newFrameBalanceState,
  popContractId,
  statefulOf,
  switchBack,
} from './calls';
import type { ExecutionContext } from './context';
import { ContractObject } from './contractObject';
import type { Instr } from './decode';
import { VmFailure, fail } from './failure';
import { buildFrame, methodAt, type CodeObject, type Frame } from './frame';
import { isForkEnabled } from './forks';
import { CALL_GAS, selectorCallSearchGas, simpleGas } from './gas';
import { ARITHMETIC_HANDLERS } from './instructions/arithmetic';
import { BYTES_HANDLERS } from './instructions/bytes';
import { CRYPTO_HANDLERS } from './instructions/crypto';
import { ENVIRONMENT_HANDLERS } from './instructions/environment';
import { FLOW_HANDLERS } from './instructions/flow';
import { STATEFUL_HANDLERS } from './instructions/stateful';
import { MOCKUP_GAS, MOCKUP_HANDLERS } from './mockups';
import type { Handler } from './instructions/handler';
import { StatefulContext } from './statefulContext';
import { FRAME_STACK_MAX_SIZE, OpStack } from './stack';
import type { Val } from './values';

const HANDLERS: Readonly<Record<string, Handler>> = {
  ...FLOW_HANDLERS,
  ...ARITHMETIC_HANDLERS,
  ...BYTES_HANDLERS,
  ...CRYPTO_HANDLERS,
  ...ENVIRONMENT_HANDLERS,
  ...STATEFUL_HANDLERS,
  ...MOCKUP_HANDLERS,
};

/** Calls the interpreter runs itself, since they push a frame rather than a value. */
const CALLS: ReadonlySet<string> = new Set(['CallLocal', 'CallExternal', 'CallExternalBySelector', 'Return']);

/** Instructions with a fixed gas that the node charges after their pops and checks, not before. */
const CHARGES_ITS_OWN_GAS: ReadonlySet<string> = new Set(['MulModN', 'AddModN', 'ContractIdToAddress']);

/** Thrown for what the VM does not run yet (WebAuthn signatures). */
export class UnsupportedByVmError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedByVmError';
  }
}

/** Whether the interpreter runs this instruction (all 201 do). */
export function isExecutable(name: string): boolean {
  return CALLS.has(name) || HANDLERS[name] !== undefined;
}

export type VmStatus = 'ready' | 'running' | 'paused' | 'completed' | 'failed' | 'aborted';

export type Outcome =
  | { readonly status: 'completed'; readonly returns: readonly Val[]; readonly gasUsed: number }
  | { readonly status: 'failed'; readonly failure: VmFailure; readonly gasUsed: number }
  | { readonly status: 'paused' | 'running' | 'aborted'; readonly gasUsed: number };

/** What a debugger reads of one frame between two instructions; copies, safe to keep. */
export interface FrameView {
  readonly methodIndex: number;
  readonly pc: number;
  /** The instruction the next step runs; undefined at the implicit return after the last one. */
  readonly nextInstr: Instr | undefined;
  readonly opStack: readonly Val[];
  readonly locals: readonly Val[];
  readonly contractId?: string;
  /** A contract frame's fields as they are now (mutable ones change while it runs). */
  readonly immFields?: readonly Val[];
  readonly mutFields?: readonly Val[];
  /** A frame with assets: what it may use and what it has approved, per address. */
  readonly balances?: {
    readonly remaining: readonly BalanceView[];
    readonly approved: readonly BalanceView[];
  };
}

export interface BalanceView {
  readonly lockupScript: string;
  readonly attoAlphAmount: bigint;
  readonly tokens: ReadonlyArray<readonly [string, bigint]>;
}

function balanceViews(balances: Balances): BalanceView[] {
  return balances.all.map(([lockupScript, b]) => ({
    lockupScript,
    attoAlphAmount: b.alph,
    tokens: b.tokenVector(),
  }));
}

/** The optional parts of a frame view: contract fields and assets, copied. */
function frameExtras(frame: Frame): Partial<FrameView> {
  const extras: { -readonly [K in keyof FrameView]?: FrameView[K] } = {};
  if (frame.obj instanceof ContractObject) {
    extras.immFields = [...frame.obj.immFields];
    extras.mutFields = [...frame.obj.mutFields];
  }
  const state = frame.balanceState;
  if (state !== undefined) {
    extras.balances = { remaining: balanceViews(state.remaining), approved: balanceViews(state.approved) };
  }
  return extras;
}

export interface VmOptions {
  /**
   * Called before each step with the frames as they are; returning `'pause'` makes `run()` stop there
   * (the step is not taken; `run()` or `step()` resumes it).
   */
  readonly beforeInstruction?: (vm: VirtualMachine) => 'pause' | 'continue' | void;
}

export interface EntryCall {
  readonly code: CodeObject;
  readonly methodIndex: number;
  readonly args: readonly Val[];
  /** `executeWithOutputs`: keep the entry method's returns; otherwise they must be empty. */
  readonly collectReturns?: boolean;
  /**
   * An asset script (a P2SH unlock, `StatelessVM`) cannot take assets: a payable entry fails with
   * `ExpectNonPayableMethod`, as it does in a stateful run whose tx has no payable entry.
   */
  readonly assetScript?: boolean;
}

export class VirtualMachine {
  private readonly frames: Frame[] = [];
  private statusValue: VmStatus = 'ready';
  private returns: readonly Val[] = [];
  private failureValue: VmFailure | undefined;
  private skipHookOnce = false;

  constructor(
    readonly ctx: ExecutionContext,
    private readonly options: VmOptions = {},
  ) {}

  get status(): VmStatus {
    return this.statusValue;
  }

  get failure(): VmFailure | undefined {
    return this.failureValue;
  }

  get gasUsed(): number {
    return this.ctx.gasUsed;
  }

  /** `VM.startFrame`: the entry method must be public, and a stateless run cannot take assets. */
  start(entry: EntryCall): Outcome {
    if (this.statusValue !== 'ready') throw new Error('The VM has already started');
    this.statusValue = 'running';
    return this.guard(() => {
      const method = methodAt(entry.code, entry.methodIndex);
      if (!method.isPublic) {
        fail('ExternalPrivateMethodCall', 'Private method can not be called from outside of the contract');
      }
      const balances = this.entryBalances(method.usePreapprovedAssets, entry.assetScript === true);
      const returnTo = (values: Val[]): void => {
        if (!entry.collectReturns && values.length > 0) {
          fail('NonEmptyReturnForMainFunction', 'Main function should not have return value');
        }
        this.returns = values;
      };
      const stack = OpStack.ofCapacity();
      const frame = buildFrame(this.ctx, entry.code, entry.methodIndex, method, entry.args, stack, returnTo);
      frame.balanceState = balances;
      this.pushFrame(frame);
    });
  }

  /** Runs one instruction (or the implicit return) of the top frame. */
  step(): Outcome {
    if (this.statusValue === 'paused') this.statusValue = 'running';
    if (this.statusValue !== 'running') return this.outcome();
    const frame = this.frames[this.frames.length - 1];
    if (frame === undefined) return this.finish();
    return this.guard(() => this.execute(frame), frame);
  }

  /** Steps until the run completes or fails, or the `beforeInstruction` hook asks to pause. */
  run(): Outcome {
    if (this.statusValue === 'paused') {
      this.statusValue = 'running';
      this.skipHookOnce = true;
    }
    while (this.statusValue === 'running') {
      if (!this.skipHookOnce && this.options.beforeInstruction?.(this) === 'pause') {
        this.statusValue = 'paused';
        break;
      }
      this.skipHookOnce = false;
      this.step();
    }
    return this.outcome();
  }

  /** Ends a run that has not finished (a debugger's stop); the frames stay readable. */
  abort(): Outcome {
    if (this.statusValue === 'running' || this.statusValue === 'paused') this.statusValue = 'aborted';
    return this.outcome();
  }

  /**
   * Where the run is, without copying any frame (what a `beforeInstruction` hook reads at every step):
   * how many frames there are and the running one's method, pc and contract; undefined with none.
   */
  position(): { depth: number; methodIndex: number; pc: number; contractId?: string } | undefined {
    const top = this.frames[this.frames.length - 1];
    if (top === undefined) return undefined;
    const at = { depth: this.frames.length, methodIndex: top.methodIndex, pc: top.pc };
    const contractId = top.contractIdHex;
    return contractId === undefined ? at : { ...at, contractId };
  }

  /** The frames from the entry method (first) to the running one (last). */
  frameViews(): FrameView[] {
    return this.frames.map((frame) => {
      const view = {
        methodIndex: frame.methodIndex,
        pc: frame.pc,
        nextInstr: frame.method.instrs[frame.pc],
        opStack: frame.opStack.values(),
        locals: frame.locals.values(),
      };
      const contractId = frame.contractIdHex;
      const withExtras = { ...view, ...frameExtras(frame) };
      return contractId === undefined ? withExtras : { ...withExtras, contractId };
    });
  }

  /**
   * `startPayableFrame`: a payable entry gets the tx caller's assets, which the context keeps to fund
   * dust and deposits later (`setTxCallerBalance`); a stateless run has none to give.
   */
  private entryBalances(payable: boolean, assetScript: boolean): BalanceState | undefined {
    if (!payable) return undefined;
    if (assetScript || !(this.ctx instanceof StatefulContext)) {
      fail('ExpectNonPayableMethod', 'Expect non payable method in AssetScript');
    }
    const state = new BalanceState(this.ctx.takeInitialBalances());
    this.ctx.txCallerBalance = state;
    return state;
  }

  private execute(frame: Frame): void {
    const instrs = frame.method.instrs;
    if (frame.pc > instrs.length) fail('PcOverflow');
    const instr = instrs[frame.pc];
    if (instr === undefined || instr.name === 'Return') return this.runReturn(frame);
    if (instr.name === 'CallLocal') return this.callLocal(frame, instr);
    if (instr.name === 'CallExternal' || instr.name === 'CallExternalBySelector') {
      return this.callExternal(frame, instr);
    }
    this.runInstr(frame, instr);
    frame.pc += 1;
  }

  private runInstr(frame: Frame, instr: Instr): void {
    const handler = HANDLERS[instr.name];
    if (handler === undefined) throw new UnsupportedByVmError(`${instr.name} needs the stateful VM`);
    if (!isForkEnabled(this.ctx.hardFork, instr.info.since)) {
      fail('InactiveInstr', `InactiveInstr(${instr.name})`);
    }
    const gas = simpleGas(instr.name) ?? MOCKUP_GAS[instr.name];
    if (gas !== undefined && !CHARGES_ITS_OWN_GAS.has(instr.name)) this.ctx.chargeGas(gas);
    handler(frame, instr);
  }

  /** `Frame.callLocal`: advance, charge the call, take the arguments from the caller's stack. */
  private callLocal(frame: Frame, instr: Instr): void {
    if (instr.operand.kind !== 'byte') throw new Error('CallLocal has no method index');
    frame.pc += 1;
    this.ctx.chargeGas(CALL_GAS);
    const index = instr.operand.value;
    const method = methodAt(frame.obj, index);
    const stateful = this.ctx instanceof StatefulContext;
    const balances = stateful ? newFrameBalanceState(frame, frame.obj, method, index) : undefined;
    const args = frame.opStack.popN(method.argsLength);
    const callee = buildFrame(this.ctx, frame.obj, index, method, args, frame.opStack, (values) =>
      frame.opStack.pushAll(values),
    );
    if (stateful) {
      callee.callerFrame = frame;
      callee.balanceState = balances;
    }
    this.pushFrame(callee);
  }

  /**
   * `callExternal` / `callExternalBySelector`: advance, charge the call, load the contract (charged
   * once per tx), find the method, check the counts the caller expects and that it is public, then
   * hand it its assets and arguments. The node runs neither through the fork check of `runWith`.
   */
  private callExternal(frame: Frame, instr: Instr): void {
    const ctx = statefulOf(frame);
    frame.pc += 1;
    ctx.chargeGas(CALL_GAS);
    const obj = ctx.loadContract(popContractId(frame));
    let index: number;
    if (instr.operand.kind === 'selector') {
      const found = obj.methodBySelector(instr.operand.value);
      ctx.chargeGas(selectorCallSearchGas(found.probed));
      index = found.methodIndex;
    } else if (instr.operand.kind === 'byte') {
      index = instr.operand.value;
    } else {
      throw new Error(`${instr.name} has no method operand`);
    }
    const method = methodAt(obj, index);
    checkExternalLength(frame, method.returnLength, 'return');
    checkExternalLength(frame, method.argsLength, 'arg');
    if (!method.isPublic) fail('ExternalPrivateMethodCall');
    const balances = newFrameBalanceState(frame, obj, method, index);
    const args = frame.opStack.popN(method.argsLength);
    const chains = isForkEnabled(ctx.hardFork, 'Danube') && frame.isScript;
    const callee = buildFrame(ctx, obj, index, method, args, frame.opStack, (values) => {
      frame.opStack.pushAll(values);
      if (chains) chainCallerOutputs(ctx, frame.balanceState);
    });
    callee.callerFrame = frame;
    callee.balanceState = balances;
    this.pushFrame(callee);
  }

  /** `Return`: pops exactly `returnLength` values for the caller; anything left above them is dropped. */
  private runReturn(frame: Frame): void {
    const values = frame.opStack.popN(frame.method.returnLength);
    frame.returnTo(values);
    frame.complete();
    this.frames.pop();
    const previous = this.frames[this.frames.length - 1];
    if (this.ctx instanceof StatefulContext) {
      if (previous !== undefined) switchBack(this.ctx, frame, previous);
      else completeLastFrame(this.ctx, frame);
    }
    if (this.frames.length === 0) this.finish();
  }

  private pushFrame(frame: Frame): void {
    if (this.frames.length >= FRAME_STACK_MAX_SIZE) fail('StackOverflow');
    this.frames.push(frame);
  }

  private finish(): Outcome {
    this.statusValue = 'completed';
    return this.outcome();
  }

  /**
   * Runs `body`; a VM failure ends the run, unless a Ralph unit test is open (`Frame.handleError`):
   * then the failure is recorded, the test frame jumps to its `TestCheckEnd`, and a deeper frame is
   * dropped as if it had returned.
   */
  private guard(body: () => void, frame?: Frame): Outcome {
    try {
      body();
    } catch (error) {
      if (!(error instanceof VmFailure)) throw error;
      if (frame === undefined || !this.recoverInTest(frame, error)) {
        this.failureValue = error;
        this.statusValue = 'failed';
      }
    }
    return this.outcome();
  }

  private recoverInTest(frame: Frame, failure: VmFailure): boolean {
    const env = this.ctx.testEnv;
    if (env === undefined) return false;
    env.failure ??= failure;
    if (env.testFrame !== frame) {
      this.frames.pop();
      return true;
    }
    const end = frame.method.instrs.findIndex(
      (instr, index) =>
        index >= frame.pc &&
        instr.name === 'DevInstr' &&
        instr.operand.kind === 'devInstr' &&
        instr.operand.value === 2,
    );
    if (end === -1) {
      this.failureValue = new VmFailure('InvalidTestCheckInstr');
      this.statusValue = 'failed';
      return true;
    }
    frame.pc = end;
    return true;
  }

  private outcome(): Outcome {
    const gasUsed = this.ctx.gasUsed;
    if (this.statusValue === 'completed') return { status: 'completed', returns: this.returns, gasUsed };
    if (this.statusValue === 'failed' && this.failureValue !== undefined) {
      return { status: 'failed', failure: this.failureValue, gasUsed };
    }
    const status =
      this.statusValue === 'paused' || this.statusValue === 'aborted' ? this.statusValue : 'running';
    return { status, gasUsed };
  }
}
