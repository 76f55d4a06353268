/**
 * The Ralph debugger on the VM (src/core/ralphDebug, issue 31): how long a launch takes to its first stop
 * and how long a step takes to answer, against local state (the sandbox project's Counter artifact and
 * counter.ral, read from disk as a launch configuration names them). No request is involved.
 *
 * - launch: the DAP adapter in process, from `launch` (the artifact and source read and parsed, the
 *   method's run started) through `configurationDone` to the `stopped` event at the breakpoint on
 *   `assert!(step <= MaxStep, ErrorCodes.StepTooLarge)` of `incrementBy(101)`;
 * - step: `next` from the method's entry, each to its `stopped` event, until the run ends.
 */
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { RalphDebugAdapter, type DapMessage } from '../src/core/ralphDebug/dap';
import { methodLaunchOf } from '../src/core/ralphDebug/launchConfig';
import { root } from './bundle';
import { figure, type Figure } from './lib/stats';

const BENCH = 'debugger (src/core/ralphDebug, DAP in process)';
const PROJECT = path.join(root, 'sandbox', 'project');
const SOURCE = path.join(PROJECT, 'contracts', 'counter.ral');
const ARTIFACT = path.join(PROJECT, 'artifacts', 'Counter.ral.json');
const OWNER = '1DrDyTr9RpRsQnDnXo2YRiPzPW4ooHX5LLoqXrqfMrpQH';

export interface DebuggerRaw {
  readonly launchMs: number[];
  readonly stepMs: number[];
}

/** An adapter and what it sent, with requests answered in order. */
function client() {
  const sent: DapMessage[] = [];
  const adapter = new RalphDebugAdapter(
    (m) => sent.push(m as DapMessage),
    (args) => methodLaunchOf(args, { readText: (p) => readFile(p, 'utf8') }),
  );
  let seq = 1;
  const request = (command: string, args: Record<string, unknown> = {}) =>
    adapter.handle({ seq: seq++, type: 'request', command, arguments: args });
  const stopsOrEnds = () =>
    sent.filter((m) => m.type === 'event' && (m.event === 'stopped' || m.event === 'terminated')).length;
  return { request, stopsOrEnds, sent };
}

async function launchOnce(stopOnEntry: boolean, line: number) {
  const c = client();
  await c.request('initialize', { adapterID: 'ralph' });
  await c.request('launch', {
    artifact: ARTIFACT,
    source: SOURCE,
    method: 'incrementBy',
    args: [stopOnEntry ? '5' : '101'],
    fields: { owner: OWNER, count: '7', paused: false },
    caller: OWNER,
    stopOnEntry,
  });
  if (!stopOnEntry) await c.request('setBreakpoints', { source: { path: SOURCE }, breakpoints: [{ line }] });
  await c.request('configurationDone');
  if (c.stopsOrEnds() !== 1) throw new Error('the launch did not stop once');
  return c;
}

export async function debuggerBench(runs: number): Promise<{ figures: Figure[]; raw: DebuggerRaw }> {
  const line =
    readFileSync(SOURCE, 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('step <= MaxStep')) + 1;
  await launchOnce(false, line); // warm-up
  const launchMs: number[] = [];
  const stepMs: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    await launchOnce(false, line);
    launchMs.push(performance.now() - t);
    const c = await launchOnce(true, line);
    for (let i = 0; i < 20; i++) {
      const before = c.stopsOrEnds();
      const s = performance.now();
      await c.request('next', { threadId: 1 });
      stepMs.push(performance.now() - s);
      if (c.stopsOrEnds() !== before + 1) throw new Error('a step did not answer with a stop or the end');
      if (c.sent.at(-1)?.event === 'terminated') break;
    }
  }
  return {
    figures: [
      figure(BENCH, 'launch to the first stop (local state)', 'ms', launchMs, {
        target: '< 1000 ms',
        met: (s) => s.max < 1000,
        note: 'Counter.incrementBy(101), a breakpoint on its assert! line: the artifact and source read, parsed and placed, the run started and stopped',
      }),
      figure(BENCH, 'a step (next) answers', 'ms', stepMs, {
        target: '< 50 ms',
        met: (s) => s.max < 50,
        note: `${stepMs.length} steps of incrementBy(5) from its entry to its end, each to its stopped (or terminated) event`,
      }),
    ],
    raw: { launchMs, stepMs },
  };
}
