/**
 * testContract, the node's `test-contract` endpoint as a function (`ServerUtils.runTestContract`,
 * `ContractRunner.run`): a generated caller approves the inputs and calls the method; gas is counted
 * from the maximal gas per tx without a script base charge.
 */
import { strict as assert } from 'node:assert';
import { addressFromContractId, blake2b256, bytesToHex } from '../../../src/core/protocol';
import { testContract, type TestContractResult } from '../../../src/core/vm';
import { byteOp, instr, method, ops, u256Op } from './assemble';
import { SIGNER_ADDRESS, SIGNER_LOCKUP, encodeContract } from './bytecode';

const ONE_ALPH = 10n ** 18n;
const wordLength = (n: number): number => Math.floor((n + 7) / 8);

/** `inc() -> U256`: counter += 1 and returns it; `secret() -> U256` is private and returns 42. */
const INC = method(
  ops(byteOp('LoadMutField', 0), 'U256Const1', 'U256Add', 'Dup', byteOp('StoreMutField', 0)),
  {
    returnLength: 1,
  },
);
const SECRET = method([u256Op(42n)], { isPublic: false, returnLength: 1 });
const COUNTER = encodeContract(1, [INC, SECRET]);

function completed(result: TestContractResult): Extract<TestContractResult, { ok: true }> {
  if (!result.ok) throw new Error(result.error);
  return result;
}

describe('testContract (the node test-contract)', () => {
  it('returns the method results, the state after and the gas: call 200, load, the callee, the state update', () => {
    const result = completed(
      testContract({ bytecode: bytesToHex(COUNTER), initialMutFields: [{ type: 'U256', value: '5' }] }),
    );
    assert.deepEqual(result.returns, [{ type: 'U256', value: '6' }]);
    assert.deepEqual(result.contracts[0]?.mutFields, [{ type: 'U256', value: '6' }]);
    assert.equal(
      result.address,
      addressFromContractId('00'.repeat(32)),
      'TestContract.addressDefault: the zero id',
    );
    const load = 800 + wordLength(32 + COUNTER.length - 4);
    const caller = 3 * 2; // U256Const argsLength and returnLength, BytesConst id
    const callee = 3 + 2 + 3 + 2 + 3;
    assert.equal(result.gasUsed, caller + 200 + load + callee + 5000 + 32);
  });

  it('runs a private method as public but reports the original code hash (TestContract.toComplete)', () => {
    const result = completed(
      testContract({
        bytecode: bytesToHex(COUNTER),
        methodIndex: 1,
        initialMutFields: [{ type: 'U256', value: '0' }],
      }),
    );
    assert.deepEqual(result.returns, [{ type: 'U256', value: '42' }]);
    assert.equal(result.codeHash, bytesToHex(blake2b256(COUNTER)));
  });

  it('approves the inputs to a payable method, which keeps what it takes; the rest returns as change after it', () => {
    // The transfer to self puts the contract first in the output balances; the caller's change is
    // flushed into them at the end (Context.scala cleanBalances), so its output comes second.
    const deposit = method(
      [
        instr('AddressConst', { kind: 'address', value: SIGNER_LOCKUP }),
        u256Op(ONE_ALPH),
        instr('TransferAlphToSelf'),
      ],
      { usePreapprovedAssets: true, useContractAssets: true },
    );
    const result = completed(
      testContract({
        bytecode: bytesToHex(encodeContract(0, [deposit])),
        inputAssets: [{ address: SIGNER_ADDRESS, asset: { attoAlphAmount: (3n * ONE_ALPH).toString() } }],
      }),
    );
    assert.equal(result.contracts[0]?.asset.attoAlphAmount, (2n * ONE_ALPH).toString());
    assert.deepEqual(
      result.txOutputs.map((o) => [o.address, o.attoAlphAmount]),
      [
        [result.address, (2n * ONE_ALPH).toString()],
        [SIGNER_ADDRESS, (2n * ONE_ALPH).toString()],
      ],
    );
    assert.deepEqual(result.txInputs, [result.address]);
  });

  it('words a failure as the node does: debug messages first, then "VM execution error: "', () => {
    const failing = method([
      instr('DEBUG', { kind: 'bytesArray', value: [new TextEncoder().encode('hi')] }),
      instr('ConstFalse'),
      instr('Assert'),
    ]);
    const result = testContract({ bytecode: bytesToHex(encodeContract(0, [failing])) });
    assert.equal(result.ok, false);
    const address = addressFromContractId('00'.repeat(32));
    assert.equal(
      !result.ok && result.error,
      `> Contract @ ${address} - hi\nVM execution error: AssertionFailed`,
    );
    assert.deepEqual(result.debugMessages, [{ contractAddress: address, message: 'hi' }]);
  });
});
