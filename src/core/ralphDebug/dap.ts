/**
 * The Debug Adapter Protocol for a Ralph debug session (issue 31): the framing (`Content-Length` headers,
 * read in linear time, a message capped in size) and the requests a client sends, answered from a
 * {@link RalphDebugSession}. Transport-free: the standalone adapter (`src/debugAdapter.ts`) wires it to
 * stdin and stdout, a test to a buffer. Lines are 1-based on the wire, as DAP clients count by default.
 */
import { RalphDebugSession, type MethodLaunch, type RunState } from './session';

/** A message larger than this is refused: no launch or answer comes near it. */
export const MAX_DAP_MESSAGE_BYTES = 16 * 1024 * 1024;
const THREAD_ID = 1;
/** Scope references: frame id × this + the scope's index + 1. */
const SCOPES_PER_FRAME = 100;

export interface DapMessage {
  readonly seq: number;
  readonly type: string;
  readonly [key: string]: unknown;
}

/** Splits a byte stream into DAP messages. */
export class DapReader {
  private buffer: Buffer = Buffer.alloc(0);

  constructor(private readonly onMessage: (message: DapMessage) => void) {}

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) {
        if (this.buffer.length > 1024) throw new Error('DAP: a header longer than 1 KB');
        return;
      }
      const header = this.buffer.subarray(0, headerEnd).toString('ascii');
      const match = /Content-Length: *(\d+)/i.exec(header);
      if (!match) throw new Error('DAP: a message without Content-Length');
      const length = Number(match[1]);
      if (length > MAX_DAP_MESSAGE_BYTES) throw new Error(`DAP: a message of ${length} bytes is too large`);
      const start = headerEnd + 4;
      if (this.buffer.length < start + length) return;
      const body = this.buffer.subarray(start, start + length).toString('utf8');
      this.buffer = this.buffer.subarray(start + length);
      this.onMessage(JSON.parse(body) as DapMessage);
    }
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
  private lastStop: RunState | undefined;
  /** The last step asked for instruction granularity (the Disassembly view's steps). */
  private byInstruction = false;

  constructor(
    private readonly send: (message: object) => void,
    private readonly load: (args: Args) => Promise<MethodLaunch>,
  ) {}

  async handle(message: DapMessage): Promise<void> {
    if (message.type !== 'request') return;
    const command = String(message.command);
    const args = (message.arguments ?? {}) as Args;
    try {
      const body = await this.answer(command, args);
      this.respond(message, true, body);
      this.after(command);
    } catch (error) {
      this.respond(message, false, undefined, (error as Error).message);
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
      ...(errorText === undefined ? {} : { message: errorText }),
    });
  }

  private event(event: string, body?: unknown): void {
    this.send({ seq: this.seq++, type: 'event', event, ...(body === undefined ? {} : { body }) });
  }

  private output(text: string, category = 'console'): void {
    this.event('output', { category, output: text });
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
        this.session = new RalphDebugSession(await this.load(args), { output: (t) => this.output(t) });
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
      case 'threads':
        return command === 'threads' ? { threads: [{ id: THREAD_ID, name: 'Ralph' }] } : undefined;
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
        return this.disassemble();
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
    if (command === 'initialize') this.event('initialized');
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
    this.output(
      r.ok
        ? `The method returned${r.returns.length ? ` ${r.returns.map((v) => String(v.value)).join(', ')}` : ''}, gas ${r.gasUsed} (the project's VM)\n`
        : `The run failed: ${r.error} (gas ${r.gasUsed}, the project's VM)\n`,
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
    const path = this.sourcePath();
    return {
      stackFrames: frames.map((f) => ({
        id: f.id,
        name: f.name,
        line: f.line === undefined ? 0 : f.line + 1,
        column: f.line === undefined ? 0 : 1,
        ...(f.line !== undefined && path ? { source: { path } } : {}),
        instructionPointerReference: `${f.methodIndex}:${f.pc}`,
        ...(f.address ? { presentationHint: 'normal' } : { presentationHint: 'subtle' }),
      })),
      totalFrames: frames.length,
    };
  }

  private sourcePath(): string | undefined {
    return this.session?.launch.source?.path;
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

  private disassemble(): unknown {
    const top = this.session?.stackFrames()[0];
    const lines = top ? (this.session?.disassemble(top.id) ?? []) : [];
    const path = this.sourcePath();
    return {
      instructions: lines.map((l) => ({
        address: `${top?.methodIndex ?? 0}:${l.pc}`,
        instruction: l.instruction,
        ...(l.line !== undefined && path ? { line: l.line + 1, location: { path } } : {}),
      })),
    };
  }
}
