/**
 * `npm run sandbox -- [--port N] [--block-time-ms N] [--events-every-ms N]`
 *
 * Prints exactly one line of JSON (base URL, slug, API keys, funded test accounts, contracts) before
 * anything else, so scripts can read the first line and start talking to it; then serves until interrupted.
 */
import { startSandbox } from './http/server';

function parseArgs(argv: string[]): { port: number; blockTimeMs: number; eventsEveryMs: number } {
  const out = { port: 0, blockTimeMs: 1000, eventsEveryMs: 0 };
  const names: Record<string, keyof typeof out> = {
    '--port': 'port',
    '--block-time-ms': 'blockTimeMs',
    '--events-every-ms': 'eventsEveryMs',
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.includes('=') ? arg.split('=', 2) : [arg, undefined];
    const key = names[flag];
    if (!key) throw new Error(`unknown option ${arg}; expected --port, --block-time-ms or --events-every-ms`);
    const raw = inline ?? argv[++i];
    const n = Number(raw);
    if (raw === undefined || !Number.isInteger(n) || n < 0)
      throw new Error(`${flag} needs a non-negative integer`);
    out[key] = n;
  }
  return out;
}

async function main(): Promise<void> {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`sandbox: ${(e as Error).message}`);
    process.exit(2);
  }
  const sb = await startSandbox(args);
  const { baseUrl, slug, apiKeys, accounts, contracts } = sb;
  process.stdout.write(`${JSON.stringify({ baseUrl, slug, apiKeys, accounts, contracts })}\n`);
  const stop = () => {
    void sb.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // The server's timers are unref'd; this keeps the process serving until it is interrupted.
  setInterval(() => {}, 1 << 30);
}

void main();
