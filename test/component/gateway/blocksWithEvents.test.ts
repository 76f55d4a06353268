/**
 * `readBlocksWithEvents` against the sandbox gateway over HTTP on 127.0.0.1: a Counter.increment shows up
 * under the block that holds its transaction, in a window of all 16 chains, with the events the node lists
 * for that block; and a gateway that does not forward the endpoint (a 404) is told to the caller as the
 * GatewayHttpError it is, so that the watcher can fall back to polling each contract.
 */
import assert from 'node:assert/strict';
import { GatewayHttpError } from '../../../src/core/gateway/errors';
import { control } from '../../../sandbox/testing/helpers';
import { connectedSandbox, type ConnectedSandbox } from '../fixtures/connectedSandbox';

interface Triggered {
  readonly txIds: string[];
  readonly events: { blockHash: string; contractAddress: string; eventIndex: number }[];
}

const ENDPOINT = '/blockflow/blocks-with-events';

describe('blocks with events against the sandbox (HTTP, 127.0.0.1)', function () {
  this.timeout(30_000);
  let connected: ConnectedSandbox;

  before(async () => {
    connected = await connectedSandbox();
  });
  after(async () => {
    await connected.stop();
  });
  beforeEach(() => {
    connected.sb.faults.clear();
    connected.sb.requests.length = 0;
  });

  const logged = () =>
    connected.sb.requests.filter((r) => r.path.startsWith(`/${connected.sb.slug}${ENDPOINT}?`));

  it('an increment is listed under the block that holds its tx, with its contract and eventIndex', async () => {
    const { sb, client } = connected;
    const counter = sb.contracts.find((c) => c.name === 'Counter')?.address;
    assert.ok(counter, 'the sandbox has a Counter');
    // Blocks before and after it, so that the window holds more than the one block.
    sb.mine();
    const triggered = await control<Triggered>(sb, 'POST', '/events/trigger', { contract: 'Counter' });
    sb.mine();
    const txId = triggered.txIds[0]!;
    const incremented = triggered.events.find((e) => e.contractAddress === counter && e.eventIndex >= 0);
    assert.ok(incremented, 'the increment emitted a visible event');
    const header = await client.getBlockHeader(incremented.blockHash);

    const read = await client.readBlocksWithEvents(header.timestamp - 60_000, header.timestamp + 60_000);
    assert.equal(read.unread, undefined);
    assert.equal(read.requests, 1);
    assert.equal(read.blocksAndEvents.length, 16);
    const chain = read.blocksAndEvents[header.chainFrom * 4 + header.chainTo]!;
    const entry = chain.find((e) => e.block.hash === incremented.blockHash);
    assert.ok(entry, 'the block of the tx is on its chain');
    assert.ok(entry.block.transactions.some((t) => t.unsigned.txId === txId));
    const ours = entry.events.filter((e) => e.txId === txId && e.contractAddress === counter);
    assert.ok(
      ours.some((e) => e.eventIndex === incremented.eventIndex),
      JSON.stringify(ours.map((e) => e.eventIndex)),
    );
    // The events of the block as the node lists them by block hash, in the same order.
    assert.deepEqual(entry.events, await client.getEventsByBlockHash(incremented.blockHash));
    // Blocks of other rounds were read too, each chain in time order.
    assert.ok(read.blocksAndEvents.flat().length > 16, `${read.blocksAndEvents.flat().length} blocks`);
    for (const blocks of read.blocksAndEvents) {
      const times = blocks.map((e) => e.block.timestamp);
      assert.deepEqual(
        times,
        [...times].sort((a, b) => a - b),
      );
    }
    assert.deepEqual(
      logged().map((r) => r.status),
      [200],
    );
  });

  it('a window over the sandbox span is split on its 504s and read whole', async () => {
    const { client } = connected;
    const now = Date.now();
    // 30 minutes: the sandbox answers at most 10 per request.
    const read = await client.readBlocksWithEvents(now - 30 * 60_000, now);
    assert.equal(read.unread, undefined);
    assert.equal(read.blocksAndEvents.length, 16);
    const statuses = logged().map((r) => r.status);
    assert.ok(statuses.includes(504) && statuses.includes(200), statuses.join(' '));
    assert.equal(read.requests, statuses.length);
  });

  it('a 404 on the path is a GatewayHttpError 404, after one request', async () => {
    const { sb, client } = connected;
    sb.faults.add({ path: ENDPOINT, kind: 'status', status: 404, detail: 'Not found' });
    const now = Date.now();
    await assert.rejects(
      client.readBlocksWithEvents(now - 60_000, now),
      (e: unknown) => e instanceof GatewayHttpError && e.status === 404 && e.endpoint === `GET ${ENDPOINT}`,
    );
    assert.deepEqual(
      logged().map((r) => r.status),
      [404],
    );
  });
});
