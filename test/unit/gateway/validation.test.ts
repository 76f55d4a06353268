/** Inputs are validated before any request, with errors naming the field. */
import assert from 'node:assert/strict';
import { ValidationError } from '../../../src/core/gateway/errors';
import type { GatewayClient } from '../../../src/core/gateway/client';
import { validateProfile } from '../../../src/core/profiles/profile';
import { BLOCK_HASH, CONTRACT, P2PKH, PUBKEY, SIGNATURE, TX_ID, harness } from './helpers';

const DUST = '1000000000000000';
const T0 = 1_700_000_000_000;

/** [description, call, expected field]; every call must fail validation and send nothing. */
const CASES: [string, (c: GatewayClient) => Promise<unknown>, string][] = [
  ['hex address instead of base58', (c) => c.getAddressGroup('00'.repeat(33)), 'address'],
  ['address with a bad base58 character', (c) => c.getAddressBalance(P2PKH.replace('1', '0')), 'address'],
  ['address of the wrong length', (c) => c.getAddressBalance(P2PKH.slice(0, -3)), 'address'],
  ['asset address where a contract is required', (c) => c.getContractState(P2PKH), 'address'],
  ['events of an asset address', (c) => c.getContractEvents(P2PKH, { start: 0 }), 'address'],
  ['empty address', (c) => c.getAddressGroup(''), 'address'],
  ['group 4', (c) => c.getChainInfo(4, 0), 'fromGroup'],
  ['group -1', (c) => c.getChainInfo(0, -1), 'toGroup'],
  ['group 1.5', (c) => c.getTxStatus(TX_ID, { fromGroup: 1.5 }), 'fromGroup'],
  ['limit 0', (c) => c.getContractEvents(CONTRACT, { start: 0, limit: 0 }), 'limit'],
  ['limit 101', (c) => c.getContractEvents(CONTRACT, { start: 0, limit: 101 }), 'limit'],
  ['negative start', (c) => c.getContractEvents(CONTRACT, { start: -1 }), 'start'],
  ['timestamps in seconds', (c) => c.getBlocks(1_700_000_000, 1_700_000_060), 'fromTs'],
  ['fractional timestamp', (c) => c.getBlocks(T0 + 0.5, T0 + 1000), 'fromTs'],
  ['fromTs not before toTs', (c) => c.getBlocks(T0, T0), 'toTs'],
  ['fromTs after toTs', (c) => c.getBlocks(T0 + 5, T0), 'toTs'],
  ['txId too short', (c) => c.getTxStatus('ab'.repeat(31)), 'txId'],
  ['txId not hex', (c) => c.getTxDetails('zz'.repeat(32)), 'txId'],
  ['block hash too long', (c) => c.getEventsByBlockHash(BLOCK_HASH + '00'), 'blockHash'],
  ['code hash of the wrong length', (c) => c.getContractCode('ab'), 'codeHash'],
  [
    'public key of 32 bytes',
    (c) => c.buildSweep({ fromPublicKey: 'ab'.repeat(32), toAddress: P2PKH }),
    'fromPublicKey',
  ],
  [
    'sweep without toAddress',
    (c) => c.buildSweep({ fromPublicKey: PUBKEY, toAddress: undefined as unknown as string }),
    'toAddress',
  ],
  [
    'build without destinations',
    (c) => c.buildTransfer({ fromPublicKey: PUBKEY, destinations: [] }),
    'destinations',
  ],
  [
    'build without fromPublicKey',
    (c) => c.buildTransfer({ fromPublicKey: '', destinations: [{ address: P2PKH, attoCoinAmount: DUST }] }),
    'fromPublicKey',
  ],
  [
    'amount below dust',
    (c) =>
      c.buildTransfer({
        fromPublicKey: PUBKEY,
        destinations: [{ address: P2PKH, attoCoinAmount: '999999999999999' }],
      }),
    'destinations[0].attoCoinAmount',
  ],
  [
    'token output below dust',
    (c) =>
      c.buildTransfer({
        fromPublicKey: PUBKEY,
        destinations: [
          { address: P2PKH, attoCoinAmount: DUST },
          { address: P2PKH, attoCoinAmount: '0', tokens: [{ id: TX_ID, amount: '1' }] },
        ],
      }),
    'destinations[1].attoCoinAmount',
  ],
  [
    'negative amount',
    (c) =>
      c.buildTransfer({
        fromPublicKey: PUBKEY,
        destinations: [{ address: P2PKH, attoCoinAmount: '-1000000000000000' }],
      }),
    'destinations[0].attoCoinAmount',
  ],
  [
    'decimal amount',
    (c) =>
      c.buildTransfer({ fromPublicKey: PUBKEY, destinations: [{ address: P2PKH, attoCoinAmount: '1.5' }] }),
    'destinations[0].attoCoinAmount',
  ],
  [
    'amount missing',
    (c) => c.buildTransfer({ fromPublicKey: PUBKEY, destinations: [{ address: P2PKH } as never] }),
    'destinations[0].attoCoinAmount',
  ],
  [
    'destination address invalid',
    (c) =>
      c.buildTransfer({ fromPublicKey: PUBKEY, destinations: [{ address: 'nope', attoCoinAmount: DUST }] }),
    'destinations[0].address',
  ],
  [
    'token id not 32 bytes',
    (c) =>
      c.buildTransfer({
        fromPublicKey: PUBKEY,
        destinations: [{ address: P2PKH, attoCoinAmount: DUST, tokens: [{ id: 'ab', amount: '1' }] }],
      }),
    'destinations[0].tokens[0].id',
  ],
  [
    'token amount not an integer string',
    (c) =>
      c.buildTransfer({
        fromPublicKey: PUBKEY,
        destinations: [{ address: P2PKH, attoCoinAmount: DUST, tokens: [{ id: TX_ID, amount: '1e3' }] }],
      }),
    'destinations[0].tokens[0].amount',
  ],
  [
    'gas price not an integer string',
    (c) =>
      c.buildTransfer({
        fromPublicKey: PUBKEY,
        destinations: [{ address: P2PKH, attoCoinAmount: DUST }],
        gasPrice: '0.1',
      }),
    'gasPrice',
  ],
  [
    'signature of the wrong length',
    (c) => c.submitTransaction({ unsignedTx: '00', signature: 'ab', fromGroup: 0, toGroup: 0 }),
    'signature',
  ],
  [
    'unsigned tx of odd length',
    (c) => c.submitTransaction({ unsignedTx: '000', signature: SIGNATURE, fromGroup: 0, toGroup: 0 }),
    'unsignedTx',
  ],
  [
    'undecodable tx without groups',
    (c) => c.submitTransaction({ unsignedTx: '00', signature: SIGNATURE }),
    'fromGroup',
  ],
  ['decode of a non-hex tx', (c) => c.decodeUnsignedTx('xyz1'), 'unsignedTx'],
  ['call of an asset address', (c) => c.callContract({ address: P2PKH, methodIndex: 0 }), 'call.address'],
  [
    'call with a negative method index',
    (c) => c.callContract({ address: CONTRACT, methodIndex: -1 }),
    'call.methodIndex',
  ],
  [
    'call with a malformed argument',
    (c) => c.callContract({ address: CONTRACT, methodIndex: 0, args: [{ value: '1' } as never] }),
    'call.args[0]',
  ],
  [
    'multicall of 21 calls',
    (c) => c.multicallContract(Array.from({ length: 21 }, () => ({ address: CONTRACT, methodIndex: 0 }))),
    'calls',
  ],
  [
    'multicall with a bad 3rd call',
    (c) =>
      c.multicallContract([
        { address: CONTRACT, methodIndex: 0 },
        { address: CONTRACT, methodIndex: 0 },
        { address: CONTRACT, methodIndex: 0, group: 7 },
      ]),
    'calls[2].group',
  ],
];

