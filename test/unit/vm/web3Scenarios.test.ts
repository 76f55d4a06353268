/**
 * Scenarios of @alephium/web3's integration tests (`test/contract.test.ts` of alephium/alephium-web3
 * at c457e9f3, "should test contract (1)" lines 134-199 and "(3)" lines 264-291), run on testContract
 * with the SDK's `Add` and `Sub` contracts (`contracts/add/add.ral`, `contracts/sub/sub.ral`)
 * hand-assembled to their source's meaning here: the project cannot compile Ralph, and the compiled
 * artifacts are the SDK's, so the expectations the SDK states are what is transcribed.
 */
import { strict as assert } from 'node:assert';
import {
  addressFromContractId,
  bytesToHex,
  contractIdFromAddress,
  subContractId,
} from '../../../src/core/protocol';
import { testContract, type NodeContractState, type TestContractResult } from '../../../src/core/vm';
import { byteOp, instr, method, ops } from './assemble';
import { SIGNER_ADDRESS, encodeContract } from './bytecode';

const SUB_ID = '22'.repeat(31) + '00';
const SUB_ADDRESS = addressFromContractId(SUB_ID);
const text = (s: string): Uint8Array => new TextEncoder().encode(s);

/** `Sub.sub(array) -> U256`: emit Sub(array[0], array[1]); result = result + array[0] - array[1]. */
const SUB = encodeContract(1, [
  method(
    ops('I256Const0', byteOp('LoadLocal', 0), byteOp('LoadLocal', 1), 'Log3')
      .concat(
        ops(byteOp('LoadMutField', 0), byteOp('LoadLocal', 0), 'U256Add', byteOp('LoadLocal', 1), 'U256Sub'),
      )
      .concat(ops(byteOp('StoreMutField', 0), byteOp('LoadMutField', 0))),
    { argsLength: 2, localsLength: 2, returnLength: 1 },
  ),
]);

/** `Add.add(array)` calls the private `addPrivate(array)`: debug, three events, result += both, then sub.sub. */
const ADD_PRIVATE = method(
  [
    instr('DEBUG', { kind: 'bytesArray', value: [text('addPrivate')] }),
    ...ops('I256Const0', byteOp('LoadLocal', 0), byteOp('LoadLocal', 1), 'Log3'),
    ...ops('I256Const1', byteOp('LoadLocal', 0), byteOp('LoadLocal', 1), 'Log3'),
    ...ops('I256Const2', 'Log1'),
    ...ops(byteOp('LoadMutField', 0), byteOp('LoadLocal', 0), 'U256Add', byteOp('LoadLocal', 1), 'U256Add'),
    ...ops(byteOp('StoreMutField', 0), byteOp('LoadMutField', 0)),
    ...ops(
      byteOp('LoadLocal', 0),
      byteOp('LoadLocal', 1),
      'U256Const2',
      'U256Const1',
      byteOp('LoadImmField', 0),
    ),
    byteOp('CallExternal', 0),
  ],
  { isPublic: false, argsLength: 2, localsLength: 2, returnLength: 2 },
);
const ADD_METHOD = method(ops(byteOp('LoadLocal', 0), byteOp('LoadLocal', 1), byteOp('CallLocal', 1)), {
  argsLength: 2,
  localsLength: 2,
  returnLength: 2,
});
/** `createSubContract(a, path, subContractId, payer)`: copy-create a Sub(a) under `path`, the payer paying the deposit. */
const CREATE_SUB = method(
  ops(
    byteOp('LoadLocal', 3),
    'MinimalContractDeposit',
    'ApproveAlph',
    byteOp('LoadLocal', 1),
    byteOp('LoadLocal', 2),
  ).concat(
    ops(
      'U256Const0',
      'Encode',
      byteOp('LoadLocal', 0),
      'U256Const1',
      'Encode',
      'CopyCreateSubContract',
      'Pop',
    ),
  ),
  { argsLength: 4, localsLength: 4, usePreapprovedAssets: true },
);
const ADD = encodeContract(2, [ADD_METHOD, ADD_PRIVATE, CREATE_SUB]);

const subState: NodeContractState = {
  address: SUB_ADDRESS,
  bytecode: bytesToHex(SUB),
  codeHash: '',
  immFields: [],
  mutFields: [{ type: 'U256', value: '0' }],
  asset: { attoAlphAmount: (10n ** 18n).toString() },
};

function completed(result: TestContractResult): Extract<TestContractResult, { ok: true }> {
  if (!result.ok) throw new Error(result.error);
  return result;
}

describe('@alephium/web3 scenarios on testContract', () => {
  it('Add.tests.add([2, 1]) returns [3, 1], leaves Sub at 1 and Add at 3, and emits Add, Add1, Empty and Sub', () => {
    const result = completed(
      testContract({
        bytecode: bytesToHex(ADD),
        initialImmFields: [{ type: 'ByteVec', value: SUB_ID }],
        initialMutFields: [{ type: 'U256', value: '0' }],
        args: [
          { type: 'U256', value: '2' },
          { type: 'U256', value: '1' },
        ],
        existingContracts: [subState],
      }),
    );
    assert.deepEqual(result.returns, [
      { type: 'U256', value: '3' },
      { type: 'U256', value: '1' },
    ]);
    assert.deepEqual(
      result.contracts.map((c) => [c.address, c.mutFields[0]?.value]),
      [
        [SUB_ADDRESS, '1'],
        [result.address, '3'],
      ],
    );
    const events = result.events.map((e) => [
      e.contractAddress === SUB_ADDRESS ? 'Sub' : 'Add',
      e.eventIndex,
      e.fields.map((f) => f.value),
    ]);
    assert.deepEqual(events, [
      ['Add', 0, ['2', '1']],
      ['Add', 1, ['2', '1']],
      ['Add', 2, []],
      ['Sub', 0, ['2', '1']],
    ]);
    assert.deepEqual(result.debugMessages, [{ contractAddress: result.address, message: 'addPrivate' }]);
  });

  it('Add.tests.createSubContract emits one ContractCreated for subContractId(add, "0011", group 0) with Add as parent', () => {
    const addAddress = addressFromContractId('33'.repeat(31) + '01');
    const result = completed(
      testContract({
        address: addAddress,
        group: 0,
        bytecode: bytesToHex(ADD),
        methodIndex: 2,
        initialImmFields: [{ type: 'ByteVec', value: SUB_ID }],
        initialMutFields: [{ type: 'U256', value: '0' }],
        args: [
          { type: 'U256', value: '0' },
          { type: 'ByteVec', value: '0011' },
          { type: 'ByteVec', value: SUB_ID },
          { type: 'Address', value: SIGNER_ADDRESS },
        ],
        existingContracts: [subState],
        inputAssets: [{ address: SIGNER_ADDRESS, asset: { attoAlphAmount: (2n * 10n ** 18n).toString() } }],
      }),
    );
    const expected = subContractId(contractIdFromAddress(addAddress), '0011', 0);
    assert.equal(result.events.length, 1);
    assert.deepEqual(result.events[0]?.eventIndex, -1);
    assert.deepEqual(
      result.events[0]?.fields.map((f) => f.value),
      [addressFromContractId(expected), addAddress, ''],
      'address, parentAddress, and no standard interface guessed',
    );
    assert.equal(
      result.contracts[0]?.address,
      addressFromContractId(expected),
      'created contracts come first',
    );
  });
});
