import { strict as assert } from 'node:assert';
import { explorerFor, explorerUrl, explorerUrlProblem } from '../../../src/core/explorer/explorerUrl';
import { addressFromContractId } from '../../../src/core/protocol';

const TX = 'ab'.repeat(32);
const USER = '1DrDyTr9RpRsQnDnXo2YRiPzPW4ooHX5LLoqXrqfMrpQH';
const CONTRACT = addressFromContractId('0a1b'.repeat(16));

describe('explorer URLs', () => {
  it("knows Alephium's explorers for mainnet and testnet, none for a devnet", () => {
    assert.equal(explorerFor('mainnet'), 'https://explorer.alephium.org');
    assert.equal(explorerFor('testnet'), 'https://testnet.alephium.org');
    assert.equal(explorerFor('devnet'), undefined);
    assert.equal(explorerFor('staging'), undefined);
  });

  it("takes a profile's own explorer first, and none when it is not a safe URL", () => {
    assert.equal(explorerFor('devnet', 'http://127.0.0.1:9090/'), 'http://127.0.0.1:9090');
    assert.equal(explorerFor('mainnet', 'https://my.explorer/alph'), 'https://my.explorer/alph');
    assert.equal(explorerFor('mainnet', 'http://evil.example'), undefined);
    assert.equal(explorerFor('devnet', 'javascript:alert(1)'), undefined);
    assert.equal(explorerFor('devnet', 'https://u:p@x.example'), undefined);
    assert.equal(explorerFor('devnet', 'https://x.example/?q='), undefined);
    assert.match(explorerUrlProblem('file:///etc/passwd')!, /https/);
  });

  it('puts a transaction, a block and an address (a contract too) at the paths of the explorer', () => {
    const base = 'https://explorer.alephium.org';
    assert.equal(
      explorerUrl(base, { kind: 'transaction', txId: TX.toUpperCase() }),
      `${base}/transactions/${TX}`,
    );
    assert.equal(explorerUrl(base, { kind: 'block', blockHash: TX }), `${base}/blocks/${TX}`);
    assert.equal(explorerUrl(base, { kind: 'address', address: USER }), `${base}/addresses/${USER}`);
    assert.equal(
      explorerUrl(`${base}/`, { kind: 'address', address: CONTRACT }),
      `${base}/addresses/${CONTRACT}`,
    );
  });

  it('lets only a validated id or address into a URL', () => {
    const base = 'https://explorer.alephium.org';
    for (const txId of [`${TX}/../x`, `${TX}?a=1`, TX.slice(1), '', `${TX} `])
      assert.throws(() => explorerUrl(base, { kind: 'transaction', txId }), /64 hex digits/);
    assert.throws(() => explorerUrl(base, { kind: 'block', blockHash: '../admin' }), /64 hex digits/);
    for (const address of ['../../admin', `${USER}/x`, `${USER}#x`, 'javascript:1'])
      assert.throws(() => explorerUrl(base, { kind: 'address', address }), /Not a valid Alephium address/);
    assert.throws(
      () => explorerUrl('http://evil.example', { kind: 'transaction', txId: TX }),
      /explorer URL/,
    );
  });
});
