import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArtifactRegistry, type ContractArtifact } from '../../../src/core/artifacts';
import {
  ago,
  lensesChangeAt,
  lensesFor,
  tallyEvents,
  type Instance,
  type Lens,
  type SeenEvent,
} from '../../../src/core/debugging/lensModel';
import { scanRalph } from '../../../src/core/ralph/scanner';
import { sandboxArtifactFiles } from '../artifacts/helpers';
import { BIG_ROUNDS, bigRalphArtifactJson, bigRalphSource, lineOf } from '../ralph/fixtures';

const counterRal = readFileSync(
  join(import.meta.dirname, '..', '..', '..', 'sandbox', 'project', 'contracts', 'counter.ral'),
  'utf8',
);
const registry = ArtifactRegistry.fromFiles(sandboxArtifactFiles());
const COUNTER = '22fnZLkZJUSyhXgboirmJktWkEBRk1pV8L6gfpc53hvVM';
const TX = (n: number) => n.toString(16).padStart(64, '0');

function data(instances: Instance[], events: SeenEvent[]) {
  return {
    registry,
    network: 'devnet',
    instancesOf: (a: ContractArtifact) => (a.name === 'Counter' ? instances : []),
    seenEvents: (address: string) => (address === COUNTER ? events : []),
  };
}

describe('CodeLenses of a .ral file', () => {
  const scan = scanRalph(counterRal);
  const now = 1_700_000_000_000;

  it('shows a watched instance with its drift, event counts with the last time, and Simulate/Execute on public functions', () => {
    const lenses = lensesFor(
      scan,
      data(
        [
          {
            address: COUNTER,
            group: 0,
            deployed: true,
            watched: true,
            drift: { status: 'match', message: 'm' },
          },
        ],
        [
          { txId: TX(1), eventIndex: 0, timestamp: now - 120_000 },
          { txId: TX(2), eventIndex: 0, timestamp: now - 30_000 },
          { txId: TX(2), eventIndex: 0, timestamp: now - 30_000 }, // the feed and the watcher both had it
          { txId: TX(3), eventIndex: -3 }, // a Debug slot: not an event of the source
        ],
      ),
      { now, executeAvailable: true },
    );
    const at = (needle: string) =>
      lenses.filter((l) => l.line === lineOf(counterRal, needle)).map((l) => l.title);
    assert.deepEqual(at('Contract Counter'), ['22fnZL…hvVM · devnet · group 0 · code matches']);
    assert.deepEqual(at('event Incremented'), ['2 Incremented seen · last just now']);
    assert.deepEqual(at('event Reset'), ['no Reset seen yet']);
    assert.deepEqual(at('pub fn incrementBy'), ['Simulate', 'Execute', 'Debug']);
    assert.deepEqual(at('pub fn get()'), ['Simulate', 'Execute', 'Debug']);
    const sim = lenses.find(
      (l) => l.line === lineOf(counterRal, 'pub fn incrementBy') && l.title === 'Simulate',
    )!;
    assert.deepEqual(sim.command, { kind: 'simulate', address: COUNTER, method: 'incrementBy' });
  });

  it('with two instances, Simulate, Execute and Debug name both as the only candidates, and with none, no contract', () => {
    const other = '2AFfyBwzbnQEC7iZGY5XvTKeFvc1cb5ypwzjKs5W7SaUP';
    const fn = lineOf(counterRal, 'pub fn incrementBy');
    const commands = (instances: Instance[]) =>
      lensesFor(scan, data(instances, []), { now, executeAvailable: true })
        .filter((l) => l.line === fn)
        .map((l) => l.command);
    const two = commands([
      { address: COUNTER, group: 0, deployed: true, watched: true },
      { address: other, group: 0, deployed: false, watched: true },
    ]);
    assert.deepEqual(two, [
      { kind: 'simulate', candidates: [COUNTER, other], method: 'incrementBy' },
      { kind: 'execute', candidates: [COUNTER, other], method: 'incrementBy' },
      { kind: 'debug', candidates: [COUNTER, other], method: 'incrementBy' },
    ]);
    assert.deepEqual(commands([]), [
      { kind: 'simulate', candidates: [], method: 'incrementBy' },
      { kind: 'execute', candidates: [], method: 'incrementBy' },
      { kind: 'debug', candidates: [], method: 'incrementBy' },
    ]);
  });

  it('offers Watch for a deployment not watched, no event lens without a watched instance, no Execute without the command', () => {
    const lenses = lensesFor(
      scan,
      data([{ address: COUNTER, group: 0, deployed: true, watched: false }], []),
      {
        now,
        executeAvailable: false,
      },
    );
    const titles = lenses.map((l) => l.title);
    assert.deepEqual(titles.slice(0, 2), ['22fnZL…hvVM · devnet · group 0 · code not checked', 'Watch']);
    assert.equal(titles.filter((t) => t.includes('seen')).length, 0);
    assert.equal(titles.filter((t) => t === 'Execute').length, 0);
    // get, increment, incrementBy, reset, pause, unpause
    assert.equal(titles.filter((t) => t === 'Simulate').length, 6);
    assert.deepEqual(lenses[1]!.command, { kind: 'watch', address: COUNTER, name: 'Counter' });
  });

  it('says when a contract is not deployed, and has no lens for a contract without an artifact', () => {
    const none = lensesFor(scan, data([], []), { now, executeAvailable: false });
    assert.equal(none[0]!.title, 'not deployed on devnet (no deployment or watched instance)');
    const other = lensesFor(scanRalph('Contract Nobody() { pub fn f() -> () { } }'), data([], []), {
      now,
      executeAvailable: true,
    });
    assert.deepEqual(other, []);
  });

  it('counts keyed events once and dates by the newest', () => {
    const t = tallyEvents(
      [
        { txId: TX(1), eventIndex: 1, key: 'a', timestamp: 5 },
        { txId: TX(1), eventIndex: 1, key: 'b', timestamp: 9 },
        { txId: TX(1), eventIndex: 1, key: 'a', timestamp: 5 },
        { txId: TX(2), eventIndex: 0, key: 'c', timestamp: 99 },
      ],
      1,
    );
    assert.deepEqual(t, { count: 2, last: 9 });
    assert.equal(ago(now - 90 * 60_000, now), '1 h ago');
    assert.equal(ago(now - 5 * 60_000, now), '5 min ago');
  });

  it("moves an event lens's age as time passes: it says when it reads differently, and then it does", () => {
    const watched: Instance = {
      address: COUNTER,
      group: 0,
      deployed: true,
      watched: true,
      drift: { status: 'match', message: 'm' },
    };
    const seen = [{ txId: TX(1), eventIndex: 0, timestamp: now - 61_000 }];
    const render = (at: number) =>
      lensesFor(scan, data([watched], seen), { now: at, executeAvailable: false });
    const eventLens = (ls: readonly Lens[]) =>
      ls.find((l) => l.line === lineOf(counterRal, 'event Incremented'))!;
    const first = render(now);
    assert.equal(eventLens(first).title, '1 Incremented seen · last 1 min ago');
    // The old lens said "last 1 min ago" for as long as nothing else changed: nothing re-rendered it.
    const changesAt = lensesChangeAt(first);
    assert.equal(changesAt, now - 61_000 + 2 * 60_000);
    assert.equal(eventLens(render(changesAt)).title, '1 Incremented seen · last 2 min ago');
    assert.equal(lensesChangeAt(render(now).filter((l) => l.changesAt === undefined)), undefined);
  });
});

