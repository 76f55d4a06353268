/**
 * "What Changed" on an event (core/debugging/eventStateDiff): which methods are read, the calls pinned
 * before and after the event's block, what it costs in requests (2 the first time, 0 after, measured
 * through a real client on a scripted transport), the diff's text, and the document when the gateway does
 * not honour a past block.
 */
import { strict as assert } from 'node:assert';
import { ArtifactRegistry, type ContractArtifact } from '../../../src/core/artifacts';
import {
  eventStateDiff,
  eventStateDiffText,
  planEventStateDiff,
  readEventStateDiff,
  stateDiffCost,
  stateDiffNotice,
  viewGetters,
  type EventAt,
} from '../../../src/core/debugging/eventStateDiff';
import type { CallOutcome } from '../../../src/core/gateway/batching';
import { sandboxArtifactFiles } from '../artifacts/helpers';
import { CONTRACT, TX_ID, harness, json, outcome } from '../gateway/helpers';

const counter = ArtifactRegistry.fromFiles(sandboxArtifactFiles()).byName('Counter')!;
const BLOCK = 'b'.repeat(64);
const PARENTS = Array.from({ length: 7 }, (_, i) => String(i + 1).repeat(64));
/** chainFrom 1 of 4 groups: the parent on the same chain is deps[3 + 1]. */
const HEADER = {
  hash: BLOCK,
  timestamp: 1_700_000_000_000,
  chainFrom: 1,
  chainTo: 1,
  height: 9,
  deps: PARENTS,
};
const BEFORE = PARENTS[4]!;
const EVENT: EventAt = {
  address: CONTRACT,
  group: 1,
  txId: TX_ID,
  blockHash: BLOCK,
  eventIndex: 0,
  name: 'Incremented',
};
const OWNER = '18TPRqR14snEkS38gFXCAv6UsvAAePihDSwV9ZR7UgeWB';

/** A Counter state in the node's shape; fields the test does not name get a zero of their type. */
function counterState(values: Record<string, string>, atto = '100000000000000000') {
  const immFields: { type: string; value: string | boolean }[] = [];
  const mutFields: { type: string; value: string | boolean }[] = [];
  counter.fieldsSig.names.forEach((name, i) => {
    const type = counter.fieldsSig.types[i]!;
    const value = values[name] ?? (type === 'Address' ? OWNER : type === 'Bool' ? false : '0');
    (counter.fieldsSig.isMutable[i] ? mutFields : immFields).push({ type, value });
  });
  return {
    address: CONTRACT,
    bytecode: counter.bytecode,
    codeHash: counter.codeHash,
    initialStateHash: 'c'.repeat(64),
    immFields,
    mutFields,
    asset: { attoAlphAmount: atto, tokens: [] },
  };
}

function succeeded(count: string, returns = [{ type: 'U256', value: count }]) {
  return {
    type: 'CallContractSucceeded',
    returns,
    gasUsed: 1000,
    contracts: [counterState({ count })],
    txInputs: [],
    txOutputs: [],
    events: [],
    debugMessages: [],
  };
}

/** Outcomes as `callContracts` gives them, for the pure diff. */
function ok(count: string, returns?: { type: string; value: string }[]): CallOutcome {
  return { ok: true, result: succeeded(count, returns) as never };
}

