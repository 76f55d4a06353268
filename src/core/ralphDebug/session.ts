/**
 * A Ralph debug session (issue 31): one contract method run on the project's VM as the node's
 * test-contract runs it (`startTestContract`), paused between instructions where a breakpoint, a step,
 * an event or a failure says. It knows nothing of the Debug Adapter Protocol (`dap.ts` speaks it): it
 * answers where the run is, what each frame holds, and runs on when told.
 *
 * Stepping: `next` and `stepIn` stop at the next placed line (a statement the source map placed, or a
 * function's first instruction when a call enters one) or, with instruction granularity, at the next
 * instruction; `stepOut` when the frame has returned.
 */
import { addressFromContractId, bytesToHex } from '../protocol';
import { errorCodeNames } from '../debugging/failureExplanation';
import type { VmFailure } from '../vm';
import {
  DEBUG_EVENT_INDEX,
  valToNode,
  type FrameView,
  type Instr,
  type Val,
  type VirtualMachine,
} from '../vm';
import { lineOf, unplacedReason, type CodePlace } from './placement';
import {
  fieldNamesOf,
  isReplay,
  methodTarget,
  replayTarget,
  type DebugContract,
  type DebugLaunch,
  type DebugTarget,
  type RunEnd,
} from './target';

export type { DebugLaunch, MethodLaunch, ReplayLaunch, RunEnd } from './target';

export type StopReason = 'entry' | 'breakpoint' | 'step' | 'exception' | 'event';

export type RunState =
  | { readonly kind: 'stopped'; readonly reason: StopReason; readonly description: string }
  | { readonly kind: 'ended'; readonly result: RunEnd };

export interface FrameInfo {
  readonly id: number;
  readonly name: string;
  /** The contract's address, when the frame is a contract's. */
  readonly address?: string;
  readonly methodIndex: number;
  readonly pc: number;
  /** 0-based line in the contract's source, and that source, where known. */
  readonly line?: number;
  readonly sourcePath?: string;
  readonly instruction?: string;
}

export interface Variable {
  readonly name: string;
  readonly value: string;
  readonly type?: string;
}

export interface Scope {
  readonly name: string;
  readonly variables: readonly Variable[];
}

export interface SessionOutput {
  /** An event the run emitted, or a debug message, as the Debug Console shows it. */
  output(text: string): void;
}

type StepMode =
  | { readonly kind: 'continue' }
  | { readonly kind: 'line'; readonly depth: number; readonly into: boolean }
  | { readonly kind: 'instruction'; readonly depth: number; readonly into: boolean }
  | { readonly kind: 'out'; readonly depth: number };

export class RalphDebugSession {
  private readonly target: DebugTarget;
  /** The places each source file's breakpoints were set at (VS Code sends a file's whole list each time). */
  private readonly breakpointsByPath = new Map<string, ReadonlySet<string>>();
  /** Every file's places in one set: read before each instruction, so a lookup, not a scan. */
  private breakpoints: ReadonlySet<string> = new Set<string>();
  private breakOnFailure = true;
  private breakOnEvent = false;
  private mode: StepMode = { kind: 'continue' };
  private logsSeen = 0;
  private eventStop: string | undefined;
  private ended: RunEnd | undefined;

  constructor(
    readonly launch: DebugLaunch,
    private readonly out: SessionOutput,
  ) {
    const options = { beforeInstruction: (vm: VirtualMachine) => this.before(vm) };
    this.target = isReplay(launch) ? replayTarget(launch, options) : methodTarget(launch, options);
  }

  /** What the Debug Console calls the run: `Counter.incrementBy`, `transaction 1a2b…`. */
  get title(): string {
    return this.target.title;
  }

  private get vm(): VirtualMachine {
    return this.target.vm;
  }

