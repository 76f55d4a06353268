/**
 * `/blockflow/blocks-with-events` through the client: its schema refuses what a hostile gateway could send
 * (an address that is not a contract's, one too long to decode, more chains than there are, a bad hash),
 * and its range is read by the same split as `/blockflow/blocks`: halved on a 504 and on an answer over
 * the body cap, parts merged per chain in time order, within `blocksRangeMaxRequests`. A gateway that does
 * not forward the endpoint answers 404, which the caller must see as such to fall back.
 */
import assert from 'node:assert/strict';
import { GatewayHttpError, ResponseTooLargeError, SchemaError } from '../../../src/core/gateway/errors';
import type { RequestRecord } from '../../../src/core/gateway/client';
import type { TransportRequest, TransportResponse } from '../../../src/core/gateway/transport';
import {
  blocksRangeMaxRequests,
  readBlocksWithEventsRange,
  type BlocksWithEventsPart,
} from '../../../src/core/gateway/blocksRange';
import { BlocksAndEventsSchema } from '../../../src/core/gateway/schemas';
import { CONTRACT, CONTRACT_2, P2PKH, TX_DETAILS, UNSIGNED_TX, harness, json, outcome } from './helpers';

const T0 = 1_700_000_000_000;
const CAP = 64 * 1024;
const PATH = /^\/blockflow\/blocks-with-events\?/;
/** The chains the fake gateway's blocks alternate between: (0, 0) and (1, 1). */
const CHAINS = [0, 5] as const;

const hex64 = (n: number, first: string): string => first + n.toString(16).padStart(63, '0');

/** A block of chain `chain` at `ts` holding one transaction, and that transaction's two events. */
function blockAndEvents(ts: number, chain: number, height: number) {
  const txId = hex64(ts, 'a');
  return {
    block: {
      hash: hex64(ts, 'b'),
      timestamp: ts,
      chainFrom: Math.floor(chain / 4),
      chainTo: chain % 4,
      height,
      deps: [],
      transactions: [{ ...TX_DETAILS, unsigned: { ...UNSIGNED_TX, txId } }],
      // A field of the node's the schema does not check: kept, not dropped.
      nonce: hex64(ts, 'e').slice(0, 48),
    },
    events: [
      { txId, timestamp: ts, contractAddress: CONTRACT, eventIndex: -3, fields: [] },
      {
        txId,
        timestamp: ts,
        contractAddress: CONTRACT_2,
        eventIndex: 0,
        fields: [{ type: 'U256', value: String(ts) }],
      },
    ],
  };
}

/** Sixteen chains, `entries` placed on theirs. */
function chainsOf(entries: ReturnType<typeof blockAndEvents>[]) {
  const chains: ReturnType<typeof blockAndEvents>[][] = Array.from({ length: 16 }, () => []);
  for (const e of entries) chains[e.block.chainFrom * 4 + e.block.chainTo]!.push(e);
  return chains;
}

/**
 * A gateway with a block of about 1.5 KB every `everyMs`, alternating between the two chains, that refuses a span over
 * `maxSpanMs` with a 504 as a node does, and whose answers over the body cap fail as the real transport
 * fails them (by the size of the body it would have to read).
 */
function eventsGateway(everyMs: number, maxSpanMs: number) {
  const seen = { sent: 0, timeouts: 0, tooLarge: 0 };
  const reply = (req: TransportRequest): TransportResponse => {
    seen.sent++;
    const query = new URL(req.url).searchParams;
    const from = Number(query.get('fromTs'));
    const to = Number(query.get('toTs'));
    if (to - from > maxSpanMs) {
      seen.timeouts++;
      return json(504, { detail: `Time span of ${to - from} ms is too large to fetch` });
    }
    const entries = [];
    for (let ts = Math.ceil((from - T0) / everyMs) * everyMs + T0; ts <= to; ts += everyMs) {
      const n = (ts - T0) / everyMs;
      entries.push(blockAndEvents(ts, CHAINS[n % 2]!, Math.floor(n / 2)));
    }
    const response = json(200, { blocksAndEvents: chainsOf(entries) });
    if (response.bodyText.length > (req.maxBodyBytes ?? Infinity)) {
      seen.tooLarge++;
      throw new ResponseTooLargeError(undefined, req.maxBodyBytes!);
    }
    return response;
  };
  return { reply, seen };
}

