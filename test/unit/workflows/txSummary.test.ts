import { strict as assert } from 'node:assert';
import { ONE_ALPH, decodeUnsignedTx, encodeUnsignedTx, groupOfAddress } from '../../../src/core/protocol';
import { summarizeTx, type TxDetailsInput } from '../../../src/core/workflows/txSummary';
import { RECIPIENT, SENDER, TOKEN_ID, honestTx, out, refKey } from './verifyFixtures';

/** Details as the node returns them for the fixture transfer (decoded from its bytes, so keys are real). */
function details(extra: Partial<TxDetailsInput> = {}, tx = honestTx()): TxDetailsInput {
  return {
    unsigned: decodeUnsignedTx(encodeUnsignedTx(tx)),
    scriptExecutionOk: true,
    contractInputs: [],
    generatedOutputs: [],
    inputSignatures: ['11'.repeat(64)],
    scriptSignatures: [],
    ...extra,
  };
}

describe('summarizeTx', () => {
  it('computes outputs per address, fee, chain and signers, marking input sums unknown', () => {
    const s = summarizeTx(details());
    assert.equal(s.fee.atto, String(20000n * 10n ** 11n));
    assert.equal(s.fee.alph, '0.002');
    assert.equal(s.fee.isUpperBound, false);
    assert.deepEqual(s.signers, [SENDER.address]);
    assert.deepEqual(s.chain, {
      fromGroup: groupOfAddress(SENDER.address),
      toGroup:
        groupOfAddress(RECIPIENT.address) === groupOfAddress(SENDER.address)
          ? groupOfAddress(SENDER.address)
          : groupOfAddress(RECIPIENT.address),
    });
    assert.equal(s.inputAmountsKnown, false);
    assert.deepEqual(
      s.inputs.map((i) => [i.address, i.unlockType]),
      [
        [SENDER.address, 'P2PKH'],
        [SENDER.address, 'SameAsPrevious'],
      ],
    );
    const recipient = s.balanceChanges.find((b) => b.address === RECIPIENT.address)!;
    assert.deepEqual(recipient.received, { atto: String(ONE_ALPH), alph: '1' });
    assert.equal(recipient.netAlph, '1', 'an address that spent nothing has a known net change');
    const sender = s.balanceChanges.find((b) => b.address === SENDER.address)!;
    assert.equal(sender.inputCount, 2);
    assert.equal(sender.spent, undefined, 'input amounts are not in the details');
    assert.equal(sender.netAlph, undefined);
    assert.equal(s.totalOutput.alph, '6');
    // Plain data only: survives JSON unchanged (no bigint, no class instances).
    assert.deepEqual(JSON.parse(JSON.stringify(s)), s);
  });

  it('computes spent and net per address when the spent outputs are supplied', () => {
    const spentOutputs = {
      [refKey('a')]: {
        address: SENDER.address,
        attoAlphAmount: String(4n * ONE_ALPH),
        tokens: [{ id: TOKEN_ID, amount: '10' }],
      },
      [refKey('b')]: { address: SENDER.address, attoAlphAmount: String(2n * ONE_ALPH + 2n * 10n ** 15n) },
    };
    const s = summarizeTx(details(), { spentOutputs });
    assert.equal(s.inputAmountsKnown, true);
    const sender = s.balanceChanges.find((b) => b.address === SENDER.address)!;
    assert.equal(sender.spent?.alph, '6.002');
    assert.equal(sender.netAlph, '-1.002');
    assert.equal(sender.netAtto, String(-(ONE_ALPH + 2n * 10n ** 15n)));
    assert.deepEqual(sender.tokens, [{ id: TOKEN_ID, received: '0', spent: '10', net: '-10' }]);
  });

  it('includes generated (contract) outputs and counts contract inputs as unknown', () => {
    const contract = {
      key: 'ee'.repeat(32),
      attoAlphAmount: String(ONE_ALPH),
      address: 'tgx7VNFoP9DJiFMFgXXtafQZkUvyEdDHT9ryamHJYrjq',
      tokens: [],
      type: 'ContractOutput',
      hint: 0,
    };
    const s = summarizeTx(
      details(
        { contractInputs: [{ hint: 2, key: 'dd'.repeat(32) }], generatedOutputs: [contract] },
        { ...honestTx(), scriptOpt: '01010000000000' },
      ),
    );
    assert.equal(s.hasScript, true);
    assert.equal(s.fee.isUpperBound, true);
    assert.equal(s.contractInputCount, 1);
    const c = s.balanceChanges.find((b) => b.address === contract.address)!;
    assert.equal(c.isContract, true);
    assert.equal(c.spent, undefined);
    assert.equal(s.outputs.at(-1)?.kind, 'generated');
  });

  it('takes the groups from the options when there are no asset inputs, and tokens received', () => {
    const tx = honestTx([out(RECIPIENT.address, 10n ** 15n, { tokens: [{ id: TOKEN_ID, amount: '3' }] })]);
    const d = details({}, tx);
    const noInputs: TxDetailsInput = { ...d, unsigned: { ...d.unsigned, inputs: [] } };
    const s = summarizeTx(noInputs, { fromGroup: 2, toGroup: 3 });
    assert.deepEqual(s.chain, { fromGroup: 2, toGroup: 3 });
    const r = s.balanceChanges.find((b) => b.address === RECIPIENT.address)!;
    assert.deepEqual(r.tokens, [{ id: TOKEN_ID, received: '3', spent: '0', net: '3' }]);
  });
});
