/**
 * A person waiting on a request is told when it is retried: the pipeline announces each retry, whose it
 * is and why, before its wait starts (a slow call-contract once retried silently after 30 s).
 */
import assert from 'node:assert/strict';
import {
  isUsersRetry,
  retryLine,
  SLOW_REQUEST_MS,
  type RetryNotice,
} from '../../../src/core/gateway/waiting';
import { BLOCK_HASH, CONTRACT, harness, json } from './helpers';

describe('retries a person can see', () => {
  it('announces a retry of a 500 before its wait, with its number, delay and reason', async () => {
    const { client, transport, clock } = harness();
    const notices: { notice: RetryNotice; sent: number; at: number }[] = [];
    client.onRetry((notice) => notices.push({ notice, sent: transport.requests.length, at: clock.now() }));
    transport.on(
      `/events/block-hash/${BLOCK_HASH}`,
      json(500, { detail: 'boom' }),
      json(200, { events: [] }),
    );
    assert.deepEqual(await clock.run(client.getEventsByBlockHash(BLOCK_HASH)), []);
    assert.equal(notices.length, 1);
    const [{ notice, sent, at }] = notices as [(typeof notices)[0]];
    assert.equal(notice.endpoint, 'GET /events/block-hash/{blockHash}');
    assert.equal(notice.attempt, 1);
    assert.equal(notice.reason, 'HTTP 500');
    assert.equal(notice.priority, 'user');
    assert.ok(isUsersRetry(notice));
    // Said after the first answer and before the retry's wait: the second request comes delayMs later.
    assert.equal(sent, 1);
    assert.equal((transport.requests[1]?.at ?? 0) - at, notice.delayMs);
  });

  it("a connection failure says so; background polling's retries are not the person's", async () => {
    const { client, transport, clock } = harness();
    const notices: RetryNotice[] = [];
    client.onRetry((notice) => notices.push(notice));
    transport.on(
      `/contracts/${CONTRACT}/state`,
      Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
      json(404, { detail: 'gone' }),
    );
    await clock.run(client.getContractState(CONTRACT, { priority: 'background' }).catch(() => undefined));
    assert.equal(notices.length, 1);
    const [notice] = notices;
    assert.ok(notice);
    assert.equal(notice.reason, 'no answer');
    assert.equal(isUsersRetry(notice), false);
  });

  it('says when the retry is sent, in seconds, and progress waits 2 s before it shows', () => {
    const line = retryLine({
      endpoint: 'POST /contracts/call-contract',
      priority: 'user',
      attempt: 2,
      delayMs: 2_600,
      reason: 'no answer in time',
    });
    assert.equal(line, 'no answer in time; retry 2 of POST /contracts/call-contract in 3 s');
    assert.equal(SLOW_REQUEST_MS, 2_000);
  });
});
