/**
 * The What Changed flow (core/debugging/whatChangedFlow): the event from a row or picked in the palette, the
 * cost said before any request, the gateway asked once whether it honours a past block, and where it does
 * not, no past state shown. Runs through a real client on a scripted transport, counting requests.
 */
import { strict as assert } from 'node:assert';
import { ArtifactRegistry } from '../../../src/core/artifacts';
import { forgetHistorySupport } from '../../../src/core/gateway/history';
import type { ContractEvent } from '../../../src/core/gateway';
import type { CostNotice } from '../../../src/core/usage/costs';
import {
  eventFromArgs,
  whatChanged,
  type WhatChangedPorts,
} from '../../../src/core/debugging/whatChangedFlow';
import { sandboxArtifactFiles } from '../artifacts/helpers';
import { CONTRACT, TX_ID, harness, json, outcome, type Harness } from '../gateway/helpers';

const counter = ArtifactRegistry.fromFiles(sandboxArtifactFiles()).byName('Counter')!;
const BLOCK = 'b'.repeat(64);
const PARENTS = Array.from({ length: 7 }, (_, i) => String(i + 1).repeat(64));
const HEADER = {
  hash: BLOCK,
  timestamp: 1_700_000_000_000,
  chainFrom: 1,
  chainTo: 1,
  height: 9,
  deps: PARENTS,
};
const BEFORE = PARENTS[4]!;
const OWNER = '18TPRqR14snEkS38gFXCAv6UsvAAePihDSwV9ZR7UgeWB';
const ROW = {
  kind: 'event',
  address: CONTRACT,
  txId: TX_ID,
  blockHash: BLOCK,
  eventIndex: 0,
  row: { label: 'Incremented' },
};

function state(count: string) {
  const imm: { type: string; value: string | boolean }[] = [];
  const mut: { type: string; value: string | boolean }[] = [];
  counter.fieldsSig.names.forEach((name, i) => {
    const type = counter.fieldsSig.types[i]!;
    // Fields this test does not name get a zero of their type (the sandbox's Counter may gain some).
    const value = name === 'count' ? count : type === 'Address' ? OWNER : type === 'Bool' ? false : '0';
    (counter.fieldsSig.isMutable[i] ? mut : imm).push({ type, value });
  });
  return {
    address: CONTRACT,
    bytecode: counter.bytecode,
    codeHash: counter.codeHash,
    initialStateHash: 'c'.repeat(64),
    immFields: imm,
    mutFields: mut,
    asset: { attoAlphAmount: '100000000000000000', tokens: [] },
  };
}

function succeeded(count: string) {
  return {
    type: 'CallContractSucceeded',
    returns: [{ type: 'U256', value: count }],
    gasUsed: 1000,
    contracts: [state(count)],
    txInputs: [],
    txOutputs: [],
    events: [],
    debugMessages: [],
  };
}

/** A gateway that keeps history: the probe's unknown block is refused, pinned calls answer their block. */
function honest(h: Harness): void {
  h.transport.on('/contracts/call-contract', json(200, { type: 'CallContractFailed', error: 'KeyNotFound' }));
  h.transport.on(`/blockflow/headers/${BLOCK}`, json(200, HEADER));
  h.transport.on('/contracts/multicall-contract', (req) => {
    const calls = (JSON.parse(req.body ?? '{}') as { calls: { worldStateBlockHash: string }[] }).calls;
    return json(200, { results: calls.map((c) => succeeded(c.worldStateBlockHash === BEFORE ? '4' : '5')) });
  });
}

interface Seen {
  notices: { text: string; requestsSentBefore: number }[];
  shown: { title: string; text: string }[];
  picked: string[];
}

function ports(
  h: Harness,
  overrides: Partial<WhatChangedPorts> = {},
): { ports: WhatChangedPorts; seen: Seen } {
  const seen: Seen = { notices: [], shown: [], picked: [] };
  const p: WhatChangedPorts = {
    client: h.client,
    watched: (address) => ({ address, group: 1, name: 'Counter' }),
    pickContract: () => {
      seen.picked.push('contract');
      return Promise.resolve({ address: CONTRACT, group: 1, name: 'Counter' });
    },
    events: () => Promise.resolve([]),
    pickEvent: () => Promise.resolve(0),
    resolve: () =>
      Promise.resolve({ artifact: counter, drift: { status: 'match', message: 'code matches' } as never }),
    structs: () => Promise.resolve(undefined),
    say: (notice: CostNotice) =>
      seen.notices.push({ text: notice.text, requestsSentBefore: h.transport.requests.length }),
    progress: (_text, work) => work,
    show: (title, text) => {
      seen.shown.push({ title, text });
      return Promise.resolve();
    },
    log: () => undefined,
    ...overrides,
  };
  return { ports: p, seen };
}

