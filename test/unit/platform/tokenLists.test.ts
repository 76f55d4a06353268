import { strict as assert } from 'node:assert';
import { tokenListNetworkId } from '../../../src/core/tokens';
import { shippedTokenList } from '../../../src/platform/tokenLists';

describe('the shipped token lists', () => {
  it('maps a profile network to its list: mainnet 0, testnet 1, a devnet none', () => {
    assert.equal(tokenListNetworkId(' Mainnet '), 0);
    assert.equal(tokenListNetworkId('testnet'), 1);
    assert.equal(tokenListNetworkId('devnet'), undefined);
  });

  it('parses the bundled mainnet and testnet lists, and gives a devnet an empty one', () => {
    const mainnet = shippedTokenList(0);
    const testnet = shippedTokenList(1);
    assert.ok(mainnet.size > 200, `mainnet list has ${mainnet.size} tokens`);
    assert.ok(testnet.size > 20, `testnet list has ${testnet.size} tokens`);
    // USDT (bridged from Ethereum) on mainnet: 6 decimals, from the list.
    assert.deepEqual(mainnet.get('556d9582463fe44fbd108aedc9f409f69086dc78d994b88ea6c9e65f8bf98e00'), {
      symbol: 'USDTeth',
      name: 'Tether USD Ethereum via AlphBridge', // parentheses dropped (cleanTokenLabel),
      decimals: 6,
      source: 'token list',
    });
    assert.equal(shippedTokenList(undefined).size, 0);
  });
});
