/**
 * A realistic day, in virtual time, against the one background budget (issue 14).
 *
 * One GatewayClient (an unthrottled sandbox key: the per-second limit is the rate-limit bench's subject,
 * here what counts is how many requests go out and when) shared by:
 * - the event watcher with 1, 10 or 50 busy contracts (an event on each every 10 min on average, a
 *   seeded Poisson process), budgeted for the Free plan at the default 50 % share, after a restart
 *   (cursors stored by an earlier session);
 * - the person working from 09:00 to 17:00: the window focused and the Node view visible (its Chains
 *   node closed), unfocused the rest of the day (polls 4 × slower);
 * - a few user actions: 4 sends, each tracked to 1 confirmation (tracking is background traffic), and
 *   12 contract-state reads, at the user's priority.
 * Everything background goes through one BackgroundScheduler on virtual timers, metered by the client's
 * own request records, so the bench counts what was really sent, not what the jobs claim.
 *
 * Reported: background requests per hour (the busiest against the per-hour cap, the first against the
 * pace, the working hours against 80 % of what the pace plans), the day's total, the longest gap between
 * two polls of any contract against its interval, and events missed or repeated. The pace is the month's
 * (the share left over the working time expected to be left); bench/month.ts measures whole months.
 */
import type { RequestRecord } from '../src/core/gateway';
import { abortError, type Clock } from '../src/core/util/clock';
import { BackgroundScheduler } from '../src/core/scheduling/backgroundScheduler';
import type { RunRecord } from '../src/core/scheduling/jobs';
import { PLAN_UTILISATION } from '../src/core/scheduling/policy';
import { EventWatcher } from '../src/core/contracts/watching/eventWatcher';
import { eventKey } from '../src/core/contracts/watching/watcherTypes';
import { NodeStatusModel } from '../src/core/node/nodeStatusModel';
import { TxTracker } from '../src/core/transactions/txTracker';
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
const DAY = 24 * HOUR;
const FREE_MONTHLY = 100_000;
const SHARE = 0.5;
/** The pace's per-hour cap: the share over 120 hours (416.7 requests on Free). */
export const HOURLY_CAP = (FREE_MONTHLY * SHARE) / 120;
const EVENT_MEAN_GAP_MS = 10 * 60_000;
const VISIBLE_FROM = 9 * HOUR;
const VISIBLE_TO = 17 * HOUR;
const SENDS_AT = [10 * HOUR, 11.5 * HOUR, 14 * HOUR, 16 * HOUR];
const CALLS_AT = Array.from({ length: 12 }, (_, i) => 9.25 * HOUR + i * 0.6 * HOUR);

class VirtualTimers implements Timers {
  time = Date.UTC(2025, 5, 10);
  private nextId = 1;
  readonly pending = new Map<number, { due: number; callback: () => void }>();
  now(): number {
    return this.time;
  }
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.pending.set(id, { due: this.time + Math.max(0, ms), callback });
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
  /** The TxTracker's clock on the same virtual time. */
  clock(): Clock {
    return {
      now: () => this.time,
      sleep: (ms, signal) =>
        new Promise<void>((resolve, reject) => {
          if (signal?.aborted) return reject(abortError(signal));
          const id = this.setTimeout(resolve, ms);
          signal?.addEventListener('abort', () => {
            this.clearTimeout(id);
            reject(abortError(signal));
          });
        }),
    };
  }
}

export interface SessionRun {
  readonly contracts: number;
  /** Background requests per virtual hour of the day. */
  readonly backgroundPerHour: number[];
  /** What the pace allowed per hour at the start of each hour (the scheduler's plan). */
  readonly pacePerHour: number[];
  readonly userPerHour: number[];
  /** Contract interval at the end of the day (Node view hidden), ms. */
  readonly intervalMs: number;
  /** Longest gap between two polls of a contract, and that gap over the contract's interval. */
  readonly longestGapMs: number;
  readonly longestGapRatio: number;
  readonly triggered: number;
  readonly missed: number;
  readonly repeated: number;
  readonly tracked: { final: number; of: number };
  readonly freshness: string | undefined;
}