describe('blocks with events: the schema', () => {
  const good = () => ({ blocksAndEvents: chainsOf([blockAndEvents(T0, 0, 1)]) });
  const refusedAt = (body: unknown): string => {
    const parsed = BlocksAndEventsSchema.safeParse(body);
    assert.ok(!parsed.success, 'refused');
    return parsed.error.issues[0]!.path.map(String).join('.');
  };
  const withEvent = (change: Record<string, unknown>) => {
    const body = good();
    const entry = body.blocksAndEvents[0]![0]!;
    entry.events[1] = { ...entry.events[1]!, ...change };
    return body;
  };

  it('parses a well-formed answer: each block with its events, node extras kept', () => {
    const parsed = BlocksAndEventsSchema.parse(good());
    assert.equal(parsed.blocksAndEvents.length, 16);
    const entry = parsed.blocksAndEvents[0]![0]!;
    assert.equal(entry.block.hash, hex64(T0, 'b'));
    assert.deepEqual(
      entry.events.map((e) => [e.contractAddress, e.eventIndex]),
      [
        [CONTRACT, -3],
        [CONTRACT_2, 0],
      ],
    );
    assert.equal((entry.block as Record<string, unknown>).nonce, hex64(T0, 'e').slice(0, 48));
  });

  it('refuses an event whose contractAddress is not a contract address', () => {
    const path = 'blocksAndEvents.0.0.events.1.contractAddress';
    // A person's address, base58 that decodes to nothing, a character base58 does not have, nothing.
    for (const contractAddress of [P2PKH, '1111', `${CONTRACT.slice(0, -1)}0`, ''])
      assert.equal(refusedAt(withEvent({ contractAddress })), path, contractAddress);
  });

  it('refuses an address longer than a contract address can be, and a bad txId or eventIndex', () => {
    // As many base58 digits as the decoder takes at most: refused by its length.
    const long = withEvent({ contractAddress: CONTRACT.repeat(100).slice(0, 4096) });
    assert.equal(refusedAt(long), 'blocksAndEvents.0.0.events.1.contractAddress');
    assert.equal(refusedAt(withEvent({ txId: 'zz' })), 'blocksAndEvents.0.0.events.1.txId');
    assert.equal(refusedAt(withEvent({ eventIndex: 0.5 })), 'blocksAndEvents.0.0.events.1.eventIndex');
  });

  it('refuses more chains than 4 groups have, and a block that is not one', () => {
    const body = good();
    assert.equal(refusedAt({ blocksAndEvents: [...body.blocksAndEvents, []] }), 'blocksAndEvents');
    const entry = body.blocksAndEvents[0]![0]!;
    const badBlock = { blocksAndEvents: [[{ ...entry, block: { ...entry.block, chainFrom: 4 } }]] };
    assert.equal(refusedAt(badBlock), 'blocksAndEvents.0.0.block.chainFrom');
    assert.equal(refusedAt({ blocksAndEvents: [[{ block: entry.block }]] }), 'blocksAndEvents.0.0.events');
  });

  it('a body that does not match is a SchemaError naming the endpoint, and nothing is passed on', async () => {
    const { client, transport, clock } = harness();
    transport.on(PATH, json(200, withEvent({ contractAddress: P2PKH })));
    const { value, error } = await outcome(clock, client.readBlocksWithEvents(T0, T0 + 60_000));
    assert.equal(value, undefined);
    assert.ok(error instanceof SchemaError, String(error));
    assert.equal(error.endpoint, 'GET /blockflow/blocks-with-events');
  });
});

