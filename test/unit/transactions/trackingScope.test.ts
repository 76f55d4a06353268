// Tracked transactions per profile and network (src/core/transactions/trackingScope.ts).
import { strict as assert } from 'node:assert';
import { mergeLegacyRecords, trackingScopeKey } from '../../../src/core/transactions/trackingScope';

const BASE = 'alephium.trackedTransactions';
const tx = (n: number) => ({ version: 1, txId: n.toString(16).padStart(64, '0') });

describe('tracked transactions per profile', () => {
  it('a mainnet profile and the devnet sandbox have different keys, and so do two profiles of a network', () => {
    const devnet = trackingScopeKey(BASE, { name: 'Sandbox', network: 'devnet' });
    const mainnet = trackingScopeKey(BASE, { name: 'Main', network: 'mainnet' });
    const other = trackingScopeKey(BASE, { name: 'Sandbox 2', network: 'devnet' });
    assert.equal(new Set([devnet, mainnet, other, BASE]).size, 4);
    assert.equal(trackingScopeKey(BASE, { name: 'Sandbox', network: 'devnet' }), devnet, 'stable');
    // A name with the separator cannot meet another profile's key.
    assert.notEqual(
      trackingScopeKey(BASE, { name: 'a.b', network: 'devnet' }),
      trackingScopeKey(BASE, { name: 'b', network: 'devnet.a' }),
    );
  });

  it('moves every legacy record into the active scope once, keeping what the scope holds', () => {
    const { records, moved } = mergeLegacyRecords([tx(1)], [tx(1), tx(2), { unreadable: true }]);
    assert.deepEqual(records, [tx(1), tx(2), { unreadable: true }]);
    assert.equal(moved, 2);
    assert.deepEqual(mergeLegacyRecords(undefined, undefined), { records: [], moved: 0 });
    assert.deepEqual(mergeLegacyRecords([tx(3)], []).records, [tx(3)]);
  });

  it('a txId differing only in case is the same transaction', () => {
    const upper = { version: 1, txId: tx(10).txId.toUpperCase() };
    assert.equal(mergeLegacyRecords([tx(10)], [upper]).moved, 0);
  });
});
