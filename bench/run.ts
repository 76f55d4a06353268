/**
 * `npm run bench`: every benchmark against the sandbox gateway on loopback, a table on stdout and
 * bench/results.json. Progress goes to stderr. Bounded: each bench has fixed runs and durations, and a
 * watchdog ends the whole run if it ever exceeds 20 minutes.
 *
 *   npm run bench                       everything (about 13 minutes on 2 cores)
 *   npm run bench -- --only cache,backfill
 *
 * Benches: bundle, activation, cache, backfill, economy, session, month, ratelimit, burst, sdk, webview, ralph, hostile, vm, debugger. A subset keeps
 * the other benches' figures of the previous bench/results.json, so the file (and README's table, which
 * scripts/perfTable.mjs regenerates from it at the end) always covers every bench.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { activationBench } from './activation';
import { backfillBench } from './backfill';
import { build, bundleBench, root } from './bundle';
import { burstBench } from './burst';
import { cacheBench } from './cache';
import { economyBench } from './economy';
import { hostileBench } from './hostile';
import { monthBench } from './month';
import { ralphBench } from './ralph';
import { rateLimitBench } from './rateLimit';
import { sdkCompareBench } from './sdkCompare';
import { sessionBench } from './session';
import { vmBench } from './vm';
import { debuggerBench } from './debugger';
import { webviewBench } from './webview';
import { log, renderTable, type Figure } from './lib/stats';

/** Runs per bench: 5 where cheap, fewer where a run takes tens of seconds. */
export const RUNS = {
  activation: 3,
  cache: 5,
  backfillFree: 2,
  backfillPro: 5,
  economySeeds: [1, 2, 3],
  sessionSeeds: [1, 2],
  monthSeeds: [1],
  ratelimit: 3,
  burst: 1,
  sdk: 1,
  webview: 5,
  ralph: 5,
  hostile: 3,
  vm: 7,
  debugger: 10,
} as const;

const ALL = [
  'bundle',
  'activation',
  'cache',
  'backfill',
  'economy',
  'session',
  'month',
  'ratelimit',
  'burst',
  'sdk',
  'webview',
  'ralph',
  'hostile',
  'vm',
  'debugger',
] as const;
type BenchName = (typeof ALL)[number];

