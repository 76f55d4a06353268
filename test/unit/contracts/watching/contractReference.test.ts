import { strict as assert } from 'node:assert';
import { addressFromContractId, contractIdFromAddress } from '../../../../src/core/protocol';
import {
  contractAddressOf,
  contractReferenceProblem,
} from '../../../../src/core/contracts/watching/watchList';

// A contract id with zeros (never base58), its address, and a user's address (P2PKH).
const ADDRESS = addressFromContractId('0a1b'.repeat(16));
const USER = '1DrDyTr9RpRsQnDnXo2YRiPzPW4ooHX5LLoqXrqfMrpQH';

describe('Watch Contract: an address or a contract id', () => {
  const id = contractIdFromAddress(ADDRESS);

  it('turns a contract id (64 hex, with or without 0x, any case) into its P2C address', () => {
    assert.equal(id, '0a1b'.repeat(16));
    assert.equal(contractAddressOf(id), ADDRESS);
    assert.equal(contractAddressOf(`  ${id.toUpperCase()} `), ADDRESS);
    assert.equal(contractAddressOf(`0x${id}`), ADDRESS);
    assert.equal(contractReferenceProblem(id), undefined);
  });

  it('keeps an address as it is and refuses what is neither', () => {
    assert.equal(contractAddressOf(` ${ADDRESS} `), ADDRESS);
    assert.equal(contractReferenceProblem(ADDRESS), undefined);
    assert.match(contractReferenceProblem(USER)!, /P2PKH address; a contract address/);
    assert.match(contractReferenceProblem(id.slice(2))!, /contract id \(64 hex digits\)/);
    assert.match(contractReferenceProblem(`${id}00`)!, /contract id \(64 hex digits\)/);
    assert.throws(() => contractAddressOf(USER), /contract address/);
    assert.throws(() => contractAddressOf(id.slice(1)), /Not a valid/);
  });
});