describe('What Changed on an event (core/debugging/eventStateDiff)', () => {
  it('reads the getters: public, no parameters, something returned, no assets (from the artifact and its bytecode)', () => {
    const names = viewGetters(counter).map((g) => g.name);
    assert.ok(names.includes('get'), names.join(', '));
    for (const writer of ['increment', 'incrementBy', 'reset']) assert.ok(!names.includes(writer), writer);
    for (const g of viewGetters(counter)) {
      const fn = counter.functions[g.methodIndex]!;
      assert.equal(fn.paramTypes.length, 0);
      assert.ok(fn.returnTypes.length > 0);
    }
  });

  it('leaves out a private getter, as the bytecode marks it', () => {
    // Two methods: #0 private (isPublic 0), #1 public; both take nothing and return a U256.
    const fn = (name: string) => ({
      name,
      paramNames: [],
      paramTypes: [],
      paramIsMutable: [],
      returnTypes: ['U256'],
    });
    const artifact = {
      ...counter,
      bytecode: '0002020400000100',
      functions: [fn('secret'), fn('open')],
    } as ContractArtifact;
    assert.deepEqual(
      viewGetters(artifact).map((g) => g.name),
      ['open'],
    );
  });

  it('pins each getter before the block (its parent on the same chain) and after it, naming the contract', () => {
    const plan = planEventStateDiff(EVENT, counter, HEADER);
    const getters = viewGetters(counter).length;
    assert.equal(plan.beforeHash, BEFORE);
    assert.equal(plan.afterHash, BLOCK);
    assert.equal(plan.calls.length, 2 * getters);
    assert.ok(plan.calls.slice(0, getters).every((c) => c.worldStateBlockHash === BEFORE));
    assert.ok(plan.calls.slice(getters).every((c) => c.worldStateBlockHash === BLOCK));
    assert.ok(plan.calls.every((c) => c.interestedContracts?.join() === CONTRACT && c.args?.length === 0));
    assert.equal(plan.multicalls, 1);
  });

  it('refuses a header that does not name the block before, sending nothing', () => {
    assert.throws(
      () => planEventStateDiff(EVENT, counter, { ...HEADER, deps: ['x'] }),
      /does not name its parent/,
    );
  });

  it('costs the header and one multicall the first time, nothing once answered', () => {
    assert.deepEqual(stateDiffCost({ readers: 1, headerKnown: false, answered: false }), { min: 2, max: 2 });
    assert.deepEqual(stateDiffCost({ readers: 1, headerKnown: false, answered: true }), { min: 0, max: 0 });
    // 11 getters on both sides are 22 calls: two multicalls of at most 20.
    assert.deepEqual(stateDiffCost({ readers: 11, headerKnown: true, answered: false }), { min: 2, max: 2 });
    assert.match(
      stateDiffNotice('Counter', { min: 2, max: 2 }).text,
      /What Changed of Counter costs 2 requests\./,
    );
    assert.match(stateDiffNotice('Counter', { min: 0, max: 0 }).text, /costs 0 requests \(answered before/);
  });

  it("shows the counter's field and its getter before and after the block", () => {
    const plan = planEventStateDiff(EVENT, counter, HEADER);
    const n = plan.calls.length / 2;
    const outcomes = [
      ...Array.from({ length: n }, () => ok('4')),
      ...Array.from({ length: n }, () => ok('5')),
    ];
    const result = eventStateDiff(plan, outcomes, counter);
    const count = result.diff.fields.find((f) => f.name === 'count')!;
    assert.deepEqual([count.before, count.after, count.changed], ['4', '5', true]);
    const get = result.diff.fields.find((f) => f.name === 'get()')!;
    assert.deepEqual([get.before, get.after, get.changed], ['4', '5', true]);
    const text = eventStateDiffText(result);
    assert.match(text, /count: U256 = 4 → 5/);
    assert.match(text, /get\(\): U256 = 4 → 5/);
    assert.match(text, /Unchanged:\n {2}owner: Address = 18TPRq/);
    assert.ok(text.includes(`Before: the state after block ${BEFORE}`), text);
    assert.match(text, /every transaction of that block/);
  });

  it('says which getter failed, and refuses half a diff when one side cannot be read', () => {
    // A second getter (the bytecode then lists fewer methods, so every parameterless reader is called).
    const other = {
      name: 'other',
      paramNames: [],
      paramTypes: [],
      paramIsMutable: [],
      returnTypes: ['U256'],
    };
    const two = { ...counter, functions: [...counter.functions, other] } as ContractArtifact;
    const plan = planEventStateDiff(EVENT, two, HEADER);
    assert.deepEqual(
      plan.getters.map((g) => g.name),
      ['get', 'other'],
    );
    const failed: CallOutcome = { ok: false, error: new Error('world state of block not found') };
    const partly = eventStateDiff(plan, [ok('4'), failed, ok('5'), ok('5')], two);
    assert.deepEqual(partly.getterErrors, [{ name: 'other()', error: 'world state of block not found' }]);
    assert.match(
      eventStateDiffText(partly),
      /Getters that failed:\n {2}other\(\): world state of block not found/,
    );
    assert.throws(
      () => eventStateDiff(plan, [failed, failed, ok('5'), ok('5')], two),
      /The state before block b+ could not be read: world state of block not found/,
    );
  });

  it('writes chain values as inert text: no control or bidi character reaches the document', () => {
    const plan = planEventStateDiff(EVENT, counter, HEADER);
    const n = plan.calls.length / 2;
    const hostile = [{ type: 'U256', value: '4\u202e\u001b[31mred\nsecond line' }];
    const result = eventStateDiff(
      plan,
      [...Array.from({ length: n }, () => ok('4', hostile)), ...Array.from({ length: n }, () => ok('5'))],
      counter,
    );
    const text = eventStateDiffText(result);
    assert.ok(!/[\u202e\u001b]/.test(text), JSON.stringify(text));
    assert.ok(text.includes('get(): U256 = 4red second line → 5'), text);
  });

  it('costs 2 requests the first time and 0 the second, through the client (header and pinned multicall cached)', async () => {
    const { clock, transport, client } = harness();
    transport.on(`/blockflow/headers/${BLOCK}`, json(200, HEADER));
    transport.on('/contracts/multicall-contract', (req) => {
      const calls = (JSON.parse(req.body ?? '{}') as { calls: { worldStateBlockHash: string }[] }).calls;
      return json(200, {
        results: calls.map((c) => succeeded(c.worldStateBlockHash === BEFORE ? '4' : '5')),
      });
    });
    const first = await clock.run(readEventStateDiff(client, EVENT, counter));
    assert.equal(transport.requests.length, 2);
    assert.deepEqual(transport.paths(), [`/blockflow/headers/${BLOCK}`, '/contracts/multicall-contract']);
    const sent = JSON.parse(transport.requests[1]!.body ?? '{}') as {
      calls: { worldStateBlockHash: string }[];
    };
    assert.deepEqual(
      sent.calls.map((c) => c.worldStateBlockHash),
      [...plan().calls.map((c) => c.worldStateBlockHash)],
    );
    await clock.advance(365 * 24 * 3600_000);
    const again = await clock.run(readEventStateDiff(client, EVENT, counter));
    assert.equal(transport.requests.length, 2, 'the second diff sends nothing');
    assert.equal(eventStateDiffText(again), eventStateDiffText(first));
    assert.match(eventStateDiffText(first), /count: U256 = 4 → 5/);
  });

  it('does not keep a failed answer: the node may get the block later', async () => {
    const { clock, transport, client } = harness();
    transport.on(`/blockflow/headers/${BLOCK}`, json(200, HEADER));
    transport.on(
      '/contracts/multicall-contract',
      json(200, { results: plan().calls.map(() => ({ type: 'CallContractFailed', error: 'KeyNotFound' })) }),
    );
    const failed = await outcome(clock, readEventStateDiff(client, EVENT, counter));
    assert.match(String(failed.error), /could not be read: .*KeyNotFound/);
    await outcome(clock, readEventStateDiff(client, EVENT, counter));
    assert.equal(transport.count('/contracts/multicall-contract'), 2);
    assert.equal(transport.count(`/blockflow/headers/${BLOCK}`), 1);
  });
});

function plan() {
  return planEventStateDiff(EVENT, counter, HEADER);
}
