/**
 * `node dist/debugAdapter.js` speaks DAP over stdin and stdout to any client: the adapter is bundled as
 * the build bundles it (esbuild, one CommonJS file for Node) into a temporary folder, started as its own
 * process, and driven through the issue-31 journey. The process ends when its stdin closes.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { DapReader, frameMessage, type DapMessage } from '../../../src/core/ralphDebug/dap';
import { messageClient, runJourney, type DapClient } from '../../unit/ralphDebug/dapJourney';

const ROOT = join(import.meta.dirname, '..', '..', '..');

function processClient(child: ChildProcessWithoutNullStreams): DapClient {
  const { client, receive, wake } = messageClient(
    (request) => void child.stdin.write(frameMessage(request)),
    () => child.exitCode !== null,
  );
  const reader = new DapReader((m) => receive(m as DapMessage));
  child.stdout.on('data', (chunk: Buffer) => reader.push(chunk));
  child.on('exit', wake);
  return client;
}

describe('the standalone Ralph debug adapter (node dist/debugAdapter.js, DAP over stdio)', function () {
  this.timeout(60_000);
  const dir = mkdtempSync(join(tmpdir(), 'ralph-dap-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the journey as its own process and exits when its input ends', async () => {
    const outfile = join(dir, 'debugAdapter.js');
    await build({
      entryPoints: [join(ROOT, 'src', 'debugAdapter.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      outfile,
      logLevel: 'silent',
    });
    const child = spawn(process.execPath, [outfile], { stdio: 'pipe' });
    try {
      await runJourney(processClient(child));
      child.stdin.end();
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      assert.equal(code, 0);
    } finally {
      child.kill();
    }
  });
});
