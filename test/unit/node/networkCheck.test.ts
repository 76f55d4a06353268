import { strict as assert } from 'node:assert';
import { acceptedNetworkIds, networkMismatch } from '../../../src/core/node/networkCheck';

describe('network check at connect (core/node/networkCheck)', () => {
  it('accepts mainnet 0, testnet 1, and any other id for another name', () => {
    assert.equal(networkMismatch('mainnet', 0), undefined);
    assert.equal(networkMismatch('testnet', 1), undefined);
    assert.equal(networkMismatch('devnet', 4), undefined);
    assert.equal(networkMismatch('local', 7), undefined);
  });

  it('names both sides of a mismatch', () => {
    assert.equal(
      networkMismatch('mainnet', 1),
      "Network mismatch: the profile's network is mainnet (network id 0), but the node is on testnet (network id 1). Nothing will be signed until they agree: fix the profile's network or its URL.",
    );
    assert.match(
      networkMismatch('devnet', 0) ?? '',
      /profile's network is "devnet", which may not be mainnet or testnet, but the node is on mainnet \(network id 0\)/,
    );
    assert.match(networkMismatch('testnet', 4) ?? '', /node is on a devnet \(network id 4\)/);
  });

  it('is the rule signing pins to', () => {
    assert.deepEqual(acceptedNetworkIds('mainnet'), { exactly: 0 });
    assert.deepEqual(acceptedNetworkIds('testnet'), { exactly: 1 });
    assert.deepEqual(acceptedNetworkIds('devnet'), { refused: [0, 1] });
  });
});
