/**
 * Request economy of the event watcher over simulated hours.
 *
 * Time is virtual: the EventWatcher gets injected timers whose clock the bench moves from one due poll to
 * the next, so two hours pass in seconds. Requests are real HTTP to the in-process sandbox on loopback,
 * sent through a real GatewayClient with an unthrottled key (the per-second limit is another bench's
 * subject; here only the count matters). Events arrive on every contract as a seeded Poisson process
 * (one every 10 virtual minutes on average) and are mined at their virtual time.
 *
 * Two modes per contract count:
 * - spec rate: intervalMs 16 s, no budget (a node profile, or a plan that fits): the spec's maximum rate
 *   of one poll per 16 s per contract = 225 per contract-hour. Each contract learns whether reading the
 *   count first or the next page directly costs it fewer requests (busy ones: the page, one request).
 * - plan-aware: Free plan (100,000/month), 50 % share (the default `alephium.watch.monthlySharePercent`),
 *   the watcher alone on its BackgroundScheduler (bench/session.ts adds the Node view and user actions):
 *   the interval comes from the scheduler's plan, paced by the month (June 10th, no history yet: the
 *   share left over 8 working hours a day); each hour stays within the pace's hour (bench/month.ts
 *   measures whole months).
 */
import { clientScheduler } from '../src/core/scheduling/clientScheduler';
import { EventWatcher } from '../src/core/contracts/watching/eventWatcher';
import { eventKey } from '../src/core/contracts/watching/watcherTypes';
import {
  countingTransport,
  counters,
  gatewayClient,
  memoryStore,
  newKey,
  sandbox,
  type CountingTransport,
} from './lib/sandbox';
import { figure, log, seededRandom, type Figure } from './lib/stats';
import type { Timers } from '../src/core/util/clock';

const HOUR = 3_600_000;
const EVENT_MEAN_GAP_MS = 10 * 60_000;
const FREE_MONTHLY = 100_000;
const SHARE = 0.5;

/** Injected timers on a virtual clock, advanced by the bench. */
class VirtualTimers implements Timers {
  time = Date.UTC(2025, 5, 10);
  private nextId = 1;
  readonly pending = new Map<number, { due: number; callback: () => void }>();
  private waiter: (() => void) | undefined;

  now(): number {
    return this.time;
  }
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.pending.set(id, { due: this.time + Math.max(0, ms), callback });
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  earliest(): [number, { due: number; callback: () => void }] | undefined {
    let best: [number, { due: number; callback: () => void }] | undefined;
    for (const entry of this.pending) if (!best || entry[1].due < best[1].due) best = entry;
    return best;
  }
  /** Resolves when the watcher schedules its next poll (i.e. the round it started has finished). */
  nextSchedule(): Promise<void> {
    return new Promise((resolve) => (this.waiter = resolve));
  }
}

export interface EconomyRun {
  readonly contracts: number;
  readonly mode: 'spec' | 'plan';
  readonly intervalMs: number;
  /** Requests an hour the pace allowed at the start (Infinity without a budget). */
  readonly hourLimit: number;
  /** Polls in the second virtual hour. */
  readonly polls2: number;
  /** Requests in the first virtual hour (includes the first poll of every contract). */
  readonly hour1: { count: number; page: number };
  /** Requests in the second virtual hour (steady state). */
  readonly hour2: { count: number; page: number };
  readonly triggered: number;
  readonly delivered: number;
  readonly missed: number;
  readonly repeated: number;
}