async function simulate(contracts: number, seed: number, transport: CountingTransport): Promise<SessionRun> {
  // One clock for the watcher and the chain: the blocks' timestamps are the virtual day's.
  const timers = new VirtualTimers();
  const sb = await sandbox({ clock: timers });
  let inFlight = 0;
  try {
    const addresses = counters(sb, contracts);
    const key = newKey(sb, 'enterprise', `session${contracts}`);
    const client = gatewayClient(
      sb,
      key,
      'enterprise',
      async (request) => {
        inFlight++;
        try {
          return await transport.send(request);
        } finally {
          inFlight--;
        }
      },
      { perSecond: 1_000_000, perMonth: 1_000_000_000 },
    );
    const t0 = timers.time;
    const scheduler = new BackgroundScheduler({
      timers,
      budget: { monthlyLimit: FREE_MONTHLY, share: SHARE },
    });
    scheduler.meter((charge) =>
      client.onRequest((r) => {
        if (r.priority === 'background') charge();
      }),
    );
    const backgroundPerHour = new Array<number>(24).fill(0);
    const userPerHour = new Array<number>(24).fill(0);
    client.onRequest((r: RequestRecord) => {
      const h = Math.floor((timers.time - t0) / HOUR);
      if (h >= 24) return;
      const into = r.priority === 'background' ? backgroundPerHour : userPerHour;
      into[h] = (into[h] as number) + 1;
    });
    const runs: RunRecord[] = [];
    scheduler.onDidRun((r) => runs.push(r));
    const pacePerHour: number[] = [];

    // A session after a restart: the contracts were watched before, their cursors are stored (so the
    // first polls are staggered, and an event before a contract's first poll is still delivered).
    const store = memoryStore();
    for (const a of addresses) {
      let count = 0;
      try {
        count = sb.chain.eventCount(a);
      } catch {
        // Never emitted: the node answers 404, i.e. a count of 0.
      }
      store.set(`alephium.eventCursor.${a}`, {
        nextStart: count,
        lastCount: count,
        seen: [],
        pending: false,
      });
    }
    const watcher = new EventWatcher({
      client,
      store,
      timers,
      backlog: 0,
      intervalMs: 0,
      budget: { monthlyLimit: FREE_MONTHLY, share: SHARE },
      scheduler,
    });
    const delivered: string[] = [];
    watcher.onEvents((e) => {
      for (const ev of e.events) delivered.push(`${e.address}|${eventKey(ev)}`);
    });
    for (const a of addresses) watcher.watch(a);
    if (process.env.BENCH_DEBUG) {
      watcher.onError((e) =>
        log(`at ${((timers.time - t0) / 1000).toFixed(0)} s, ${e.address}: ${String(e.error)}`),
      );
      watcher.onWayChanged((w) => log(`at ${((timers.time - t0) / 1000).toFixed(0)} s: ${w.reason}`));
    }

    const node = new NodeStatusModel({ timers, scheduler: () => scheduler });
    node.setClient(client);
    const tracker = new TxTracker({ client, clock: timers.clock(), options: { requiredConfirmations: 1 } });
    const outcomes: Promise<{ kind: string }>[] = [];

    // The day's script: events, the Node view, user actions, blocks for the sends.
    type Step = { at: number; run: () => Promise<void> | void };
    const steps: Step[] = [];
    const random = seededRandom(seed * 7919 + contracts);
    const triggeredTx = new Set<string>();
    const triggeredAt = new Map<string, number>();
    /** Per contract, when its last event came and when it was last polled. */
    const lastEventAt = new Map<string, number>();
    const lastPolledAt = new Map<string, number>();
    scheduler.onDidRun((r) => {
      if (r.kind === 'contract' && r.label) lastPolledAt.set(r.label, r.startedAt);
    });
    for (const address of addresses) {
      for (let t = 0; ;) {
        t += -Math.log(1 - random()) * EVENT_MEAN_GAP_MS;
        if (t >= DAY) break;
        steps.push({
          at: t0 + Math.round(t),
          run: () => {
            const c = sb.chain.contracts.get(address);
            if (!c) throw new Error('contract vanished');
            const caller = sb.chain.accounts[c.group]?.address as string;
            const txId = sb.chain.queueCall(c, 'increment', [], caller).tx.txId;
            triggeredTx.add(txId);
            triggeredAt.set(txId, timers.time);
            lastEventAt.set(address, timers.time);
            sb.chain.mine();
          },
        });
      }
    }
    steps.push({
      at: t0 + VISIBLE_FROM,
      run: () => {
        watcher.setFocused(true);
        node.setVisible(true);
      },
    });
    steps.push({
      at: t0 + VISIBLE_TO,
      run: () => {
        node.setVisible(false);
        watcher.setFocused(false);
      },
    });
    for (let h = 0; h < 24; h++)
      steps.push({ at: t0 + h * HOUR, run: () => void pacePerHour.push(scheduler.plan().hourlyShare) });
    for (const at of SENDS_AT) {
      steps.push({
        at: t0 + at,
        run: () => {
          const to = sb.accounts[1]?.address as string;
          const tx = sb.chain.fund(to, 10n ** 18n, 1);
          outcomes.push(tracker.track({ txId: tx.txId, submittedAt: timers.time }));
        },
      });
      // One block time later the transfer is mined.
      steps.push({ at: t0 + at + 16_000, run: () => void sb.chain.mine() });
    }
    for (const [i, at] of CALLS_AT.entries()) {
      steps.push({
        at: t0 + at,
        run: async () => {
          await client.getContractState(addresses[i % addresses.length] as string, { fresh: true });
        },
      });
    }
    steps.sort((a, b) => a.at - b.at);

    /** Lets every request started by the last step finish (loopback HTTP, real I/O). */
    const quiet = async (): Promise<void> => {
      for (let calm = 0; calm < 4;) {
        await new Promise<void>((r) => setImmediate(r));
        calm = inFlight === 0 ? calm + 1 : 0;
      }
    };

    watcher.setFocused(false);
    watcher.start();
    // After the day, run on until every contract was polled after its last event, so each event can be
    // seen (bounded: six of the longest intervals).
    let drainUntil = Infinity;
    const drained = () =>
      addresses.every((a) => (lastPolledAt.get(a) ?? -Infinity) > (lastEventAt.get(a) ?? -Infinity));
    let next = 0;
    for (let guard = 0; guard < 5_000_000; guard++) {
      const timer = timers.earliest();
      const step = steps[next];
      const stepAt = step?.at ?? Infinity;
      const timerAt = timer?.[1].due ?? Infinity;
      if (Math.min(stepAt, timerAt) > t0 + DAY && drainUntil === Infinity)
        drainUntil = t0 + DAY + watcher.intervalMs * 6;
      if (Math.min(stepAt, timerAt) > drainUntil || (drainUntil < Infinity && drained())) break;
      if (step && stepAt <= timerAt) {
        next++;
        timers.time = Math.max(timers.time, stepAt);
        await step.run();
      } else if (timer) {
        timers.time = Math.max(timers.time, timerAt);
        timers.pending.delete(timer[0]);
        timer[1].callback();
      } else break;
      await quiet();
    }
    const intervalMs = watcher.intervalMs;
    const freshness = watcher.explanation();
    const finals = (await Promise.all(outcomes)).filter((o) => o.kind === 'final').length;
    watcher.dispose();
    node.dispose();
    tracker.dispose();
    scheduler.dispose();
    client.dispose();

    // Gaps between two checks of the same contract, against the interval in force at either end. A scan
    // of the chain's new blocks checks every watched contract at once (their own polls are then a
    // safety net), so its runs count as a check of each.
    let longestGapMs = 0;
    let longestGapRatio = 0;
    const last = new Map<string, RunRecord>();
    const labels = [...new Set(runs.filter((r) => r.kind === 'contract' && r.label).map((r) => r.label))];
    const checks = runs.flatMap((r) =>
      r.kind === 'scan' ? labels.map((label) => ({ ...r, kind: 'contract', label })) : [r],
    );
    for (const r of checks) {
      if (r.kind !== 'contract' || !r.label) continue;
      const prev = last.get(r.label);
      if (prev) {
        const gap = r.startedAt - prev.startedAt;
        const ratio = gap / Math.max(prev.intervalMs, r.intervalMs);
        if (ratio > longestGapRatio) {
          longestGapRatio = ratio;
          if (process.env.BENCH_DEBUG)
            log(
              `gap ${r.label.slice(0, 6)} ${((prev.startedAt - t0) / 1000).toFixed(0)}→${((r.startedAt - t0) / 1000).toFixed(0)} s, ` +
                `intervals ${prev.intervalMs / 1000}/${r.intervalMs / 1000} s, ratio ${ratio.toFixed(2)}`,
            );
        }
        if (gap > longestGapMs) longestGapMs = gap;
      } else {
        // The first poll: staggered within one interval of the start.
        const ratio = (r.startedAt - t0) / r.intervalMs;
        if (ratio > longestGapRatio) {
          longestGapRatio = ratio;
          if (process.env.BENCH_DEBUG)
            log(`first ${r.label.slice(0, 6)} at ${(r.startedAt - t0) / 1000} s, ratio ${ratio.toFixed(2)}`);
        }
      }
      last.set(r.label, r);
    }
    const deliveredTx = new Map<string, number>();
    for (const d of delivered) {
      const txId = (d.split('|')[1] as string).split(':')[0] as string;
      deliveredTx.set(txId, (deliveredTx.get(txId) ?? 0) + 1);
    }
    let missed = 0;
    for (const txId of triggeredTx)
      if (!deliveredTx.has(txId)) {
        missed++;
        if (process.env.BENCH_DEBUG)
          log(`missed ${txId} triggered at +${((triggeredAt.get(txId) ?? 0) - t0) / 1000} s`);
      }
    let repeated = 0;
    for (const n of deliveredTx.values()) if (n > 1) repeated += n - 1;
    return {
      contracts,
      backgroundPerHour,
      pacePerHour,
      userPerHour,
      intervalMs,
      longestGapMs,
      longestGapRatio,
      triggered: triggeredTx.size,
      missed,
      repeated,
      tracked: { final: finals, of: outcomes.length },
      freshness,
    };
  } finally {
    await sb.close();
  }
}