describe('gateway input validation', () => {
  for (const [name, call, field] of CASES) {
    it(`${name} → ValidationError(${field}), no request`, async () => {
      const { client, transport, clock } = harness();
      await assert.rejects(clock.run(call(client)), (error: unknown) => {
        assert.ok(error instanceof ValidationError, String(error));
        assert.equal(error.kind, 'validation');
        assert.equal(error.field, field);
        assert.ok(error.message.startsWith(`${field}:`));
        return true;
      });
      assert.equal(transport.requests.length, 0);
    });
  }

  it('accepts the valid forms it rejects nearby (each validator can pass)', async () => {
    const { client, transport, clock } = harness();
    transport.on(/.*/, { status: 200, headers: {}, bodyText: '{}' });
    // These fail at the schema step (empty body), which proves validation let them through.
    const calls = [
      client.getChainInfo(3, 0),
      client.getContractEvents(CONTRACT, { start: 0, limit: 100 }),
      client.getBlocks(T0, T0 + 1),
      client.buildTransfer({
        fromPublicKey: PUBKEY,
        destinations: [{ address: P2PKH, attoCoinAmount: DUST, tokens: [{ id: TX_ID, amount: '1' }] }],
      }),
    ];
    const errors = await clock.run(
      Promise.all(
        calls.map((p) =>
          p.then(
            () => undefined,
            (e: unknown) => e,
          ),
        ),
      ),
    );
    assert.deepEqual(
      errors.map((e) => (e as { kind?: string }).kind),
      ['schema', 'schema', 'schema', 'schema'],
    );
    assert.equal(transport.requests.length, calls.length);
  });

  it('profiles are validated, naming the field', () => {
    const base = {
      kind: 'gateway',
      baseUrl: 'https://gw.test',
      slug: 'abc',
      network: 'mainnet',
      plan: 'free',
    } as const;
    assert.throws(() => validateProfile({ ...base, baseUrl: 'gw.test' }), { field: 'baseUrl' });
    assert.throws(() => validateProfile({ ...base, baseUrl: 'ftp://gw.test' }), { field: 'baseUrl' });
    assert.throws(() => validateProfile({ ...base, slug: 'a/b' }), { field: 'slug' });
    assert.throws(() => validateProfile({ ...base, slug: '' }), { field: 'slug' });
    // URL normalisation would drop these segments and send the request outside the slug's prefix.
    assert.throws(() => validateProfile({ ...base, slug: '..' }), { field: 'slug' });
    assert.throws(() => validateProfile({ ...base, slug: '.' }), { field: 'slug' });
    // A base URL that already ends with the slug would double it: /abc/abc/...
    assert.throws(() => validateProfile({ ...base, baseUrl: 'https://gw.test/abc' }), {
      field: 'slug',
      message: /already ends with \/abc/,
    });
    assert.throws(() => validateProfile({ ...base, baseUrl: 'https://gw.test/v1/abc/' }), { field: 'slug' });
    assert.doesNotThrow(() => validateProfile({ ...base, baseUrl: 'https://gw.test/v1' }));
    assert.throws(() => validateProfile({ ...base, plan: 'enterprise' }), { field: 'limits.perSecond' });
    assert.doesNotThrow(() => validateProfile({ ...base, plan: 'enterprise', limits: { perSecond: 500 } }));
    assert.doesNotThrow(() =>
      validateProfile({ kind: 'node', baseUrl: 'http://127.0.0.1:22973', network: 'devnet' }),
    );
    // The key travels in a header: plain http only to this machine, for either kind.
    assert.throws(() => validateProfile({ ...base, baseUrl: 'http://gw.test' }), { field: 'baseUrl' });
    assert.throws(
      () => validateProfile({ kind: 'node', baseUrl: 'http://10.0.0.5:22973', network: 'devnet' }),
      {
        field: 'baseUrl',
      },
    );
    // A user name or password in the URL would be logged and shown with it.
    assert.throws(() => validateProfile({ ...base, baseUrl: 'https://u:p@gw.test' }), { field: 'baseUrl' });
    // The network names the deployments file: `..` must not climb out of deployments/.
    assert.throws(() => validateProfile({ ...base, network: '../../x' }), { field: 'network' });
  });
});
