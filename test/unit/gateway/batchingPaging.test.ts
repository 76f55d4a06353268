/** Multicall batching (at most 20 per request, each caller its own outcome) and event paging. */
import assert from 'node:assert/strict';
import { MulticallBatcher, callContracts } from '../../../src/core/gateway/batching';
import {
  ContractCallFailedError,
  GatewayHttpError,
  SchemaError,
  ValidationError,
} from '../../../src/core/gateway/errors';
import { contractEventPages, fetchEventsFrom, fetchLatestEvents } from '../../../src/core/gateway/paging';
import type { ContractEventsPage } from '../../../src/core/gateway/schemas';
import type { TransportRequest } from '../../../src/core/gateway/transport';
import { CONTRACT, P2PKH, event, harness, json, outcome } from './helpers';

interface WireCall {
  methodIndex: number;
}

/** A fake multicall endpoint: method index 99 fails, every other returns its own index. */
function multicall(req: TransportRequest) {
  const { calls } = JSON.parse(req.body ?? '{}') as { calls: WireCall[] };
  if (calls.length > 20)
    return json(400, { detail: 'The number of contract calls exceeds the maximum limit(20)' });
  return json(200, {
    results: calls.map((c) =>
      c.methodIndex === 99
        ? { type: 'CallContractFailed', error: 'AssertionFailed' }
        : {
            type: 'CallContractSucceeded',
            returns: [{ type: 'U256', value: String(c.methodIndex) }],
            gasUsed: 1,
          },
    ),
  });
}

const sentCalls = (reqs: readonly TransportRequest[]) =>
  reqs.map((r) => (JSON.parse(r.body ?? '{}') as { calls: WireCall[] }).calls.map((c) => c.methodIndex));

describe('gateway multicall batching', () => {
  it('packs 45 calls into multicalls of 20, 20 and 5, and hands each caller its own result', async () => {
    const { client, transport, clock } = harness();
    transport.on('/contracts/multicall-contract', multicall);
    const calls = Array.from({ length: 45 }, (_, i) => ({
      address: CONTRACT,
      methodIndex: i === 7 ? 99 : i,
    }));
    const outcomes = await clock.run(callContracts(client, calls));
    assert.deepEqual(
      sentCalls(transport.requests).map((c) => c.length),
      [20, 20, 5],
    );
    assert.equal(outcomes.length, 45);
    outcomes.forEach((o, i) => {
      if (i === 7) {
        assert.ok(!o.ok && o.error instanceof ContractCallFailedError);
        assert.equal(!o.ok && o.error.reason, 'AssertionFailed');
      } else {
        assert.ok(o.ok, `call ${i}`);
        assert.equal(o.ok && o.result.returns[0]?.value, String(i));
      }
    });
  });

  it('a failed request fails only the calls it carried', async () => {
    const { client, transport, clock } = harness();
    let n = 0;
    transport.on('/contracts/multicall-contract', (req) =>
      n++ === 1 ? json(400, { detail: 'bad batch' }) : multicall(req),
    );
    const calls = Array.from({ length: 30 }, (_, i) => ({ address: CONTRACT, methodIndex: i }));
    const outcomes = await clock.run(callContracts(client, calls));
    const failed = outcomes.map((o, i) => (o.ok ? -1 : i)).filter((i) => i >= 0);
    const secondBatch = sentCalls(transport.requests)[1] ?? [];
    assert.deepEqual(failed, secondBatch);
    for (const i of failed) assert.ok(!outcomes[i]?.ok && outcomes[i]?.error instanceof GatewayHttpError);
  });

  it('an invalid call fails alone, before anything is sent', async () => {
    const { client, transport, clock } = harness();
    transport.on('/contracts/multicall-contract', multicall);
    const outcomes = await clock.run(
      callContracts(client, [
        { address: CONTRACT, methodIndex: 1 },
        { address: P2PKH, methodIndex: 2 },
        { address: CONTRACT, methodIndex: 3 },
      ]),
    );
    assert.ok(!outcomes[1]?.ok && outcomes[1]?.error instanceof ValidationError);
    assert.equal(!outcomes[1]?.ok && (outcomes[1]?.error).field, 'calls[1].address');
    assert.deepEqual(sentCalls(transport.requests), [[1, 3]]);
    assert.ok(outcomes[0]?.ok && outcomes[2]?.ok);
  });

  it('a result count that does not match the calls is a SchemaError', async () => {
    const { client, transport, clock } = harness();
    transport.on('/contracts/multicall-contract', json(200, { results: [] }));
    const { error } = await outcome(clock, client.multicallContract([{ address: CONTRACT, methodIndex: 0 }]));
    assert.ok(error instanceof SchemaError);
    assert.equal(error.path, 'results');
  });

  it('MulticallBatcher collects calls made in the same tick into multicalls', async () => {
    const { client, transport, clock } = harness();
    transport.on('/contracts/multicall-contract', multicall);
    const batcher = new MulticallBatcher(client);
    const results = Array.from({ length: 25 }, (_, i) =>
      batcher.call({ address: CONTRACT, methodIndex: i === 3 ? 99 : i }).then(
        (r) => r.returns[0]?.value,
        (e: unknown) => e,
      ),
    );
    const values = await clock.run(Promise.all(results));
    assert.deepEqual(
      sentCalls(transport.requests).map((c) => c.length),
      [20, 5],
    );
    assert.ok(values[3] instanceof ContractCallFailedError);
    assert.equal(values[24], '24');
    assert.equal(values[0], '0');
  });
});

