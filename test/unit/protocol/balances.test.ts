import { strict as assert } from 'node:assert';
import { AssetTally } from '../../../src/core/protocol';

describe('AssetTally: per-address sums behind every balance-changes table', () => {
  it('keeps addresses in the order first seen, signs what is subtracted, sorts and drops zero tokens', () => {
    const tally = new AssetTally();
    tally.touch('spender');
    tally.add('b', 5n, [{ id: 'ff', amount: '2' }]);
    tally.add('a', 1n, [
      { id: 'ee', amount: 3n },
      { id: '0a', amount: '1' },
    ]);
    tally.add('spender', 6n, [{ id: 'ff', amount: '2' }], -1n);
    tally.add('a', 0n, [{ id: 'ee', amount: '3' }], -1n);
    assert.deepEqual(tally.entries(), [
      { address: 'spender', atto: -6n, tokens: [{ id: 'ff', amount: -2n }] },
      { address: 'b', atto: 5n, tokens: [{ id: 'ff', amount: 2n }] },
      { address: 'a', atto: 1n, tokens: [{ id: '0a', amount: 1n }] },
    ]);
  });
});
