import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { codec } from '@alephium/web3';
import { blake2b256, bytesToHex, hexToBytes } from '../../src/core/protocol';
import { systemEventAddress } from '../ledger/types';
import { control, newSandbox, type Api } from '../testing/helpers';
import type { Sandbox } from '../http/server';

interface Ev {
  blockHash?: string;
  txId?: string;
  timestamp: number;
  contractAddress: string;
  eventIndex: number;
  fields: { type: string; value: string }[];
}

describe('sandbox gateway: contracts and events', () => {
  let sb: Sandbox;
  let api: Api;
  const counter = () => sb.contracts.find((c) => c.name === 'Counter')!;
  const faucet = () => sb.contracts.find((c) => c.name === 'TokenFaucet')!;

  before(async () => {
    ({ sb, api } = await newSandbox());
  });
  after(() => sb.close());

  it('artifacts have the compiler shape and bytecode that decodes to the declared functions', () => {
    for (const c of sb.contracts) {
      const a = JSON.parse(readFileSync(c.artifact, 'utf8')) as Record<string, unknown> & {
        bytecode: string;
        codeHash: string;
        fieldsSig: { names: string[]; types: string[]; isMutable: boolean[] };
        functions: { name: string; paramTypes: string[]; returnTypes: string[] }[];
        eventsSig: { name: string; fieldNames: string[]; fieldTypes: string[] }[];
      };
      for (const k of [
        'version',
        'name',
        'bytecode',
        'codeHash',
        'fieldsSig',
        'eventsSig',
        'functions',
        'constants',
        'enums',
      ]) {
        assert.ok(k in a, `${c.name}.${k}`);
      }
      assert.equal(a.codeHash, bytesToHex(blake2b256(hexToBytes(a.bytecode))));
      const decoded = codec.contract.contractCodec.decodeContract(hexToBytes(a.bytecode));
      assert.equal(decoded.fieldLength, a.fieldsSig.names.length);
      assert.equal(decoded.methods.length, a.functions.length);
      decoded.methods.forEach((m, i) => {
        assert.equal(m.argsLength, a.functions[i]!.paramTypes.length);
        assert.equal(m.returnLength, a.functions[i]!.returnTypes.length);
      });
      assert.ok(a.eventsSig.length >= 1);
    }
  });

  it('contract state: immFields and mutFields in artifact order; code by code hash', async () => {
    const st = await api.json<{
      address: string;
      codeHash: string;
      bytecode: string;
      immFields: unknown[];
      mutFields: { type: string; value: string }[];
      asset: { attoAlphAmount: string };
    }>(`/contracts/${counter().address}/state`);
    assert.equal(st.address, counter().address);
    assert.deepEqual(st.immFields, [{ type: 'Address', value: sb.accounts[0]!.address }]);
    assert.equal(st.mutFields[0]?.type, 'U256');
    assert.ok(BigInt(st.asset.attoAlphAmount) > 0n);
    const code = await api.json<string>(`/contracts/${st.codeHash}/code`);
    assert.equal(code, st.bytecode);
    const fs = await api.json<{
      immFields: { type: string; value: string }[];
      asset: { tokens: { id: string }[] };
    }>(`/contracts/${faucet().address}/state`);
    assert.equal(fs.immFields.length, 5);
    assert.equal(fs.immFields[4]?.value, '414c50480001');
    assert.equal(fs.asset.tokens.length, 1);
    assert.equal((await api.get(`/contracts/${'00'.repeat(32)}/code`)).status, 404);
    assert.equal((await api.get('/contracts/zzz/code')).status, 400);
    assert.equal((await api.get('/contracts/not-an-address/state')).status, 400);
    assert.equal((await api.get(`/contracts/${systemEventAddress(-1, 3)}/state`)).status, 404);
    assert.equal((await api.get(`/contracts/${sb.accounts[0]!.address}/state`)).status, 400);
  });

  it('call-contract: returns, gasUsed, events and debug messages, nothing persisted', async () => {
    const before = await api.json<{ mutFields: { value: string }[] }>(
      `/contracts/${counter().address}/state`,
    );
    const r = await api.json<{
      type: string;
      returns: unknown[];
      gasUsed: number;
      events: Ev[];
      debugMessages: { contractAddress: string; message: string }[];
      contracts: unknown[];
      txInputs: unknown[];
      txOutputs: unknown[];
    }>('/contracts/call-contract', { group: 0, address: counter().address, methodIndex: 1 });
    assert.equal(r.type, 'CallContractSucceeded');
    assert.deepEqual(r.returns, []);
    assert.ok(r.gasUsed > 0);
    assert.equal(r.events.length, 1);
    assert.equal(r.events[0]?.eventIndex, 0);
    assert.equal(r.events[0]?.fields[1]?.value, String(BigInt(before.mutFields[0]!.value) + 1n));
    assert.deepEqual(r.debugMessages, [
      {
        contractAddress: counter().address,
        message: `count is now ${BigInt(before.mutFields[0]!.value) + 1n}`,
      },
    ]);
    const after = await api.json<{ mutFields: { value: string }[] }>(`/contracts/${counter().address}/state`);
    assert.deepEqual(after.mutFields, before.mutFields);
    const get = await api.json<{ returns: { type: string; value: string }[] }>('/contracts/call-contract', {
      group: 0,
      address: counter().address,
      methodIndex: 0,
    });
    assert.deepEqual(get.returns, [{ type: 'U256', value: before.mutFields[0]!.value }]);
  });

  it('call-contract failures as the node reports them', async () => {
    const fail = async (body: unknown, re: RegExp) => {
      const r = await api.json<{ type: string; error: string }>('/contracts/call-contract', body);
      assert.equal(r.type, 'CallContractFailed');
      assert.match(r.error, re);
    };
    await fail(
      { group: 0, address: counter().address, methodIndex: 2, args: [{ type: 'U256', value: '1000' }] },
      /Assertion Failed in Contract @ .*, Error Code: 1/,
    );
    await fail({ group: 0, address: counter().address, methodIndex: 99 }, /Invalid method index 99/);
    await fail(
      { group: 0, address: counter().address, methodIndex: 2 },
      /Invalid number of external method arguments/,
    );
    await fail(
      { group: 0, address: counter().address, methodIndex: 2, args: [{ type: 'Bool', value: true }] },
      /Invalid type, expected: U256/,
    );
    await fail({ group: 0, address: systemEventAddress(-1, 0), methodIndex: 0 }, /NonExistContract/);
    assert.equal(
      (await api.post('/contracts/call-contract', { group: 0, address: counter().address })).status,
      400,
    );
    assert.equal(
      (await api.post('/contracts/call-contract', { group: 7, address: counter().address, methodIndex: 0 }))
        .status,
      400,
    );
    assert.equal(
      (await api.post('/contracts/call-contract', { group: 0, address: 'bad', methodIndex: 0 })).status,
      400,
    );
  });

  it('multicall: one result per call in order, at most 20 calls', async () => {
    const calls = [
      { group: 0, address: faucet().address, methodIndex: 0 },
      { group: 0, address: faucet().address, methodIndex: 2 },
      { group: 0, address: counter().address, methodIndex: 99 },
    ];
    const r = await api.json<{ results: { type: string; returns?: { type: string; value: string }[] }[] }>(
      '/contracts/multicall-contract',
      { calls },
    );
    assert.equal(r.results.length, 3);
    assert.deepEqual(r.results[0]?.returns, [{ type: 'ByteVec', value: Buffer.from('SBX').toString('hex') }]);
    assert.deepEqual(r.results[1]?.returns, [{ type: 'U256', value: '18' }]);
    assert.equal(r.results[2]?.type, 'CallContractFailed');
    const twenty = Array.from({ length: 20 }, () => calls[0]);
    assert.equal((await api.post('/contracts/multicall-contract', { calls: twenty })).status, 200);
    const res = await api.post('/contracts/multicall-contract', { calls: [...twenty, calls[0]] });
    assert.equal(res.status, 400);
    assert.ok(((await res.json()) as { detail: string }).detail);
    assert.equal((await api.post('/contracts/multicall-contract', {})).status, 400);
  });

  it('a contract that never emitted is 404 for events and count', async () => {
    const { address } = await control<{ address: string }>(sb, 'POST', '/contracts/deploy', {
      name: 'Counter',
    });
    const res = await api.get(`/events/contract/${address}?start=0`);
    assert.equal(res.status, 404);
    const body = (await res.json()) as { detail: string; resource: string };
    assert.match(body.detail, /not found/);
    assert.equal(body.resource, address);
    assert.equal((await api.get(`/events/contract/${address}/current-count`)).status, 404);
  });

  it('deploying emits ContractCreated (index -1) at the special address, readable by tx id and block hash', async () => {
    const special = systemEventAddress(-1, 0);
    assert.equal(special, 'tgx7VNFoP9DJiFMFgXXtafQZkUvyEdDHT9ryamHJZC9M'); // published value for group 0
    const before = await api.json<{ count: number }>(`/events/contract/${special}/current-count`);
    const d = await control<{ address: string; txId: string; blockHash: string }>(
      sb,
      'POST',
      '/contracts/deploy',
      { name: 'TokenFaucet' },
    );
    const page = await api.json<{ events: Ev[]; nextStart: number }>(
      `/events/contract/${special}?start=${before.count}`,
    );
    assert.equal(page.events.length, 1);
    const ev = page.events[0]!;
    assert.equal(ev.eventIndex, -1);
    assert.equal(ev.contractAddress, special);
    assert.deepEqual(ev.fields[0], { type: 'Address', value: d.address });
    assert.deepEqual(ev.fields[2], { type: 'ByteVec', value: '0001' });
    assert.equal(ev.txId, d.txId);
    assert.equal(ev.blockHash, d.blockHash);
    const byTx = await api.json<{ events: Ev[] }>(`/events/tx-id/${d.txId}`);
    assert.equal(byTx.events[0]?.eventIndex, -1);
    assert.equal(byTx.events[0]?.blockHash, d.blockHash);
    assert.equal(byTx.events[0]?.txId, undefined);
    const byBlock = await api.json<{ events: Ev[] }>(`/events/block-hash/${d.blockHash}`);
    assert.equal(byBlock.events[0]?.txId, d.txId);
    assert.equal(byBlock.events[0]?.blockHash, undefined);
  });

  it('blocks-with-events lists the blocks of all 16 chains in a window, each with its events as by block hash', async () => {
    const trig = await control<{ txIds: string[] }>(sb, 'POST', '/events/trigger', { contract: 'Counter' });
    const byTx = await api.json<{ events: Ev[] }>(`/events/tx-id/${trig.txIds[0]}`);
    const blockHash = byTx.events[0]?.blockHash ?? '';
    const { timestamp } = await api.json<{ timestamp: number }>(`/blockflow/blocks/${blockHash}`);
    const window = `fromTs=${timestamp}&toTs=${timestamp}`;
    const { blocksAndEvents } = await api.json<{
      blocksAndEvents: { block: { hash: string; timestamp: number }; events: Ev[] }[][];
    }>(`/blockflow/blocks-with-events?${window}`);
    const { blocks } = await api.json<{ blocks: { hash: string }[][] }>(`/blockflow/blocks?${window}`);
    assert.equal(blocksAndEvents.length, 16);
    assert.deepEqual(
      blocksAndEvents.map((chain) => chain.map((b) => b.block.hash)),
      blocks.map((chain) => chain.map((b) => b.hash)),
      'the same blocks as /blockflow/blocks',
    );
    const entry = blocksAndEvents.flat().find((b) => b.block.hash === blockHash);
    const byBlock = await api.json<{ events: Ev[] }>(`/events/block-hash/${blockHash}`);
    assert.ok(entry && entry.events.length > 0);
    assert.deepEqual(entry.events, byBlock.events);
    assert.ok(entry.events.some((e) => e.txId === trig.txIds[0]));
    // Refused as /blockflow/blocks refuses: a window backwards, a bad number, a span over the limit.
    const refused = [`fromTs=${timestamp}&toTs=${timestamp - 1}`, 'fromTs=abc'];
    for (const q of refused)
      assert.equal((await api.get(`/blockflow/blocks-with-events?${q}`)).status, 400, q);
    const big = await api.get(
      `/blockflow/blocks-with-events?fromTs=${timestamp - 24 * 3600_000}&toTs=${timestamp}`,
    );
    assert.equal(big.status, 504);
  });

  it('pagination: nextStart skips real gaps in the counter, so start + limit is wrong', async () => {
    const addr = counter().address;
    const before = await api.get(`/events/contract/${addr}/current-count`);
    const start = before.status === 404 ? 0 : ((await before.json()) as { count: number }).count;
    const trig = await control<{ txIds: string[] }>(sb, 'POST', '/events/trigger', {
      contract: 'Counter',
      count: 5,
    });
    assert.equal(trig.txIds.length, 5);
    const { count } = await api.json<{ count: number }>(`/events/contract/${addr}/current-count`);
    assert.equal(count, start + 10, 'each increment takes two counter slots (one is a hidden Debug event)');
    const p1 = await api.json<{ events: Ev[]; nextStart: number }>(
      `/events/contract/${addr}?start=${start}&limit=2`,
    );
    assert.equal(p1.events.length, 2);
    assert.ok(p1.nextStart > start + 2, `nextStart ${p1.nextStart}`);
    const p2 = await api.json<{ events: Ev[]; nextStart: number }>(
      `/events/contract/${addr}?start=${p1.nextStart}&limit=2`,
    );
    const naive = await api.json<{ events: Ev[] }>(`/events/contract/${addr}?start=${start + 2}&limit=2`);
    const values = (p: { events: Ev[] }) => p.events.map((e) => e.fields[1]?.value);
    assert.notDeepEqual(values(naive), values(p2), 'start + limit re-reads an event');
    const all = [...values(p1), ...values(p2)];
    assert.equal(new Set(all).size, 4);
    for (const e of [...p1.events, ...p2.events]) {
      assert.equal(e.eventIndex, 0);
      assert.equal(e.contractAddress, addr);
      assert.ok(trig.txIds.includes(e.txId!));
      assert.equal(typeof e.blockHash, 'string');
      assert.equal(typeof e.timestamp, 'number');
      assert.equal(e.fields[0]?.type, 'Address');
    }
    const end = await api.json<{ events: Ev[]; nextStart: number }>(
      `/events/contract/${addr}?start=${count}`,
    );
    assert.deepEqual(end, { events: [], nextStart: count });
    assert.equal((await api.get(`/events/contract/${addr}?start=${count + 1}`)).status, 404);
    // Debug messages are visible by tx id (index -3), never in the contract listing.
    const byTx = await api.json<{ events: Ev[] }>(`/events/tx-id/${trig.txIds[0]}`);
    assert.deepEqual(
      byTx.events.map((e) => e.eventIndex),
      [-3, 0],
    );
  });

  it('validates start and limit (max 100)', async () => {
    const addr = counter().address;
    await control(sb, 'POST', '/events/trigger', {});
    assert.equal((await api.get(`/events/contract/${addr}?start=0&limit=100`)).status, 200);
    for (const q of ['start=0&limit=101', 'start=0&limit=0', 'start=-1', 'limit=5', 'start=x']) {
      const res = await api.get(`/events/contract/${addr}?${q}`);
      assert.equal(res.status, 400, q);
    }
    assert.equal((await api.get('/events/contract/bad-address?start=0')).status, 400);
    assert.equal((await api.get('/events/tx-id/nothex')).status, 400);
    assert.deepEqual(await api.json(`/events/tx-id/${'ab'.repeat(32)}`), { events: [] });
    assert.equal((await api.get(`/events/block-hash/${'ab'.repeat(32)}`)).status, 404);
  });

  it('faucet withdraw moves tokens to the caller; over the max fails with the error code', async () => {
    const caller = sb.accounts[1]!;
    const r = await control<{ txId: string; events: Ev[] }>(sb, 'POST', `/contracts/TokenFaucet/call`, {
      method: 'withdraw',
      args: [2],
      caller: caller.address,
    });
    const withdraw = r.events.find((e) => e.eventIndex === 0)!;
    assert.deepEqual(withdraw.fields, [
      { type: 'Address', value: caller.address },
      { type: 'U256', value: '2' },
    ]);
    const bal = await api.json<{ tokenBalances?: { id: string; amount: string }[] }>(
      `/addresses/${caller.address}/balance`,
    );
    const tokenId = faucet().address && bal.tokenBalances?.[0]?.id;
    assert.equal(bal.tokenBalances?.[0]?.amount, '2');
    assert.ok(tokenId);
    const details = await api.json<{
      generatedOutputs: { type: string; address: string }[];
      contractInputs: unknown[];
    }>(`/transactions/details/${r.txId}`);
    assert.deepEqual(
      details.generatedOutputs.map((o) => o.type),
      ['AssetOutput', 'ContractOutput'],
    );
    assert.equal(details.contractInputs.length, 1);
    const bad = await fetch(`${sb.baseUrl}/__sandbox/contracts/TokenFaucet/call`, {
      method: 'POST',
      body: JSON.stringify({ method: 'withdraw', args: [3] }),
    });
    assert.equal(bad.status, 400);
    assert.match(
      ((await bad.json()) as { detail: string }).detail,
      /Assertion Failed in Contract @ \w+, Error Code: \d/,
    );
  });

  it('emits events on a schedule with --events-every-ms', async () => {
    const { sb: timed, api: tapi } = await newSandbox({ eventsEveryMs: 20, blockTimeMs: 20 });
    try {
      const addr = timed.contracts.find((c) => c.name === 'Counter')!.address;
      // Bounded polling: the schedule is the thing under test, so there is no event to await instead.
      const deadline = Date.now() + 5000;
      let count = 0;
      while (Date.now() < deadline) {
        const res = await tapi.get(`/events/contract/${addr}/current-count`);
        if (res.status === 200) count = ((await res.json()) as { count: number }).count;
        if (count >= 4) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.ok(count >= 4, `count ${count}`);
    } finally {
      await timed.close();
    }
  });
});
