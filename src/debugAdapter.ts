/**
 * The Ralph debug adapter on its own (`node dist/debugAdapter.js`): the Debug Adapter Protocol over stdin
 * and stdout, so any DAP client (another editor, a test) drives the project's VM with launch arguments
 * that carry what the run needs (an artifact and a source file, the method, its arguments, the fields).
 * Nothing here decides anything: `src/core/ralphDebug` answers every request.
 */
import { readFile } from 'node:fs/promises';
import { checkLaunchFileSize } from './core/ralphDebug/configKeys';
import { DapReader, RalphDebugAdapter, frameMessage } from './core/ralphDebug/dap';
import { debugLaunchOf } from './core/ralphDebug/launchConfig';

async function readText(path: string): Promise<string> {
  const bytes = await readFile(path);
  checkLaunchFileSize(path, bytes.length);
  return bytes.toString('utf8');
}

const adapter = new RalphDebugAdapter(
  (message) => process.stdout.write(frameMessage(message)),
  (args) => debugLaunchOf(args, { readText }),
);
let queue = Promise.resolve();
const reader = new DapReader((message) => {
  // One request at a time, in order: a step must not start before the launch before it has loaded.
  queue = queue
    .then(() => adapter.handle(message))
    .catch((error: unknown) => {
      process.stderr.write(`${(error as Error).message}\n`);
    });
});
process.stdin.on('data', (chunk: Buffer) => {
  try {
    reader.push(chunk);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
});
// A client that closes its end while an answer is being written has gone: nothing is left to say.
process.stdout.on('error', () => process.exit(0));
process.stdin.on('end', () => {
  void queue.then(() => process.exit(0));
});
