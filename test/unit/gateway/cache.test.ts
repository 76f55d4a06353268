/** Cache lifetimes from the spec, the LRU bound, and sharing of identical in-flight GETs. */
import assert from 'node:assert/strict';
import { TtlLruCache } from '../../../src/core/gateway/cache';
import { CancelledError, ValidationError } from '../../../src/core/gateway/errors';
import {
  CODE_HASH,
  CONTRACT,
  CONTRACT_STATE,
  FakeClock,
  P2PKH,
  TX_DETAILS,
  TX_ID,
  hang,
  harness,
  json,
  outcome,
} from './helpers';

const BALANCE = { balance: '5', lockedBalance: '0', utxoNum: 1 };
const DAY = 24 * 3600_000;

describe('gateway caching', () => {
  it("reading the same confirmed transaction's details twice costs one request (forever)", async () => {
    const { client, transport, clock } = harness();
    transport.on(`/transactions/details/${TX_ID}`, json(200, TX_DETAILS));
    const first = await clock.run(client.getTxDetails(TX_ID, { fromGroup: 0, toGroup: 0 }));
    await clock.advance(365 * DAY);
    const second = await clock.run(client.getTxDetails(TX_ID, { fromGroup: 0, toGroup: 0 }));
    assert.deepEqual(second, first);
    assert.equal(transport.requests.length, 1);
  });

  it("reading a contract's immutable fields twice costs one request (forever), mutable state expires", async () => {
    const { client, transport, clock } = harness();
    transport.on(`/contracts/${CONTRACT}/state`, json(200, CONTRACT_STATE));
    assert.deepEqual(await clock.run(client.getContractImmFields(CONTRACT)), CONTRACT_STATE.immFields);
    await clock.advance(30 * DAY);
    assert.deepEqual(await clock.run(client.getContractImmFields(CONTRACT)), CONTRACT_STATE.immFields);
    assert.equal(transport.requests.length, 1);
    // The mutable part is long expired: a state read goes to the network.
    await clock.run(client.getContractState(CONTRACT));
    assert.equal(transport.requests.length, 2);
  });

  it('a state read also fills the immutable-fields and code caches', async () => {
    const { client, transport, clock } = harness();
    transport.on(`/contracts/${CONTRACT}/state`, json(200, CONTRACT_STATE));
    await clock.run(client.getContractState(CONTRACT));
    await clock.run(client.getContractImmFields(CONTRACT));
    assert.equal(await clock.run(client.getContractCode(CODE_HASH)), CONTRACT_STATE.bytecode);
    assert.equal(transport.requests.length, 1);
  });

  it('chain params and code by hash are cached forever', async () => {
    const { client, transport, clock } = harness();
    const other = '9'.repeat(64);
    transport.on('/infos/chain-params', json(200, { networkId: 0, groups: 4 }));
    transport.on(`/contracts/${other}/code`, json(200, 'beef'));
    for (let i = 0; i < 3; i++) {
      await clock.run(client.getChainParams());
      await clock.run(client.getContractCode(other));
      await clock.advance(100 * DAY);
    }
    assert.equal(transport.requests.length, 2);
  });

  it('balances and mutable contract fields live 10 s by default', async () => {
    const { client, transport, clock } = harness();
    transport.on(`/addresses/${P2PKH}/balance`, json(200, BALANCE));
    transport.on(`/contracts/${CONTRACT}/state`, json(200, CONTRACT_STATE));
    await clock.run(client.getAddressBalance(P2PKH));
    await clock.run(client.getContractState(CONTRACT));
    await clock.advance(9_999);
    await clock.run(client.getAddressBalance(P2PKH));
    await clock.run(client.getContractState(CONTRACT));
    assert.equal(transport.requests.length, 2);
    await clock.advance(1);
    await clock.run(client.getAddressBalance(P2PKH));
    await clock.run(client.getContractState(CONTRACT));
    assert.equal(transport.requests.length, 4);
  });

  it('the mutable lifetime is configurable within the spec range of 5-15 s', async () => {
    const { client, transport, clock } = harness({ cache: { mutableTtlMs: 5_000 } });
    transport.on(`/addresses/${P2PKH}/balance`, json(200, BALANCE));
    await clock.run(client.getAddressBalance(P2PKH));
    await clock.advance(5_000);
    await clock.run(client.getAddressBalance(P2PKH));
    assert.equal(transport.requests.length, 2);
    assert.throws(() => harness({ cache: { mutableTtlMs: 20_000 } }), ValidationError);
    assert.throws(() => harness({ cache: { mutableTtlMs: 1_000 } }), ValidationError);
  });

  it('the hashrate lives 30 s', async () => {
    const { client, transport, clock } = harness();
    transport.on('/infos/current-hashrate', json(200, { hashrate: '1 MH/s' }));
    await clock.run(client.getCurrentHashrate());
    await clock.advance(29_999);
    await clock.run(client.getCurrentHashrate());
    assert.equal(transport.requests.length, 1);
    await clock.advance(1);
    await clock.run(client.getCurrentHashrate());
    assert.equal(transport.requests.length, 2);
  });

  it('status and event counts are never cached', async () => {
    const { client, transport, clock } = harness();
    transport.on('/transactions/status', json(200, { type: 'MemPooled' }));
    transport.on(`/events/contract/${CONTRACT}/current-count`, json(200, 3));
    for (let i = 0; i < 3; i++) {
      await clock.run(client.getTxStatus(TX_ID));
      await clock.run(client.getContractEventCount(CONTRACT));
    }
    assert.equal(transport.requests.length, 6);
  });

  it('`fresh` skips the cache but refreshes it', async () => {
    const { client, transport, clock } = harness();
    transport.on(`/addresses/${P2PKH}/balance`, json(200, BALANCE), json(200, { ...BALANCE, balance: '6' }));
    await clock.run(client.getAddressBalance(P2PKH));
    assert.equal((await clock.run(client.getAddressBalance(P2PKH, { fresh: true }))).balance, '6');
    assert.equal((await clock.run(client.getAddressBalance(P2PKH))).balance, '6');
    assert.equal(transport.requests.length, 2);
  });

  it('errors are not cached', async () => {
    const { client, transport, clock } = harness();
    transport.on('/infos/chain-params', json(400, { detail: 'x' }), json(200, { networkId: 0, groups: 4 }));
    await outcome(clock, client.getChainParams());
    assert.equal((await clock.run(client.getChainParams())).groups, 4);
    assert.equal(transport.requests.length, 2);
  });

  describe('in-flight sharing', () => {
    it('identical GETs in flight share one request', async () => {
      const { client, transport, clock } = harness();
      let answer: (() => void) | undefined;
      let calls = 0;
      // The first request hangs until the test answers it; later ones answer at once.
      transport.on('/transactions/status', () =>
        calls++ === 0
          ? new Promise((resolve) => (answer = () => resolve(json(200, { type: 'MemPooled' }))))
          : json(200, { type: 'MemPooled' }),
      );
      const all = Promise.all([
        client.getTxStatus(TX_ID),
        client.getTxStatus(TX_ID),
        client.getTxStatus(TX_ID),
      ]);
      await clock.advance(0);
      answer?.();
      const results = await clock.run(all);
      assert.equal(transport.requests.length, 1);
      assert.deepEqual(results, [{ type: 'MemPooled' }, { type: 'MemPooled' }, { type: 'MemPooled' }]);
      // Once settled, the next read is a new request (status is never cached).
      await clock.run(client.getTxStatus(TX_ID));
      assert.equal(transport.requests.length, 2);
    });

    it('different queries are not shared', async () => {
      const { client, transport, clock } = harness();
      transport.on('/transactions/status', json(200, { type: 'MemPooled' }));
      await clock.run(
        Promise.all([
          client.getTxStatus(TX_ID, { fromGroup: 0 }),
          client.getTxStatus(TX_ID, { fromGroup: 1 }),
        ]),
      );
      assert.equal(transport.requests.length, 2);
    });

    it('one caller cancelling does not cancel the others; the last one does abort the request', async () => {
      const { client, transport, clock } = harness();
      transport.on('/infos/version', hang());
      const a = new AbortController();
      const b = new AbortController();
      const pa = client.getVersion({ signal: a.signal });
      const pb = client.getVersion({ signal: b.signal });
      await clock.advance(0);
      a.abort();
      assert.ok((await outcome(clock, pa)).error instanceof CancelledError);
      assert.equal(transport.requests[0]?.signal.aborted, false);
      b.abort();
      assert.ok((await outcome(clock, pb)).error instanceof CancelledError);
      assert.equal(transport.requests[0]?.signal.aborted, true);
      assert.equal(transport.requests.length, 1);
    });

    it('a user joining a queued background request promotes it', async () => {
      const { client, transport, clock } = harness();
      transport.on(/.*/, json(200, { type: 'MemPooled' }));
      const txId = (i: number) => i.toString(16).padStart(64, '0');
      // Fill the 4 slots of this second background may use (the 5th is kept for users), then queue two.
      const busy = Array.from({ length: 4 }, (_, i) =>
        client.getTxStatus(txId(i), {}, { priority: 'background' }),
      );
      const bgA = client.getTxStatus(txId(10), {}, { priority: 'background' });
      const bgB = client.getTxStatus(txId(11), {}, { priority: 'background' });
      await clock.advance(0);
      const user = client.getTxStatus(txId(11), {}, { priority: 'user' });
      await clock.run(Promise.all([...busy, bgA, bgB, user]));
      const order = transport.requests.map((r) =>
        parseInt(new URL(`http://x${r.path}`).searchParams.get('txId') ?? '', 16).toString(16),
      );
      assert.deepEqual(order.slice(4), ['b', 'a']);
      assert.equal(transport.requests.length, 6);
    });
  });

  describe('TtlLruCache', () => {
    it('evicts the least recently used entry beyond its size bound', () => {
      const clock = new FakeClock();
      const cache = new TtlLruCache<number>(() => clock.now(), 2);
      cache.set('a', 1, Infinity);
      cache.set('b', 2, Infinity);
      assert.equal(cache.get('a'), 1); // a is now more recent than b
      cache.set('c', 3, Infinity);
      assert.equal(cache.get('b'), undefined);
      assert.equal(cache.get('a'), 1);
      assert.equal(cache.get('c'), 3);
      assert.equal(cache.size, 2);
    });

    it('expires entries on the injected clock', async () => {
      const clock = new FakeClock();
      const cache = new TtlLruCache<string>(() => clock.now(), 10);
      cache.set('k', 'v', 1000);
      await clock.advance(999);
      assert.equal(cache.get('k'), 'v');
      await clock.advance(1);
      assert.equal(cache.get('k'), undefined);
    });

    it('the client cache is bounded too', async () => {
      const { client, transport, clock } = harness({ cache: { maxEntries: 2 } });
      const hashes = ['1', '2', '3'].map((c) => c.repeat(64));
      for (const h of hashes) transport.on(`/contracts/${h}/code`, json(200, 'ab'));
      for (const h of hashes) await clock.run(client.getContractCode(h));
      await clock.run(client.getContractCode(hashes[0] as string)); // evicted: fetched again
      await clock.run(client.getContractCode(hashes[2] as string)); // still cached
      assert.equal(transport.requests.length, 4);
    });
  });
});
