/**
 * What a scan of `/blockflow/blocks-with-events` (overlapping windows, de-duplicated) must survive, as the
 * sandbox reproduces it: a block that arrives after its window was read (`/mine` with `ageMs`), a tip that
 * a fork abandons for a sibling with the same txs (`/fork`), and a gateway that does not forward the
 * endpoint at all (a `status` fault). The clock is a ManualClock, so every window is exact.
 */
import assert from 'node:assert/strict';
import { ManualClock } from '../clock';
import { control, newSandbox, type Api } from '../testing/helpers';
import type { ForkResult, Sandbox } from '../http/server';

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

describe('sandbox gateway: late blocks, forks and a missing blocks-with-events, for a block scanner', () => {
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

  describe('an abandoned fork', () => {
    it('replaces the tip by a sibling with the same txs: listed alone, events once, the count unchanged', async () => {
      const from = clock.now();
      const { txIds } = await control<{ txIds: string[] }>(sb, 'POST', '/events/trigger', {});
      const txId = txIds[0]!;
      const { blockHash } = await api.json<{ blockHash: string }>(`/transactions/status?txId=${txId}`);
      const header = await api.json<{
        chainFrom: number;
        chainTo: number;
        height: number;
        timestamp: number;
      }>(`/blockflow/headers/${blockHash}`);
      const chainIndex = header.chainFrom * 4 + header.chainTo;
      const countBefore = await count();
      const seenBefore = await scan(from, clock.now());
      assert.deepEqual(
        seenBefore[chainIndex]?.map((b) => b.block.hash),
        [blockHash],
      );

      clock.advance(700);
      const fork = await control<ForkResult>(sb, 'POST', '/fork', {
        chainFrom: header.chainFrom,
        chainTo: header.chainTo,
      });
      assert.equal(fork.abandoned, blockHash);
      assert.notEqual(fork.replacement, blockHash);
      assert.equal(fork.height, header.height);
      assert.equal(fork.timestamp, clock.now());
      assert.ok(fork.txIds.includes(txId));

      const seenAfter = await scan(from, clock.now());
      assert.deepEqual(
        seenAfter[chainIndex]?.map((b) => [b.block.hash, b.block.height, b.block.timestamp]),
        [[fork.replacement, header.height, fork.timestamp]],
        'the chain lists the sibling only',
      );
      assert.ok(!seenAfter.flat().some((b) => b.block.hash === blockHash));
      const { blocks } = await api.json<{ blocks: { hash: string }[][] }>(
        `/blockflow/blocks?fromTs=${from}&toTs=${clock.now()}`,
      );
      assert.deepEqual(
        blocks[chainIndex]?.map((b) => b.hash),
        [fork.replacement],
      );
      const occurrences = seenAfter
        .flat()
        .flatMap((b) => b.events.map((e) => ({ ...e, blockHash: b.block.hash })))
        .filter((e) => e.txId === txId && e.eventIndex === 0);
      assert.deepEqual(
        occurrences.map((e) => [e.blockHash, e.timestamp]),
        [[fork.replacement, fork.timestamp]],
      );
      // A scanner that read both windows: by block hash it would repeat the event, by (txId, eventIndex) not.
      const both = [...seenBefore, ...seenAfter]
        .flat()
        .flatMap((b) => b.events.map((e) => ({ ...e, blockHash: b.block.hash })))
        .filter((e) => e.txId === txId && e.eventIndex === 0);
      assert.equal(new Set(both.map((e) => e.blockHash)).size, 2);
      assert.equal(new Set(both.map((e) => `${e.txId}/${e.eventIndex}`)).size, 1);

      assert.equal(await count(), countBefore, 'the fork does not count the events again');
      const page = await api.json<{ events: Ev[] }>(
        `/events/contract/${counter().address}?start=${countBefore - 2}`,
      );
      assert.deepEqual(
        page.events.map((e) => [e.txId, e.blockHash, e.timestamp]),
        [[txId, fork.replacement, fork.timestamp]],
      );
      const byTx = await api.json<{ events: Ev[] }>(`/events/tx-id/${txId}`);
      assert.ok(byTx.events.length > 0 && byTx.events.every((e) => e.blockHash === fork.replacement));
      const status = await api.json<{ type: string; blockHash: string; chainConfirmations: number }>(
        `/transactions/status?txId=${txId}`,
      );
      assert.deepEqual(
        [status.type, status.blockHash, status.chainConfirmations],
        ['Confirmed', fork.replacement, 1],
      );

      const inMain = (h: string) => api.json<boolean>(`/blockflow/is-block-in-main-chain?blockHash=${h}`);
      assert.equal(await inMain(blockHash), false);
      assert.equal(await inMain(fork.replacement), true);
      // The node keeps the abandoned block: by hash, and its events as it carried them.
      const abandoned = await api.json<{ hash: string; transactions: { unsigned: { txId: string } }[] }>(
        `/blockflow/blocks/${blockHash}`,
      );
      assert.ok(abandoned.transactions.some((t) => t.unsigned.txId === txId));
      const abandonedEvents = await api.json<{ events: Ev[] }>(`/events/block-hash/${blockHash}`);
      assert.deepEqual(
        abandonedEvents.events.filter((e) => e.eventIndex === 0).map((e) => [e.txId, e.timestamp]),
        [[txId, header.timestamp]],
      );
      // The next round builds on the sibling, timed after it.
      clock.advance(1);
      await control(sb, 'POST', '/mine');
      const child = await api.json<{ currentHeight: number }>(
        `/blockflow/chain-info?fromGroup=${header.chainFrom}&toGroup=${header.chainTo}`,
      );
      assert.equal(child.currentHeight, header.height + 1);
      const statusLater = await api.json<{ chainConfirmations: number }>(`/transactions/status?txId=${txId}`);
      assert.equal(statusLater.chainConfirmations, 2);
    });

    it('validates chainFrom and chainTo, and refuses a genesis-only chain, with a 400', async () => {
      for (const body of [
        { chainFrom: 4, chainTo: 0 },
        { chainFrom: 0, chainTo: -1 },
        { chainFrom: '0', chainTo: 0 },
        { chainTo: 1 },
        { chainFrom: 1.5, chainTo: 1 },
      ]) {
        const r = await refused(sb, '/fork', body);
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.match(r.detail, /^chain(From|To) must be an integer from 0 to 3, got /);
      }
      const fresh = await newSandbox();
      try {
        const r = await refused(fresh.sb, '/fork', { chainFrom: 2, chainTo: 3 });
        assert.equal(r.status, 400);
        assert.match(r.detail, /holds only its genesis block/);
        assert.throws(() => fresh.sb.fork(2, 3), /genesis/);
        fresh.sb.mine();
        const forked = fresh.sb.fork(2, 3);
        assert.equal(forked.height, 1);
      } finally {
        await fresh.sb.close();
      }
    });

    it('is-block-in-main-chain: 400 without or with a bad hash, 404 for an unknown block', async () => {
      assert.equal((await api.get('/blockflow/is-block-in-main-chain')).status, 400);
      assert.equal((await api.get('/blockflow/is-block-in-main-chain?blockHash=xyz')).status, 400);
      const unknown = await api.get(`/blockflow/is-block-in-main-chain?blockHash=${'ab'.repeat(32)}`);
      assert.equal(unknown.status, 404);
      assert.match(((await unknown.json()) as { detail: string }).detail, /does not exist/);
    });
  });

  describe('a gateway that does not forward blocks-with-events', () => {
    it('is a status fault of 404 on that path, until cleared, while /blockflow/blocks still answers', async () => {
      await control(sb, 'POST', '/faults', {
        path: '/blockflow/blocks-with-events',
        kind: 'status',
        status: 404,
        detail: 'Not found: /blockflow/blocks-with-events',
      });
      const window = `fromTs=${clock.now() - 1000}&toTs=${clock.now()}`;
      for (let i = 0; i < 3; i++) {
        const res = await api.get(`/blockflow/blocks-with-events?${window}`);
        assert.equal(res.status, 404);
        assert.deepEqual(await res.json(), { detail: 'Not found: /blockflow/blocks-with-events' });
      }
      assert.equal((await api.get(`/blockflow/blocks?${window}`)).status, 200);
      await control(sb, 'DELETE', '/faults');
      assert.equal((await api.get(`/blockflow/blocks-with-events?${window}`)).status, 200);
    });
  });
});
