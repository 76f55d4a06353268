/** The spec's error table as retry policy, row by row, on a fake transport and a fake clock. */
import assert from 'node:assert/strict';
import { blake2b } from '@noble/hashes/blake2.js';
import {
  CancelledError,
  GatewayHttpError,
  MissingKeyError,
  NetworkError,
  RequestTimeoutError,
  SubmitOutcomeUnknownError,
} from '../../../src/core/gateway/errors';
import type { SyncStateChange, UnauthorizedEvent } from '../../../src/core/gateway/client';
import {
  BLOCK_HASH,
  CONTRACT,
  KEY,
  SELF_CLIQUE_SYNCED,
  SIGNATURE,
  TX_DETAILS,
  TX_ID,
  harness,
  hang,
  json,
  outcome,
  rateHeaders,
} from './helpers';

const VERSION = json(200, { version: 'v3.5.0' });
const detail = (text: string) => ({ detail: text });

describe('gateway error table', () => {
  describe('400 bad request', () => {
    it('is never retried and carries the detail for logs', async () => {
      const { client, transport, clock } = harness();
      transport.on('/addresses/' + CONTRACT + '/group', json(400, detail('Invalid address')));
      const { error } = await outcome(clock, client.getAddressGroup(CONTRACT));
      assert.ok(error instanceof GatewayHttpError);
      assert.equal(error.kind, 'badRequest');
      assert.equal(error.status, 400);
      assert.equal(error.detail, 'Invalid address');
      assert.equal(error.endpoint, 'GET /addresses/{address}/group');
      assert.equal(transport.requests.length, 1);
    });

    it('is not retried for POSTs either', async () => {
      const { client, transport, clock } = harness();
      transport.on('/transactions/decode-unsigned-tx', json(400, detail('bad tx')));
      const { error } = await outcome(clock, client.decodeUnsignedTx('00'));
      assert.equal((error as GatewayHttpError).kind, 'badRequest');
      assert.equal(transport.requests.length, 1);
    });
  });

  describe('401 unauthorized', () => {
    it('is never retried with the same key, says the key must be replaced and fires onUnauthorized', async () => {
      const { client, transport, clock } = harness();
      const events: UnauthorizedEvent[] = [];
      client.onUnauthorized((e) => events.push(e));
      transport.on('/infos/version', json(401, detail('API key revoked')));
      const { error } = await outcome(clock, client.getVersion());
      assert.ok(error instanceof GatewayHttpError);
      assert.equal(error.kind, 'unauthorized');
      assert.equal(error.keyMustBeReplaced, true);
      assert.match(error.message, /must be replaced/);
      assert.equal(transport.requests.length, 1);
      assert.deepEqual(events, [{ endpoint: 'GET /infos/version', detail: 'API key revoked' }]);
    });

    it('retries once when the key was replaced meanwhile, with the new key', async () => {
      let key = 'old-key-000000';
      const { client, transport, clock } = harness({ keyProvider: () => key });
      transport.on('/infos/version', (req) => {
        // The user replaces the key while the first request is out.
        key = 'new-key-111111';
        return req.headers.authorization === 'Bearer new-key-111111' ? VERSION : json(401, detail('revoked'));
      });
      const version = await clock.run(client.getVersion());
      assert.equal(version.version, 'v3.5.0');
      assert.deepEqual(
        transport.requests.map((r) => r.headers.authorization),
        ['Bearer old-key-000000', 'Bearer new-key-111111'],
      );
    });

    it('sends nothing without a key', async () => {
      const { client, transport, clock } = harness({ keyProvider: () => undefined });
      const { error } = await outcome(clock, client.getVersion());
      assert.ok(error instanceof MissingKeyError);
      assert.equal(error.kind, 'missingKey');
      assert.equal(transport.requests.length, 0);
    });
  });

  describe('404 not found', () => {
    it('is not retried by default', async () => {
      const { client, transport, clock } = harness();
      transport.on(`/transactions/details/${TX_ID}`, json(404, { detail: 'not found', resource: 'tx' }));
      const { error } = await outcome(clock, client.getTxDetails(TX_ID));
      assert.equal((error as GatewayHttpError).kind, 'notFound');
      assert.equal((error as GatewayHttpError).resource, 'tx');
      assert.equal(transport.requests.length, 1);
    });

    it('waits for a pending transaction when asked to (details with waitMs)', async () => {
      const { client, transport, clock } = harness();
      transport.on(
        `/transactions/details/${TX_ID}`,
        json(404, detail('not yet')),
        json(404, detail('not yet')),
        json(200, TX_DETAILS),
      );
      const started = clock.now();
      const details = await clock.run(client.getTxDetails(TX_ID, {}, { waitMs: 20_000 }));
      assert.equal(details.unsigned.txId, TX_ID);
      assert.equal(transport.requests.length, 3);
      assert.equal(clock.now() - started, 8_000);
    });

    it('gives up waiting when the wait is over', async () => {
      const { client, transport, clock } = harness();
      transport.on(`/transactions/details/${TX_ID}`, json(404, detail('not yet')));
      const { error } = await outcome(clock, client.getTxDetails(TX_ID, {}, { waitMs: 10_000 }));
      assert.equal((error as GatewayHttpError).kind, 'notFound');
      assert.equal(transport.requests.length, 3); // at 0, 4 s and 8 s; 12 s would be past the wait
    });

    it('TxNotFound from the status endpoint is a normal result', async () => {
      const { client, transport, clock } = harness();
      transport.on('/transactions/status', json(200, { type: 'TxNotFound' }));
      const status = await clock.run(client.getTxStatus(TX_ID, { fromGroup: 0, toGroup: 1 }));
      assert.equal(status.type, 'TxNotFound');
      assert.equal(transport.requests[0]?.path, `/transactions/status?txId=${TX_ID}&fromGroup=0&toGroup=1`);
    });

    it('events of a contract that never emitted (404) are an empty page; its count is 0', async () => {
      const { client, transport, clock } = harness();
      transport.on(
        /^\/events\/contract\/[^/]+\?/,
        json(404, detail(`Contract events of ${CONTRACT} not found`)),
      );
      transport.on(`/events/contract/${CONTRACT}/current-count`, json(404, detail('not found')));
      const page = await clock.run(client.getContractEvents(CONTRACT, { start: 5, limit: 10 }));
      assert.deepEqual(page, { events: [], nextStart: 5 });
      assert.equal(await clock.run(client.getContractEventCount(CONTRACT)), 0);
      assert.equal(transport.requests.length, 2);
    });
  });

  describe('429 rate limited', () => {
    it('waits until X-RateLimit-Reset, then retries', async () => {
      const { client, transport, clock } = harness();
      const resetSec = Math.floor(clock.now() / 1000) + 3;
      transport.on(
        '/infos/version',
        json(429, detail('API rate limit exceeded'), rateHeaders(5, 0, resetSec)),
        VERSION,
      );
      const version = await clock.run(client.getVersion());
      assert.equal(version.version, 'v3.5.0');
      assert.equal(transport.requests.length, 2);
      assert.equal(transport.requests[1]?.at, resetSec * 1000);
    });

    it('gives up after a bounded number of retries', async () => {
      const { client, transport, clock } = harness({ retry: { maxRateLimitRetries: 2 } });
      transport.on('/infos/version', () =>
        json(429, detail('API rate limit exceeded'), rateHeaders(5, 0, Math.floor(clock.now() / 1000) + 1)),
      );
      const { error } = await outcome(clock, client.getVersion());
      assert.equal((error as GatewayHttpError).kind, 'rateLimited');
      assert.equal(transport.requests.length, 3);
    });

    it('without headers waits one second', async () => {
      const { client, transport, clock } = harness();
      transport.on('/infos/version', json(429, detail('slow down')), VERSION);
      await clock.run(client.getVersion());
      const [first, second] = transport.requests;
      assert.equal((second?.at ?? 0) - (first?.at ?? 0), 1000);
    });
  });

  describe('500 internal error', () => {
    it('backs off exponentially with jitter, then succeeds', async () => {
      // random() = 0.5: each delay is 3/4 of its cap (half fixed, half jittered).
      const { client, transport, clock } = harness();
      transport.on(
        '/infos/version',
        json(500, detail('boom')),
        json(500, detail('boom')),
        json(500, detail('boom')),
        VERSION,
      );
      await clock.run(client.getVersion());
      const at = transport.requests.map((r) => r.at - (transport.requests[0]?.at ?? 0));
      assert.deepEqual(at, [0, 375, 375 + 750, 375 + 750 + 1500]);
    });

    it('uses the injected random for the jitter', async () => {
      const { client, transport, clock } = harness({ random: () => 0 });
      transport.on('/infos/version', json(500, detail('boom')), VERSION);
      await clock.run(client.getVersion());
      assert.equal((transport.requests[1]?.at ?? 0) - (transport.requests[0]?.at ?? 0), 250);
    });

    it('is bounded', async () => {
      const { client, transport, clock } = harness({ retry: { maxServerRetries: 2 } });
      transport.on('/infos/version', json(500, detail('boom')));
      const { error } = await outcome(clock, client.getVersion());
      assert.equal((error as GatewayHttpError).kind, 'server');
      assert.equal(transport.requests.length, 3);
    });
  });

  describe('503 node syncing', () => {
    it('polls self-clique until synced (observable as "syncing"), then retries', async () => {
      const { client, transport, clock } = harness();
      const states: SyncStateChange[] = [];
      client.onSyncState((s) => states.push(s));
      transport.on('/infos/version', json(503, detail('Unsynced clique')), VERSION);
      transport.on(
        '/infos/self-clique',
        json(200, { ...SELF_CLIQUE_SYNCED, synced: false }),
        json(200, SELF_CLIQUE_SYNCED),
      );
      const pending = client.getVersion();
      await clock.advance(0);
      assert.equal(client.syncState, 'syncing');
      const version = await clock.run(pending);
      assert.equal(version.version, 'v3.5.0');
      assert.deepEqual(transport.paths(), [
        '/infos/version',
        '/infos/self-clique',
        '/infos/self-clique',
        '/infos/version',
      ]);
      assert.deepEqual(
        states.map((s) => s.state),
        ['syncing', 'synced'],
      );
      assert.equal(client.syncState, 'synced');
    });

    it('accepts the spec form nodes[].isSynced while polling', async () => {
      const { client, transport, clock } = harness();
      transport.on('/infos/version', json(503, detail('Unsynced clique')), VERSION);
      transport.on(
        '/infos/self-clique',
        json(200, { nodes: [{ isSynced: false }] }),
        json(200, { nodes: [{ isSynced: true }] }),
      );
      await clock.run(client.getVersion());
      assert.equal(transport.count('/infos/self-clique'), 2);
    });

    it('several requests meeting a 503 share one sync wait', async () => {
      const { client, transport, clock } = harness();
      transport.on('/infos/version', json(503, detail('Unsynced')), VERSION);
      transport.on(
        '/infos/chain-params',
        json(503, detail('Unsynced')),
        json(200, { networkId: 1, groups: 4 }),
      );
      transport.on(
        '/infos/self-clique',
        json(200, { ...SELF_CLIQUE_SYNCED, synced: false }),
        json(200, SELF_CLIQUE_SYNCED),
      );
      await clock.run(Promise.all([client.getVersion(), client.getChainParams()]));
      assert.equal(transport.count('/infos/self-clique'), 2);
    });

    it('gives up with the 503 when the node does not sync in time', async () => {
      const { client, transport, clock } = harness({
        retry: { maxSyncWaitMs: 30_000, syncPollIntervalMs: 10_000 },
      });
      transport.on('/infos/version', json(503, detail('Unsynced clique')));
      transport.on('/infos/self-clique', json(200, { ...SELF_CLIQUE_SYNCED, synced: false }));
      const { error } = await outcome(clock, client.getVersion());
      assert.equal((error as GatewayHttpError).kind, 'unavailable');
      assert.equal(transport.count('/infos/self-clique'), 3);
      assert.equal(transport.count('/infos/version'), 1);
    });

    it('is bounded in the number of sync waits per request', async () => {
      const { client, transport, clock } = harness({ retry: { maxSyncRetries: 2 } });
      transport.on('/infos/version', json(503, detail('Unsynced clique')));
      transport.on('/infos/self-clique', json(200, SELF_CLIQUE_SYNCED));
      const { error } = await outcome(clock, client.getVersion());
      assert.equal((error as GatewayHttpError).status, 503);
      assert.equal(transport.count('/infos/version'), 3);
    });
  });

  describe('504 gateway timeout', () => {
    const block = (hash: string, ts: number) => ({
      hash,
      timestamp: ts,
      chainFrom: 0,
      chainTo: 0,
      height: 1,
      deps: [],
      transactions: [],
    });

    it('splits a blocks range and retries the halves, merging per chain', async () => {
      const { client, transport, clock } = harness();
      const from = 1_700_000_000_000;
      const to = from + 60_000;
      transport.on(`/blockflow/blocks?fromTs=${from}&toTs=${to}`, json(504, detail('timeout')));
      transport.on(
        /^\/blockflow\/blocks\?fromTs=1700000000000&toTs=1700000030000$/,
        json(200, { blocks: [[block('1'.repeat(64), from + 1)], []] }),
      );
      transport.on(
        /^\/blockflow\/blocks\?fromTs=1700000030001&toTs=1700000060000$/,
        json(200, {
          blocks: [[block('2'.repeat(64), from + 40_000)], [block('3'.repeat(64), from + 50_000)]],
        }),
      );
      const result = await clock.run(client.getBlocks(from, to));
      assert.deepEqual(
        result.blocks.map((chain) => chain.map((b) => b.hash[0])),
        [['1', '2'], ['3']],
      );
      assert.equal(transport.requests.length, 3);
    });

    it('elsewhere backs off and retries', async () => {
      const { client, transport, clock } = harness();
      transport.on(
        `/events/block-hash/${BLOCK_HASH}`,
        json(504, detail('timeout')),
        json(200, { events: [] }),
      );
      assert.deepEqual(await clock.run(client.getEventsByBlockHash(BLOCK_HASH)), []);
      assert.equal(transport.requests.length, 2);
      assert.equal((transport.requests[1]?.at ?? 0) - (transport.requests[0]?.at ?? 0), 375);
    });

    it('a range that cannot be split further surfaces the timeout', async () => {
      const { client, transport, clock } = harness({ retry: { maxServerRetries: 0 } });
      const from = 1_700_000_000_000;
      transport.on(/^\/blockflow\/blocks/, json(504, detail('timeout')));
      const { error } = await outcome(clock, client.getBlocks(from, from + 4_000));
      assert.equal((error as GatewayHttpError).kind, 'timeout');
      // 4 s -> 2 s -> 1 s halves: 1 + 2 + 1 requests before the first 1 s piece fails.
      assert.equal(transport.requests.length, 3);
    });
  });

  describe('network failures', () => {
    it('retries idempotent reads', async () => {
      const { client, transport, clock } = harness();
      transport.on(
        '/infos/version',
        Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
        VERSION,
      );
      assert.equal((await clock.run(client.getVersion())).version, 'v3.5.0');
      assert.equal(transport.requests.length, 2);
    });

    it('gives up with a NetworkError after a bounded number of tries', async () => {
      const { client, transport, clock } = harness({ retry: { maxNetworkRetries: 1 } });
      transport.on('/infos/version', new Error('ECONNREFUSED'));
      const { error } = await outcome(clock, client.getVersion());
      assert.ok(error instanceof NetworkError);
      assert.equal(error.kind, 'network');
      assert.equal(transport.requests.length, 2);
    });

    it('times out a hung request on the injected clock, and retries it', async () => {
      const { client, transport, clock } = harness({ timeoutMs: 5_000, retry: { maxNetworkRetries: 1 } });
      transport.on('/infos/version', hang());
      const { error } = await outcome(clock, client.getVersion());
      assert.ok(error instanceof RequestTimeoutError);
      assert.equal(error.kind, 'timeout');
      assert.equal(transport.requests.length, 2);
      assert.equal(transport.requests[0]?.signal.aborted, true);
    });

    it('cancellation aborts the request and is not retried', async () => {
      const { client, transport, clock } = harness();
      transport.on('/infos/version', hang());
      const controller = new AbortController();
      const pending = client.getVersion({ signal: controller.signal });
      await clock.advance(10);
      controller.abort();
      const { error } = await outcome(clock, pending);
      assert.ok(error instanceof CancelledError);
      assert.equal(error.name, 'AbortError');
      await clock.advance(100_000);
      assert.equal(transport.requests.length, 1);
      assert.equal(transport.requests[0]?.signal.aborted, true);
    });
  });

  describe('submit whose outcome is unknown', () => {
    const submit = { unsignedTx: '0011223344', signature: SIGNATURE, fromGroup: 0, toGroup: 1 };
    // txId = blake2b-256 of the unsigned bytes, computed here independently of the client.
    const expectedTxId = Buffer.from(blake2b(Buffer.from(submit.unsignedTx, 'hex'), { dkLen: 32 })).toString(
      'hex',
    );

    it('asks status for the txId instead of resending, and reports a recovered success', async () => {
      const { client, transport, clock } = harness();
      transport.on('/transactions/submit', new Error('socket hang up'));
      transport.on('/transactions/status', json(200, { type: 'MemPooled' }));
      const result = await clock.run(client.submitTransaction(submit));
      assert.equal(result.recovered, true);
      assert.equal(transport.count('/transactions/submit'), 1);
      const statusQuery = new URL('http://x' + (transport.requests[1]?.path ?? '')).searchParams;
      assert.equal(result.txId, expectedTxId);
      assert.equal(statusQuery.get('txId'), expectedTxId);
      assert.equal(statusQuery.get('fromGroup'), '0');
    });

    it('resends once when the node has never seen the transaction', async () => {
      const { client, transport, clock } = harness();
      transport.on(
        '/transactions/submit',
        json(500, detail('boom')),
        json(200, { txId: 'a'.repeat(64), fromGroup: 0, toGroup: 1 }),
      );
      transport.on('/transactions/status', json(200, { type: 'TxNotFound' }));
      const result = await clock.run(client.submitTransaction(submit));
      assert.equal(result.recovered, false);
      assert.deepEqual(
        transport.paths().map((p) => p.split('?')[0]),
        ['/transactions/submit', '/transactions/status', '/transactions/submit'],
      );
    });

    it('fails with SubmitOutcomeUnknownError when status cannot be asked either', async () => {
      const { client, transport, clock } = harness({ retry: { submitStatusChecks: 2 } });
      transport.on('/transactions/submit', new Error('socket hang up'));
      transport.on('/transactions/status', new Error('ECONNREFUSED'));
      const { error } = await outcome(clock, client.submitTransaction(submit));
      assert.ok(error instanceof SubmitOutcomeUnknownError);
      assert.equal(error.kind, 'submitUnknown');
      assert.equal(transport.count('/transactions/submit'), 1);
    });

    it('a 400 on submit is final: no status check, no resend', async () => {
      const { client, transport, clock } = harness();
      transport.on('/transactions/submit', json(400, detail('invalid signature')));
      const { error } = await outcome(clock, client.submitTransaction(submit));
      assert.equal((error as GatewayHttpError).kind, 'badRequest');
      assert.deepEqual(transport.paths(), ['/transactions/submit']);
    });

    it('uses the key for every request', async () => {
      const { client, transport, clock } = harness();
      transport.on('/transactions/submit', json(200, { txId: 'a'.repeat(64), fromGroup: 0, toGroup: 1 }));
      await clock.run(client.submitTransaction(submit));
      assert.equal(transport.requests[0]?.headers.authorization, `Bearer ${KEY}`);
      assert.deepEqual(JSON.parse(transport.requests[0]?.body ?? ''), {
        unsignedTx: submit.unsignedTx,
        signature: SIGNATURE,
      });
    });
  });
});
