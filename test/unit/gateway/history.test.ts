/**
 * The client's part of historic state: script dry runs pinned to a block and to a txId, input assets
 * checked before a call is sent, block headers by hash, and answers pinned to a block cached forever.
 */
import assert from 'node:assert/strict';
import { ValidationError } from '../../../src/core/gateway/errors';
import { BLOCK_HASH, CONTRACT, P2PKH, TX_ID, harness, json, outcome } from './helpers';

const SUCCEEDED = {
  type: 'CallContractSucceeded',
  returns: [{ type: 'U256', value: '7' }],
  gasUsed: 1000,
  contracts: [],
  txInputs: [],
  txOutputs: [],
  events: [],
  debugMessages: [],
};
const FAILED = { type: 'CallContractFailed', error: 'block not found' };
const SCRIPT_RESULT = { ...SUCCEEDED, type: undefined };
const HEADER = {
  hash: BLOCK_HASH,
  timestamp: 1_700_000_000_000,
  chainFrom: 1,
  chainTo: 1,
  height: 12,
  deps: Array.from({ length: 7 }, (_, i) => String(i).repeat(64)),
};
const ASSETS = [{ address: P2PKH, asset: { attoAlphAmount: '1000000000000000000' } }];

function bodyOf(request: { body?: string } | undefined): Record<string, unknown> {
  return JSON.parse(request?.body ?? '{}') as Record<string, unknown>;
}

