/**
 * The Debug Adapter Protocol for a Ralph debug session (issue 31): the framing (`Content-Length` headers,
 * read in linear time, a message capped in size) and the requests a client sends, answered from a
 * {@link RalphDebugSession}. Transport-free: the standalone adapter (`src/debugAdapter.ts`) wires it to
 * stdin and stdout, a test to a buffer. Lines are 1-based on the wire, as DAP clients count by default.
 */
import { cleanText } from '../text/inert';
import { comparisonLines, nodeAnswerOf, type NodeAnswer } from './nodeComparison';
import { RalphDebugSession, type DebugLaunch, type RunState } from './session';
import { isReplay } from './target';

/** The longest line the Debug Console gets from one output event (a debug message can be long). */
const MAX_CONSOLE_CHARS = 4000;

/** A message larger than this is refused: no launch or answer comes near it. */
export const MAX_DAP_MESSAGE_BYTES = 16 * 1024 * 1024;
const THREAD_ID = 1;
/** Scope references: frame id × this + the scope's index + 1. */
const SCOPES_PER_FRAME = 100;
/** An instruction's address, as a number a client can count with: method index × this + pc. */
const PCS_PER_METHOD = 0x10000;

const instructionAddress = (methodIndex: number, pc: number): string =>
  `0x${(methodIndex * PCS_PER_METHOD + pc).toString(16)}`;

/** A launch configuration's own words are capped: they come from a workspace file. */
const MAX_STATE_FROM_CHARS = 300;

/** The Debug Console's first line: what runs, where, and whose state it starts from. */
function launchLine(title: string, stateFrom: unknown): string {
  const from =
    typeof stateFrom === 'string' && stateFrom.length > 0
      ? stateFrom.slice(0, MAX_STATE_FROM_CHARS)
      : "the launch configuration's fields";
  return `Running ${title} on the project's VM (a local run, not the node's), from ${from}`;
}

export interface DapMessage {
  readonly seq: number;
  readonly type: string;
  readonly [key: string]: unknown;
}

const MAX_HEADER_BYTES = 1024;

/**
 * Splits a byte stream into DAP messages in linear time: chunks are kept until a whole message has come
 * (joined once, not at every chunk), a header is at most 1 KB and a body at most {@link MAX_DAP_MESSAGE_BYTES}.
 */
export class DapReader {
  private chunks: Buffer[] = [];
  private length = 0;
  /** The body length the header in front said, once read. */
  private bodyLength: number | undefined;

  constructor(private readonly onMessage: (message: unknown) => void) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
    for (;;) {
      if (this.bodyLength === undefined && !this.readHeader()) return;
      const need = this.bodyLength as number;
      if (this.length < need) return;
      const all = this.take(this.length);
      this.bodyLength = undefined;
      this.keep(all.subarray(need));
      this.onMessage(JSON.parse(all.subarray(0, need).toString('utf8')) as unknown);
    }
  }

  /** Reads the header in front, if it has come whole; false when more bytes are needed. */
  private readHeader(): boolean {
    const head = this.take(Math.min(this.length, MAX_HEADER_BYTES + 4));
    const headerEnd = head.indexOf('\r\n\r\n');
    if (headerEnd < 0) {
      if (this.length > MAX_HEADER_BYTES) throw new Error('DAP: a header longer than 1 KB');
      return false;
    }
    const match = /Content-Length: *(\d+)/i.exec(head.subarray(0, headerEnd).toString('ascii'));
    if (!match) throw new Error('DAP: a message without Content-Length');
    const length = Number(match[1]);
    if (length > MAX_DAP_MESSAGE_BYTES) throw new Error(`DAP: a message of ${length} bytes is too large`);
    const rest = this.take(this.length).subarray(headerEnd + 4);
    this.keep(rest);
    this.bodyLength = length;
    return true;
  }

  /** The first `n` bytes, the chunks joined into one where they were several. */
  private take(n: number): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)];
    return (this.chunks[0] ?? Buffer.alloc(0)).subarray(0, n);
  }

  private keep(rest: Buffer): void {
    this.chunks = rest.length > 0 ? [rest] : [];
    this.length = rest.length;
  }
}

export function frameMessage(message: object): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}

type Args = Record<string, unknown>;

/** Answers a client's requests; `send` writes a response or an event, `load` turns launch arguments into a run. */
export class RalphDebugAdapter {
  private seq = 1;
  private session: RalphDebugSession | undefined;
  private pendingBreakpoints = new Map<string, number[]>();
  private exceptionFilters: string[] = ['failure'];
  private stopOnEntry = false;
  /** The node's answer to the same question, when the configuration carries one (a replay). */
  private nodeAnswer: NodeAnswer | undefined;
  private lastStop: RunState | undefined;
  /** The last step asked for instruction granularity (the Disassembly view's steps). */
  private byInstruction = false;

  constructor(
    private readonly send: (message: object) => void,
    private readonly load: (args: Args) => Promise<DebugLaunch>,
  ) {}

