/**
 * Blocks in Time Range against a fake gateway whose answers can exceed the body cap: a part that is too
 * large is halved as a 504 is, parts arrive in time order as they are read, and the requests sent never
 * pass the bound the command states before reading.
 */
import assert from 'node:assert/strict';
import { ResponseTooLargeError } from '../../../src/core/gateway/errors';
import type { TransportRequest, TransportResponse } from '../../../src/core/gateway/transport';
import {
  blocksRangeMaxRequests,
  readBlocksRange,
  type BlocksPart,
} from '../../../src/core/gateway/blocksRange';
import { blocksRangeCost, costText } from '../../../src/core/usage/costs';
import { TIME_RANGE_PRESETS } from '../../../src/core/node/nodeQueries';
import { harness, json } from './helpers';

const T0 = 1_700_000_000_000;
const CAP = 64 * 1024;

/**
 * A gateway with one block every `everyMs` on chain 0, each carrying `padBytes` of transaction data,
 * that answers any span (no 504): only the body cap limits what one request can read. The cap is
 * enforced as the real transport does, by the size of the body it would have to read.
 */
function denseGateway(everyMs: number, padBytes: number) {
  let sent = 0;
  const reply = (req: TransportRequest): TransportResponse => {
    sent++;
    const query = new URL(req.url).searchParams;
    const from = Number(query.get('fromTs'));
    const to = Number(query.get('toTs'));
    const blocks = [];
    for (let ts = Math.ceil(from / everyMs) * everyMs; ts <= to; ts += everyMs) {
      blocks.push({
        hash: ts.toString(16).padStart(64, '0'),
        timestamp: ts,
        chainFrom: 0,
        chainTo: 0,
        height: (ts - T0) / everyMs,
        deps: [],
        transactions: [],
        // Stands for the transactions' bytes (the schema keeps fields it does not know).
        padding: 'x'.repeat(padBytes),
      });
    }
    const response = json(200, { blocks: [blocks] });
    if (response.bodyText.length > (req.maxBodyBytes ?? Infinity)) {
      throw new ResponseTooLargeError(undefined, req.maxBodyBytes!);
    }
    return response;
  };
  return { reply, sent: () => sent };
}

describe('Blocks in Time Range: a range whose answer is over the body cap', () => {
  it('is halved until each part fits, and every block of the range is read once, in order', async () => {
    // 10 minutes, a block a second of ~1 KB: ~600 KB, ten times the 64 KB cap.
    const gateway = denseGateway(1_000, 1_000);
    const { client, transport, clock } = harness({ maxBodyBytes: CAP });
    transport.on(/^\/blockflow\/blocks\?/, gateway.reply);
    const from = T0;
    const to = T0 + 10 * 60_000;
    const blocks = await clock.run(client.getBlocks(from, to));
    const timestamps = blocks.blocks[0]!.map((b) => b.timestamp);
    assert.equal(timestamps.length, 601);
    assert.deepEqual(
      timestamps,
      timestamps.map((_, i) => from + i * 1_000),
    );
    assert.ok(gateway.sent() > 1, 'the range was split');
    assert.ok(gateway.sent() <= blocksRangeMaxRequests(from, to), `${gateway.sent()} requests`);
  });

  it('hands each part over as soon as it is read, earliest first, before the read ends', async () => {
    const gateway = denseGateway(1_000, 1_000);
    const { client, transport, clock } = harness({ maxBodyBytes: CAP });
    transport.on(/^\/blockflow\/blocks\?/, gateway.reply);
    const parts: BlocksPart[] = [];
    const sentAtEachPart: number[] = [];
    const reading = client.readBlocks(T0, T0 + 10 * 60_000, {
      onPart: (part) => {
        parts.push(part);
        sentAtEachPart.push(gateway.sent());
      },
    });
    const read = await clock.run(reading);
    assert.equal(read.unread, undefined);
    // The first part was handed over while later parts were still to be asked for.
    assert.ok(parts.length > 1, `${parts.length} parts`);
    assert.ok(sentAtEachPart[0]! < gateway.sent(), `${sentAtEachPart[0]} of ${gateway.sent()}`);
    for (let i = 1; i < parts.length; i++) assert.equal(parts[i]!.fromTs, parts[i - 1]!.toTs + 1);
    assert.equal(parts[0]!.fromTs, T0);
    assert.equal(parts.at(-1)!.toTs, T0 + 10 * 60_000);
    assert.equal(read.requests, gateway.sent());
  });

  it('a part too large even at the deepest split ends the read with what came before, said as unread', async () => {
    // Blocks after T0 + 5 min are each over the cap on their own: no split can make them fit.
    const { client, transport, clock } = harness({ maxBodyBytes: CAP });
    const small = denseGateway(10_000, 100);
    transport.on(/^\/blockflow\/blocks\?/, (req) => {
      const to = Number(new URL(req.url).searchParams.get('toTs'));
      if (to > T0 + 5 * 60_000) throw new ResponseTooLargeError(undefined, CAP);
      return small.reply(req);
    });
    const to = T0 + 10 * 60_000;
    const read = await clock.run(client.readBlocks(T0, to));
    assert.ok(read.unread, 'the read says what it did not read');
    assert.ok(read.unread.reason instanceof ResponseTooLargeError);
    assert.equal(read.unread.toTs, to);
    assert.ok(read.unread.fromTs <= T0 + 5 * 60_000 + 1, String(read.unread.fromTs));
    assert.ok(read.blocks.blocks[0]!.length > 0, 'the blocks before it are kept');
    assert.ok(read.requests <= blocksRangeMaxRequests(T0, to));
    assert.equal(transport.requests.length, read.requests);
  });

  it('never sends more requests than the bound, whatever the gateway refuses', async () => {
    const from = T0;
    const to = T0 + 60 * 60_000;
    let sent = 0;
    const refuseAll = () => {
      sent++;
      return Promise.reject(new ResponseTooLargeError('GET /blockflow/blocks', CAP));
    };
    await assert.rejects(readBlocksRange(from, to, refuseAll), ResponseTooLargeError);
    assert.ok(sent <= blocksRangeMaxRequests(from, to));
    // Alternating refusals (every other request too large) still stay within the bound.
    sent = 0;
    const alternate = () =>
      sent++ % 2 === 0
        ? Promise.reject(new ResponseTooLargeError('GET /blockflow/blocks', CAP))
        : Promise.resolve({ blocks: [] });
    const read = await readBlocksRange(from, to, alternate);
    assert.equal(read.requests, sent);
    assert.ok(sent <= blocksRangeMaxRequests(from, to), `${sent} requests`);
  });

  it('each preset states its real cost: more than one request, bounded by the split the reader walks', () => {
    for (const preset of TIME_RANGE_PRESETS) {
      const cost = blocksRangeCost(preset.ms);
      assert.equal(cost.min, 1);
      assert.equal(cost.max, blocksRangeMaxRequests(T0, T0 + preset.ms));
      assert.ok(cost.max > 1, `${preset.label}: ${costText(cost)}`);
    }
    assert.equal(costText(blocksRangeCost(10 * 60_000)), '1 to 31 requests');
  });
});