  /** Breakpoints on lines of a contract's source: each verified, or unverified with the reason. */
  setBreakpoints(
    path: string,
    lines: readonly number[],
  ): Array<{ line: number; verified: boolean; message?: string }> {
    const set = new Set<string>();
    const withSource = [...this.target.contracts].filter(([, c]) => c.placement && c.sourcePath === path);
    const answers = lines.map((line) => {
      if (withSource.length === 0)
        return {
          line,
          verified: false,
          message: `Not placed: ${path} is not the source of ${this.namesText()}`,
        };
      const placed = withSource.flatMap(([id, c]) => {
        const place = c.placement?.lines.get(line);
        return place ? [{ id, place }] : [];
      });
      if (placed.length === 0) {
        const placement = withSource[0]?.[1].placement;
        const reason = placement ? unplacedReason(placement, line) : undefined;
        return { line, verified: false, message: reason ?? 'Not placed' };
      }
      for (const { id, place } of placed) set.add(key(id, place));
      return { line, verified: true };
    });
    this.breakpointsByPath.set(path, set);
    this.breakpoints = new Set([...this.breakpointsByPath.values()].flatMap((places) => [...places]));
    return answers;
  }

  private namesText(): string {
    const names = [...new Set([...this.target.contracts.values()].map((c) => c.artifact.name))];
    return names.length > 0 ? names.join(' or ') : 'any contract this run knows';
  }

  /** Whether a breakpoint is set at this place of this contract. */
  private hasBreakpoint(contractId: string, place: CodePlace): boolean {
    return this.breakpoints.has(key(contractId, place));
  }

  /** `failure`: stop at a VM failure (on by default); `event`: stop after each event emitted. */
  setExceptionFilters(filters: readonly string[]): void {
    this.breakOnFailure = filters.includes('failure');
    this.breakOnEvent = filters.includes('event');
  }

  /** Runs to the first stop: the method's first instruction with `stopOnEntry`, else a breakpoint. */
  start(stopOnEntry: boolean): RunState {
    if (!stopOnEntry) return this.continue();
    this.mode = { kind: 'line', depth: Infinity, into: true };
    const state = this.resume();
    return state.kind === 'stopped' && state.reason === 'step'
      ? { ...state, reason: 'entry', description: this.describe('entry') }
      : state;
  }

  continue(): RunState {
    this.mode = { kind: 'continue' };
    return this.resume();
  }

  next(instruction = false): RunState {
    const depth = this.depth();
    this.mode = instruction
      ? { kind: 'instruction', depth, into: false }
      : { kind: 'line', depth, into: false };
    return this.resume();
  }

  stepIn(instruction = false): RunState {
    const depth = this.depth();
    this.mode = instruction
      ? { kind: 'instruction', depth, into: true }
      : { kind: 'line', depth, into: true };
    return this.resume();
  }

  stepOut(): RunState {
    this.mode = { kind: 'out', depth: this.depth() };
    return this.resume();
  }

  /** Ends the run where it is (a debugger's stop). */
  terminate(): void {
    this.vm.abort();
  }

  get result(): RunEnd | undefined {
    return this.ended;
  }

  private depth(): number {
    return this.vm.position()?.depth ?? 0;
  }

  private resume(): RunState {
    if (this.ended) return { kind: 'ended', result: this.ended };
    this.originDepth = this.depth();
    const outcome = this.vm.run();
    if (outcome.status === 'paused') {
      const reason = this.pauseReason ?? 'step';
      this.pauseReason = undefined;
      return { kind: 'stopped', reason, description: this.describe(reason) };
    }
    if (outcome.status === 'failed' && this.breakOnFailure && !this.failureShown) {
      this.failureShown = true;
      return { kind: 'stopped', reason: 'exception', description: this.failureText(outcome.failure) };
    }
    this.ended = this.target.finish(outcome);
    this.flushLogs();
    return { kind: 'ended', result: this.ended };
  }

  private pauseReason: StopReason | undefined;
  private failureShown = false;
  /** How deep the frames were when the run was resumed (a step that returns from them stops). */
  private originDepth = 0;

