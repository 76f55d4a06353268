/**
 * A fresh read is an answer from after it was asked: it joins an identical GET only while that one still
 * waits for its slot, never one already sent (whose answer may predate the events the caller has seen).
 */
import assert from 'node:assert/strict';
import type { TransportResponse } from '../../../src/core/gateway/transport';
import { CONTRACT, CONTRACT_STATE, harness, json } from './helpers';

const stateWithCount = (count: number) => ({
  ...CONTRACT_STATE,
  mutFields: [{ type: 'U256', value: String(count) }],
});

describe('fresh reads and in-flight sharing', () => {
  it('a fresh state read does not join one already sent: it gets the newer answer', async () => {
    const { client, transport, clock } = harness();
    let answerFirst: (() => void) | undefined;
    let calls = 0;
    transport.on(`/contracts/${CONTRACT}/state`, () =>
      calls++ === 0
        ? new Promise<TransportResponse>(
            (resolve) => (answerFirst = () => resolve(json(200, stateWithCount(7)))),
          )
        : json(200, stateWithCount(8)),
    );
    const listing = client.getContractState(CONTRACT);
    await clock.advance(0);
    assert.equal(transport.requests.length, 1, 'the first read is on its way');
    // The chain moved (an event said count 8) while that read was out: a re-read must not share it.
    const reread = client.getContractState(CONTRACT, { fresh: true });
    await clock.advance(0);
    answerFirst?.();
    const [older, newer] = await clock.run(Promise.all([listing, reread]));
    assert.equal(older.mutFields[0]?.value, '7');
    assert.equal(newer.mutFields[0]?.value, '8', 'the re-read answers from after it was asked');
    assert.equal(transport.requests.length, 2);
  });

  it('a read that is not fresh still joins the one in flight (one request)', async () => {
    const { client, transport, clock } = harness();
    let answer: (() => void) | undefined;
    transport.on(
      `/contracts/${CONTRACT}/state`,
      () =>
        new Promise<TransportResponse>((resolve) => (answer = () => resolve(json(200, stateWithCount(7))))),
    );
    const first = client.getContractState(CONTRACT);
    await clock.advance(0);
    const second = client.getContractState(CONTRACT);
    await clock.advance(0);
    answer?.();
    await clock.run(Promise.all([first, second]));
    assert.equal(transport.requests.length, 1);
  });
});