async function simulate(
  contracts: number,
  mode: 'spec' | 'plan',
  seed: number,
  transport: CountingTransport,
): Promise<EconomyRun> {
  // One clock for the watcher and the chain: the blocks' timestamps are the virtual hours'.
  const timers = new VirtualTimers();
  const sb = await sandbox({ clock: timers });
  try {
    const addresses = counters(sb, contracts);
    const key = newKey(sb, 'enterprise', 'economy');
    const client = gatewayClient(sb, key, 'enterprise', transport.send, {
      perSecond: 1_000_000,
      perMonth: 1_000_000_000,
    });
    const watcher = new EventWatcher({
      client,
      store: memoryStore(),
      timers,
      backlog: 0,
      ...(mode === 'spec'
        ? { intervalMs: 16_000 }
        : { intervalMs: 0, budget: { monthlyLimit: FREE_MONTHLY, share: SHARE } }),
    });
    const delivered: string[] = [];
    watcher.onEvents((e) => {
      for (const ev of e.events) delivered.push(`${e.address}|${eventKey(ev)}`);
    });
    const pollTimes: number[] = [];
    watcher.onPolled(() => pollTimes.push(timers.time));
    for (const a of addresses) watcher.watch(a);
    let intervalMs = watcher.intervalMs;
    const hourLimit = mode === 'plan' ? clientScheduler(client).plan().hourlyShare : Infinity;

    // The event schedule: per contract, exponential gaps, during the first two hours only.
    const random = seededRandom(seed * 7919 + contracts);
    const t0 = timers.time;
    const schedule: { at: number; address: string }[] = [];
    for (const address of addresses) {
      for (let t = t0; ;) {
        t += -Math.log(1 - random()) * EVENT_MEAN_GAP_MS;
        if (t >= t0 + 2 * HOUR) break;
        schedule.push({ at: Math.round(t), address });
      }
    }
    schedule.sort((a, b) => a.at - b.at);
    const triggeredTx = new Map<string, string>();

    transport.reset();
    const snapshots: { count: number; page: number }[] = [];
    const snap = () => ({
      count: transport.counts.get('count') ?? 0,
      page: transport.counts.get('page') ?? 0,
    });
    // Drain: after the last event, run one more interval so that every event can be seen.
    // (With a budget the interval is the scheduler's plan, known once polling runs: read at the 2 h mark.)
    let end = Infinity;
    let nextEvent = 0;
    watcher.start();
    for (let steps = 0; steps < 1_000_000; steps++) {
      const next = timers.earliest();
      if (next && end === Infinity && next[1].due > t0 + 2 * HOUR) {
        intervalMs = watcher.intervalMs;
        end = t0 + 2 * HOUR + 1.5 * intervalMs + 1;
      }
      if (!next || next[1].due > end) break;
      const [id, { due, callback }] = next;
      while (snapshots.length < 2 && due >= t0 + (snapshots.length + 1) * HOUR) snapshots.push(snap());
      // Events up to the due time are mined before the poll (ties: the event first).
      let mined = false;
      while (nextEvent < schedule.length && (schedule[nextEvent]?.at as number) <= due) {
        const ev = schedule[nextEvent++] as { at: number; address: string };
        timers.time = Math.max(timers.time, ev.at);
        const c = sb.chain.contracts.get(ev.address);
        if (!c) throw new Error('contract vanished');
        const caller = sb.chain.accounts[c.group]?.address as string;
        const { tx } = sb.chain.queueCall(c, 'increment', [], caller);
        triggeredTx.set(tx.txId, ev.address);
        mined = true;
        // Mine each event in its own block, as a real chain would spread them.
        sb.chain.mine();
      }
      void mined;
      timers.time = Math.max(timers.time, due);
      timers.pending.delete(id);
      const scheduled = timers.nextSchedule();
      callback();
      await scheduled;
    }
    while (snapshots.length < 2) snapshots.push(snap());
    watcher.dispose();
    client.dispose();

    const [h1, h2] = snapshots as [{ count: number; page: number }, { count: number; page: number }];
    const deliveredTx = new Map<string, number>();
    for (const d of delivered) {
      const txId = (d.split('|')[1] as string).split(':')[0] as string;
      deliveredTx.set(txId, (deliveredTx.get(txId) ?? 0) + 1);
    }
    let missed = 0;
    for (const txId of triggeredTx.keys()) if (!deliveredTx.has(txId)) missed++;
    let repeated = 0;
    for (const n of deliveredTx.values()) if (n > 1) repeated += n - 1;
    const polls2 = pollTimes.filter((t) => t >= t0 + HOUR && t < t0 + 2 * HOUR).length;
    return {
      contracts,
      mode,
      intervalMs,
      hourLimit,
      polls2,
      hour1: h1,
      hour2: { count: h2.count - h1.count, page: h2.page - h1.page },
      triggered: triggeredTx.size,
      delivered: delivered.length,
      missed,
      repeated,
    };
  } finally {
    await sb.close();
  }
}

