/**
 * Backfill of 10,000 events on one contract with the paging helpers (current-count, then nextStart pages
 * of 100 up to that count). Every Counter.increment also writes a hidden Debug event that takes a slot in
 * the counter, so the log has 10,000 gaps and nextStart is never start + limit.
 *
 * Minimum: 1 current-count + 100 pages of 100 = 101 requests. Rate-limit bound: 101 requests at 5/s on a
 * Free key is about 20 s (101 / 5 = 20.2 s); at 100/s on a Pro key about 1 s.
 */
import { fetchEventsFrom } from '../src/core/gateway';
import {
  countingTransport,
  counters,
  gatewayClient,
  newKey,
  requestsOfKey,
  sandbox,
  trigger,
  visibleEventTxIds,
} from './lib/sandbox';
import { figure, log, type Figure } from './lib/stats';

const EVENTS = 10_000;
const MIN_REQUESTS = 1 + EVENTS / 100;

export interface BackfillRun {
  readonly plan: 'free' | 'pro';
  readonly requests: number;
  readonly rejected429: number;
  readonly wallMs: number;
  readonly events: number;
  readonly missed: number;
  readonly repeated: number;
  readonly outOfOrder: number;
}

export async function backfillBench(
  freeRuns: number,
  proRuns: number,
): Promise<{ figures: Figure[]; raw: BackfillRun[]; gaps: number }> {
  const sb = await sandbox();
  const transport = countingTransport();
  const raw: BackfillRun[] = [];
  let gaps = 0;
  try {
    // A fresh Counter, so the log holds exactly the benchmark's events (plus their Debug gaps).
    const address = counters(sb, 2)[1] as string;
    for (let done = 0; done < EVENTS; done += 500) trigger(sb, address, Math.min(500, EVENTS - done));
    const truth = visibleEventTxIds(sb, address);
    const count = sb.chain.eventCount(address);
    gaps = count - truth.length;
    log(`backfill: ${truth.length} visible events, counter at ${count} (${gaps} hidden slots)`);
    if (truth.length !== EVENTS) throw new Error(`expected ${EVENTS} visible events, found ${truth.length}`);

    for (const [plan, runs] of [
      ['free', freeRuns],
      ['pro', proRuns],
    ] as const) {
      for (let i = 0; i < runs; i++) {
        const key = newKey(sb, plan, `backfill${i}`);
        const client = gatewayClient(sb, key, plan, transport.send);
        const started = performance.now();
        const total = await client.getContractEventCount(address);
        const slice = await fetchEventsFrom(client, address, 0, { until: total });
        const wallMs = performance.now() - started;
        client.dispose();
        const got = slice.events.map((e) => `${e.txId}:${e.eventIndex}`);
        const gotSet = new Set(got);
        const truthSet = new Set(truth);
        let outOfOrder = 0;
        for (let k = 0; k < Math.min(got.length, truth.length); k++) if (got[k] !== truth[k]) outOfOrder++;
        const served = requestsOfKey(sb, key);
        const run: BackfillRun = {
          plan,
          requests: served.length,
          rejected429: served.filter((r) => r.status === 429).length,
          wallMs,
          events: got.length,
          missed: truth.filter((t) => !gotSet.has(t)).length,
          repeated: got.length - gotSet.size,
          outOfOrder: outOfOrder + [...gotSet].filter((g) => !truthSet.has(g)).length,
        };
        log(
          `backfill ${plan} run ${i + 1}: ${run.requests} requests, ${run.rejected429} × 429, ` +
            `${(wallMs / 1000).toFixed(2)} s, ${run.events} events (missed ${run.missed}, repeated ${run.repeated})`,
        );
        raw.push(run);
      }
    }
  } finally {
    await transport.close();
    await sb.close();
  }
  const figures: Figure[] = [];
  for (const plan of ['free', 'pro'] as const) {
    const runs = raw.filter((r) => r.plan === plan);
    if (runs.length === 0) continue;
    const b = `backfill 10k (${plan === 'free' ? 'Free 5/s' : 'Pro 100/s'})`;
    const boundS = MIN_REQUESTS / (plan === 'free' ? 5 : 100);
    figures.push(
      figure(
        b,
        'requests (server log)',
        'req',
        runs.map((r) => r.requests),
        {
          target: `<= ${Math.floor(MIN_REQUESTS * 1.05)} (min ${MIN_REQUESTS} + 5 %)`,
          met: (s) => s.max <= MIN_REQUESTS * 1.05,
        },
      ),
      figure(
        b,
        'wall time',
        's',
        runs.map((r) => r.wallMs / 1000),
        {
          note: `rate-limit bound ${boundS.toFixed(1)} s`,
        },
      ),
      figure(
        b,
        'events missed + repeated + misordered',
        'events',
        runs.map((r) => r.missed + r.repeated + r.outOfOrder),
        {
          target: '0',
          met: (s) => s.max === 0,
        },
      ),
      figure(
        b,
        '429 responses',
        '',
        runs.map((r) => r.rejected429),
        { target: '0', met: (s) => s.max === 0 },
      ),
    );
  }
  return { figures, raw, gaps };
}
