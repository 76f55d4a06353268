/**
 * Rate-limit behaviour and user-action latency on a Free key (5 requests/s): one GatewayClient shared by
 * an EventWatcher polling 20 watched contracts (real timers, every contract at the 16 s floor on a
 * scheduler without a monthly budget, as on a node profile: the heaviest background load there is,
 * events arriving every second) and user actions.
 *
 * User actions are single commands at random moments (a Poisson process, one every 1.2 s on average,
 * about what a hurried user clicks): a tx status, a contract state, a balance, all distinct so that
 * neither the cache nor in-flight sharing absorbs them. Latency is measured as the issue asks, from the
 * command to the first byte sent (the transport's send being called for that action's URL), and also to
 * the answer. Then two bursts of 10 at once stress the pacing (a user action queued behind nine others
 * measures the plan's 5/s, not priority); their latencies are reported separately.
 *
 * The gateway rejects, never queues, requests over the limit, so the client has to pace itself: the
 * target is zero 429s in the sandbox's own request log.
 */
import type { GatewayClient, Transport } from '../src/core/gateway';
import { BackgroundScheduler } from '../src/core/scheduling/backgroundScheduler';
import { EventWatcher } from '../src/core/contracts/watching/eventWatcher';
import {
  countingTransport,
  counters,
  gatewayClient,
  memoryStore,
  newKey,
  requestsOfKey,
  sandbox,
  trigger,
} from './lib/sandbox';
import { figure, log, quantile, median, seededRandom, sleep, type Figure } from './lib/stats';

const CONTRACTS = 20;
/** Single actions run for 32 s, then two bursts stress the pacing (user against user is not measured as latency). */
const SINGLES_MS = 32_000;
const SESSION_MS = 42_000;
const ACTION_MEAN_GAP_MS = 1_200;
const BURSTS_AT_MS = [33_000, 37_000];
const ACTIONS_PER_BURST = 10;

export interface RateLimitRun {
  readonly requests: number;
  readonly rejected429: number;
  readonly background: number;
  readonly user: number;
  /** Single actions: command to first byte sent. */
  readonly actionSentMedianMs: number;
  readonly actionSentP95Ms: number;
  readonly actionSentMaxMs: number;
  /** Single actions: command to answer. */
  readonly actionMedianMs: number;
  readonly actionP95Ms: number;
  readonly actions: number;
  /** Bursts of 10 at once: command to first byte sent. */
  readonly burstSentMedianMs: number;
  readonly burstSentP95Ms: number;
  readonly failedActions: number;
  readonly densestSecond: number;
  readonly eventsDelivered: number;
}

interface Action {
  readonly match: string;
  readonly run: () => Promise<unknown>;
}

function userAction(
  client: GatewayClient,
  i: number,
  addresses: readonly string[],
  accounts: readonly string[],
): Action {
  const hex = (n: number) => n.toString(16).padStart(64, '0');
  const contract = addresses[i % addresses.length] as string;
  const account = accounts[i % accounts.length] as string;
  switch (i % 3) {
    case 0: {
      const txId = hex(0xbe00 + i);
      return {
        match: txId,
        run: () => client.getTxStatus(txId, { fromGroup: i % 4, toGroup: (i >> 2) % 4 }),
      };
    }
    case 1:
      return {
        match: `/contracts/${contract}/state`,
        run: () => client.getContractState(contract, { fresh: true }),
      };
    default:
      return {
        match: `/addresses/${account}/balance`,
        run: () => client.getAddressBalance(account, { fresh: true }),
      };
  }
}

/** Wraps a transport to tell when the request of a pending action leaves (its first byte is sent). */
function departures(inner: Transport): {
  transport: Transport;
  expect(match: string): Promise<number>;
} {
  const pending: { match: string; resolve: (t: number) => void }[] = [];
  return {
    transport: (request) => {
      const i = pending.findIndex((p) => request.url.includes(p.match));
      if (i >= 0) pending.splice(i, 1)[0]?.resolve(performance.now());
      return inner(request);
    },
    expect: (match) => new Promise<number>((resolve) => pending.push({ match, resolve })),
  };
}

