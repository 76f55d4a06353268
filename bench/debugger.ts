/**
 * The Ralph debugger on the VM (src/core/ralphDebug, issue 31): how long a launch takes to its first stop
 * and how long a step takes to answer, against local state (the sandbox project's Counter artifact and
 * counter.ral, read from disk as a launch configuration names them). No request is involved.
 *
 * - launch: the DAP adapter in process, from `launch` (the artifact and source read and parsed, the
 *   method's run started) through `configurationDone` to the `stopped` event at the breakpoint on
 *   `assert!(step <= MaxStep, ErrorCodes.StepTooLarge)` of `incrementBy(101)`;
 * - step: `next` from the method's entry, each to its `stopped` event, until the run ends;
 * - launch on a gateway: what the Contract Panel's Debug does, on the sandbox gateway over HTTP: the
 *   deployed Counter's state read (1 request on the free key), the configuration built from it, then the
 *   same launch to the same breakpoint.
 */
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { ArtifactRegistry } from '../src/core/artifacts';
import { GatewayClient, createUndiciTransport } from '../src/core/gateway';
import { RalphDebugAdapter, type DapMessage } from '../src/core/ralphDebug/dap';
import { deployedLaunchConfiguration } from '../src/core/ralphDebug/deployedLaunch';
import { methodLaunchOf } from '../src/core/ralphDebug/launchConfig';
import { startSandbox } from '../sandbox';
import { sandboxProfile } from '../sandbox/testing/helpers';
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
  readonly gatewayLaunchMs: number[];
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

async function launchOnce(stopOnEntry: boolean, line: number, config?: Record<string, unknown>) {
  const c = client();
  await c.request('initialize', { adapterID: 'ralph' });
  await c.request(
    'launch',
    config ?? {
      artifact: ARTIFACT,
      source: SOURCE,
      method: 'incrementBy',
      args: [stopOnEntry ? '5' : '101'],
      fields: { owner: OWNER, count: '7', paused: false },
      caller: OWNER,
      stopOnEntry,
    },
  );
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
  const gatewayLaunchMs = await gatewayLaunches(runs, line);
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
      figure(BENCH, 'launch to the first stop (state read from a gateway)', 'ms', gatewayLaunchMs, {
        target: '< 2000 ms',
        met: (s) => s.max < 2000,
        note: "the Contract Panel's Debug on the sandbox gateway over HTTP (127.0.0.1): the deployed Counter's state read (1 request), the configuration built from it, launched to the same breakpoint",
      }),
    ],
    raw: { launchMs, stepMs, gatewayLaunchMs },
  };
}

/** The Debug button's path against the sandbox gateway: one state read, then the launch to its stop. */
async function gatewayLaunches(runs: number, line: number): Promise<number[]> {
  const sb = await startSandbox();
  const transport = createUndiciTransport();
  try {
    const gateway = new GatewayClient({
      profile: sandboxProfile(sb, 'free'),
      keyProvider: () => sb.apiKeys.free,
      transport: transport.send,
    });
    const counter = sb.contracts.find((c) => c.name === 'Counter');
    if (!counter) throw new Error('the sandbox has no Counter');
    // The release and debug builds' hashes, as the Debug command takes them from the registry.
    const registry = ArtifactRegistry.fromFiles(
      ['Counter.ral.json', '.project.json'].map((name) => ({
        path: `artifacts/${name}`,
        text: readFileSync(path.join(PROJECT, 'artifacts', name), 'utf8'),
      })),
    );
    const artifact = registry.byName('Counter');
    if (!artifact) throw new Error('no Counter artifact');
    const codeHashes = registry.codeHashesOf(artifact);
    const once = async () => {
      const state = await gateway.getContractState(counter.address);
      const config = deployedLaunchConfiguration({
        contractName: 'Counter',
        address: counter.address,
        method: 'incrementBy',
        args: ['101'],
        artifactPath: ARTIFACT,
        sourcePath: SOURCE,
        state,
        codeHashes,
        approvedAttoAlph: 0n,
        profile: 'bench',
      });
      await launchOnce(false, line, config);
    };
    await once(); // warm-up (the connection, the VM's code)
    const ms: number[] = [];
    for (let r = 0; r < runs; r++) {
      const t = performance.now();
      await once();
      ms.push(performance.now() - t);
    }
    return ms;
  } finally {
    await transport.close();
    await sb.close();
  }
}