  async handle(raw: unknown): Promise<void> {
    if (typeof raw !== 'object' || raw === null || (raw as { type?: unknown }).type !== 'request') return;
    const message = raw as DapMessage;
    const command = String(message.command);
    const given = message.arguments;
    const args = (typeof given === 'object' && given !== null ? given : {}) as Args;
    let answered = false;
    try {
      const body = await this.answer(command, args);
      this.respond(message, true, body);
      answered = true;
    } catch (error) {
      this.respond(message, false, undefined, (error as Error).message);
    }
    if (!answered) return;
    try {
      this.after(command);
    } catch (error) {
      this.output(`The Ralph debugger stopped: ${(error as Error).message}\n`, 'stderr');
      this.event('terminated');
    }
  }

  private respond(request: DapMessage, success: boolean, body?: unknown, errorText?: string): void {
    this.send({
      seq: this.seq++,
      type: 'response',
      request_seq: request.seq,
      command: request.command,
      success,
      ...(body === undefined ? {} : { body }),
      // An error can name workspace text (an artifact's names, a path): shown as plain text, capped.
      ...(errorText === undefined ? {} : { message: cleanText(errorText, MAX_CONSOLE_CHARS) }),
    });
  }

  private event(event: string, body?: unknown): void {
    this.send({ seq: this.seq++, type: 'event', event, ...(body === undefined ? {} : { body }) });
  }

  /**
   * Debug messages, event values and names come from the contract and the workspace: the Debug Console
   * interprets ANSI escapes, so every line goes through the owner of outside text (escapes, controls and
   * bidi characters removed, capped).
   */
  private output(text: string, category = 'console'): void {
    this.event('output', { category, output: `${cleanText(text, MAX_CONSOLE_CHARS, true)}\n` });
  }

  private async answer(command: string, args: Args): Promise<unknown> {
    switch (command) {
      case 'initialize':
        return {
          supportsConfigurationDoneRequest: true,
          supportsSteppingGranularity: true,
          supportsDisassembleRequest: true,
          supportsExceptionInfoRequest: true,
          supportsTerminateRequest: true,
          exceptionBreakpointFilters: [
            { filter: 'failure', label: 'Any VM failure', default: true },
            { filter: 'event', label: 'Any event emitted', default: false },
          ],
        };
      case 'launch':
        this.stopOnEntry = args.stopOnEntry === true;
        this.nodeAnswer = nodeAnswerOf(args.node);
        this.session = new RalphDebugSession(await this.load(args), { output: (t) => this.output(t) });
        this.output(`${launchLine(this.session.title, args.stateFrom)}\n`);
        this.session.setExceptionFilters(this.exceptionFilters);
        for (const [path, lines] of this.pendingBreakpoints) this.session.setBreakpoints(path, lines);
        return undefined;
      case 'setBreakpoints':
        return { breakpoints: this.setBreakpoints(args) };
      case 'setExceptionBreakpoints':
        this.exceptionFilters = Array.isArray(args.filters) ? args.filters.map(String) : [];
        this.session?.setExceptionFilters(this.exceptionFilters);
        return undefined;
      case 'configurationDone':
        return undefined;
      case 'threads':
        return { threads: [{ id: THREAD_ID, name: 'Ralph' }] };
      case 'stackTrace':
        return this.stackTrace();
      case 'scopes':
        return this.scopes(Number(args.frameId));
      case 'variables':
        return this.variables(Number(args.variablesReference));
      case 'continue':
        return { allThreadsContinued: true };
      case 'next':
      case 'stepIn':
      case 'stepOut':
        this.byInstruction = args.granularity === 'instruction';
        return undefined;
      case 'exceptionInfo':
        return this.exceptionInfo();
      case 'disassemble':
        return this.disassemble(args);
      case 'disconnect':
      case 'terminate':
        this.session?.terminate();
        return undefined;
      default:
        throw new Error(`${command} is not supported by the Ralph debugger`);
    }
  }

  /** What runs once a request is answered: the VM runs after configurationDone and each step. */
  private after(command: string): void {
    const session = this.session;
    // Configuration (breakpoints, exception filters, configurationDone) is asked for once the run is
    // loaded, so that it always finds the session it configures.
    if (command === 'launch') this.event('initialized');
    if (!session) return;
    const instruction = this.byInstruction;
    const run: Record<string, () => RunState> = {
      configurationDone: () => session.start(this.stopOnEntry),
      continue: () => session.continue(),
      next: () => session.next(instruction),
      stepIn: () => session.stepIn(instruction),
      stepOut: () => session.stepOut(),
    };
    const step = run[command];
    if (step) this.report(step());
    if (command === 'disconnect' || command === 'terminate') this.event('terminated');
  }

