import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ArtifactRegistry } from '../../../../src/core/artifacts';
import { addressFromContractId, groupOfAddress } from '../../../../src/core/protocol';
import {
  addToWatchList,
  contractAddressProblem,
  makeWatched,
  parseWatchList,
  removeFromWatchList,
  resolveWatched,
} from '../../../../src/core/contracts/watching/watchList';
import { EventFeed, MAX_FEED_EVENTS, olderWindow } from '../../../../src/core/contracts/watching/eventFeed';
import { contractRow, eventRow, stateRows } from '../../../../src/core/contracts/watching/rows';
import { eventsMarkdown, decodeListing } from '../../../../src/core/contracts/watching/eventsMarkdown';
import {
  argumentProblem,
  buildCall,
  functionSignature,
  summariseCall,
} from '../../../../src/core/contracts/call';
import {
  blockRows,
  checkAddress,
  presetRange,
  rangeProblem,
  timestampProblem,
} from '../../../../src/core/node/nodeQueries';

const ARTIFACTS = path.join(__dirname, '..', '..', '..', '..', 'sandbox', 'project', 'artifacts');
const files = fs
  .readdirSync(ARTIFACTS)
  .map((f) => ({ path: `artifacts/${f}`, text: fs.readFileSync(path.join(ARTIFACTS, f), 'utf8') }));
const registry = ArtifactRegistry.fromFiles(files);
const counter = registry.byName('Counter')!;
const faucet = registry.byName('TokenFaucet')!;
const ADDRESS = addressFromContractId('11'.repeat(32));
const OTHER = addressFromContractId('22'.repeat(32));
const USER = '1DrDyTr9RpRsQnDnXo2YRiPzPW4ooHX5LLoqXrqfMrpQH';
const tx = (n: number) => n.toString(16).padStart(64, '0');
const incremented = (n: number, txN = n) => ({
  txId: tx(txN),
  blockHash: tx(1000 + txN),
  contractAddress: ADDRESS,
  eventIndex: 0,
  fields: [
    { type: 'Address', value: USER },
    { type: 'U256', value: String(n) },
  ],
});

describe('watched contracts: watch list', () => {
  it('accepts only contract addresses and says why not', () => {
    assert.equal(contractAddressProblem(ADDRESS), undefined);
    assert.match(contractAddressProblem(USER)!, /P2PKH address; a contract address/);
    assert.match(contractAddressProblem('nope')!, /Not a valid/);
    assert.match(contractAddressProblem('  ')!, /Enter/);
    assert.throws(() => makeWatched(USER), /contract address/);
  });

  it('keeps valid entries, drops broken ones and duplicates, recomputes the group', () => {
    const list = parseWatchList([
      { address: ADDRESS, group: 3, name: 'Counter' },
      { address: ADDRESS, group: 0 },
      { address: USER, group: 0 },
      { nonsense: true },
      { address: OTHER, group: groupOfAddress(OTHER), artifactName: 'TokenFaucet' },
    ]);
    assert.deepEqual(
      list.map((w) => [w.address, w.group, w.name, w.artifactName]),
      [
        [ADDRESS, groupOfAddress(ADDRESS), 'Counter', undefined],
        [OTHER, groupOfAddress(OTHER), undefined, 'TokenFaucet'],
      ],
    );
    assert.deepEqual(parseWatchList('junk'), []);
  });

  it('adds, updates in place and removes', () => {
    let list = addToWatchList([], makeWatched(ADDRESS));
    list = addToWatchList(list, makeWatched(OTHER));
    list = addToWatchList(list, makeWatched(ADDRESS, { name: 'Renamed' }));
    assert.deepEqual(
      list.map((w) => w.name ?? w.address),
      ['Renamed', OTHER],
    );
    assert.deepEqual(
      removeFromWatchList(list, ADDRESS).map((w) => w.address),
      [OTHER],
    );
  });
});

