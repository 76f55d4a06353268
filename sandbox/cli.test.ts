import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

const MAIN = new URL('./cli.ts', import.meta.url).pathname;

function run(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { stdio: 'pipe' });
}

describe('sandbox CLI (npm run sandbox)', () => {
  it('prints exactly one JSON line first, serves, mines blocks, and exits on SIGTERM', async () => {
    const child = run(['--port', '0', '--block-time-ms', '50']);
    try {
      const lines = createInterface({ input: child.stdout });
      const [first] = (await once(lines, 'line')) as [string];
      const info = JSON.parse(first) as {
        baseUrl: string;
        slug: string;
        apiKeys: Record<string, string>;
        accounts: { privateKey: string; publicKey: string; address: string; group: number }[];
        contracts: { name: string; address: string; artifact: string }[];
      };
      assert.match(info.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.deepEqual(Object.keys(info.apiKeys).sort(), ['expired', 'free', 'pro', 'revoked', 'starter']);
      assert.deepEqual([...new Set(info.accounts.map((a) => a.group))].sort(), [0, 1, 2, 3]);
      assert.ok(
        info.accounts.every((a) => /^[0-9a-f]{64}$/.test(a.privateKey) && /^[0-9a-f]{66}$/.test(a.publicKey)),
      );
      assert.ok(info.contracts.length >= 2);
      assert.ok(info.contracts.every((c) => c.artifact.endsWith('.ral.json')));
      const h = { Authorization: `Bearer ${info.apiKeys.pro}` };
      const height = async () =>
        (
          (await (
            await fetch(`${info.baseUrl}/${info.slug}/blockflow/chain-info?fromGroup=0&toGroup=0`, {
              headers: h,
            })
          ).json()) as {
            currentHeight: number;
          }
        ).currentHeight;
      const h0 = await height();
      // Bounded polling: the block timer is what is under test here.
      const deadline = Date.now() + 5000;
      while ((await height()) <= h0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      assert.ok((await height()) > h0, 'blocks are mined on the --block-time-ms timer');
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      assert.equal(code, 0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('refuses unknown options with exit code 2', async () => {
    const child = run(['--bogus', '1']);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 2);
    assert.match(stderr, /unknown option/);
  });

  it('listens on the requested --port', async () => {
    // Find a free port first, then ask for it explicitly.
    const { createServer } = await import('node:net');
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const child = run(['--port', String(port), '--block-time-ms', '0']);
    try {
      const [first] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      assert.equal((JSON.parse(first) as { baseUrl: string }).baseUrl, `http://127.0.0.1:${port}`);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
});