describe('CodeLenses on a 2,000-line file', () => {
  // Their time is measured by `npm run bench` (ralph), not asserted here.
  it('has one lens per event and Simulate/Execute per public function, counted from held data', () => {
    const n = BIG_ROUNDS;
    const text = bigRalphSource();
    assert.ok(text.split('\n').length >= 2000);
    const big = ArtifactRegistry.fromFiles([
      { path: 'artifacts/Big.ral.json', text: bigRalphArtifactJson() },
    ]);
    assert.equal(big.problems.length, 0);
    // 1,000 events seen for the one watched instance.
    const events: SeenEvent[] = Array.from({ length: 1000 }, (_, i) => ({
      txId: TX(i),
      eventIndex: i % n,
      timestamp: now0 - i * 1000,
    }));
    const lenses = lensesFor(
      scanRalph(text),
      {
        registry: big,
        network: 'devnet',
        instancesOf: () => [{ address: COUNTER, group: 0, deployed: true, watched: true }],
        seenEvents: () => events,
      },
      { now: now0, executeAvailable: true },
    );
    // One contract lens, one per event, Simulate, Execute and Debug per public function.
    assert.equal(lenses.length, 1 + n + 3 * n);
    assert.equal(lenses.filter((l) => /^5 E7 seen/.test(l.title)).length, 1);
  });
});
const now0 = 1_700_000_000_000;
