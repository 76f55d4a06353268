import { strict as assert } from 'node:assert';
import { addressFromContractId, addressFromPublicKey } from '../../../src/core/protocol';
import { publicKeyFromPrivateKey } from '../../../src/core/protocol/keys';
import {
  checkAlphAmount,
  checkRecipient,
  parseAlphAmount,
  parseRecipient,
  parseGas,
  parseGasPrice,
  parseGroups,
  parseTokens,
  parseTxId,
} from '../../../src/core/transactions/transferInput';

const address = addressFromPublicKey(publicKeyFromPrivateKey('33'.repeat(32)));

describe('transferInput: prompts checked as typed, arguments held to the same rules', () => {
  it('accepts a base58 asset address and explains hex, garbage and empty input', () => {
    assert.equal(checkRecipient(` ${address} `), undefined);
    assert.match(checkRecipient('ab'.repeat(32)) ?? '', /hex/);
    assert.match(checkRecipient('not-an-address') ?? '', /Not an Alephium address/);
    assert.match(checkRecipient('') ?? '', /required/);
  });

  it('gives the recipient as a trimmed value, or the input box sentence under the role', () => {
    assert.equal(parseRecipient(` ${address} `), address);
    assert.throws(() => parseRecipient(''), /^Error: Recipient: A recipient address is required\.$/);
    assert.throws(() => parseRecipient('ab'.repeat(32), 'Destination'), /^Error: Destination: That is hex/);
    const contract = addressFromContractId('11'.repeat(32));
    assert.throws(() => parseRecipient(contract), /Recipient: That is a contract address/);
  });

  it('parses ALPH exactly and refuses dust before any request', () => {
    assert.equal(parseAlphAmount('1.000000000000000001'), 10n ** 18n + 1n);
    assert.equal(parseAlphAmount('0.001'), 10n ** 15n);
    assert.match(checkAlphAmount('0.0009') ?? '', /below the dust minimum of 0.001 ALPH/);
    assert.match(checkAlphAmount('1e3') ?? '', /exponent/);
    assert.match(checkAlphAmount('1,5') ?? '', /comma/);
  });

  it('reads tokens from arguments or typed text', () => {
    const id = 'AB'.repeat(32);
    assert.deepEqual(parseTokens(`${id}:5`), [{ id: id.toLowerCase(), amount: '5' }]);
    assert.deepEqual(parseTokens([{ id, amount: 7n }]), [{ id: id.toLowerCase(), amount: '7' }]);
    assert.deepEqual(parseTokens(''), []);
    assert.throws(() => parseTokens('zz:1'), /32 bytes of hex/);
    assert.throws(() => parseTokens(`${id}:0`), /positive integer/);
  });

  it('reads optional gas, txIds and groups', () => {
    assert.deepEqual(parseGas(''), {});
    assert.deepEqual(parseGas('30000, 200000000000'), { gasAmount: 30000, gasPrice: 200000000000n });
    assert.throws(() => parseGas('10'), /Gas amount/);
    assert.throws(() => parseGasPrice('1'), /at least/);
    assert.equal(parseTxId(`0x${'AB'.repeat(32)}`), 'ab'.repeat(32));
    assert.throws(() => parseTxId('abc'), /64 hex digits/);
    assert.deepEqual(parseGroups('0 → 1'), { fromGroup: 0, toGroup: 1 });
    assert.deepEqual(parseGroups(''), {});
    assert.throws(() => parseGroups('4,1'), /0 to 3/);
  });
});