describe('blocks with events: the range read in parts', () => {
  it('halves a part on a 504 and on the body cap, and merges the parts per chain in time order', async () => {
    // 20 minutes, a block every 2.5 s of ~1.5 KB: 504 above 5 minutes, and parts over the 64 KB cap down to
    // 75 s (45 KB) at the deepest split.
    const gateway = eventsGateway(2_500, 5 * 60_000);
    const { client, transport, clock } = harness({ maxBodyBytes: CAP });
    transport.on(PATH, gateway.reply);
    const from = T0;
    const to = T0 + 20 * 60_000;
    const read = await clock.run(client.readBlocksWithEvents(from, to));
    assert.equal(read.unread, undefined);
    assert.ok(gateway.seen.timeouts > 0 && gateway.seen.tooLarge > 0, JSON.stringify(gateway.seen));
    assert.equal(read.requests, gateway.seen.sent);
    assert.ok(read.requests <= blocksRangeMaxRequests(from, to), `${read.requests} requests`);
    assert.equal(read.blocksAndEvents.length, 16);
    // Every block of the range once, each on its chain, in time order, with its own events.
    const all = Array.from({ length: 481 }, (_, n) => from + n * 2_500);
    for (const [i, chain] of CHAINS.entries()) {
      const entries = read.blocksAndEvents[chain]!;
      assert.deepEqual(
        entries.map((e) => e.block.timestamp),
        all.filter((_, n) => n % 2 === i),
        `chain ${chain}`,
      );
      assert.deepEqual(
        entries.map((e) => e.block.height),
        entries.map((_, h) => h),
      );
      for (const e of entries) {
        assert.deepEqual(
          e.events.map((ev) => ev.txId),
          [hex64(e.block.timestamp, 'a'), hex64(e.block.timestamp, 'a')],
        );
      }
    }
    assert.equal(read.blocksAndEvents.flat().length, all.length);
  });

  it('hands each part over as it is read, earliest first, the parts covering the range end to end', async () => {
    const gateway = eventsGateway(2_500, 5 * 60_000);
    const { client, transport, clock } = harness({ maxBodyBytes: CAP });
    transport.on(PATH, gateway.reply);
    const parts: BlocksWithEventsPart[] = [];
    const sentAtEachPart: number[] = [];
    const to = T0 + 10 * 60_000;
    const reading = client.readBlocksWithEvents(T0, to, {
      onPart: (part) => {
        parts.push(part);
        sentAtEachPart.push(gateway.seen.sent);
      },
    });
    const read = await clock.run(reading);
    assert.ok(parts.length > 1, `${parts.length} parts`);
    assert.ok(sentAtEachPart[0]! < gateway.seen.sent, 'the first part came before the last request');
    assert.equal(parts[0]!.fromTs, T0);
    assert.equal(parts.at(-1)!.toTs, to);
    for (let i = 1; i < parts.length; i++) assert.equal(parts[i]!.fromTs, parts[i - 1]!.toTs + 1);
    const handed = parts.reduce((n, p) => n + p.blocksAndEvents.flat().length, 0);
    assert.equal(handed, read.blocksAndEvents.flat().length);
  });

  it('a part refused even at the deepest split ends the read with what came before, said as unread', async () => {
    const small = eventsGateway(10_000, Infinity);
    const { client, transport, clock } = harness({ maxBodyBytes: CAP });
    transport.on(PATH, (req) => {
      const to = Number(new URL(req.url).searchParams.get('toTs'));
      if (to > T0 + 5 * 60_000) throw new ResponseTooLargeError(undefined, CAP);
      return small.reply(req);
    });
    const to = T0 + 10 * 60_000;
    const read = await clock.run(client.readBlocksWithEvents(T0, to));
    assert.ok(read.unread, 'the read says what it did not read');
    assert.ok(read.unread.reason instanceof ResponseTooLargeError);
    assert.equal(read.unread.toTs, to);
    assert.ok(read.unread.fromTs <= T0 + 5 * 60_000 + 1, String(read.unread.fromTs));
    assert.ok(read.blocksAndEvents.flat().length > 0, 'the blocks before it are kept');
    assert.ok(read.requests <= blocksRangeMaxRequests(T0, to));
    assert.equal(transport.requests.length, read.requests);
  });

  it('never sends more requests than the bound of /blockflow/blocks, whatever the gateway refuses', async () => {
    const from = T0;
    const to = T0 + 60 * 60_000;
    let sent = 0;
    const refuseAll = () => {
      sent++;
      return Promise.reject(new GatewayHttpError('GET /blockflow/blocks-with-events', 504));
    };
    await assert.rejects(
      readBlocksWithEventsRange(from, to, refuseAll),
      (e: unknown) => e instanceof GatewayHttpError && e.status === 504,
    );
    assert.ok(sent > 1 && sent <= blocksRangeMaxRequests(from, to), `${sent} requests`);
  });

  it('a gateway without the endpoint: a 404 GatewayHttpError after one request, not retried', async () => {
    const { client, transport, clock } = harness();
    transport.on(PATH, json(404, { detail: 'Not found: /blockflow/blocks-with-events' }));
    const records: RequestRecord[] = [];
    client.onRequest((r) => records.push(r));
    const { error } = await outcome(clock, client.readBlocksWithEvents(T0, T0 + 60_000));
    assert.ok(error instanceof GatewayHttpError, String(error));
    assert.equal(error.status, 404);
    assert.equal(error.endpoint, 'GET /blockflow/blocks-with-events');
    assert.equal(transport.requests.length, 1);
    assert.deepEqual(
      records.map((r) => [r.endpoint, r.status]),
      [['GET /blockflow/blocks-with-events', 404]],
    );
  });

  it('each read asks the gateway again (nothing cached), under its own endpoint name', async () => {
    const gateway = eventsGateway(10_000, Infinity);
    const { client, transport, clock } = harness();
    transport.on(PATH, gateway.reply);
    const records: RequestRecord[] = [];
    client.onRequest((r) => records.push(r));
    // As the watcher will ask: background work for the watched contracts.
    const options = { priority: 'background', purpose: 'contracts' } as const;
    const first = await clock.run(client.readBlocksWithEvents(T0, T0 + 60_000, options));
    const second = await clock.run(client.readBlocksWithEvents(T0, T0 + 60_000, options));
    assert.deepEqual(second.blocksAndEvents, first.blocksAndEvents);
    assert.equal(gateway.seen.sent, 2);
    assert.deepEqual(
      records.map((r) => [r.endpoint, r.kind]),
      [
        ['GET /blockflow/blocks-with-events', 'contracts'],
        ['GET /blockflow/blocks-with-events', 'contracts'],
      ],
    );
    assert.match(transport.requests[0]!.path, /^\/blockflow\/blocks-with-events\?fromTs=\d+&toTs=\d+$/);
  });
});
