/** Every response is validated: good bodies parse (node extras kept), bad ones give a SchemaError. */
import assert from 'node:assert/strict';
import { SchemaError } from '../../../src/core/gateway/errors';
import {
  MAX_CALL_ERROR_CHARS,
  MAX_DEBUG_MESSAGES,
  MAX_DEBUG_MESSAGE_CHARS,
} from '../../../src/core/gateway/schemas';
import {
  BLOCK_HASH,
  CODE_HASH,
  CONTRACT,
  CONTRACT_STATE,
  P2PKH,
  PUBKEY,
  SELF_CLIQUE_SYNCED,
  TX_DETAILS,
  TX_ID,
  UNSIGNED_TX,
  event,
  harness,
  json,
  outcome,
} from './helpers';

const OTHER_CODE_HASH = '9'.repeat(64);

const CONFIRMED = {
  type: 'Confirmed',
  blockHash: BLOCK_HASH,
  txIndex: 0,
  chainConfirmations: 3,
  fromGroupConfirmations: 2,
  toGroupConfirmations: 1,
};

describe('gateway response schemas', () => {
  it('parses every endpoint of the spec with a well-formed body', async () => {
    const { client, transport, clock } = harness();
    const built = {
      unsignedTx: '00ff',
      gasAmount: 20000,
      gasPrice: '100000000000',
      txId: TX_ID,
      fromGroup: 0,
      toGroup: 1,
    };
    transport
      .on('/transactions/build', json(200, { ...built, type: 'BuildSimpleTransferTxResult' }))
      .on(
        '/transactions/decode-unsigned-tx',
        json(200, { fromGroup: 0, toGroup: 1, unsignedTx: UNSIGNED_TX }),
      )
      .on(
        '/transactions/sweep-address/build',
        json(200, { unsignedTxs: [{ txId: TX_ID, unsignedTx: '00' }], fromGroup: 0, toGroup: 0 }),
      )
      .on(`/transactions/details/${TX_ID}`, json(200, TX_DETAILS))
      .on(`/events/tx-id/${TX_ID}`, json(200, { events: [{ ...event(1), txId: undefined }] }))
      .on(`/events/block-hash/${BLOCK_HASH}`, json(200, { events: [{ ...event(1), blockHash: undefined }] }))
      .on(`/events/contract/${CONTRACT}/current-count`, json(200, 42))
      .on('/infos/self-clique', json(200, SELF_CLIQUE_SYNCED))
      .on('/infos/version', json(200, { version: 'v3.5.0' }))
      .on(
        '/infos/chain-params',
        json(200, { networkId: 4, numZerosAtLeastInHash: 0, groupNumPerBroker: 4, groups: 4 }),
      )
      .on('/infos/current-hashrate', json(200, { hashrate: '100 MH/s' }))
      .on(`/addresses/${P2PKH}/group`, json(200, { group: 0 }))
      .on(
        `/addresses/${P2PKH}/balance`,
        json(200, {
          balance: '10',
          balanceHint: '0 ALPH',
          lockedBalance: '0',
          lockedBalanceHint: '0 ALPH',
          utxoNum: 1,
        }),
      )
      .on('/blockflow/chain-info', json(200, { currentHeight: 12 }))
      .on(`/contracts/${CONTRACT}/state`, json(200, CONTRACT_STATE))
      .on(`/contracts/${OTHER_CODE_HASH}/code`, json(200, '0102'));

    const dest = [{ address: P2PKH, attoCoinAmount: '1000000000000000' }];
    assert.equal(
      (await clock.run(client.buildTransfer({ fromPublicKey: PUBKEY, destinations: dest }))).txId,
      TX_ID,
    );
    assert.equal((await clock.run(client.decodeUnsignedTx('00ff'))).unsignedTx.fixedOutputs.length, 1);
    assert.equal(
      (await clock.run(client.buildSweep({ fromPublicKey: PUBKEY, toAddress: P2PKH }))).unsignedTxs.length,
      1,
    );
    assert.equal((await clock.run(client.getTxDetails(TX_ID))).inputSignatures.length, 1);
    assert.equal((await clock.run(client.getEventsByTxId(TX_ID)))[0]?.blockHash, BLOCK_HASH);
    assert.equal((await clock.run(client.getEventsByBlockHash(BLOCK_HASH)))[0]?.txId, TX_ID);
    assert.equal(await clock.run(client.getContractEventCount(CONTRACT)), 42);
    assert.equal((await clock.run(client.getSelfClique())).synced, true);
    assert.equal((await clock.run(client.getVersion())).version, 'v3.5.0');
    assert.equal((await clock.run(client.getChainParams())).groups, 4);
    assert.equal((await clock.run(client.getCurrentHashrate())).hashrate, '100 MH/s');
    assert.equal(await clock.run(client.getAddressGroup(P2PKH)), 0);
    assert.equal((await clock.run(client.getAddressBalance(P2PKH))).balance, '10');
    assert.equal((await clock.run(client.getChainInfo(0, 1))).currentHeight, 12);
    assert.deepEqual(
      (await clock.run(client.getContractState(CONTRACT))).immFields,
      CONTRACT_STATE.immFields,
    );
    assert.equal(await clock.run(client.getContractCode(OTHER_CODE_HASH)), '0102');
    // Wire format: the build body carries both names of the amount (spec and node).
    const buildBody = JSON.parse(transport.requests[0]?.body ?? '{}') as {
      destinations: Record<string, string>[];
    };
    assert.deepEqual(buildBody.destinations[0], {
      address: P2PKH,
      attoCoinAmount: '1000000000000000',
      attoAlphAmount: '1000000000000000',
    });
  });

  it('a body that does not match gives a SchemaError naming the endpoint and the first mismatch', async () => {
    const { client, transport, clock } = harness();
    transport.on('/transactions/status', json(200, { ...CONFIRMED, chainConfirmations: 'three' }));
    const { error, value } = await outcome(clock, client.getTxStatus(TX_ID));
    assert.equal(value, undefined);
    assert.ok(error instanceof SchemaError);
    assert.equal(error.kind, 'schema');
    assert.equal(error.endpoint, 'GET /transactions/status');
    assert.equal(error.path, 'chainConfirmations');
    assert.match(error.message, /GET \/transactions\/status.*chainConfirmations/);
    assert.equal(transport.requests.length, 1); // not retried: a contract violation, not a transient
  });

  it('names nested paths (first mismatch only)', async () => {
    const { client, transport, clock } = harness();
    const bad = {
      ...TX_DETAILS,
      unsigned: { ...UNSIGNED_TX, fixedOutputs: [{ ...UNSIGNED_TX.fixedOutputs[0], attoAlphAmount: -1 }] },
    };
    transport.on(`/transactions/details/${TX_ID}`, json(200, bad));
    const { error } = await outcome(clock, client.getTxDetails(TX_ID));
    assert.equal((error as SchemaError).path, 'unsigned.fixedOutputs.0.attoAlphAmount');
  });

  it('a body that is not JSON is a SchemaError, never a crash', async () => {
    const { client, transport, clock } = harness();
    transport.on('/infos/version', { status: 200, headers: {}, bodyText: '<html>proxy error</html>' });
    const { error } = await outcome(clock, client.getVersion());
    assert.ok(error instanceof SchemaError);
    assert.match(error.message, /not JSON/);
  });

  it('a half-valid body is not passed on (missing field in the 2nd event)', async () => {
    const { client, transport, clock } = harness();
    const { eventIndex: _dropped, ...broken } = event(2);
    transport.on(/^\/events\/contract\//, json(200, { events: [event(1), broken], nextStart: 2 }));
    const { error, value } = await outcome(clock, client.getContractEvents(CONTRACT, { start: 0 }));
    assert.equal(value, undefined);
    assert.equal((error as SchemaError).path, 'events.1.eventIndex');
  });

  describe('tx status', () => {
    for (const body of [
      CONFIRMED,
      { ...CONFIRMED, type: 'Conflicted' },
      { type: 'MemPooled' },
      { type: 'TxNotFound' },
    ]) {
      it(`accepts ${body.type}`, async () => {
        const { client, transport, clock } = harness();
        transport.on('/transactions/status', json(200, body));
        assert.deepEqual(await clock.run(client.getTxStatus(TX_ID)), body);
      });
    }

    it('surfaces an unknown status type as Unknown instead of crashing', async () => {
      const { client, transport, clock } = harness();
      transport.on('/transactions/status', json(200, { type: 'Evaporated', since: 3 }));
      const status = await clock.run(client.getTxStatus(TX_ID));
      assert.equal(status.type, 'Unknown');
      assert.equal(status.type === 'Unknown' && status.rawType, 'Evaporated');
    });

    it('a known type with a bad shape is still an error (Confirmed without blockHash)', async () => {
      const { client, transport, clock } = harness();
      const { blockHash: _omitted, ...noHash } = CONFIRMED;
      transport.on('/transactions/status', json(200, noHash));
      const { error } = await outcome(clock, client.getTxStatus(TX_ID));
      assert.equal((error as SchemaError).path, 'blockHash');
    });
  });

  describe('self-clique (spec vs node)', () => {
    const cases: [string, unknown, boolean][] = [
      ['node: top-level synced true', SELF_CLIQUE_SYNCED, true],
      ['node: top-level synced false', { ...SELF_CLIQUE_SYNCED, synced: false }, false],
      ['spec: nodes[].isSynced all true', { nodes: [{ isSynced: true }, { isSynced: true }] }, true],
      ['spec: one node not synced', { nodes: [{ isSynced: true }, { isSynced: false }] }, false],
    ];
    for (const [name, body, synced] of cases) {
      it(name, async () => {
        const { client, transport, clock } = harness();
        transport.on('/infos/self-clique', json(200, body));
        assert.equal((await clock.run(client.getSelfClique())).synced, synced);
      });
    }

    it('neither form is a mismatch', async () => {
      const { client, transport, clock } = harness();
      transport.on('/infos/self-clique', json(200, { nodes: [{ address: '1.2.3.4' }] }));
      const { error } = await outcome(clock, client.getSelfClique());
      assert.ok(error instanceof SchemaError);
      assert.equal(error.endpoint, 'GET /infos/self-clique');
    });
  });

  it('keeps node-only extra fields (non-strict objects)', async () => {
    const { client, transport, clock } = harness();
    transport.on(
      `/contracts/${CONTRACT}/state`,
      json(200, { ...CONTRACT_STATE, initialStateHash: CODE_HASH, futureField: { x: 1 } }),
    );
    const state = (await clock.run(client.getContractState(CONTRACT))) as Record<string, unknown>;
    assert.deepEqual(state.futureField, { x: 1 });
  });

  it('current-count accepts the spec object form {count} too', async () => {
    const { client, transport, clock } = harness();
    transport.on(`/events/contract/${CONTRACT}/current-count`, json(200, { count: 7 }));
    assert.equal(await clock.run(client.getContractEventCount(CONTRACT)), 7);
  });

  it('call-contract: success, failure and unknown result types', async () => {
    const { client, transport, clock } = harness();
    transport.on(
      '/contracts/call-contract',
      json(200, {
        type: 'CallContractSucceeded',
        returns: [{ type: 'U256', value: '1' }],
        gasUsed: 500,
        contracts: [],
        txInputs: [],
        txOutputs: [],
        events: [],
        debugMessages: [],
      }),
      json(200, { type: 'CallContractFailed', error: 'AssertionFailed' }),
      json(200, { type: 'CallContractPending' }),
    );
    const call = { address: CONTRACT, methodIndex: 0 };
    assert.equal((await clock.run(client.callContract(call))).type, 'CallContractSucceeded');
    const failed = await clock.run(client.callContract(call));
    assert.equal(failed.type === 'CallContractFailed' && failed.error, 'AssertionFailed');
    assert.equal((await clock.run(client.callContract(call))).type, 'Unknown');
    // group defaults to the contract's group
    assert.equal((JSON.parse(transport.requests[0]?.body ?? '{}') as { group: number }).group, 2);
  });

  it('cleans and caps the free text a gateway writes, where it enters', async () => {
    const { client, transport, clock } = harness();
    const forged = '\u001b[31mAssertionFailed\u001b[0m\r\n[INFO] forged log line \u202eevil\u200b';
    const huge = `${forged} ${'x'.repeat(500_000)}`;
    const messages = Array.from({ length: 5_000 }, (_, i) => ({
      contractAddress: `${CONTRACT}\u0000`,
      message: i === 0 ? huge : `${forged} ${i}`,
    }));
    transport.on(
      '/contracts/call-contract',
      json(200, { type: 'CallContractFailed', error: huge }),
      json(200, {
        type: 'CallContractSucceeded',
        returns: [{ type: `U256${'\u202e'.repeat(3)}${'T'.repeat(10_000)}`, value: '1' }],
        gasUsed: 500,
        events: [],
        debugMessages: messages,
      }),
      json(200, { type: `Pending\n${'P'.repeat(10_000)}` }),
    );
    transport.on('/infos/version', json(200, { version: `v4.6.0\u0007${'9'.repeat(100_000)}` }));
    const call = { address: CONTRACT, methodIndex: 0 };

    const failed = await clock.run(client.callContract(call));
    assert.ok(failed.type === 'CallContractFailed');
    assert.ok(
      failed.error.startsWith('AssertionFailed [INFO] forged log line evil x'),
      failed.error.slice(0, 80),
    );
    assert.ok(failed.error.length <= MAX_CALL_ERROR_CHARS + 40, `${failed.error.length} characters`);

    const ok = await clock.run(client.callContract(call));
    assert.ok(ok.type === 'CallContractSucceeded');
    assert.equal(ok.debugMessages.length, MAX_DEBUG_MESSAGES);
    assert.ok(ok.debugMessages[0]!.message.length <= MAX_DEBUG_MESSAGE_CHARS + 40);
    assert.equal(ok.debugMessages[1]!.message, 'AssertionFailed [INFO] forged log line evil 1');
    assert.equal(ok.debugMessages[1]!.contractAddress, CONTRACT);
    assert.match(ok.debugMessages.at(-1)!.message, /^… 4801 more debug message\(s\) were not kept/);
    assert.ok(ok.returns[0]!.type.startsWith('U256TTT') && ok.returns[0]!.type.length < 100);

    const unknown = await clock.run(client.callContract(call));
    assert.ok(unknown.type === 'Unknown');
    assert.ok(unknown.rawType.startsWith('Pending PPP') && unknown.rawType.length < 100, unknown.rawType);

    const version = await clock.run(client.getVersion());
    assert.ok(version.version.startsWith('v4.6.0999') && version.version.length < 100);
  });
});
