/**
 * A gateway that misbehaves on purpose: a small HTTP server on 127.0.0.1 (not the sandbox) answers each
 * route in a hostile way. The client must not hang, flood memory, leak the key or pass control
 * characters on, and must say what happened.
 */
import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  GatewayClient,
  QuotaExhaustedError,
  ResponseTooLargeError,
  SchemaError,
  ValidationError,
} from '../../../src/core/gateway';

const KEY = 'hostile-test-key-0123456789';
const VERSION = JSON.stringify({ version: 'v4.6.0' });

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

describe('gateway client against a hostile gateway', () => {
  let server: http.Server;
  let baseUrl: string;
  let handler: Handler;
  const clients: GatewayClient[] = [];

  before(async () => {
    server = http.createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.dispose();
  });

  function client(options: { maxBodyBytes?: number } = {}): GatewayClient {
    const c = new GatewayClient({
      profile: { kind: 'gateway', baseUrl, slug: 'hostile', network: 'devnet', plan: 'pro' },
      keyProvider: () => KEY,
      retry: { maxServerRetries: 0, maxNetworkRetries: 0, maxRateLimitRetries: 2 },
      timeoutMs: 5_000,
      ...options,
    });
    clients.push(c);
    return c;
  }

  async function failure(p: Promise<unknown>): Promise<Error> {
    try {
      await p;
    } catch (e) {
      return e as Error;
    }
    throw new Error('expected a failure');
  }

  it('ignores a rate-limit reset far in the future (milliseconds sent as seconds) instead of freezing', async () => {
    let calls = 0;
    handler = (_req, res) => {
      calls++;
      // remaining 0 with a reset ~55 years ahead: the old client held every request until then.
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-ratelimit-limit': '100',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(Date.now()),
      });
      res.end(VERSION);
    };
    const c = client();
    await c.getVersion({ fresh: true });
    const started = Date.now();
    await c.getVersion({ fresh: true });
    assert.ok(Date.now() - started < 2_000, `the second request waited ${Date.now() - started} ms`);
    assert.equal(calls, 2);
  });

  it('fails at once with "monthly quota used up until <date>" when the 429 says the month is used up', async () => {
    let calls = 0;
    handler = (_req, res) => {
      calls++;
      res.writeHead(429, {
        'content-type': 'application/json',
        'x-ratelimit-limit': '5',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 20 * 86_400),
      });
      res.end(
        JSON.stringify({ detail: 'API rate limit exceeded: monthly quota of 100000 requests is used up' }),
      );
    };
    const started = Date.now();
    const error = await failure(client().getVersion({ fresh: true }));
    assert.ok(error instanceof QuotaExhaustedError, String(error));
    assert.match(error.message, /monthly quota used up until \d{4}-\d\d-01/);
    assert.equal(calls, 1, 'no retry: waiting would take days');
    assert.ok(Date.now() - started < 2_000);
  });

  it('sends nothing more once the quota is known to be used up: background polling pauses, users are told', async () => {
    let calls = 0;
    handler = (_req, res) => {
      calls++;
      res.writeHead(429, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: 'monthly quota of 100000 requests is used up' }));
    };
    const c = client();
    const announced: number[] = [];
    c.onQuotaExhausted(({ until }) => announced.push(until));
    await failure(c.getVersion({ fresh: true }));
    const background = await failure(c.getChainParams({ priority: 'background', fresh: true }));
    assert.ok(background instanceof QuotaExhaustedError, String(background));
    assert.equal(calls, 1, 'the background request was not sent');
    assert.equal(announced.length, 1);
  });

  it("stops background polling at the plan's monthly limit by its own count; a user request still asks, and an answer proves the count wrong", async () => {
    let calls = 0;
    handler = (_req, res) => {
      calls++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(VERSION);
    };
    const c = new GatewayClient({
      profile: {
        kind: 'gateway',
        baseUrl,
        slug: 'hostile',
        network: 'devnet',
        plan: 'pro',
        limits: { perMonth: 2 },
      },
      keyProvider: () => KEY,
    });
    clients.push(c);
    await c.getVersion({ fresh: true });
    await c.getVersion({ fresh: true });
    const background = await failure(c.getChainParams({ priority: 'background', fresh: true }));
    assert.match(background.message, /monthly quota used up until \d{4}-\d\d-01/);
    assert.equal(calls, 2, 'background sends nothing past the count');
    // The user's request is sent: the gateway answers, so the month is not used up after all.
    await c.getVersion({ fresh: true });
    assert.equal(calls, 3);
    assert.equal(c.quotaExhaustedUntil, undefined);
    await c.getVersion({ priority: 'background', fresh: true });
    assert.equal(calls, 4, 'the count, contradicted by the gateway, no longer holds background back');
  });

  it('stops reading a body that never ends, past the cap, without growing memory', async function () {
    this.timeout(20_000);
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (res.write(chunk));
      };
      res.on('drain', pump);
      res.on('close', () => res.off('drain', pump));
      res.write('{"version":"');
      pump();
    };
    const before = process.memoryUsage().rss;
    const error = await failure(client({ maxBodyBytes: 4 * 1024 * 1024 }).getVersion({ fresh: true }));
    const grown = process.memoryUsage().rss - before;
    assert.ok(error instanceof ResponseTooLargeError, String(error));
    assert.match(error.message, /larger than 4096 KB/);
    assert.ok(grown < 64 * 1024 * 1024, `RSS grew by ${Math.round(grown / 1024 / 1024)} MB`);
  });

  it('refuses a body whose Content-Length is over the cap without reading it', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) });
      res.write('{');
      // Never sends the rest: the client must not wait for it.
    };
    const error = await failure(client({ maxBodyBytes: 1024 * 1024 }).getVersion({ fresh: true }));
    assert.ok(error instanceof ResponseTooLargeError, String(error));
  });

  it('cuts a huge detail, strips control characters and masks an echoed key, in the error itself', async () => {
    const hostile = `bad key ${KEY}\u001b[31m red \r\nFAKE LOG LINE\u0000 \u202eevil ${'x'.repeat(5 * 1024 * 1024)}`;
    handler = (_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: hostile }));
    };
    const error = await failure(client().getVersion({ fresh: true }));
    assert.ok(error.message.length < 3_000, `message of ${error.message.length} characters`);
    assert.ok(!error.message.includes(KEY), 'the key the server echoed must be masked');
    assert.doesNotMatch(error.message, /[\u0000-\u001f\u007f\u202e]/, 'no control or bidi characters');
    assert.match(error.message, /red +FAKE LOG LINE +evil/, 'the text survives, on one line');
  });

  it('says a 3xx is a redirect that is not followed, not a request to fix', async () => {
    let calls = 0;
    handler = (_req, res) => {
      calls++;
      res.writeHead(302, { location: 'http://127.0.0.2:1/steal' });
      res.end();
    };
    const error = await failure(client().getVersion({ fresh: true }));
    assert.match(error.message, /HTTP 302\. The gateway redirected; redirects are not followed/);
    assert.equal(calls, 1);
  });

  it('refuses a non-boolean mempool option before any request', async () => {
    let calls = 0;
    handler = (_req, res) => {
      calls++;
      res.end('{}');
    };
    const address = '1DrDyTr9RpRsQnDnXo2YRiPzPW4ooHX5LLoqXrqfMrpQH';
    const error = await failure(
      client().getAddressBalance(address, { mempool: 'true&x=1' as unknown as boolean }),
    );
    assert.ok(error instanceof ValidationError, String(error));
    assert.equal(calls, 0);
  });

  it('refuses an event page holding more events than the limit asked for, with a clear error', async () => {
    const CONTRACT = '22fnZLkZJUSyhXgboirmJktWkEBRk1pV8L6gfpc53hvVM';
    let size = 0;
    handler = (_req, res) => {
      const event = {
        blockHash: '00'.repeat(32),
        txId: '11'.repeat(32),
        contractAddress: CONTRACT,
        eventIndex: 0,
        fields: [],
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ events: Array.from({ length: size }, () => event), nextStart: size }));
    };
    const c = client();
    size = 10_000;
    const long = await failure(c.getContractEvents(CONTRACT, { start: 0, limit: 100 }));
    assert.ok(long instanceof SchemaError, String(long));
    assert.match(long.message, /the page holds 10000 events, more than the 100 asked for/);
    size = 101;
    const noLimit = await failure(c.getContractEvents(CONTRACT, { start: 0 }, { fresh: true }));
    assert.match(noLimit.message, /more than the 100 asked for/, 'no limit means the spec maximum');
    size = 5;
    const over = await failure(c.getContractEvents(CONTRACT, { start: 0, limit: 4 }, { fresh: true }));
    assert.match(over.message, /the page holds 5 events, more than the 4 asked for/);
    assert.equal(
      (await c.getContractEvents(CONTRACT, { start: 0, limit: 5 }, { fresh: true })).events.length,
      5,
    );
  });

  it('can be disposed twice without an unhandled rejection', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(VERSION);
    };
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const c = client();
      await c.getVersion({ fresh: true });
      c.dispose();
      c.dispose();
      // Let the transport's close settle (bounded: a few event-loop turns).
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    } finally {
      process.off('unhandledRejection', onRejection);
    }
    assert.deepEqual(rejections, []);
  });
});
