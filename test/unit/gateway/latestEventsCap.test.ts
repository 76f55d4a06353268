/** Show Latest Events' stated cost is an upper bound: a gappy gateway cannot make it send more. */
import assert from 'node:assert/strict';
import { fetchLatestEvents } from '../../../src/core/gateway/paging';
import type { TransportRequest } from '../../../src/core/gateway/transport';
import { latestEventsCost } from '../../../src/core/usage/costs';
import { latestEventsShortfall, latestEventsTitle } from '../../../src/core/contracts/watching/rows';
import { decodeRecentEvents, recentEventsText } from '../../../src/core/assistant/recentEvents';
import { CONTRACT, event, harness, json } from './helpers';

const COUNT = 100_000;

/** The gateway of issue 27: one visible event per 100 offsets, a page covering `limit` offsets. */
function onePerHundred(req: TransportRequest) {
  const q = new URL(req.url).searchParams;
  const start = Number(q.get('start'));
  const limit = Number(q.get('limit') ?? 100);
  const end = Math.min(COUNT, start + limit);
  const offsets: number[] = [];
  for (let o = Math.ceil(start / 100) * 100; o < end; o += 100) offsets.push(o);
  return json(200, { events: offsets.map(event), nextStart: end });
}

/** A dense contract whose gateway answers one event per page, however large the limit. */
function onePerPage(req: TransportRequest) {
  const start = Number(new URL(req.url).searchParams.get('start'));
  return json(200, { events: start < COUNT ? [event(start)] : [], nextStart: start + 1 });
}

function gateway(pages: (req: TransportRequest) => ReturnType<typeof json>) {
  const h = harness();
  h.transport.on(`/events/contract/${CONTRACT}/current-count`, json(200, COUNT));
  h.transport.on(/^\/events\/contract\/[^/]+\?/, pages);
  return h;
}

describe('Show Latest Events: the stated cost is a cap the read cannot exceed', () => {
  for (const n of [5, 400, 1000]) {
    it(`latest ${n} against one event per 100 offsets: at most the stated ${latestEventsCost(n).max} requests, and says older events were not read`, async () => {
      const { client, transport, clock } = gateway(onePerHundred);
      const stated = latestEventsCost(n);
      const latest = await clock.run(fetchLatestEvents(client, CONTRACT, n));
      assert.ok(
        transport.requests.length <= stated.max,
        `${transport.requests.length} requests sent, ${stated.max} stated`,
      );
      assert.equal(latest.requests, transport.requests.length);
      assert.equal(latest.unread, 'older');
      assert.ok(latest.events.length < n);
      // What was read is the newest end: the last event is the newest one the gateway has.
      if (n > 100) assert.equal(latest.events.at(-1)?.fields[0]?.value, String(COUNT - 100));
    });
  }

  it('a first window the cap cannot finish says the newest events were not read', async () => {
    const { client, transport, clock } = gateway(onePerPage);
    const latest = await clock.run(fetchLatestEvents(client, CONTRACT, 50));
    assert.ok(transport.requests.length <= latestEventsCost(50).max);
    assert.equal(latest.unread, 'newer');
  });

  it('an explicit cap is kept too, and a read that fits says nothing is missing', async () => {
    const capped = gateway(onePerHundred);
    await capped.clock.run(fetchLatestEvents(capped.client, CONTRACT, 5, { maxRequests: 3 }));
    assert.equal(capped.transport.requests.length, 3);
    const dense = harness();
    dense.transport.on(`/events/contract/${CONTRACT}/current-count`, json(200, 10));
    dense.transport.on(/^\/events\/contract\/[^/]+\?/, (req: TransportRequest) => {
      const start = Number(new URL(req.url).searchParams.get('start'));
      const offsets = Array.from({ length: 10 - start }, (_, k) => start + k);
      return json(200, { events: offsets.map(event), nextStart: 10 });
    });
    const latest = await dense.clock.run(fetchLatestEvents(dense.client, CONTRACT, 5));
    assert.equal(latest.unread, undefined);
    assert.equal(latest.events.length, 5);
    assert.equal(dense.transport.requests.length, 2);
  });
});

describe('Show Latest Events: what a capped read did not read is said', () => {
  it('the listing title and the chat answer say older events may exist and how many were read', async () => {
    const { client, clock } = gateway(onePerHundred);
    const latest = await clock.run(fetchLatestEvents(client, CONTRACT, 400));
    const shortfall = latestEventsShortfall(latest);
    assert.match(shortfall ?? '', /^stopped at the cap of 13 requests; older events may exist; \d+ read$/);
    const title = latestEventsTitle('Counter', 400, latest.events.length, latest.count, shortfall).markdown;
    assert.match(title, /^\d+ event\(s\) read \(400 asked for\) of Counter.*older events may exist/);
    const reading = decodeRecentEvents(CONTRACT, latest, 400, undefined);
    assert.match(recentEventsText(reading), /Not everything was read: stopped at the cap of 13 requests/);
  });

  it('a read that got everything says nothing more', () => {
    assert.equal(latestEventsShortfall({ events: [], requests: 2 }), undefined);
  });
});