describe('gateway event paging', () => {
  /** A contract with events at offsets 0-2 and 6-9 (a gap at 3-5), served like the node. */
  function pagedContract(req: TransportRequest) {
    const q = new URL(req.url).searchParams;
    const start = Number(q.get('start'));
    const limit = Number(q.get('limit') ?? 100);
    const offsets = [0, 1, 2, 6, 7, 8, 9];
    const page = offsets.filter((o) => o >= start).slice(0, limit);
    if (start >= 10) return json(404, { detail: 'not found' });
    const last = page.at(-1);
    return json(200, { events: page.map(event), nextStart: last === undefined ? start : last + 1 });
  }

  it('follows nextStart, never start + limit (the indexer has gaps)', async () => {
    const { client, transport, clock } = harness();
    transport.on(/^\/events\/contract\/[^/]+\?/, pagedContract);
    const pages: ContractEventsPage[] = [];
    const run = (async () => {
      for await (const page of contractEventPages(client, CONTRACT, 0, { pageSize: 3 })) pages.push(page);
    })();
    await clock.run(run);
    const starts = transport.requests.map((r) => new URL(r.url).searchParams.get('start'));
    assert.deepEqual(starts, ['0', '3', '9', '10']); // 3 = 0+3 happens to match; then 9, not 6
    assert.deepEqual(
      pages.flatMap((p) => p.events.map((e) => e.fields[0]?.value)),
      ['0', '1', '2', '6', '7', '8', '9'],
    );
  });

  it('fetchEventsFrom returns the events and the cursor to resume from', async () => {
    const { client, transport, clock } = harness();
    transport.on(/^\/events\/contract\/[^/]+\?/, pagedContract);
    const slice = await clock.run(fetchEventsFrom(client, CONTRACT, 2));
    assert.deepEqual(
      slice.events.map((e) => e.fields[0]?.value),
      ['2', '6', '7', '8', '9'],
    );
    assert.equal(slice.nextStart, 10);
  });

  it('fetchLatestEvents reads current-count and starts at count - N', async () => {
    const { client, transport, clock } = harness();
    transport.on(`/events/contract/${CONTRACT}/current-count`, json(200, 10));
    transport.on(/^\/events\/contract\/[^/]+\?/, pagedContract);
    const latest = await clock.run(fetchLatestEvents(client, CONTRACT, 3));
    assert.equal(latest.count, 10);
    assert.deepEqual(
      latest.events.map((e) => e.fields[0]?.value),
      ['7', '8', '9'],
    );
    assert.equal(latest.nextStart, 10);
    assert.equal(new URL(transport.requests[1]?.url ?? '').searchParams.get('start'), '7');
  });

  it('fetchLatestEvents widens the window backwards when gaps leave fewer than N', async () => {
    const { client, transport, clock } = harness();
    transport.on(`/events/contract/${CONTRACT}/current-count`, json(200, 10));
    transport.on(/^\/events\/contract\/[^/]+\?/, pagedContract);
    const latest = await clock.run(fetchLatestEvents(client, CONTRACT, 5));
    assert.deepEqual(
      latest.events.map((e) => e.fields[0]?.value),
      ['2', '6', '7', '8', '9'],
    );
    const starts = transport.requests.slice(1).map((r) => new URL(r.url).searchParams.get('start'));
    assert.deepEqual(starts, ['5', '0']); // count - 5 held only 4 events; count - 10 holds enough
    assert.equal(latest.nextStart, 10);
  });

  it('a contract that never emitted has no latest events and costs one request', async () => {
    const { client, transport, clock } = harness();
    transport.on(`/events/contract/${CONTRACT}/current-count`, json(404, { detail: 'not found' }));
    const latest = await clock.run(fetchLatestEvents(client, CONTRACT, 5));
    assert.deepEqual(latest, { events: [], nextStart: 0, count: 0, requests: 1 });
    assert.equal(transport.requests.length, 1);
  });

  it('stops when nextStart does not advance', async () => {
    const { client, transport, clock } = harness();
    transport.on(/^\/events\/contract\/[^/]+\?/, json(200, { events: [event(5)], nextStart: 5 }));
    const slice = await clock.run(fetchEventsFrom(client, CONTRACT, 5));
    assert.equal(slice.events.length, 1);
    assert.equal(transport.requests.length, 1);
  });

  it('maxEvents cuts the last page and resumes right after the last event kept', async () => {
    const { client, transport, clock } = harness();
    transport.on(/^\/events\/contract\/[^/]+\?/, pagedContract);
    const slice = await clock.run(fetchEventsFrom(client, CONTRACT, 0, { maxEvents: 2 }));
    assert.deepEqual(
      slice.events.map((e) => e.fields[0]?.value),
      ['0', '1'],
    );
    assert.equal(slice.nextStart, 2);
  });
});
