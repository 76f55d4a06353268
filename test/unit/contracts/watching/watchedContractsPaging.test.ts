/** The watched contracts model over a fake client whose pages overlap: its window stays bounded. */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ArtifactRegistry } from '../../../../src/core/artifacts';
import type { ContractEvent, GatewayClient } from '../../../../src/core/gateway';
import { silentLogger } from '../../../../src/core/util/log';
import { MAX_FEED_EVENTS } from '../../../../src/core/contracts/watching/eventFeed';
import { makeWatched } from '../../../../src/core/contracts/watching/watchList';
import { WatchedContractsModel } from '../../../../src/core/contracts/watching/watchedContractsModel';

const ARTIFACTS = path.join(__dirname, '..', '..', '..', '..', 'sandbox', 'project', 'artifacts');
const registry = ArtifactRegistry.fromFiles(
  fs
    .readdirSync(ARTIFACTS)
    .map((f) => ({ path: `artifacts/${f}`, text: fs.readFileSync(path.join(ARTIFACTS, f), 'utf8') })),
);

describe('watched contracts model against a gateway that pages more than a window holds', () => {
  const ADDRESS = '22fnZLkZJUSyhXgboirmJktWkEBRk1pV8L6gfpc53hvVM';
  /** Every page is full (`limit` events) while its cursor moves one offset: each page overlaps the next. */
  function overlappingPages(count: { value: number }) {
    let n = 0;
    const event = (): ContractEvent => ({
      txId: (n++).toString(16).padStart(64, '0'),
      blockHash: '00'.repeat(32),
      contractAddress: ADDRESS,
      eventIndex: 0,
      fields: [{ type: 'U256', value: String(n) }],
    });
    return {
      getContractEventCount: () => Promise.resolve(count.value),
      getContractEvents: (_address: string, page: { start: number; limit?: number }) =>
        Promise.resolve({
          events: Array.from({ length: page.limit ?? 100 }, event),
          nextStart: page.start + 1,
        }),
    } as unknown as GatewayClient;
  }

  it('keeps the latest window to its offsets and a refresh to one feed, continuing from the cursor', async () => {
    const count = { value: 1_000_000 };
    const gateway = overlappingPages(count);
    const model = new WatchedContractsModel({
      log: silentLogger,
      client: () => gateway,
      registry: () => Promise.resolve(registry),
      network: () => 'devnet',
      pageSize: () => 10,
    });
    model.setList([makeWatched(ADDRESS)]);
    await model.loadLatestEvents(ADDRESS);
    const feed = model.feed(ADDRESS);
    // 10 offsets hold at most 10 events, however the server pages them (it sent 55 before).
    assert.equal(feed.size, 10);
    count.value += 2_000;
    await model.refreshEvents(ADDRESS);
    assert.ok(feed.size <= MAX_FEED_EVENTS, `${feed.size} events held`);
    assert.equal(feed.count, 1_000_000, 'the count is not taken before the window reached it');
    const cursor = feed.nextStart!;
    assert.ok((await model.refreshEvents(ADDRESS)) > 0, 'the next refresh continues');
    assert.ok(feed.nextStart! > cursor);
    assert.ok(feed.size <= MAX_FEED_EVENTS, `${feed.size} events held`);
    model.dispose();
  });
});