  private report(state: RunState): void {
    this.lastStop = state;
    if (state.kind === 'stopped') {
      this.event('stopped', {
        reason: state.reason,
        description: state.description,
        threadId: THREAD_ID,
        ...(state.reason === 'exception' ? { text: state.description } : {}),
      });
      return;
    }
    const r = state.result;
    // Where the node answered the same question, whether it agrees comes first.
    if (this.nodeAnswer) for (const line of comparisonLines(r, this.nodeAnswer)) this.output(`${line}\n`);
    this.output(
      r.ok
        ? `The run completed${r.returns.length ? ` and returned ${r.returns.map((v) => String(v.value)).join(', ')}` : ''}, gas ${r.gasUsed} (the project's VM)\n`
        : `The run failed: ${r.error} (gas ${r.gasUsed}, the project's VM)\n`,
    );
    if (r.ok) for (const f of r.fieldsAfter) this.output(`Fields after: ${f.contract}: ${f.fields}\n`);
    const launch = this.session?.launch;
    if (launch && isReplay(launch))
      this.output(
        `The chain keeps no gas figure for a script: the transaction paid for gasAmount ${launch.gasAmount} (the script's run above, its inputs, outputs and signatures) at ${launch.gasPrice} atto ALPH each\n`,
      );
    this.event('terminated');
  }

  private setBreakpoints(args: Args): Array<{ verified: boolean; line: number; message?: string }> {
    const given = (args.source as { path?: unknown } | undefined)?.path;
    const path = typeof given === 'string' ? given : '';
    const wanted = Array.isArray(args.breakpoints) ? args.breakpoints : [];
    const lines = wanted.map((b) => Number((b as { line?: unknown }).line) - 1);
    this.pendingBreakpoints.set(path, lines);
    if (!this.session)
      return lines.map((line) => ({ verified: false, line: line + 1, message: 'Not launched yet' }));
    return this.session
      .setBreakpoints(path, lines)
      .map((b) => ({ verified: b.verified, line: b.line + 1, ...(b.message ? { message: b.message } : {}) }));
  }

  private stackTrace(): unknown {
    const frames = this.session?.stackFrames() ?? [];
    return {
      stackFrames: frames.map((f) => ({
        id: f.id,
        name: f.name,
        line: f.line === undefined ? 0 : f.line + 1,
        column: f.line === undefined ? 0 : 1,
        ...(f.line !== undefined && f.sourcePath ? { source: { path: f.sourcePath } } : {}),
        instructionPointerReference: instructionAddress(f.methodIndex, f.pc),
        ...(f.address ? { presentationHint: 'normal' } : { presentationHint: 'subtle' }),
      })),
      totalFrames: frames.length,
    };
  }

  private scopes(frameId: number): unknown {
    const scopes = this.session?.scopes(frameId) ?? [];
    return {
      scopes: scopes.map((s, i) => ({
        name: s.name,
        variablesReference: frameId * SCOPES_PER_FRAME + i + 1,
        expensive: false,
      })),
    };
  }

  private variables(reference: number): unknown {
    const frameId = Math.floor(reference / SCOPES_PER_FRAME);
    const scope = this.session?.scopes(frameId)[(reference % SCOPES_PER_FRAME) - 1];
    return {
      variables: (scope?.variables ?? []).map((v) => ({
        name: v.name,
        value: v.value,
        ...(v.type ? { type: v.type } : {}),
        variablesReference: 0,
      })),
    };
  }

  private exceptionInfo(): unknown {
    const stop = this.lastStop;
    const description = stop?.kind === 'stopped' ? stop.description : 'No failure';
    return { exceptionId: description.split(/[ :(]/)[0] ?? 'VmFailure', description, breakMode: 'always' };
  }

  /**
   * The instructions around a reference (an instruction pointer of a frame): exactly `instructionCount`
   * of them from `instructionOffset`, those outside the method marked invalid, as DAP asks.
   */
  private disassemble(args: Args): unknown {
    const given = args.memoryReference;
    const reference = Number.parseInt(typeof given === 'string' ? given : '0', 16);
    const methodIndex = Number.isFinite(reference) ? Math.floor(reference / PCS_PER_METHOD) : 0;
    const pc = Number.isFinite(reference) ? reference % PCS_PER_METHOD : 0;
    const offset = Number.isInteger(args.instructionOffset) ? Number(args.instructionOffset) : 0;
    const count = Math.min(Math.max(0, Number(args.instructionCount) || 0), 10_000);
    const frame = this.session?.stackFrames().find((f) => f.methodIndex === methodIndex && f.address);
    const lines = frame ? (this.session?.disassemble(frame.id) ?? []) : [];
    const path = frame?.sourcePath;
    const instructions = Array.from({ length: count }, (_, i) => {
      const at = pc + offset + i;
      const l = lines[at];
      if (at < 0 || l === undefined)
        return {
          address: instructionAddress(methodIndex, Math.max(0, at)),
          instruction: '',
          presentationHint: 'invalid',
        };
      return {
        address: instructionAddress(methodIndex, at),
        instruction: l.instruction,
        ...(l.line !== undefined && path ? { line: l.line + 1, location: { path } } : {}),
      };
    });
    return { instructions };
  }
}