describe('watched contracts: event feed', () => {
  it('lists newest first, each event once, whatever source reported it', () => {
    const feed = new EventFeed(ADDRESS);
    assert.equal(feed.addNewer([incremented(9)]), 0, 'an unloaded feed ignores live events');
    feed.setLatest({ events: [incremented(5), incremented(6)], nextStart: 12, count: 12, start: 9 });
    assert.equal(feed.addNewer([incremented(6), incremented(7)], { nextStart: 14, count: 14 }), 1);
    assert.equal(feed.addOlder([incremented(3), incremented(4), incremented(5)], 6), 2);
    const values = feed.items().map((i) => i.event.fields[1]!.value);
    assert.deepEqual(values, ['7', '6', '5', '4', '3']);
    assert.equal(feed.nextStart, 14);
    assert.equal(feed.count, 14);
    assert.equal(feed.olderEnd, 6);
    const ids = feed.items().map((i) => i.id);
    assert.equal(new Set(ids).size, ids.length, 'ids are unique');
  });

  it('keeps ids stable when the same window is read again', () => {
    const a = new EventFeed(ADDRESS);
    const b = new EventFeed(ADDRESS);
    const slice = { events: [incremented(1), incremented(2)], nextStart: 4, count: 4, start: 0 };
    a.setLatest(slice);
    b.setLatest(slice);
    assert.deepEqual(
      a.items().map((i) => i.id),
      b.items().map((i) => i.id),
    );
    assert.equal(a.hasOlder, false, 'a window from offset 0 has nothing older');
  });

  it('keeps two identical emits of one transaction as two events', () => {
    const feed = new EventFeed(ADDRESS);
    feed.setLatest({ events: [incremented(1, 1), incremented(1, 1)], nextStart: 2, count: 2, start: 0 });
    assert.equal(feed.size, 2);
  });

  it('adds thousands of identical events in linear time, each kept once with its own id', () => {
    // The old feed searched the batch for every repeat number: 2,000 identical events took 15.7 s
    // (cubic), these 4,000 would take minutes (mocha's timeout fails the test).
    const same = Array.from({ length: 4_000 }, () => incremented(1, 1));
    const feed = new EventFeed(ADDRESS);
    feed.setLatest({ events: same, nextStart: 4_000, count: 4_000, start: 0 });
    assert.equal(feed.size, 4_000);
    const ids = feed.items().map((i) => i.id);
    assert.equal(new Set(ids).size, ids.length, 'ids are unique');
    assert.equal(feed.addNewer(same.slice(0, 10)), 0, 'the same ten again are known');
  });

  /** A chain of `n` events at offsets 0..n-1 with every 7th offset a hidden slot (a gap). */
  function chain(n: number) {
    const all = Array.from({ length: n }, (_, offset) => ({ offset, event: incremented(offset) })).filter(
      (e) => e.offset % 7 !== 3,
    );
    /** What the server answers for [start, until): the events and the cursor after them. */
    const window = (start: number, until: number) => ({
      events: all.filter((e) => e.offset >= start && e.offset < until).map((e) => e.event),
      nextStart: until,
    });
    return { all: all.map((e) => e.event), window };
  }
  const valuesOf = (feed: EventFeed) => feed.items().map((i) => Number(i.event.fields[1]!.value));

  it('keeps the newest events within its bound as new ones arrive; Load more reads the rest again, none lost or repeated', () => {
    const { all, window } = chain(3_000);
    const feed = new EventFeed(ADDRESS);
    feed.setLatest({ ...window(475, 500), count: 500, start: 475 });
    // Watcher deliveries (live: no cursor) and refreshes (the window from the feed's cursor to the count,
    // which holds the live events again) alternate.
    let delivered = 500;
    for (let end = 600; end <= 3_000; end += 100) {
      const live = window(delivered, end);
      feed.addNewer(live.events);
      delivered = end;
      if (end % 300 === 0) feed.addNewer(window(feed.nextStart!, end).events, { nextStart: end, count: end });
      assert.ok(feed.size <= MAX_FEED_EVENTS, `${feed.size} events held after ${end}`);
      assert.equal(feed.loaded, true);
    }
    const newest = valuesOf(feed);
    assert.equal(newest[0], Number(all.at(-1)!.fields[1]!.value), 'the newest is kept');
    assert.ok(feed.hasOlder, 'older events are offered again');
    // "Load more…" until nothing is older: every event of the chain, newest first, each once.
    for (let guard = 0; feed.hasOlder && guard < 100; guard++) {
      const { start, until } = olderWindow(feed.olderEnd!, 100);
      feed.addOlder(window(start, until).events, start);
    }
    assert.equal(feed.hasOlder, false);
    const values = valuesOf(feed);
    assert.deepEqual(
      values,
      all.map((e) => Number(e.fields[1]!.value)).reverse(),
      'nothing lost, nothing repeated, in chain order',
    );
    const ids = feed.items().map((i) => i.id);
    assert.equal(new Set(ids).size, ids.length, 'ids are unique');
  });

  it('starts over when only live events (offsets unknown) are left to drop', () => {
    const { window } = chain(2_000);
    const feed = new EventFeed(ADDRESS);
    feed.setLatest({ ...window(75, 100), count: 100, start: 75 });
    for (let end = 200; end <= 1_300; end += 100) feed.addNewer(window(end - 100, end).events);
    // Past the bound with nothing but live events to drop: no cursor could read them again.
    assert.equal(feed.loaded, false);
    assert.equal(feed.size, 0);
    feed.setLatest({ ...window(1_275, 1_300), count: 1_300, start: 1_275 });
    assert.equal(feed.loaded, true);
    assert.equal(valuesOf(feed)[0], 1_299);
  });

  it('reads older windows of at most pageSize offsets, never below 0', () => {
    assert.deepEqual(olderWindow(10, 4), { start: 6, until: 10 });
    assert.deepEqual(olderWindow(3, 4), { start: 0, until: 3 });
  });
});