describe('What Changed, the flow (core/debugging/whatChangedFlow)', () => {
  beforeEach(forgetHistorySupport);

  it('from an event row: says 3 requests first (probe, header, multicall), sends 3, then 0 and sends none', async () => {
    const h = harness();
    honest(h);
    const { ports: p, seen } = ports(h);
    const first = await h.clock.run(whatChanged(ROW, p));
    assert.equal(first.historyHonoured, true);
    assert.equal(first.requests, 3);
    assert.equal(h.transport.requests.length, 3);
    assert.deepEqual(h.transport.paths(), [
      '/contracts/call-contract',
      `/blockflow/headers/${BLOCK}`,
      '/contracts/multicall-contract',
    ]);
    assert.deepEqual(seen.notices[0], {
      text: 'What Changed of Counter costs 3 requests.',
      requestsSentBefore: 0,
    });
    const count = first.fields.find((f) => f.name === 'count')!;
    assert.deepEqual([count.before, count.after], ['4', '5']);
    assert.match(seen.shown[0]!.text, /count: U256 = 4 → 5/);
    assert.match(seen.shown[0]!.text, /What Changed: Incremented of Counter/);

    const again = await h.clock.run(whatChanged(ROW, p));
    assert.equal(again.requests, 0);
    assert.equal(h.transport.requests.length, 3, 'the second look sends nothing');
    assert.match(seen.notices[1]!.text, /costs 0 requests/);
    assert.equal(seen.shown[1]!.text, seen.shown[0]!.text);
  });

  it('another event of a new block costs the header and the multicall: 2 requests', async () => {
    const h = harness();
    honest(h);
    const { ports: p } = ports(h);
    await h.clock.run(whatChanged(ROW, p));
    const other = 'd'.repeat(64);
    h.transport.on(`/blockflow/headers/${other}`, json(200, { ...HEADER, hash: other }));
    const next = await h.clock.run(whatChanged({ ...ROW, blockHash: other }, p));
    assert.equal(next.requests, 2);
    assert.equal(h.transport.requests.length, 5);
  });

  for (const [name, reply, pattern] of [
    [
      'answers a pinned call from today\u2019s state',
      json(200, succeeded('5')),
      /does not honour historic state/,
    ],
    [
      'refuses pinned calls',
      json(400, { detail: 'Invalid value for: body' }),
      /refuses calls pinned to a block/,
    ],
  ] as const) {
    it(`shows no past state, and says why, when the gateway ${name}`, async () => {
      const h = harness();
      honest(h);
      h.transport.on('/contracts/call-contract', reply);
      const { ports: p, seen } = ports(h);
      const result = await h.clock.run(whatChanged(ROW, p));
      assert.equal(result.historyHonoured, false);
      assert.deepEqual(result.fields, []);
      assert.deepEqual(h.transport.paths(), ['/contracts/call-contract'], 'no header, no multicall');
      const text = seen.shown[0]!.text;
      assert.match(text, pattern);
      assert.match(text, /No state before or after this event is shown/);
      assert.ok(!text.includes('→'), text);
    });
  }

  it('from the palette: a watched contract, then one of its listed events', async () => {
    const h = harness();
    honest(h);
    const event = (i: number, block: string): ContractEvent => ({
      blockHash: block,
      txId: String(i).repeat(64),
      contractAddress: CONTRACT,
      eventIndex: 0,
      fields: [
        { type: 'Address', value: OWNER },
        { type: 'U256', value: String(i) },
      ],
    });
    let offered: readonly { label: string; description: string }[] = [];
    const { ports: p, seen } = ports(h, {
      events: () => Promise.resolve([event(7, 'd'.repeat(64)), event(6, BLOCK)]),
      pickEvent: (items) => {
        offered = items;
        return Promise.resolve(1);
      },
    });
    const result = await h.clock.run(whatChanged(undefined, p));
    assert.deepEqual(seen.picked, ['contract']);
    assert.equal(offered.length, 2);
    assert.match(offered[0]!.label, /^Incremented\(.*7\)$/);
    assert.equal(offered[1]!.description, `tx ${'6'.repeat(64)}`);
    assert.equal(result.txId, '6'.repeat(64));
    assert.equal(result.blockHash, BLOCK);
    // A contract named by the arguments (Events node, automation) skips the contract pick.
    await h.clock.run(whatChanged({ address: CONTRACT }, p));
    assert.deepEqual(seen.picked, ['contract']);
  });

  it('refuses, sending nothing, without an artifact, on drift, or with a malformed id', async () => {
    const h = harness();
    honest(h);
    const none = ports(h, {
      resolve: () => Promise.resolve({ drift: { status: 'unknown', message: '' } as never }),
    });
    assert.match(String((await outcome(h.clock, whatChanged(ROW, none.ports))).error), /No artifact/);
    const drifted = ports(h, {
      resolve: () =>
        Promise.resolve({ artifact: counter, drift: { status: 'drift', message: 'other code' } as never }),
    });
    assert.match(
      String((await outcome(h.clock, whatChanged(ROW, drifted.ports))).error),
      /Not read: other code/,
    );
    assert.throws(() => eventFromArgs({ ...ROW, txId: 'xyz' }), /64 hex digits/);
    assert.equal(h.transport.requests.length, 0);
  });
});
