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
import { runJourney, type DapClient } from '../../unit/ralphDebug/dapJourney';

const ROOT = join(import.meta.dirname, '..', '..', '..');

function processClient(child: ChildProcessWithoutNullStreams): DapClient {
  const received: DapMessage[] = [];
  const waiters: Array<() => void> = [];
  const reader = new DapReader((m) => {
    received.push(m as DapMessage);
    for (const w of waiters.splice(0)) w();
  });
  child.stdout.on('data', (chunk: Buffer) => reader.push(chunk));
  child.on('exit', () => {
    for (const w of waiters.splice(0)) w();
  });
  let seq = 1;
  let eventsRead = 0;
  const next = async (test: (m: DapMessage) => boolean, what: string): Promise<DapMessage> => {
    // Bounded: each wait ends with a message or the process's exit.
    for (let tries = 0; tries < 200; tries++) {
      const found = received.find(test);
      if (found) return found;
      if (child.exitCode !== null) break;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
    throw new Error(`no ${what} from the adapter`);
  };
  return {
    async request(command, args = {}) {
      const request = { seq: seq++, type: 'request', command, arguments: args };
      child.stdin.write(frameMessage(request));
      const response = await next((m) => m.type === 'response' && m.request_seq === request.seq, command);
      assert.equal(response.success, true, `${command}: ${String(response.message)}`);
      return response;
    },
    async event(name) {
      const events = () => received.filter((m) => m.type === 'event');
      const found = await next(
        (m) => m.type === 'event' && m.event === name && events().indexOf(m) >= eventsRead,
        name,
      );
      eventsRead = events().indexOf(found) + 1;
      return found;
    },
  };
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
