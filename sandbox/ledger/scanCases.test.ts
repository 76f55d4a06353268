/**
 * What a scan of `/blockflow/blocks-with-events` (overlapping windows, de-duplicated) must survive, as the
 * sandbox reproduces it: a block that arrives after its window was read (`/mine` with `ageMs`). The clock
 * is a ManualClock, so every window is exact.
 */
import assert from 'node:assert/strict';
import { ManualClock } from '../clock';
import { control, newSandbox, type Api } from '../testing/helpers';
import type { Sandbox } from '../http/server';

interface Ev {
  blockHash?: string;
  txId?: string;
  timestamp: number;
  contractAddress: string;
  eventIndex: number;
}

interface BlockAndEvents {
  block: { hash: string; timestamp: number; height: number; chainFrom: number; chainTo: number };
  events: Ev[];
}

/** A control call expected to fail: its status and detail (`control` throws on anything but 200). */
async function refused(
  sb: Sandbox,
  path: string,
  body: unknown,
): Promise<{ status: number; detail: string }> {
  const res = await fetch(`${sb.baseUrl}/__sandbox${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, detail: ((await res.json()) as { detail: string }).detail };
}

describe('sandbox gateway: late blocks, for a block scanner', () => {
  let sb: Sandbox;
  let api: Api;
  const clock = new ManualClock(Date.UTC(2025, 6, 1, 9, 0, 0));
  const counter = () => sb.contracts.find((c) => c.name === 'Counter')!;
  const scan = async (fromTs: number, toTs: number) =>
    (
      await api.json<{ blocksAndEvents: BlockAndEvents[][] }>(
        `/blockflow/blocks-with-events?fromTs=${fromTs}&toTs=${toTs}`,
      )
    ).blocksAndEvents;
  /** Counter's event count; 0 while it has emitted nothing (the node's 404). */
  const count = async () => {
    const res = await api.get(`/events/contract/${counter().address}/current-count`);
    return res.status === 404 ? 0 : ((await res.json()) as { count: number }).count;
  };

  before(async () => {
    ({ sb, api } = await newSandbox({ clock }));
  });
  after(() => sb.close());
  beforeEach(async () => {
    await control(sb, 'DELETE', '/faults');
    clock.advance(1000);
  });

  describe('a late block', () => {
    it('appears, with its events, in a window already read, timed ageMs before the request', async () => {
      await control(sb, 'POST', '/mine');
      const lastMined = clock.now();
      clock.advance(10_000);
      const readAt = clock.now();
      const first = await scan(lastMined + 1, readAt);
      assert.deepEqual(
        first.map((chain) => chain.length),
        Array<number>(16).fill(0),
        'nothing mined in the window yet',
      );
      const before = await count();
      const { txIds } = await control<{ txIds: string[] }>(sb, 'POST', '/events/trigger', { mine: false });
      const mined = await control<{ timestamp: number; lastBlocks: string[] }>(sb, 'POST', '/mine', {
        ageMs: 4000,
      });
      assert.equal(mined.timestamp, readAt - 4000);
      clock.advance(1000); // the scanner's next round
      // The same window, ending before this request and starting before now - ageMs: the block is in it now.
      const again = await scan(lastMined + 1, readAt);
      for (const chain of again) {
        assert.equal(chain.length, 1);
        assert.equal(chain[0]?.block.timestamp, readAt - 4000);
      }
      const late = again.flat().find((b) => b.events.some((e) => e.txId === txIds[0]));
      assert.ok(late, 'the late block carries the triggered event');
      assert.ok(mined.lastBlocks.includes(late.block.hash));
      for (const e of late.events) assert.equal(e.timestamp, readAt - 4000);
      const page = await api.json<{ events: Ev[] }>(`/events/contract/${counter().address}?start=${before}`);
      assert.deepEqual(
        page.events.map((e) => [e.txId, e.blockHash, e.timestamp]),
        [[txIds[0], late.block.hash, readAt - 4000]],
      );
      // The next ordinary round is timed by the clock again, after the late one.
      const next = await control<{ timestamp: number }>(sb, 'POST', '/mine');
      assert.equal(next.timestamp, clock.now());
    });

    it('mines several late rounds 1 ms apart, and the in-process mine takes ageMs too', async () => {
      clock.advance(5000);
      const mined = await control<{ timestamp: number }>(sb, 'POST', '/mine', { ageMs: 3000, blocks: 3 });
      assert.equal(mined.timestamp, clock.now() - 3000 + 2, 'the last of three rounds');
      const window = await scan(clock.now() - 3000, clock.now() - 3000 + 2);
      assert.deepEqual(
        window[5]?.map((b) => b.block.timestamp),
        [0, 1, 2].map((i) => clock.now() - 3000 + i),
      );
      clock.advance(5000);
      sb.mine({ ageMs: 2000 });
      const inProcess = await scan(clock.now() - 2000, clock.now() - 2000);
      assert.ok(inProcess.every((chain) => chain.length === 1));
      assert.throws(() => sb.mine({ ageMs: -1 }), /ageMs must be a non-negative integer/);
    });

    it('refuses a negative, fractional or non-number ageMs, or one before the newest block, with a 400', async () => {
      await control(sb, 'POST', '/mine');
      clock.advance(1000);
      const { txIds } = await control<{ txIds: string[] }>(sb, 'POST', '/events/trigger', { mine: false });
      for (const ageMs of [-1, 1.5, '100', null]) {
        const r = await refused(sb, '/mine', { ageMs });
        assert.equal(r.status, 400, JSON.stringify(ageMs));
        assert.match(r.detail, /ageMs must be a non-negative integer of milliseconds/);
      }
      // The last round was mined 1 s ago: 2 s ago would put a block before its parent.
      const early = await refused(sb, '/mine', { ageMs: 2000 });
      assert.equal(early.status, 400);
      assert.match(early.detail, /not after the newest block/);
      const sameMs = await refused(sb, '/mine', { ageMs: 1000 });
      assert.equal(sameMs.status, 400, "the newest block's own millisecond is not after it");
      for (const blocks of [-1, 2.5, 'two'])
        assert.equal((await refused(sb, '/mine', { blocks })).status, 400, JSON.stringify(blocks));
      const status = await api.json<{ type: string }>(`/transactions/status?txId=${txIds[0]}`);
      assert.equal(status.type, 'MemPooled', 'a refused mine leaves the mempool alone');
      await control(sb, 'POST', '/mine');
    });
  });
});