async function main(): Promise<number> {
  const onlyArg = process.argv.indexOf('--only');
  const only =
    onlyArg >= 0
      ? new Set((process.argv[onlyArg + 1] ?? '').split(',').filter(Boolean))
      : new Set<string>(ALL);
  for (const name of only)
    if (!(ALL as readonly string[]).includes(name))
      throw new Error(`unknown bench ${name}; one of ${ALL.join(', ')}`);
  const started = Date.now();
  const out = path.join(root, 'bench', 'results.json');
  // A subset run keeps what the previous run measured for the other benches.
  const previous = readPrevious(out);
  const byStep: Record<string, { figures: Figure[]; notes: string[] }> = {};
  for (const [name, entry] of Object.entries(previous.byStep ?? {}))
    if (!only.has(name) && (ALL as readonly string[]).includes(name)) byStep[name] = entry;
  let figures: Figure[] = [];
  const raw: Record<string, unknown> = { ...(previous.raw ?? {}) };
  let notes: string[] = [];
  const timings: Record<string, number> = {};
  const production = { built: false };

  const step = async (name: BenchName, run: () => Promise<Figure[]>) => {
    if (!only.has(name)) return;
    const t = Date.now();
    log(`${name}…`);
    const notesBefore = notes.length;
    const entry: { figures: Figure[]; notes: string[] } = { figures: [], notes: [] };
    byStep[name] = entry;
    try {
      entry.figures.push(...(await run()));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      notes.push(`${name}: FAILED: ${message.split('\n')[0]}`);
      log(`${name} failed: ${error instanceof Error ? (error.stack ?? message) : message}`);
    }
    entry.notes.push(...notes.slice(notesBefore));
    timings[name] = Date.now() - t;
    log(`${name} done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  };
  const ensureProduction = () => {
    if (!production.built) build(true);
    production.built = true;
  };

  await runBenches(step, raw, notes, production, ensureProduction);
  // Leave dist/ as `npm run build` does (development build with source maps), which the tests expect.
  if (production.built) build(false);
  // Every bench's figures in the order of ALL, this run's replacing the previous run's.
  figures = ALL.flatMap((name) => byStep[name]?.figures ?? []);
  notes = ALL.flatMap((name) => byStep[name]?.notes ?? []);

  const totalS = (Date.now() - started) / 1000;
  console.log(
    `\nAlephium Gateway benchmarks (${os.cpus().length} cores, Node ${process.version}, ${totalS.toFixed(0)} s)\n`,
  );
  console.log(renderTable(figures));
  if (notes.length) console.log(`\n${notes.map((n) => `- ${n}`).join('\n')}`);
  const missed = figures.filter((f) => f.met === false);
  console.log(
    `\ntargets: ${figures.filter((f) => f.met === true).length} met, ${missed.length} not met` +
      (missed.length ? ` (${missed.map((f) => `${f.bench}: ${f.name}`).join('; ')})` : ''),
  );
  fs.writeFileSync(
    out,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        machine: {
          cores: os.cpus().length,
          cpu: os.cpus()[0]?.model,
          node: process.version,
          platform: process.platform,
        },
        runs: RUNS,
        ran: [...only],
        totalSeconds: totalS,
        benchSeconds: Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, v / 1000])),
        figures,
        notes,
        byStep,
        raw,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`results: ${path.relative(process.cwd(), out)}`);
  // README's Performance table comes from these figures, so it cannot drift from them.
  const table = spawnSync(process.execPath, [path.join(root, 'scripts', 'perfTable.mjs')], {
    stdio: 'inherit',
  });
  if (table.status !== 0) notes.push('perfTable: FAILED to regenerate README');
  return notes.some((n) => n.includes('FAILED')) ? 1 : 0;
}

type Step = (name: BenchName, run: () => Promise<Figure[]>) => Promise<void>;

/** Every bench in the order of ALL; `step` skips those not asked for. Raw data and notes go into `raw`, `notes`. */
async function runBenches(
  step: Step,
  raw: Record<string, unknown>,
  notes: string[],
  production: { built: boolean },
  ensureProduction: () => void,
): Promise<void> {
  // A synchronous bench throws inside `step`'s try, like a rejected one.
  await step('bundle', () => {
    const r = bundleBench();
    production.built = true;
    raw.bundle = r.raw;
    return Promise.resolve(r.figures);
  });
  await step('activation', async () => {
    ensureProduction();
    const r = await activationBench(RUNS.activation);
    raw.activation = r.raw;
    notes.push(
      'activation: real VS Code 1.100.3 server + web workbench in headless Chromium, production bundle, ' +
        'sandbox profile with a Free key; activate() time read from the extension log line that carries activatedInMs.',
    );
    return r.figures;
  });
  await step('cache', async () => {
    const r = await cacheBench(RUNS.cache);
    raw.cache = r.raw;
    return r.figures;
  });
  await step('backfill', async () => {
    const r = await backfillBench(RUNS.backfillFree, RUNS.backfillPro);
    raw.backfill = r.raw;
    notes.push(
      `backfill: 10,000 visible events and ${r.gaps} hidden Debug slots (gaps) on one contract; fetchEventsFrom(0, until current-count).`,
    );
    return r.figures;
  });
  await step('economy', async () => {
    const r = await economyBench(RUNS.economySeeds);
    raw.economy = r.raw;
    notes.push(
      'economy: virtual time (timers injected into EventWatcher), real HTTP to the sandbox with an unthrottled key; ' +
        'events on every contract as a Poisson process, one per 10 min on average; runs = seeds.',
    );
    return r.figures;
  });
  await step('session', async () => {
    const r = await sessionBench(RUNS.sessionSeeds);
    raw.session = r.raw;
    notes.push(
      'session: a virtual day (runs = seeds) on one client and one BackgroundScheduler, Free plan 50 % share: ' +
        '1/10/50 busy contracts, the Node view visible 09:00–17:00, 4 tracked sends and 12 state reads; ' +
        'requests counted from the client’s own records, month = day × 30. 429s: see the rate-limit bench ' +
        '(this key is unthrottled; only counts and timing matter here).',
    );
    return r.figures;
  });
  await step('month', async () => {
    const r = await monthBench(RUNS.monthSeeds);
    raw.month = r.raw;
    notes.push(
      'month: a virtual month (June 2026, runs = seeds) of a working pattern on a Free key at the default 50 % share: ' +
        'the real GatewayClient, BackgroundScheduler (with its activity store) and EventWatcher on one injected clock, ' +
        'against a faithful in-process fake of the sandbox’s event endpoints and its own rate limiter (checked against ' +
        'the sandbox’s chain first); busy contracts emit every 2 min on average; each working session is a window ' +
        'of its own; the delay is from an event’s block to its delivery, for blocks mined while the person works.',
    );
    return r.figures;
  });
  await step('ratelimit', async () => {
    const r = await rateLimitBench(RUNS.ratelimit);
    raw.ratelimit = r.raw;
    return r.figures;
  });
  await step('burst', async () => {
    const r = await burstBench(RUNS.burst);
    raw.burst = r.raw;
    notes.push(
      'burst: 200 distinct user requests at once plus background polling every 2 s on one Free key (5/s), on the ' +
        'in-process sandbox; the client paces itself, so the gateway (which rejects, never queues) answers no 429.',
    );
    return r.figures;
  });
  await step('sdk', async () => {
    const r = await sdkCompareBench(RUNS.sdk);
    raw.sdk = r.raw;
    notes.push(`sdk: @alephium/web3 current-count against the spec's {count}: ${r.currentCount}.`);
    return r.figures;
  });
  await step('webview', async () => {
    ensureProduction();
    const r = await webviewBench(RUNS.webview);
    raw.webview = r.raw;
    if (r.pending) notes.push(`webview: PENDING: ${r.pending}.`);
    return r.figures;
  });
  await step('ralph', () => {
    const r = ralphBench(RUNS.ralph);
    raw.ralph = r.raw;
    return Promise.resolve(r.figures);
  });
  await step('hostile', async () => {
    const r = await hostileBench(RUNS.hostile);
    raw.hostile = r.raw;
    notes.push(
      'hostile: what a malicious gateway or workspace can send, at the size the security review measured and ten times it; ' +
        'one call each on the main thread (the time the extension host is blocked).',
    );
    return r.figures;
  });
  await step('vm', () => {
    const r = vmBench(RUNS.vm);
    raw.vm = r.raw;
    notes.push(
      'vm: src/core/vm on the main thread. Speed: sum(n) hand-assembled, encoded to contract bytes, decoded and ' +
        'run on VirtualMachine; instructions counted by its beforeInstruction hook in an untimed run and checked ' +
        "against the listing (13 per iteration + 10). Deploys: emulateTxScript of prepareDeploy's script in an " +
        "unsigned tx, as the node's gas estimation runs it; each must create its contract.",
      ...r.notes,
    );
    return Promise.resolve(r.figures);
  });
  await step('debugger', async () => {
    const r = await debuggerBench(RUNS.debugger);
    raw.debugger = r.raw;
    notes.push(
      "debugger: the Ralph debug adapter in process on the sandbox project's Counter (artifact and source read from " +
        'disk): launch to the stopped event at a breakpoint, and each step of a run to its stopped event; and the ' +
        "Contract Panel's Debug on the sandbox gateway: the deployed Counter's state read over HTTP, then the same launch.",
    );
    return r.figures;
  });
}

function readPrevious(file: string): {
  byStep?: Record<string, { figures: Figure[]; notes: string[] }>;
  raw?: Record<string, unknown>;
} {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as ReturnType<typeof readPrevious>;
  } catch {
    return {};
  }
}

const watchdog = setTimeout(() => {
  console.error('[bench] still running after 20 minutes: giving up');
  process.exit(2);
}, 20 * 60_000);
watchdog.unref();

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
