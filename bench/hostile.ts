/**
 * Hostile input: how long the extension host is blocked by text and pages a malicious gateway or
 * workspace can send. Each case runs at the size the security review measured and at ten times that
 * size; linear code takes about ten times as long at the larger size (quadratic code took a hundred
 * times as long, or never finished). No sandbox: the cases call the core directly, and the big page is
 * answered by a small HTTP server on 127.0.0.1.
 *
 * - redact: `'secret'` followed by N spaces, through the log redactor (every log line runs it);
 * - vmError: `NotEnoughBalance(` followed by N characters, through the VM-failure parser;
 * - scanner: nested `Contract A() {` repeats, through the Ralph scanner;
 * - feed: N identical events added to an event feed at once;
 * - page: one event page of 10,000 events where 100 were asked for, through the gateway client.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseVmFailure } from '../src/core/debugging/vmError';
import { GatewayClient } from '../src/core/gateway';
import { scanRalph } from '../src/core/ralph/scanner';
import { Redactor } from '../src/core/util/redact';
import { EventFeed } from '../src/core/contracts/watching/eventFeed';
import { figure, type Figure } from './lib/stats';

const CONTRACT = '22fnZLkZJUSyhXgboirmJktWkEBRk1pV8L6gfpc53hvVM';

function timed(run: () => unknown): number {
  const t0 = performance.now();
  run();
  return performance.now() - t0;
}

function repeat(runs: number, run: () => unknown): number[] {
  return Array.from({ length: runs }, () => timed(run));
}

/** What the big page did: refused (with the client's message) or accepted (with the events taken). */
export interface PageOutcome {
  readonly ms: number;
  readonly accepted: number;
  readonly outcome: string;
}

async function bigPage(events: number, limit: number): Promise<PageOutcome> {
  const event = {
    blockHash: '00'.repeat(32),
    txId: '11'.repeat(32),
    contractAddress: CONTRACT,
    eventIndex: 0,
    fields: [{ type: 'U256', value: '1' }],
  };
  const body = JSON.stringify({ events: Array.from({ length: events }, () => event), nextStart: events });
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new GatewayClient({
    profile: { kind: 'gateway', baseUrl, slug: 'hostile', network: 'devnet', plan: 'pro' },
    keyProvider: () => 'hostile-bench-key-0123456789',
    retry: { maxServerRetries: 0, maxNetworkRetries: 0, maxRateLimitRetries: 0 },
  });
  try {
    // The connection and the lazy HTTP bundle are set up once, outside the measured request.
    await client.getContractEventCount(CONTRACT).catch(() => undefined);
    const t0 = performance.now();
    let outcome: string;
    let accepted = 0;
    try {
      const page = await client.getContractEvents(CONTRACT, { start: 0, limit }, { fresh: true });
      accepted = page.events.length;
      outcome = `accepted ${accepted} events`;
    } catch (error) {
      outcome = `refused (${error instanceof Error ? error.name : 'error'})`;
    }
    return { ms: performance.now() - t0, accepted, outcome };
  } finally {
    client.dispose();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export async function hostileBench(
  runs: number,
  scales: readonly number[] = [1, 10],
): Promise<{ figures: Figure[]; raw: Record<string, number[] | PageOutcome[]> }> {
  const bench = 'hostile input (core, one call)';
  const figures: Figure[] = [];
  const raw: Record<string, number[] | PageOutcome[]> = {};
  /** The review's size has a target; ten times it shows the growth (linear: about ten times as long). */
  const add = (key: string, name: string, values: number[], note: string, targetMs?: number) => {
    raw[key] = values;
    figures.push(
      figure(bench, name, 'ms', values, {
        note,
        ...(targetMs !== undefined ? { target: `< ${targetMs} ms`, met: (s) => s.max < targetMs } : {}),
      }),
    );
  };
  const redactor = new Redactor();
  for (const scale of scales) {
    const spaces = 40_000 * scale;
    const text = `secret${' '.repeat(spaces)}x`;
    add(
      `redact${scale}`,
      `redact 'secret' + ${spaces.toLocaleString('en-US')} spaces`,
      repeat(runs, () => redactor.redact(text)),
      scale === 1 ? 'review: 1.3 s before' : 'review: 160,000 did not finish in 10 s before',
      scale === 1 ? 50 : undefined,
    );
  }
  for (const scale of scales) {
    const chars = 40_000 * scale;
    const text = `NotEnoughBalance(${'a'.repeat(chars)}`;
    add(
      `vmError${scale}`,
      `parseVmFailure 'NotEnoughBalance(' + ${chars.toLocaleString('en-US')} characters`,
      repeat(runs, () => parseVmFailure(text)),
      scale === 1 ? 'review: 1.3 s before' : 'quadratic before',
      scale === 1 ? 50 : undefined,
    );
  }
  for (const scale of scales) {
    const depth = 26_000 * scale;
    const text = `${'Contract A() {\n'.repeat(depth)}  event E(x: U256)\n${'}\n'.repeat(depth)}`;
    add(
      `scanner${scale}`,
      `scanRalph ${Math.round(text.length / 1024).toLocaleString('en-US')} KB of nested contracts`,
      repeat(runs, () => scanRalph(text)),
      scale === 1 ? 'review: 391 KB took 3.9 s before' : 'quadratic before',
      scale === 1 ? 500 : undefined,
    );
  }
  for (const scale of scales) {
    const count = 2_000 * scale;
    const same = Array.from({ length: count }, () => ({
      txId: '22'.repeat(32),
      eventIndex: 0,
      fields: [{ type: 'U256', value: '1' }],
    }));
    add(
      `feed${scale}`,
      `EventFeed: ${count.toLocaleString('en-US')} identical events added`,
      repeat(runs, () =>
        new EventFeed(CONTRACT).setLatest({ events: same, nextStart: count, count, start: 0 }),
      ),
      scale === 1 ? 'review: 15.7 s before' : 'cubic before',
      scale === 1 ? 100 : undefined,
    );
  }
  const pages: PageOutcome[] = [];
  for (let r = 0; r < runs; r++) pages.push(await bigPage(10_000, 100));
  raw.page = pages;
  figures.push(
    figure(
      bench,
      'event page of 10,000 events for limit 100',
      'ms',
      pages.map((p) => p.ms),
      { note: `${pages[0]?.outcome ?? ''}; request, 1.4 MB body and refusal` },
    ),
    figure(
      bench,
      'events taken from that page',
      'events',
      pages.map((p) => p.accepted),
      { target: '0', met: (s) => s.max === 0 },
    ),
  );
  return { figures, raw };
}
