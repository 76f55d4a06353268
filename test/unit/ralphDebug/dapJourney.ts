/**
 * The issue-31 journey spoken as a DAP client speaks it, shared by the in-process test and the one that
 * runs `dist/debugAdapter.js`: launch Counter.incrementBy(101) from the sandbox project's artifact and
 * source, a breakpoint on `assert!(step <= MaxStep, ErrorCodes.StepTooLarge)`, stop there with step = 101
 * and the fields, continue to the failure at the same line, named StepTooLarge, then the end.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DapMessage } from '../../../src/core/ralphDebug/dap';

export const PROJECT = join(import.meta.dirname, '..', '..', '..', 'sandbox', 'project');
export const SOURCE = join(PROJECT, 'contracts', 'counter.ral');
export const ARTIFACT = join(PROJECT, 'artifacts', 'Counter.ral.json');
const OWNER = '1DrDyTr9RpRsQnDnXo2YRiPzPW4ooHX5LLoqXrqfMrpQH';

export interface DapClient {
  request(command: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The next event of this name (events already received count). */
  event(name: string): Promise<Record<string, unknown>>;
}

/**
 * A DAP client over any transport: `write` sends a request, `receive` is called with each message the
 * adapter sends; `ended` says the adapter can send nothing more (its process exited). Waits are bounded.
 */
export function messageClient(
  write: (request: DapMessage) => void | Promise<void>,
  ended: () => boolean = () => false,
): { client: DapClient; receive: (message: DapMessage) => void; wake: () => void } {
  const received: DapMessage[] = [];
  const waiters: Array<() => void> = [];
  const wake = () => {
    for (const w of waiters.splice(0)) w();
  };
  let seq = 1;
  let eventsRead = 0;
  const next = async (test: (m: DapMessage) => boolean, what: string): Promise<DapMessage> => {
    for (let tries = 0; tries < 200; tries++) {
      const found = received.find(test);
      if (found) return found;
      if (ended()) break;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
    throw new Error(`no ${what} from the adapter`);
  };
  const client: DapClient = {
    async request(command, args = {}) {
      const request = { seq: seq++, type: 'request', command, arguments: args };
      await write(request);
      const response = await next((m) => m.type === 'response' && m.request_seq === request.seq, command);
      assert.equal(response.success, true, `${command}: ${String(response.message)}`);
      return response;
    },
    async event(name) {
      const events = () => received.filter((m) => m.type === 'event');
      const found = await next(
        (m) => m.type === 'event' && m.event === name && events().indexOf(m) >= eventsRead,
        name,
      );
      eventsRead = events().indexOf(found) + 1;
      return found;
    },
  };
  return {
    client,
    receive: (message) => {
      received.push(message);
      wake();
    },
    wake,
  };
}

export async function runJourney(client: DapClient): Promise<void> {
  const line =
    readFileSync(SOURCE, 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('step <= MaxStep')) + 1;
  const init = await client.request('initialize', { adapterID: 'ralph', linesStartAt1: true });
  assert.equal((init.body as { supportsDisassembleRequest?: boolean }).supportsDisassembleRequest, true);
  await client.request('launch', {
    artifact: ARTIFACT,
    source: SOURCE,
    method: 'incrementBy',
    args: ['101'],
    fields: { owner: OWNER, count: '7', paused: false },
    caller: OWNER,
  });
  // Configuration is asked for once the run is loaded: breakpoints always find the session.
  await client.event('initialized');
  const set = await client.request('setBreakpoints', { source: { path: SOURCE }, breakpoints: [{ line }] });
  assert.deepEqual((set.body as { breakpoints: unknown[] }).breakpoints, [{ verified: true, line }]);
  await client.request('configurationDone');
  const stop = await client.event('stopped');
  assert.equal((stop.body as { reason: string }).reason, 'breakpoint');
  const trace = (await client.request('stackTrace', { threadId: 1 })).body as {
    stackFrames: Array<{ id: number; name: string; line: number; source?: { path: string } }>;
  };
  assert.deepEqual(
    trace.stackFrames.map((f) => f.name),
    ['Counter.incrementBy', 'TxScript (calls Counter.incrementBy)'],
  );
  assert.equal(trace.stackFrames[0]?.line, line);
  assert.equal(trace.stackFrames[0]?.source?.path, SOURCE);
  const scopes = (await client.request('scopes', { frameId: trace.stackFrames[0].id })).body as {
    scopes: Array<{ name: string; variablesReference: number }>;
  };
  const vars = async (name: string) =>
    (
      (
        await client.request('variables', {
          variablesReference: scopes.scopes.find((s) => s.name === name)!.variablesReference,
        })
      ).body as { variables: Array<{ name: string; value: string }> }
    ).variables.map((v) => `${v.name} = ${v.value}`);
  assert.deepEqual(await vars('Arguments'), ['step = 101']);
  assert.deepEqual(await vars('Fields'), [`owner = ${OWNER}`, 'count = 7', 'paused = false']);
  // The Disassembly view's request: exactly the instructions asked for, the current one at its line.
  const pointer = (trace.stackFrames[0] as { instructionPointerReference?: string })
    .instructionPointerReference;
  const dis = (
    await client.request('disassemble', {
      memoryReference: pointer,
      instructionOffset: -2,
      instructionCount: 5,
    })
  ).body as { instructions: Array<{ address: string; instruction: string; line?: number }> };
  assert.equal(dis.instructions.length, 5);
  assert.equal(dis.instructions[2]?.address, pointer);
  assert.deepEqual(
    [dis.instructions[2]?.instruction, dis.instructions[2]?.line],
    ['AssertWithErrorCode', line],
  );
  assert.equal(dis.instructions[1]?.instruction, 'U256Const1', 'the error code StepTooLarge = 1 before it');
  await client.request('continue', { threadId: 1 });
  const failure = await client.event('stopped');
  assert.equal((failure.body as { reason: string }).reason, 'exception');
  assert.match(
    String((failure.body as { text?: string }).text),
    /^AssertionFailedWithErrorCode \(ErrorCodes\.StepTooLarge\)/,
  );
  const atFailure = (await client.request('stackTrace', { threadId: 1 })).body as {
    stackFrames: Array<{ line: number }>;
  };
  assert.equal(atFailure.stackFrames[0]?.line, line);
  const info = (await client.request('exceptionInfo', { threadId: 1 })).body as { exceptionId: string };
  assert.equal(info.exceptionId, 'AssertionFailedWithErrorCode');
  await client.request('continue', { threadId: 1 });
  await client.event('terminated');
}