describe('gateway client: historic state', () => {
  it('sends worldStateBlockHash and txId of a script dry run', async () => {
    const { clock, transport, client } = harness();
    transport.on('/contracts/call-tx-script', json(200, SCRIPT_RESULT));
    const request = { group: 0, bytecode: '0101', worldStateBlockHash: BLOCK_HASH, txId: TX_ID };
    await clock.run(client.callTxScript(request));
    const body = bodyOf(transport.requests[0]);
    assert.equal(body.worldStateBlockHash, BLOCK_HASH);
    assert.equal(body.txId, TX_ID);
  });

  for (const [name, patch, field] of [
    ['a short block hash', { worldStateBlockHash: 'ab' }, 'worldStateBlockHash'],
    ['a txId that is not hex', { txId: 'zz'.repeat(32) }, 'txId'],
  ] as const) {
    it(`refuses a script dry run with ${name}, sending nothing`, async () => {
      const { clock, transport, client } = harness();
      const result = await outcome(clock, client.callTxScript({ group: 0, bytecode: '01', ...patch }));
      assert.ok(result.error instanceof ValidationError);
      assert.equal(result.error.field, field);
      assert.equal(transport.requests.length, 0);
    });
  }

  for (const [name, inputAssets, field] of [
    [
      'a negative amount',
      [{ address: P2PKH, asset: { attoAlphAmount: '-1' } }],
      'call.inputAssets[0].asset.attoAlphAmount',
    ],
    ['a bad address', [{ address: 'nope', asset: { attoAlphAmount: '1' } }], 'call.inputAssets[0].address'],
    ['no asset', [{ address: P2PKH }], 'call.inputAssets[0].asset'],
    [
      'a token of the wrong length',
      [{ address: P2PKH, asset: { attoAlphAmount: '1', tokens: [{ id: 'ab', amount: '1' }] } }],
      'call.inputAssets[0].asset.tokens[0].id',
    ],
  ] as const) {
    it(`refuses a contract call whose inputAssets have ${name}, sending nothing`, async () => {
      const { clock, transport, client } = harness();
      const call = { address: CONTRACT, methodIndex: 0, inputAssets };
      const result = await outcome(clock, client.callContract(call));
      assert.ok(result.error instanceof ValidationError, String(result.error));
      assert.equal(result.error.field, field);
      assert.equal(transport.requests.length, 0);
    });
  }

  it('checks the inputAssets of each call of a multicall, naming the call', async () => {
    const { clock, transport, client } = harness();
    const bad = [{ address: P2PKH, asset: { attoAlphAmount: '1.5' } }];
    const calls = [
      { address: CONTRACT, methodIndex: 0, inputAssets: ASSETS },
      { address: CONTRACT, methodIndex: 1, inputAssets: bad },
    ];
    const result = await outcome(clock, client.multicallContract(calls));
    assert.ok(result.error instanceof ValidationError);
    assert.equal(result.error.field, 'calls[1].inputAssets[0].asset.attoAlphAmount');
    assert.equal(transport.requests.length, 0);
  });

  it('reads a block header by hash once, then from the cache forever', async () => {
    const { clock, transport, client } = harness();
    transport.on(`/blockflow/headers/${BLOCK_HASH}`, json(200, HEADER));
    const first = await clock.run(client.getBlockHeader(BLOCK_HASH));
    await clock.advance(365 * 24 * 3600_000);
    const again = await clock.run(client.getBlockHeader(BLOCK_HASH.toUpperCase()));
    assert.deepEqual(first, HEADER);
    assert.deepEqual(again, HEADER);
    assert.equal(transport.requests.length, 1);
  });

  it('refuses a header hash of the wrong length, sending nothing', async () => {
    const { clock, transport, client } = harness();
    const result = await outcome(clock, client.getBlockHeader('abc'));
    assert.ok(result.error instanceof ValidationError);
    assert.equal(transport.requests.length, 0);
  });

  it('caches a call pinned to a block forever, and an unpinned call not at all', async () => {
    const { clock, transport, client } = harness();
    transport.on('/contracts/call-contract', json(200, SUCCEEDED));
    const pinned = { address: CONTRACT, methodIndex: 0, worldStateBlockHash: BLOCK_HASH };
    await clock.run(client.callContract(pinned));
    await clock.advance(30 * 24 * 3600_000);
    await clock.run(client.callContract(pinned));
    assert.equal(transport.requests.length, 1);
    // Another block is another answer.
    await clock.run(client.callContract({ ...pinned, worldStateBlockHash: 'c'.repeat(64) }));
    assert.equal(transport.requests.length, 2);
    const unpinned = { address: CONTRACT, methodIndex: 0 };
    await clock.run(client.callContract(unpinned));
    await clock.run(client.callContract(unpinned));
    assert.equal(transport.requests.length, 4);
  });

  it('does not cache a pinned call that failed (the node may not have the block yet)', async () => {
    const { clock, transport, client } = harness();
    transport.on('/contracts/call-contract', json(200, FAILED), json(200, SUCCEEDED));
    const pinned = { address: CONTRACT, methodIndex: 0, worldStateBlockHash: BLOCK_HASH };
    const first = await clock.run(client.callContract(pinned));
    const second = await clock.run(client.callContract(pinned));
    assert.equal(first.type, 'CallContractFailed');
    assert.equal(second.type, 'CallContractSucceeded');
    assert.equal(transport.requests.length, 2);
  });

  it('caches a multicall forever only when every call pins a block', async () => {
    const { clock, transport, client } = harness();
    transport.on('/contracts/multicall-contract', json(200, { results: [SUCCEEDED, SUCCEEDED] }));
    const before = { address: CONTRACT, methodIndex: 0, worldStateBlockHash: BLOCK_HASH };
    const after = { ...before, worldStateBlockHash: 'c'.repeat(64) };
    await clock.run(client.multicallContract([before, after]));
    await clock.run(client.multicallContract([before, after]));
    assert.equal(transport.requests.length, 1);
    const mixed = [before, { address: CONTRACT, methodIndex: 0 }];
    await clock.run(client.multicallContract(mixed));
    await clock.run(client.multicallContract(mixed));
    assert.equal(transport.requests.length, 3);
  });

  it('caches a pinned script dry run forever, and asks again with fresh', async () => {
    const { clock, transport, client } = harness();
    transport.on('/contracts/call-tx-script', json(200, SCRIPT_RESULT));
    const request = { group: 0, bytecode: '0101', worldStateBlockHash: BLOCK_HASH };
    await clock.run(client.callTxScript(request));
    await clock.run(client.callTxScript(request));
    assert.equal(transport.requests.length, 1);
    await clock.run(client.callTxScript(request, { fresh: true }));
    assert.equal(transport.requests.length, 2);
    await clock.run(client.callTxScript({ group: 0, bytecode: '0101' }));
    await clock.run(client.callTxScript({ group: 0, bytecode: '0101' }));
    assert.equal(transport.requests.length, 4);
  });
});
