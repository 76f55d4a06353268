/**
 * Loopback throughput check: how many simple authenticated GETs per second the sandbox serves.
 * The sandbox runs in its own process (as under `npm start`), so the client does not share its event
 * loop. Bounded in count and time.
 *
 * Run: npx tsx bench/sandboxLoad.ts [--requests 20000] [--concurrency 32] [--seconds 15]
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import { createInterface } from 'node:readline';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

async function main(): Promise<void> {
  const total = arg('--requests', 20_000);
  const concurrency = arg('--concurrency', 32);
  const maxSeconds = arg('--seconds', 15);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', new URL('../sandbox/cli.ts', import.meta.url).pathname, '--block-time-ms', '1000'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
    const info = JSON.parse(line) as { baseUrl: string; slug: string };
    // Per-second plan limits would turn this into a 429 benchmark; an enterprise key has none to speak of.
    const keyRes = await fetch(`${info.baseUrl}/__sandbox/keys`, {
      method: 'POST',
      body: JSON.stringify({ plan: 'enterprise' }),
    });
    const { key } = (await keyRes.json()) as { key: string };
    const url = new URL(`${info.baseUrl}/${info.slug}/infos/version`);
    const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
    const get = () =>
      new Promise<number>((resolve, reject) => {
        const req = http.get(url, { agent, headers: { Authorization: `Bearer ${key}` } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
      });
    for (let i = 0; i < concurrency; i++) await get(); // warm up connections and JIT
    let sent = 0;
    let ok = 0;
    let failed = 0;
    const deadline = performance.now() + maxSeconds * 1000;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (sent < total && performance.now() < deadline) {
          sent++;
          if ((await get()) === 200) ok++;
          else failed++;
        }
      }),
    );
    const secs = (performance.now() - t0) / 1000;
    const rate = Math.round(ok / secs);
    console.log(
      JSON.stringify({
        requests: sent,
        ok,
        failed,
        seconds: Number(secs.toFixed(2)),
        requestsPerSecond: rate,
        concurrency,
      }),
    );
    agent.destroy();
    if (rate < 2000 || failed > 0) process.exitCode = 1;
  } finally {
    child.kill('SIGTERM');
  }
}

void main();
