/**
 * The event lens counts what the tree shows: once the Events node lists a contract's events, the lens
 * counts those rows (not the few the watcher delivered since the window opened); and a connection event
 * of the same profile (a key set, npm start's key import after a reload) keeps that list, so the lens
 * does not fall back to the watcher's count beside a full list.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArtifactRegistry } from '../../../src/core/artifacts';
import { lensesFor, seenEventsOf, type SeenEvent } from '../../../src/core/debugging/lensModel';
import { scanRalph } from '../../../src/core/ralph/scanner';
import { makeWatched } from '../../../src/core/contracts/watching/watchList';
import { sandboxArtifactFiles } from '../artifacts/helpers';
import { COUNTER, fakeCounter, modelOver } from '../contracts/watching/fakeChain';

const counterRal = readFileSync(
  join(import.meta.dirname, '..', '..', '..', 'sandbox', 'project', 'contracts', 'counter.ral'),
  'utf8',
);
const registry = ArtifactRegistry.fromFiles(sandboxArtifactFiles());

describe('the event lens counts the events the tree lists', () => {
  it('16 rows listed and 1 delivered since the reload: the lens says 16, and where it counted', async () => {
    const chain = fakeCounter(COUNTER, 16);
    const model = modelOver(() => chain.client, 16);
    model.useScope('sandbox');
    model.setList([makeWatched(COUNTER)]);
    const delivered: SeenEvent[] = [{ txId: 'f'.repeat(64), eventIndex: 0, key: 'live' }];
    const lensTitle = () => {
      const feed = model.feedIfAny(COUNTER);
      const lenses = lensesFor(
        scanRalph(counterRal),
        {
          registry,
          network: 'devnet',
          instancesOf: () => [{ address: COUNTER, group: 0, deployed: true, watched: true }],
          seenEvents: () => seenEventsOf(feed?.loaded ? feed.items() : undefined, delivered),
        },
        { now: Date.now(), executeAvailable: false },
      );
      return lenses.find((l) => /Incremented/.test(l.title))!;
    };
    assert.equal(lensTitle().title, '1 Incremented seen', 'before the list is read: the deliveries');
    assert.match(lensTitle().tooltip!, /watcher delivered/);
    await model.loadLatestEvents(COUNTER);
    assert.equal(model.feed(COUNTER).size, 16);
    assert.equal(lensTitle().title, '16 Incremented seen');
    assert.match(lensTitle().tooltip!, /listed under Events/);
    // The same profile's connection changes (a key imported): the list, and the lens, stay.
    model.useScope('sandbox');
    assert.equal(lensTitle().title, '16 Incremented seen');
    model.dispose();
  });
});