describe('watched contracts: presentation', () => {
  const watched = makeWatched(ADDRESS, { name: 'Counter' });

  it('shows a match, a drift and a missing artifact differently', () => {
    const match = contractRow({
      watched,
      resolved: resolveWatched(registry, watched, counter.codeHash, 'devnet'),
      codeHash: counter.codeHash,
    });
    assert.match(match.description!, /group \d · ✓$/);
    assert.match(match.tooltip!, /matches Counter/);

    const drifted = makeWatched(ADDRESS, { artifactName: 'Counter' });
    const drift = contractRow({
      watched: drifted,
      resolved: resolveWatched(registry, drifted, faucet.codeHash, 'devnet'),
      codeHash: faucet.codeHash,
    });
    assert.equal(drift.label, 'Counter', 'named after the chosen artifact');
    assert.match(drift.description!, /⚠ code drift/);
    assert.match(drift.tooltip!, /Code drift: .*matches TokenFaucet instead/s);
    assert.match(drift.icon!, /^warning/);

    const bare = makeWatched(ADDRESS);
    const none = contractRow({
      watched: bare,
      resolved: resolveWatched(registry, bare, 'ff'.repeat(32), 'devnet'),
      codeHash: undefined,
    });
    assert.match(none.description!, /no artifact/);
    assert.match(none.label, /…/);

    const down = contractRow({ watched, resolved: undefined, codeHash: undefined, error: 'ECONNREFUSED' });
    assert.match(down.description!, /unreachable/);
  });

  it('names state fields from fieldsSig, merging imm and mut fields in declaration order', () => {
    const state = {
      immFields: [{ type: 'Address', value: USER }],
      mutFields: [
        { type: 'U256', value: '42' },
        { type: 'Bool', value: false },
      ],
      asset: { attoAlphAmount: '100000000000000000' },
      codeHash: counter.codeHash,
    };
    const { rows, warning } = stateRows(counter, state, registry);
    assert.equal(warning, undefined);
    assert.deepEqual(
      rows.map((r) => [r.label, r.copy, r.mutable]),
      [
        ['owner', USER, false],
        ['count', '42', true],
        ['paused', 'false', true],
        ['ALPH balance', '100000000000000000', undefined],
      ],
    );
    assert.equal(rows[3]!.description, '0.1 ALPH');
    const wrong = stateRows(faucet, state, registry);
    assert.match(wrong.warning!, /does not fit TokenFaucet/);
    assert.equal(wrong.rows[0]!.label, 'imm#0');
  });

  it('decodes events by index with named fields; system and unknown indices are labelled', () => {
    const row = eventRow(incremented(3), counter);
    assert.equal(row.label, 'Incremented');
    assert.match(row.description!, /^by=1DrDy.*, newCount=3$/);
    assert.deepEqual(
      row.fields.map((f) => f.label),
      ['by', 'newCount'],
    );
    assert.equal(row.fields[1]!.copy, '3');

    const debug = eventRow(
      {
        eventIndex: -3,
        fields: [{ type: 'ByteVec', value: Buffer.from('hi').toString('hex') }],
        txId: tx(1),
      },
      counter,
    );
    assert.equal(debug.label, 'Debug');
    assert.equal(debug.fields[0]!.description, 'hi');

    const created = eventRow({ eventIndex: -1, fields: [{ type: 'Address', value: ADDRESS }] }, undefined);
    assert.equal(created.label.replace('⚠ ', ''), 'ContractCreated');

    const unknown = eventRow({ eventIndex: 7, fields: [{ type: 'U256', value: '1' }] }, counter);
    assert.equal(unknown.label, '⚠ Event#7');
    assert.match(unknown.tooltip!, /index 7 unknown/);
    assert.equal(unknown.icon, 'question');
  });

  it('marks every event of a drifted contract with the drift warning', () => {
    const drift = registry.checkDrift(counter, faucet.codeHash);
    const row = eventRow(incremented(1), counter, { drift });
    assert.equal(row.label, '⚠ Incremented');
    assert.match(row.tooltip!, /Code drift/);
  });

  it('writes decoded listings as markdown', () => {
    const decoded = decodeListing([incremented(2)], () => ({ artifact: counter }));
    const md = eventsMarkdown('Events', decoded);
    assert.match(md, /## 1\. Incremented \(eventIndex 0\)/);
    assert.match(md, /\*\*newCount\*\* \(U256\): `2`/);
    assert.match(eventsMarkdown('None', []), /_No events\._/);
  });

  it("names each listed event's transaction on the event's own line, in every listing", () => {
    const tx = (n: number) => String(n).repeat(64);
    const decoded = decodeListing(
      [
        { ...incremented(2), txId: tx(1) },
        { ...incremented(3), txId: tx(2) },
      ],
      () => ({ artifact: counter }),
    );
    const headings = eventsMarkdown('Events', decoded)
      .split('\n')
      .filter((l) => l.startsWith('## '));
    assert.deepEqual(headings, [
      `## 1. Incremented (eventIndex 0) in tx \`${tx(1)}\``,
      `## 2. Incremented (eventIndex 0) in tx \`${tx(2)}\``,
    ]);
  });
});

describe('contract calls', () => {
  it('lists signatures and validates each argument by type, naming the parameter', () => {
    assert.equal(functionSignature(counter.functions[2]!), 'incrementBy(step: U256) → ()');
    assert.equal(argumentProblem('U256', 'step', '5'), undefined);
    assert.match(argumentProblem('U256', 'step', '-5')!, /'step'/);
    assert.match(argumentProblem('Bool', 'flag', 'yes')!, /true or false/);
    assert.match(argumentProblem('ByteVec', 'data', 'abc')!, /even number/);
    assert.match(argumentProblem('Address', 'to', 'xyz')!, /'to'/);
    assert.equal(argumentProblem('[U256;2]', 'pair', '["1","2"]'), undefined);
    assert.match(argumentProblem('[U256;2]', 'pair', '["1"]')!, /exactly 2/);
    assert.equal(argumentProblem('I256', 'delta', '-7'), undefined);
  });

  it('builds the call with methodIndex = position in functions', () => {
    const { call, methodIndex } = buildCall(ADDRESS, 1, counter, 'incrementBy', ['7']);
    assert.equal(methodIndex, 2);
    assert.deepEqual(call.args, [{ type: 'U256', value: '7' }]);
    assert.equal(buildCall(ADDRESS, 1, counter, 0, []).methodIndex, 0);
    assert.throws(() => buildCall(ADDRESS, 1, counter, 'nope', []), /no method "nope"/);
  });

  it('summarises a result: named returns, decoded events, debug messages', () => {
    const s = summariseCall(
      counter,
      counter.functions[0]!,
      0,
      {
        type: 'CallContractSucceeded',
        returns: [{ type: 'U256', value: '9' }],
        gasUsed: 1234,
        contracts: [],
        txInputs: [],
        txOutputs: [],
        events: [{ ...incremented(9), blockHash: undefined }],
        debugMessages: [{ contractAddress: ADDRESS, message: 'count is now 9' }],
      } as never,
      () => ({ artifact: counter }),
    );
    assert.deepEqual(
      s.returns.map((r) => [r.name, r.type, r.value]),
      [['result', 'U256', '9']],
    );
    assert.equal(s.events[0]!.name, 'Incremented');
    assert.equal(s.debugMessages[0]!.message, 'count is now 9');
  });
});

describe('node queries', () => {
  it('checks addresses locally', () => {
    assert.deepEqual(
      [checkAddress(USER).valid, checkAddress(USER).type, checkAddress(USER).group],
      [true, 'P2PKH', groupOfAddress(USER)],
    );
    assert.equal(checkAddress('0OIl').valid, false);
  });

  it('chooses ranges and refuses bad ones', () => {
    assert.deepEqual(presetRange('last10m', 1_000_000), { fromTs: 400_000, toTs: 1_000_000 });
    assert.match(timestampProblem('12a')!, /digits/);
    assert.equal(timestampProblem('1700000000000'), undefined);
    assert.match(rangeProblem(5, 5)!, /after/);
    assert.match(rangeProblem(0, 25 * 3600_000)!, /24 hours/);
  });

  it('lists blocks of all chains newest first', () => {
    const b = (ts: number, from: number, to: number) => ({
      hash: tx(ts),
      timestamp: ts,
      chainFrom: from,
      chainTo: to,
      height: ts,
      deps: [],
      transactions: [],
    });
    const rows = blockRows({ blocks: [[b(1, 0, 0), b(5, 0, 0)], [b(3, 0, 1)]] });
    assert.deepEqual(
      rows.map((r) => r.timestamp),
      [5, 3, 1],
    );
  });
});