  /** The VM's hook before each instruction: whether to pause here. */
  private before(vm: VirtualMachine): 'pause' | 'continue' {
    this.flushLogs();
    if (this.eventStop !== undefined) {
      this.eventStop = undefined;
      this.pauseReason = 'event';
      return 'pause';
    }
    // Read at every instruction: the position only, no frame copied.
    const top = vm.position();
    if (top === undefined) return 'continue';
    const depth = top.depth;
    const contract = top.contractId === undefined ? undefined : this.target.contracts.get(top.contractId);
    const place = contract ? { methodIndex: top.methodIndex, pc: top.pc } : undefined;
    const atBreakpoint =
      place !== undefined && top.contractId !== undefined && this.hasBreakpoint(top.contractId, place);
    const mode = this.mode;
    // A breakpoint stops every kind of run, a step over a call too (the callee's breakpoints hold).
    if (atBreakpoint) return this.pause('breakpoint');
    switch (mode.kind) {
      case 'continue':
        return 'continue';
      case 'instruction':
        return depth <= mode.depth || mode.into ? this.pause('step') : 'continue';
      case 'out':
        return depth < mode.depth ? this.pause('step') : 'continue';
      case 'line': {
        if (!place || !contract?.placement || (!mode.into && depth > mode.depth)) return 'continue';
        if (depth < this.originDepth) return this.pause('step');
        const placed = contract.placement.sites.some(
          (p) => p.methodIndex === place.methodIndex && p.pc === place.pc,
        );
        return placed ? this.pause('step') : 'continue';
      }
    }
  }

  private pause(reason: StopReason): 'pause' {
    this.pauseReason = reason;
    return 'pause';
  }

  /** New logs since the last look: events and debug messages to the console, and an event stop. */
  private flushLogs(): void {
    const logs = this.vm.ctx.logs;
    for (; this.logsSeen < logs.length; this.logsSeen++) {
      const log = logs[this.logsSeen];
      if (log === undefined || log.contractId === undefined) continue;
      const [index, ...fields] = log.fields;
      if (index?.type !== 'I256') continue;
      const address = addressFromContractId(log.contractId);
      if (index.value === DEBUG_EVENT_INDEX) continue;
      const name = this.eventName(log.contractId, Number(index.value));
      this.out.output(`event ${name} @ ${address}: ${fields.map(valText).join(', ')}\n`);
      if (this.breakOnEvent) this.eventStop = name;
    }
    const messages = this.vm.ctx.debugMessages;
    for (; this.debugSeen < messages.length; this.debugSeen++) {
      const m = messages[this.debugSeen];
      if (m)
        this.out.output(
          `> Contract @ ${addressFromContractId(m.contractId ?? '00'.repeat(32))} - ${m.message}\n`,
        );
    }
  }

  private debugSeen = 0;

  private eventName(contractId: string, index: number): string {
    const contract = this.target.contracts.get(contractId);
    const name = contract?.artifact.eventsSig[index]?.name;
    return name ?? `#${index}`;
  }

  private contractOf(frame: { readonly contractId?: string }): DebugContract | undefined {
    return frame.contractId === undefined ? undefined : this.target.contracts.get(frame.contractId);
  }

  private describe(reason: StopReason): string {
    const top = this.stackFrames()[0];
    return `${reason} in ${top?.name ?? 'the script'}`;
  }

  /** The failure as the node words it, with the error code's name where the artifact has one. */
  private failureText(failure: VmFailure): string {
    const code = failure.errorCode;
    // Named as Problems name it (the enum constants and constants of that value).
    const views = this.vm.frameViews();
    const failing = [...views].reverse().find((v) => this.contractOf(v)) ?? views[views.length - 1];
    const artifact = (failing && this.contractOf(failing))?.artifact ?? this.target.primary?.artifact;
    const named = code === undefined || !artifact ? undefined : errorCodeNames(code, artifact).join(' or ');
    return `${failure.failure}${named ? ` (${named})` : ''}: ${failure.message}`;
  }

  /** The frames, the running one first (DAP's order). */
  stackFrames(): FrameInfo[] {
    const views = this.vm.frameViews();
    return views
      .map((view, i): FrameInfo => {
        const base = { id: i + 1, methodIndex: view.methodIndex, pc: view.pc };
        const instruction = view.nextInstr?.name;
        const withInstr = instruction === undefined ? base : { ...base, instruction };
        if (view.contractId === undefined) return { ...withInstr, name: this.target.scriptName };
        const address = addressFromContractId(view.contractId);
        const contract = this.contractOf(view);
        if (!contract) return { ...withInstr, name: `${address} method ${view.methodIndex}`, address };
        const fn = contract.artifact.functions[view.methodIndex];
        const line = contract.placement ? lineOf(contract.placement, view) : undefined;
        const named = {
          ...withInstr,
          name: `${contract.artifact.name}.${fn?.name ?? view.methodIndex}`,
          address,
          ...(contract.sourcePath ? { sourcePath: contract.sourcePath } : {}),
        };
        return line === undefined ? named : { ...named, line };
      })
      .reverse();
  }

