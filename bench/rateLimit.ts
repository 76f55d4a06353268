/**
 * Rate-limit behaviour on a Free key (5 requests/s): one GatewayClient shared by an EventWatcher polling
 * 20 watched contracts (real timers, 16 s interval, events arriving every second) and bursts of user
 * actions (tx statuses, event pages, contract states, balances, all distinct so that neither the cache
 * nor in-flight sharing absorbs them). The gateway rejects, never queues, requests over the limit, so
 * the client has to pace itself: the target is zero 429s in the sandbox's own request log.
 *
 * This absorbs bench/burst.ts (200 user requests at once against background polling): the same
 * measurements (429s from the server log, densest 1 s window) on the watched-contracts scenario.
 */
import type { GatewayClient } from '../src/core/gateway';
import { EventWatcher } from '../src/core/workflows/eventWatcher';
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
const SESSION_MS = 32_000;
const BURSTS_AT_MS = [1_000, 9_000, 16_500, 24_000];
const ACTIONS_PER_BURST = 10;

export interface RateLimitRun {
  readonly requests: number;
  readonly rejected429: number;
  readonly background: number;
  readonly user: number;
  readonly actionMedianMs: number;
  readonly actionP95Ms: number;
  readonly actionMaxMs: number;
  readonly failedActions: number;
  readonly densestSecond: number;
  readonly eventsDelivered: number;
}

function userAction(
  client: GatewayClient,
  i: number,
  addresses: readonly string[],
  accounts: readonly string[],
) {
  const hex = (n: number) => n.toString(16).padStart(64, '0');
  const contract = addresses[i % addresses.length] as string;
  switch (i % 4) {
    case 0:
      return client.getTxStatus(hex(0xbe00 + i), { fromGroup: i % 4, toGroup: (i >> 2) % 4 });
    case 1:
      return client.getContractEvents(contract, { start: i % 3, limit: 1 + (i % 50) });
    case 2:
      return client.getContractState(contract, { fresh: true });
    default:
      return client.getAddressBalance(accounts[i % accounts.length] as string, { fresh: true });
  }
}

async function once(seed: number): Promise<RateLimitRun> {
  const sb = await sandbox();
  const transport = countingTransport();
  try {
    const addresses = counters(sb, CONTRACTS);
    const key = newKey(sb, 'free', `ratelimit${seed}`);
    const client = gatewayClient(sb, key, 'free', transport.send);
    const records: { priority: string }[] = [];
    client.onRequest((r) => records.push(r));
    const watcher = new EventWatcher({ client, store: memoryStore(), intervalMs: 16_000, backlog: 0 });
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
    const latencies: number[] = [];
    let failedActions = 0;
    let n = 0;
    const bursts = BURSTS_AT_MS.map(async (at) => {
      await sleep(at);
      await Promise.all(
        Array.from({ length: ACTIONS_PER_BURST }, async () => {
          const i = n++;
          const t = performance.now();
          try {
            await userAction(client, i, addresses, accounts);
            latencies.push(performance.now() - t);
          } catch (error) {
            failedActions++;
            log(`rate-limit: user action ${i} failed: ${String(error)}`);
          }
        }),
      );
    });
    await Promise.all(bursts);
    await sleep(Math.max(0, SESSION_MS - (Date.now() - started)));
    clearInterval(eventTimer);
    watcher.dispose();
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
      actionMedianMs: median(latencies),
      actionP95Ms: quantile(latencies, 0.95),
      actionMaxMs: Math.max(...latencies),
      failedActions,
      densestSecond: densest,
      eventsDelivered,
    };
  } finally {
    await transport.close();
    await sb.close();
  }
}

export async function rateLimitBench(runs: number): Promise<{ figures: Figure[]; raw: RateLimitRun[] }> {
  const raw: RateLimitRun[] = [];
  for (let i = 1; i <= runs; i++) {
    const r = await once(i);
    log(
      `rate-limit run ${i}: ${r.requests} requests (${r.background} background, ${r.user} user), ` +
        `${r.rejected429} × 429, actions median ${r.actionMedianMs.toFixed(0)} ms p95 ${r.actionP95Ms.toFixed(0)} ms, ` +
        `densest 1 s window ${r.densestSecond}, failed ${r.failedActions}`,
    );
    raw.push(r);
  }
  const b = 'rate limit (Free)';
  const figures = [
    figure(
      b,
      `429 responses (server log), 20 contracts + ${BURSTS_AT_MS.length}×${ACTIONS_PER_BURST} actions`,
      '',
      raw.map((r) => r.rejected429),
      {
        target: '0',
        met: (s) => s.max === 0,
      },
    ),
    figure(
      b,
      'requests per session (32 s)',
      'req',
      raw.map((r) => r.requests),
    ),
    figure(
      b,
      'densest sliding 1 s window',
      'req',
      raw.map((r) => r.densestSecond),
      {
        target: '<= 5',
        met: (s) => s.max <= 5,
      },
    ),
    figure(
      b,
      'user action latency, median',
      'ms',
      raw.map((r) => r.actionMedianMs),
      {
        note: `bursts of ${ACTIONS_PER_BURST} at 5/s: ideal median ~1,000 ms`,
      },
    ),
    figure(
      b,
      'user action latency, p95',
      'ms',
      raw.map((r) => r.actionP95Ms),
      {
        note: 'ideal ~2,000 ms (10 requests at 5/s)',
      },
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