export async function economyBench(
  seeds: readonly number[],
): Promise<{ figures: Figure[]; raw: EconomyRun[] }> {
  const transport = countingTransport();
  const raw: EconomyRun[] = [];
  const figures: Figure[] = [];
  try {
    for (const contracts of process.env.ECO_ONLY ? [Number(process.env.ECO_ONLY)] : [1, 10, 50]) {
      for (const mode of ['spec', 'plan'] as const) {
        const runs: EconomyRun[] = [];
        for (const seed of seeds) {
          const started = Date.now();
          const run = await simulate(contracts, mode, seed, transport);
          log(
            `economy ${contracts} contract(s), ${mode}, seed ${seed}: interval ${run.intervalMs / 1000} s, ` +
              `h1 ${run.hour1.count}+${run.hour1.page}, h2 ${run.hour2.count}+${run.hour2.page}, ` +
              `events ${run.triggered}/${run.delivered} (missed ${run.missed}, repeated ${run.repeated}) ` +
              `in ${Date.now() - started} ms`,
          );
          runs.push(run);
        }
        raw.push(...runs);
        const bench = `economy ${contracts}c`;
        const interval = runs[0]?.intervalMs ?? 0;
        if (mode === 'spec') {
          figures.push(
            figure(
              bench,
              'spec mode: polls per contract-hour (steady)',
              'polls',
              runs.map((r) => r.polls2 / contracts),
              { target: '<= 225 (1 per 16 s)', met: (s) => s.max <= 225 },
            ),
            figure(
              bench,
              'spec mode: all requests per contract-hour (steady)',
              'req',
              runs.map((r) => (r.hour2.count + r.hour2.page) / contracts),
              {
                note: 'the count first, or the next page directly: whichever each contract learned costs less',
              },
            ),
          );
        } else {
          const limit = Math.min(...runs.map((r) => r.hourLimit));
          figures.push(
            figure(
              bench,
              `plan mode (${Math.round(interval / 100) / 10} s): requests in hour 1`,
              'req',
              runs.map((r) => r.hour1.count + r.hour1.page),
              {
                target: `<= ${limit.toFixed(1)} (the pace's hour, Free 50 %)`,
                met: (s) => s.max <= limit,
                note: 'includes the first poll of every contract',
              },
            ),
            figure(
              bench,
              'plan mode: requests in hour 2 (steady)',
              'req',
              runs.map((r) => r.hour2.count + r.hour2.page),
              {
                target: `<= ${limit.toFixed(1)} (the pace's hour)`,
                met: (s) => s.max <= limit,
              },
            ),
            figure(
              bench,
              'plan mode: requests per poll (steady)',
              'ratio',
              runs.map((r) => (r.polls2 ? (r.hour2.count + r.hour2.page) / r.polls2 : 0)),
              { note: 'each contract reads the count first or the next page directly, as it learned' },
            ),
          );
        }
        figures.push(
          figure(
            bench,
            `${mode} mode: events missed + repeated`,
            'events',
            runs.map((r) => r.missed + r.repeated),
            {
              target: '0',
              met: (s) => s.max === 0,
              note: `of ${runs.map((r) => r.triggered).join('/')} triggered`,
            },
          ),
        );
      }
    }
  } finally {
    await transport.close();
  }
  return { figures, raw };
}
