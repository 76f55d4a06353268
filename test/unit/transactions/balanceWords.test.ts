import { strict as assert } from 'node:assert';
import { shortOfAlph, shortOfAlphText } from '../../../src/core/transactions/balanceWords';

const ADDRESS = '1DrDyTr9RpRsQnDnXo2YRiPzPW4ooHX5LLoqXrqfMrpQH';
const NODE_400 =
  'POST /transactions/build: HTTP 400. The request was rejected; fix it before trying again. (Not enough balance: got 1000000000000000000000000, expected 99999999999002000000000000000)';

describe('a transfer the node cannot fund, in ALPH beside atto (Send with 99,999,999,999 ALPH)', () => {
  it("reads the node's atto amounts", () => {
    assert.deepEqual(shortOfAlph(NODE_400), {
      got: 1000000000000000000000000n,
      expected: 99999999999002000000000000000n,
    });
    assert.deepEqual(shortOfAlph('Not enough balance: got 5, expected 7 plus at least dust'), {
      got: 5n,
      expected: 7n,
    });
    assert.equal(shortOfAlph('Not enough balance: got x, expected 7'), undefined);
    assert.equal(shortOfAlph('Something else went wrong'), undefined);
  });

  it('says both amounts in ALPH and atto, and the balance that is the reason', () => {
    const short = shortOfAlph(NODE_400)!;
    assert.equal(
      shortOfAlphText(short, ADDRESS, {
        balance: '1000000000000000000000000',
        lockedBalance: '2000000000000000000',
      }),
      'Not enough ALPH: the transaction needs 99999999999.002 ALPH (99999999999002000000000000000 atto) with the fee; ' +
        'the outputs the node could spend hold 1000000 ALPH (1000000000000000000000000 atto). ' +
        `The balance of ${ADDRESS} is 1000000 ALPH (1000000000000000000000000 atto), 2 ALPH of it locked.`,
    );
    assert.ok(!shortOfAlphText(short, ADDRESS).includes('balance of'), 'no balance, no balance sentence');
  });

  it('reads hostile text in linear time', () => {
    const hostile = 'Not enough balance: got '.repeat(200_000) + '1'.repeat(1_000_000);
    assert.equal(shortOfAlph(hostile), undefined);
  });
});
