/**
 * Burst benchmark: 200 user requests at once, plus background polling, against a Free key (5 requests/s)
 * on the in-process sandbox gateway. The gateway rejects (never queues) requests over the limit, so the
 * client must pace itself: the run passes with zero 429 responses and all 200 answered, in a wall time
 * close to the 40 s lower bound (200 requests / 5 per second).
 *
 * Run by `npm run bench` (or `npm run bench -- --only burst`).
 */
import { GatewayClient, createUndiciTransport, type RequestRecord } from '../src/core/gateway';
import { startSandbox } from '../sandbox';
import { sandboxProfile } from '../sandbox/testing/helpers';
import { figure, log, type Figure } from './lib/stats';

const USER_REQUESTS = 200;
const POLL_EVERY_MS = 2_000;
/** The Free plan's 5 requests a second make 200 requests take at least this long. */
const LOWER_BOUND_MS = (USER_REQUESTS / 5) * 1000;

export interface BurstRun {
  answered: number;
  rejected429: number;
  wallMs: number;
  sent: number;
  userSent: number;
  backgroundSent: number;
  pollRounds: number;
  maxPerAlignedSecond: number;
  maxPerSlidingSecond: number;
}

export async function burstBench(runs: number): Promise<{ figures: Figure[]; raw: BurstRun[] }> {
  const raw: BurstRun[] = [];
  for (let i = 0; i < runs; i++) {
    const run = await burstOnce();
    log(
      `burst ${i + 1}/${runs}: ${run.figures.answered} answered, ${run.figures.rejected429} 429s, ${run.figures.wallMs} ms`,
    );
    for (const failure of run.failures) log(`  failure: ${failure}`);
    raw.push(run.figures);
  }
  const b = 'burst (Free, 200 at once)';
  return {
    raw,
    figures: [
      figure(
        b,
        '429 responses (server log), 200 user requests + polling',
        '',
        raw.map((r) => r.rejected429),
        {
          target: '0',
          met: (s) => s.max === 0,
        },
      ),
      figure(
        b,
        'user requests answered',
        '',
        raw.map((r) => r.answered),
        {
          target: `${USER_REQUESTS}`,
          met: (s) => s.min === USER_REQUESTS,
        },
      ),
      figure(
        b,
        'wall time for the 200',
        's',
        raw.map((r) => r.wallMs / 1000),
        {
          note: `lower bound ${LOWER_BOUND_MS / 1000} s (200 at 5/s)`,
        },
      ),
      figure(
        b,
        'most requests in any sliding 1 s (server log)',
        'req',
        raw.map((r) => r.maxPerSlidingSecond),
      ),
    ],
  };
}

async function burstOnce(): Promise<{ figures: BurstRun; failures: string[] }> {
  const sb = await startSandbox({ blockTimeMs: 1_000 });
  const transport = createUndiciTransport();
  const client = new GatewayClient({
    profile: sandboxProfile(sb, 'free'),
    keyProvider: () => sb.apiKeys.free,
    transport: transport.send,
  });
  const counter = sb.contracts.find((c) => c.name === 'Counter')?.address;
  if (!counter) throw new Error('sandbox has no Counter contract');

  const records: RequestRecord[] = [];
  client.onRequest((r) => records.push(r));
  sb.requests.length = 0;

  // Background polling, as the tree views do (faster than the spec's 16 s, to add pressure).
  let polling = true;
  let polls = 0;
  const poller = (async () => {
    while (polling) {
      await Promise.allSettled([
        client.getContractEventCount(counter, { priority: 'background' }),
        client.getSelfClique({ priority: 'background' }),
      ]);
      polls++;
      await new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS));
    }
  })();

  // 200 distinct user requests (distinct, so neither the cache nor in-flight sharing can absorb them):
  // transaction statuses and event pages, as a user clicking through the views would cause.
  const started = Date.now();
  const user = Array.from({ length: USER_REQUESTS }, (_, i) =>
    i % 2 === 0
      ? client.getTxStatus(i.toString(16).padStart(64, '0'), { fromGroup: i % 4, toGroup: (i >> 2) % 4 })
      : client.getContractEvents(counter, { start: i, limit: 1 + (i % 100) }),
  );
  const settled = await Promise.allSettled(user);
  const wallMs = Date.now() - started;
  polling = false;
  await poller;

  const answered = settled.filter((s) => s.status === 'fulfilled').length;
  const failures = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
  const served = sb.requests.filter((r) => r.path.startsWith(`/${sb.slug}/`));
  const rejected429 = served.filter((r) => r.status === 429).length;
  const times = served.map((r) => r.time).sort((a, b) => a - b);
  let densest = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while ((times[i] as number) - (times[j] as number) >= 1000) j++;
    densest = Math.max(densest, i - j + 1);
  }
  const alignedSeconds = new Map<number, number>();
  for (const t of times)
    alignedSeconds.set(Math.floor(t / 1000), (alignedSeconds.get(Math.floor(t / 1000)) ?? 0) + 1);
  client.dispose();
  await transport.close();
  await sb.close();
  return {
    figures: {
      answered,
      rejected429,
      wallMs,
      sent: served.length,
      userSent: records.filter((r) => r.priority === 'user').length,
      backgroundSent: records.filter((r) => r.priority === 'background').length,
      pollRounds: polls,
      maxPerAlignedSecond: Math.max(...alignedSeconds.values()),
      maxPerSlidingSecond: densest,
    },
    failures: failures.slice(0, 5).map((f) => String(f.reason)),
  };
}