/**
 * The working hours after the first (10:00–17:00), each against what the pace planned for it: the share
 * is used while the person works.
 */
const workingUse = (r: SessionRun) =>
  r.backgroundPerHour.slice(10, 17).map((n, i) => n / (PLAN_UTILISATION * (r.pacePerHour[10 + i] as number)));

export async function sessionBench(
  seeds: readonly number[],
): Promise<{ figures: Figure[]; raw: SessionRun[] }> {
  const transport = countingTransport();
  const raw: SessionRun[] = [];
  const figures: Figure[] = [];
  try {
    for (const contracts of process.env.BENCH_CONTRACTS
      ? [Number(process.env.BENCH_CONTRACTS)]
      : [1, 10, 50]) {
      const runs: SessionRun[] = [];
      for (const seed of seeds) {
        const started = Date.now();
        const r = await simulate(contracts, seed, transport);
        const day = r.backgroundPerHour.reduce((a, b) => a + b, 0);
        log(
          `session ${contracts} contract(s), seed ${seed}: background/h max ${Math.max(...r.backgroundPerHour)} ` +
            `min ${Math.min(...r.backgroundPerHour)} first ${r.backgroundPerHour[0]}, day ${day} ` +
            `(user ${r.userPerHour.reduce((a, b) => a + b, 0)}), interval ${Math.round(r.intervalMs / 1000)} s, ` +
            `longest gap ${Math.round(r.longestGapMs / 1000)} s (${r.longestGapRatio.toFixed(2)} × interval), ` +
            `events ${r.triggered} missed ${r.missed} repeated ${r.repeated}, tracked ${r.tracked.final}/${r.tracked.of} ` +
            `in ${((Date.now() - started) / 1000).toFixed(1)} s`,
        );
        runs.push(r);
      }
      raw.push(...runs);
      const b = `session ${contracts}c + Node view`;
      figures.push(
        figure(
          b,
          'background requests, busiest hour',
          'req',
          runs.map((r) => Math.max(...r.backgroundPerHour)),
          {
            target: `<= ${HOURLY_CAP.toFixed(1)} (the per-hour cap, Free 50 %)`,
            met: (s) => s.max <= HOURLY_CAP,
          },
        ),
        figure(
          b,
          'background requests, first hour',
          'req',
          runs.map((r) => r.backgroundPerHour[0] as number),
          {
            target: "<= the pace's hour",
            met: () => runs.every((r) => (r.backgroundPerHour[0] as number) <= (r.pacePerHour[0] as number)),
            note: `pace ${runs.map((r) => (r.pacePerHour[0] as number).toFixed(0)).join('/')}/h`,
          },
        ),
        figure(
          b,
          'working hours: background requests / what the pace plans (quietest)',
          'ratio',
          runs.map((r) => Math.min(...workingUse(r))),
          { target: '>= 0.8', met: (s) => s.min >= 0.8, note: '10:00–17:00, the window focused' },
        ),
        figure(
          b,
          'the day: background requests',
          'req',
          runs.map((r) => r.backgroundPerHour.reduce((a, c) => a + c, 0)),
          { note: 'focused 09:00–17:00, unfocused (4 × slower) otherwise; whole months: the month bench' },
        ),
        figure(
          b,
          'longest gap between two polls of a contract / its interval',
          'ratio',
          runs.map((r) => r.longestGapRatio),
          {
            target: '<= 1.25',
            met: (s) => s.max <= 1.25,
            note: `interval ${runs.map((r) => `${Math.round(r.intervalMs / 1000)} s`).join('/')}`,
          },
        ),
        figure(
          b,
          'events missed + repeated',
          'events',
          runs.map((r) => r.missed + r.repeated),
          { target: '0', met: (s) => s.max === 0, note: `of ${runs.map((r) => r.triggered).join('/')}` },
        ),
        figure(
          b,
          'tracked sends that reached 1 confirmation',
          '',
          runs.map((r) => r.tracked.final),
          { target: `${SENDS_AT.length}`, met: (s) => s.min === SENDS_AT.length },
        ),
      );
    }
  } finally {
    await transport.close();
  }
  return { figures, raw };
}