  /** What a frame holds: arguments and locals, fields, assets, the op stack and gas. */
  scopes(frameId: number): Scope[] {
    const view = this.vm.frameViews()[frameId - 1];
    if (view === undefined) return [];
    const fn = this.contractOf(view)?.artifact.functions[view.methodIndex];
    const params = fn?.paramNames ?? [];
    const args = view.locals.slice(0, params.length).map((v, i) => variable(params[i] ?? `arg #${i}`, v));
    const locals = view.locals.slice(params.length).map((v, i) => variable(`local #${params.length + i}`, v));
    const scopes: Scope[] = [
      { name: 'Arguments', variables: args },
      { name: 'Locals', variables: locals },
    ];
    if (view.immFields || view.mutFields) scopes.push({ name: 'Fields', variables: this.fields(view) });
    if (view.balances) {
      const assets = [
        ...view.balances.remaining.map((b) => assetVariable('remaining', b)),
        ...view.balances.approved.map((b) => assetVariable('approved', b)),
      ];
      scopes.push({ name: 'Assets', variables: assets });
    }
    scopes.push({ name: 'Stack', variables: view.opStack.map((v, i) => variable(`#${i}`, v)) });
    scopes.push({
      name: 'Gas',
      variables: [{ name: 'used by the tx so far', value: String(this.vm.gasUsed) }],
    });
    return scopes;
  }

  private fields(view: FrameView): Variable[] {
    const sig = this.contractOf(view)?.artifact.fieldsSig;
    const imm = sig ? fieldNamesOf(sig, false) : [];
    const mut = sig ? fieldNamesOf(sig, true) : [];
    return [
      ...(view.immFields ?? []).map((v, i) => variable(imm[i] ?? `imm #${i}`, v)),
      ...(view.mutFields ?? []).map((v, i) => variable(mut[i] ?? `mut #${i}`, v)),
    ];
  }

  /** The instructions of a frame's method, with the pc, gas tier and source line where known. */
  disassemble(frameId: number): Array<{ pc: number; instruction: string; line?: number; current: boolean }> {
    const view = this.vm.frameViews()[frameId - 1];
    const contract = view === undefined ? undefined : this.contractOf(view);
    if (view === undefined || !contract) return [];
    const method = contract.methods[view.methodIndex];
    return (method?.instrs ?? []).map((instr, pc) => {
      const placed = contract.placement?.sites.find((p) => p.methodIndex === view.methodIndex && p.pc === pc);
      const entry = { pc, instruction: instrText(instr), current: pc === view.pc };
      return placed ? { ...entry, line: placed.line } : entry;
    });
  }
}

const key = (contractId: string, p: CodePlace): string => `${contractId}:${p.methodIndex}:${p.pc}`;

function valText(v: Val): string {
  const node = valToNode(v);
  return String(node.value);
}

function variable(name: string, v: Val): Variable {
  return { name, value: valText(v), type: v.type };
}

function assetVariable(
  kind: string,
  b: { lockupScript: string; attoAlphAmount: bigint; tokens: ReadonlyArray<readonly [string, bigint]> },
): Variable {
  const tokens = b.tokens.map(([id, amount]) => `${amount} of ${id.slice(0, 8)}…`).join(', ');
  return {
    name: `${kind} ${b.lockupScript.slice(0, 10)}…`,
    value: `${b.attoAlphAmount} atto ALPH${tokens ? `, ${tokens}` : ''}`,
  };
}

function instrText(instr: Instr): string {
  const op = instr.operand;
  if (op.kind === 'none') return instr.name;
  const hex = (b: Uint8Array) => `0x${bytesToHex(b)}`;
  const value = op.value;
  const shown =
    value instanceof Uint8Array
      ? hex(value)
      : Array.isArray(value)
        ? value.map((v) => (v instanceof Uint8Array ? hex(v) : String(v))).join(' ')
        : typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean'
          ? String(value)
          : '';
  return `${instr.name} ${shown}`.trimEnd();
}
