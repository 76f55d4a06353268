/**
 * Burst benchmark: 200 user requests at once, plus background polling, against a Free key (5 requests/s)
 * on the in-process sandbox gateway. The gateway rejects (never queues) requests over the limit, so the
 * client must pace itself: the run passes with zero 429 responses and all 200 answered, in a wall time
 * close to the 40 s lower bound (200 requests / 5 per second).
 *
 * Run: npx tsx bench/burst.ts
 */
import { GatewayClient, createUndiciTransport, type RequestRecord } from '../src/core/gateway';
import { startSandbox } from '../sandbox';
import { sandboxProfile } from '../sandbox/testing/helpers';

const USER_REQUESTS = 200;
const POLL_EVERY_MS = 2_000;

async function main(): Promise<void> {
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
  const usage = await client.currentUsage();
  const lowerBoundMs = (USER_REQUESTS / 5) * 1000;

  const rows: [string, string][] = [
    ['user requests answered', `${answered} / ${USER_REQUESTS}`],
    ['requests sent (server log)', String(served.length)],
    ['  of which user', String(records.filter((r) => r.priority === 'user').length)],
    [
      '  of which background polling',
      `${records.filter((r) => r.priority === 'background').length} (${polls} poll rounds)`,
    ],
    ['429 responses', String(rejected429)],
    [
      'wall time for the 200',
      `${(wallMs / 1000).toFixed(2)} s (lower bound ${lowerBoundMs / 1000} s: ${((wallMs / lowerBoundMs) * 100).toFixed(1)}%)`,
    ],
    ['max per aligned server second', String(Math.max(...alignedSeconds.values()))],
    ['max in any sliding 1 s window', String(densest)],
    ['last headroom', JSON.stringify(client.headroom ?? null)],
    ['monthly usage (client count)', `${usage?.count ?? 0} / ${usage?.limit ?? '?'}`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log('Burst against a Free key (5 requests/s) on the sandbox gateway');
  for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
  for (const f of failures.slice(0, 5)) console.log(`  failure: ${String(f.reason)}`);
  if (process.env.BURST_TRACE) console.log(times.map((t) => t - (times[0] ?? 0)).join(' '));

  client.dispose();
  await transport.close();
  await sb.close();
  const pass = answered === USER_REQUESTS && rejected429 === 0;
  console.log(pass ? 'PASS: zero 429s, all 200 answered' : 'FAIL');
  process.exitCode = pass ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
