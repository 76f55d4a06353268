/**
 * A profile switch keeps what it can: the model puts a profile's states and loaded events aside when
 * another becomes active and shows them again on the way back, without a request; an answer from the
 * profile left behind never lands in the one now shown.
 */
import { strict as assert } from 'node:assert';
import type { GatewayClient } from '../../../../src/core/gateway';
import { HELD_SCOPES } from '../../../../src/core/contracts/watching/watchedContractsModel';
import { makeWatched } from '../../../../src/core/contracts/watching/watchList';
import { COUNTER, fakeCounter, modelOver, settle, shownCount } from './fakeChain';

const OTHER = 'tgx7VNFoP9DJiFMFgXXtafQZkUvyEdDHT9ryamHJYrjq';

describe('watched contracts model: a profile switch away and back', () => {
  it('shows the same state and every loaded event again, and sends nothing for them', async () => {
    const a = fakeCounter(COUNTER, 28);
    const b = fakeCounter(OTHER, 2);
    let active: GatewayClient = a.client;
    const model = modelOver(() => active, 13);
    model.useScope('A');
    model.setList([makeWatched(COUNTER)]);
    await model.loadStates([COUNTER]);
    await model.loadLatestEvents(COUNTER);
    while (model.feed(COUNTER).hasOlder) await model.loadMore(COUNTER);
    await settle();
    assert.equal(model.feed(COUNTER).size, 28);
    const readAt = model.stateOf(COUNTER)?.readAt;
    const sent = { ...a.sent };

    active = b.client;
    model.useScope('B');
    model.setList([makeWatched(OTHER)]);
    assert.equal(model.stateOf(COUNTER), undefined, "B's view holds nothing of A's contract");
    assert.equal(model.feedIfAny(COUNTER), undefined);

    active = a.client;
    model.useScope('A');
    model.setList([makeWatched(COUNTER)]);
    assert.equal(shownCount(model), 28, 'the state (and its code hash, which names the artifact) is back');
    assert.equal(model.stateOf(COUNTER)?.readAt, readAt, 'with the age it was read at');
    assert.equal(model.feedIfAny(COUNTER)?.loaded, true);
    assert.equal(model.feed(COUNTER).size, 28, 'every loaded event is listed again, not the latest page');
    await settle();
    assert.deepEqual(a.sent, sent, 'nothing was read again for it');
    model.dispose();
  });

  it('the same scope again (a new key, a proxy) keeps everything', async () => {
    const a = fakeCounter(COUNTER, 5);
    const model = modelOver(() => a.client);
    model.useScope('A');
    model.setList([makeWatched(COUNTER)]);
    await model.loadStates([COUNTER]);
    await model.loadLatestEvents(COUNTER);
    model.useScope('A');
    model.setList([makeWatched(COUNTER)]);
    assert.equal(shownCount(model), 5);
    assert.equal(model.feed(COUNTER).size, 5);
    model.dispose();
  });

  it("an answer of the profile left behind does not land in the other's view", async () => {
    const a = fakeCounter(COUNTER, 7);
    const b = fakeCounter(COUNTER, 100);
    let active: GatewayClient = a.client;
    const model = modelOver(() => active);
    model.useScope('A');
    model.setList([makeWatched(COUNTER)]);
    a.hold = true;
    const late = model.loadStates([COUNTER]);
    await settle();
    active = b.client;
    // Both profiles watch the same address, on two chains.
    model.useScope('B');
    model.setList([makeWatched(COUNTER)]);
    await model.loadStates([COUNTER]);
    assert.equal(shownCount(model), 100);
    a.heldStates.shift()!();
    await late;
    await settle();
    assert.equal(shownCount(model), 100, "A's count 7 is not shown in B");
    model.dispose();
  });

  it('keeps a bounded number of other profiles', async () => {
    const a = fakeCounter(COUNTER, 1);
    const model = modelOver(() => a.client);
    model.useScope('first');
    model.setList([makeWatched(COUNTER)]);
    await model.loadStates([COUNTER]);
    for (let i = 0; i <= HELD_SCOPES; i++) model.useScope(`other ${i}`);
    model.useScope('first');
    model.setList([makeWatched(COUNTER)]);
    assert.equal(model.stateOf(COUNTER), undefined, 'the oldest was let go');
    model.dispose();
  });
});
