/**
 * State and Events of a watched contract agree: a state asked for before events arrived is read again,
 * the row says it is older until then, and two reads that cross never leave the older one shown.
 */
import { strict as assert } from 'node:assert';
import { makeWatched } from '../../../../src/core/contracts/watching/watchList';
import { stateDescription } from '../../../../src/core/contracts/watching/rows';
import { COUNTER, fakeCounter, modelOver, newestEvent, settle, shownCount } from './fakeChain';

describe('State beside Events: one snapshot, or the row says which is newer', () => {
  it('events newer than the state (the Events node opened later) read the state again', async () => {
    const chain = fakeCounter(COUNTER, 7);
    const model = modelOver(() => chain.client);
    model.setList([makeWatched(COUNTER)]);
    await model.loadStates([COUNTER]);
    assert.equal(shownCount(model), 7);
    // The chain moves before the person opens Events: the list shows newCount=8 beside count 7.
    chain.increment();
    chain.hold = true;
    await model.loadLatestEvents(COUNTER);
    await settle();
    assert.equal(newestEvent(model), 8);
    assert.equal(shownCount(model), 7);
    assert.equal(chain.heldStates.length, 1, 'one re-read of the state was asked for');
    assert.equal(model.stateBehindEvents(COUNTER), true, 'the state is older than the newest event');
    assert.match(stateDescription('', model.stateBehindEvents(COUNTER)) ?? '', /older than the newest event/);
    chain.hold = false;
    chain.heldStates.shift()!();
    await settle();
    assert.equal(shownCount(model), 8, 'State agrees with the newest event');
    assert.equal(model.stateBehindEvents(COUNTER), false);
    assert.equal(stateDescription('', false), undefined);
    model.dispose();
  });

  it('a re-read after new events is not overtaken by an older read answering late', async () => {
    const chain = fakeCounter(COUNTER, 7);
    const model = modelOver(() => chain.client);
    model.setList([makeWatched(COUNTER)]);
    await model.loadLatestEvents(COUNTER);
    await model.loadStates([COUNTER]);
    await settle();
    assert.equal(shownCount(model), 7);
    chain.hold = true;
    // A look reads the state again (count 7), and while it is out the watcher brings newCount=8.
    void model.loadStates([COUNTER], true, 'user');
    await settle();
    model.addWatcherEvents(COUNTER, chain.increment());
    await settle();
    assert.equal(chain.heldStates.length, 2);
    const [older, newer] = chain.heldStates.splice(0);
    newer!();
    await settle();
    older!();
    await settle();
    assert.equal(newestEvent(model), 8);
    assert.equal(shownCount(model), 8, 'the older answer (count 7) does not replace the newer one');
    assert.equal(model.stateBehindEvents(COUNTER), false);
    model.dispose();
  });

  it('no new event, no extra read: a refresh that finds nothing reads no state', async () => {
    const chain = fakeCounter(COUNTER, 3);
    const model = modelOver(() => chain.client);
    model.setList([makeWatched(COUNTER)]);
    await model.loadStates([COUNTER]);
    await model.loadLatestEvents(COUNTER);
    await settle();
    const reads = chain.sent.state;
    assert.equal(await model.refreshEvents(COUNTER), 0);
    await settle();
    assert.equal(chain.sent.state, reads);
    model.dispose();
  });
});