async function once(seed: number): Promise<RateLimitRun> {
  const sb = await sandbox();
  const counting = countingTransport();
  try {
    const addresses = counters(sb, CONTRACTS);
    const key = newKey(sb, 'free', `ratelimit${seed}`);
    const dep = departures(counting.send);
    const client = gatewayClient(sb, key, 'free', dep.transport);
    const records: { priority: string }[] = [];
    client.onRequest((r) => records.push(r));
    // No monthly budget: on a Free key the month's pace would keep polling far below this load.
    const scheduler = new BackgroundScheduler();
    const watcher = new EventWatcher({
      client,
      store: memoryStore(),
      scheduler,
      intervalMs: 16_000,
      backlog: 0,
    });
    let eventsDelivered = 0;
    watcher.onEvents((e) => (eventsDelivered += e.events.length));
    for (const a of addresses) watcher.watch(a);
    const random = seededRandom(seed);
    const eventTimer = setInterval(() => {
      trigger(sb, addresses[Math.floor(random() * addresses.length)] as string);
    }, 1_000);
    const accounts = sb.accounts.map((a) => a.address);

    const started = Date.now();
    watcher.start();
    const sent: number[] = [];
    const answered: number[] = [];
    const burstSent: number[] = [];
    let failedActions = 0;
    let n = 0;
    const act = async (into: number[], withAnswer: boolean): Promise<void> => {
      const i = n++;
      const action = userAction(client, i, addresses, accounts);
      const t = performance.now();
      const left = dep.expect(action.match);
      try {
        await action.run();
        into.push((await left) - t);
        if (withAnswer) answered.push(performance.now() - t);
      } catch (error) {
        failedActions++;
        log(`rate-limit: user action ${i} failed: ${String(error)}`);
      }
    };
    const singles = (async () => {
      const all: Promise<void>[] = [];
      // Let the watcher's first round start, as a session would be under way.
      await sleep(2_000);
      while (Date.now() - started < SINGLES_MS) {
        all.push(act(sent, true));
        await sleep(-Math.log(1 - random()) * ACTION_MEAN_GAP_MS);
      }
      await Promise.all(all);
    })();
    const bursts = BURSTS_AT_MS.map(async (at) => {
      await sleep(at);
      await Promise.all(Array.from({ length: ACTIONS_PER_BURST }, () => act(burstSent, false)));
    });
    await Promise.all([singles, ...bursts]);
    await sleep(Math.max(0, SESSION_MS - (Date.now() - started)));
    clearInterval(eventTimer);
    watcher.dispose();
    scheduler.dispose();
    client.dispose();

    const served = requestsOfKey(sb, key);
    const times = served.map((r) => r.time).sort((a, b) => a - b);
    let densest = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while ((times[i] as number) - (times[j] as number) >= 1000) j++;
      densest = Math.max(densest, i - j + 1);
    }
    return {
      requests: served.length,
      rejected429: served.filter((r) => r.status === 429).length,
      background: records.filter((r) => r.priority === 'background').length,
      user: records.filter((r) => r.priority === 'user').length,
      actionSentMedianMs: median(sent),
      actionSentP95Ms: quantile(sent, 0.95),
      actionSentMaxMs: Math.max(...sent),
      actionMedianMs: median(answered),
      actionP95Ms: quantile(answered, 0.95),
      actions: sent.length,
      burstSentMedianMs: median(burstSent),
      burstSentP95Ms: quantile(burstSent, 0.95),
      failedActions,
      densestSecond: densest,
      eventsDelivered,
    };
  } finally {
    await counting.close();
    await sb.close();
  }
}

export async function rateLimitBench(runs: number): Promise<{ figures: Figure[]; raw: RateLimitRun[] }> {
  const raw: RateLimitRun[] = [];
  for (let i = 1; i <= runs; i++) {
    const r = await once(i);
    log(
      `rate-limit run ${i}: ${r.requests} requests (${r.background} background, ${r.user} user), ` +
        `${r.rejected429} × 429, ${r.actions} actions: first byte median ${r.actionSentMedianMs.toFixed(0)} ms ` +
        `p95 ${r.actionSentP95Ms.toFixed(0)} ms max ${r.actionSentMaxMs.toFixed(0)} ms, answer median ` +
        `${r.actionMedianMs.toFixed(0)} ms p95 ${r.actionP95Ms.toFixed(0)} ms; bursts: first byte median ` +
        `${r.burstSentMedianMs.toFixed(0)} ms p95 ${r.burstSentP95Ms.toFixed(0)} ms; ` +
        `densest 1 s window ${r.densestSecond}, failed ${r.failedActions}`,
    );
    raw.push(r);
  }
  const b = 'rate limit (Free)';
  const figures = [
    figure(
      b,
      `429 responses (server log), 20 contracts at 16 s + actions`,
      '',
      raw.map((r) => r.rejected429),
      { target: '0', met: (s) => s.max === 0 },
    ),
    figure(
      b,
      'requests per session (42 s)',
      'req',
      raw.map((r) => r.requests),
    ),
    figure(
      b,
      'densest sliding 1 s window',
      'req',
      raw.map((r) => r.densestSecond),
      { target: '<= 5', met: (s) => s.max <= 5 },
    ),
    figure(
      b,
      'user action, command to first byte sent, median',
      'ms',
      raw.map((r) => r.actionSentMedianMs),
      { target: '< 300', met: (s) => s.max < 300, note: 'single commands, one every 1.2 s on average' },
    ),
    figure(
      b,
      'user action, command to first byte sent, p95',
      'ms',
      raw.map((r) => r.actionSentP95Ms),
      { target: '< 1,000', met: (s) => s.max < 1000 },
    ),
    figure(
      b,
      'user action, command to answer, median',
      'ms',
      raw.map((r) => r.actionMedianMs),
    ),
    figure(
      b,
      'user action, command to answer, p95',
      'ms',
      raw.map((r) => r.actionP95Ms),
    ),
    figure(
      b,
      'burst of 10 actions at once, first byte sent, median',
      'ms',
      raw.map((r) => r.burstSentMedianMs),
      { note: 'at 5/s the 10th request cannot leave before about 1.8 s' },
    ),
    figure(
      b,
      'user actions failed',
      '',
      raw.map((r) => r.failedActions),
      { target: '0', met: (s) => s.max === 0 },
    ),
  ];
  return { figures, raw };
}
