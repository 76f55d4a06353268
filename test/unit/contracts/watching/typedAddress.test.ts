/** What a person pastes into the Watch Contract picker that is itself an answer: a contract address or id. */
import assert from 'node:assert/strict';
import { contractIdFromAddress } from '../../../../src/core/protocol';
import { typedContractAddress } from '../../../../src/core/contracts/watching/watchList';
import { CONTRACT, P2PKH } from '../../gateway/helpers';

describe('Watch Contract: a pasted address is offered as a row of its own', () => {
  it('a contract address, with the spaces a paste brings, is that address', () => {
    assert.equal(typedContractAddress(`  ${CONTRACT}\n`), CONTRACT);
  });

  it('a contract id (hex, with or without 0x, any case) is its address', () => {
    const id = contractIdFromAddress(CONTRACT);
    assert.equal(typedContractAddress(id), CONTRACT);
    assert.equal(typedContractAddress(`0x${id.toUpperCase()}`), CONTRACT);
  });

  it('a filter word, a personal address or a cut-off address is not one', () => {
    for (const text of ['Counter', '', P2PKH, CONTRACT.slice(0, -3), 'ab'.repeat(31)])
      assert.equal(typedContractAddress(text), undefined, text);
  });
});
