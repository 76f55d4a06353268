/**
 * Ralph maps as sub-contracts (`CreateMapEntry` and the generated entry contract, `Instr.scala`
 * lines 2571-2707), through @alephium/web3's MapTest scenario ("should test map(unit test)" in
 * alephium-web3 `test/contract.test.ts`: insert {id: 1, balance: 10}, update to 11, remove). MapTest's
 * `map0: Map[Address, MapValue]` is hand-assembled here the way the compiler lays maps out: the path
 * is "__map__0__" ‖ the key's bytes, the immutable fields are the value's immutable part then the
 * parent's id, and the entry's methods are called by index (0 load imm, 1 load mut, 2 store mut,
 * 3 destroy).
 */
import { strict as assert } from 'node:assert';
import { addressFromContractId, bytesToHex, concatBytes, subContractId } from '../../../src/core/protocol';
import { testContract, type NodeContractState, type TestContractResult } from '../../../src/core/vm';
import { encodeMapEntryContract } from '../../../src/core/vm/instructions/mapEntry';
import { byteOp, bytesOp, instr, method, ops } from './assemble';
import { SIGNER_ADDRESS, SIGNER_LOCKUP, encodeContract } from './bytecode';

const PREFIX = new TextEncoder().encode('__map__0__');
const PARENT_ID = '44'.repeat(31) + '00';
const PARENT = addressFromContractId(PARENT_ID);
const path = (): ReturnType<typeof ops> => [
  bytesOp(PREFIX),
  byteOp('LoadLocal', 0),
  instr('AddressToByteVec'),
  instr('ByteVecConcat'),
];

const INSERT = method(
  [
    ...ops(byteOp('LoadLocal', 0), 'MinimalContractDeposit', 'ApproveAlph'),
    ...path(),
    ...ops(byteOp('LoadLocal', 1), 'SelfContractId', byteOp('LoadLocal', 2)),
    instr('CreateMapEntry', { kind: 'twoBytes', value: [2, 1] }),
  ],
  { argsLength: 3, localsLength: 3, usePreapprovedAssets: true },
);
const entryId = (): ReturnType<typeof ops> => [...path(), instr('SubContractId')];
/** balance += 1: read mutable field 0 of the entry (its method 1), store it back (its method 2). */
const UPDATE = method(
  [
    ...ops('U256Const0', 'U256Const1', 'U256Const1'),
    ...entryId(),
    byteOp('CallExternal', 1),
    ...ops('U256Const1', 'U256Add', 'U256Const0', 'U256Const2', 'U256Const0'),
    ...entryId(),
    byteOp('CallExternal', 2),
  ],
  { argsLength: 1, localsLength: 1 },
);
/** The entry's destroy (method 3) refunds its deposit to the key's address. */
const REMOVE = method(
  [...ops(byteOp('LoadLocal', 0), 'U256Const1', 'U256Const0'), ...entryId(), byteOp('CallExternal', 3)],
  {
    argsLength: 1,
    localsLength: 1,
  },
);
const MAP_TEST = bytesToHex(encodeContract(0, [INSERT, UPDATE, REMOVE]));

const ENTRY_ID = subContractId(PARENT_ID, bytesToHex(concatBytes(PREFIX, SIGNER_LOCKUP)), 0);
const ENTRY = addressFromContractId(ENTRY_ID);
const entryState = (balance: number): NodeContractState => ({
  address: ENTRY,
  bytecode: bytesToHex(encodeMapEntryContract(2, 1)),
  codeHash: '',
  immFields: [
    { type: 'U256', value: '1' },
    { type: 'ByteVec', value: PARENT_ID },
  ],
  mutFields: [{ type: 'U256', value: String(balance) }],
  asset: { attoAlphAmount: (10n ** 17n).toString() },
});
const inputs = (alph: bigint) => [{ address: SIGNER_ADDRESS, asset: { attoAlphAmount: alph.toString() } }];

function completed(result: TestContractResult): Extract<TestContractResult, { ok: true }> {
  if (!result.ok) throw new Error(result.error);
  return result;
}

describe('maps as sub-contracts (MapTest of @alephium/web3)', () => {
  it('insert creates the entry at subContractId(parent, path) with the value and the parent id, funded by the key', () => {
    const result = completed(
      testContract({
        address: PARENT,
        bytecode: MAP_TEST,
        args: [
          { type: 'Address', value: SIGNER_ADDRESS },
          { type: 'U256', value: '1' },
          { type: 'U256', value: '10' },
        ],
        inputAssets: inputs(3n * 10n ** 18n),
      }),
    );
    const entry = result.contracts.find((c) => c.address === ENTRY);
    assert.deepEqual(entry?.immFields, entryState(10).immFields);
    assert.deepEqual(entry?.mutFields, [{ type: 'U256', value: '10' }]);
    assert.equal(entry?.asset.attoAlphAmount, (10n ** 17n).toString(), 'the minimal deposit, 0.1 ALPH');
    assert.deepEqual(
      result.events.map((e) => [e.eventIndex, e.fields[1]?.value]),
      [[-1, PARENT]],
    );
  });

  it('update goes through the entry, which only its parent may call, and leaves the balance at 11', () => {
    const result = completed(
      testContract({
        address: PARENT,
        bytecode: MAP_TEST,
        methodIndex: 1,
        args: [{ type: 'Address', value: SIGNER_ADDRESS }],
        existingContracts: [entryState(10)],
      }),
    );
    assert.deepEqual(result.contracts.find((c) => c.address === ENTRY)?.mutFields, [
      { type: 'U256', value: '11' },
    ]);
  });

  it('refuses a caller that is not the parent: from a script, CallerContractId has no contract (ExpectAContract)', () => {
    const direct = testContract({
      address: ENTRY,
      bytecode: entryState(10).bytecode,
      methodIndex: 1,
      initialImmFields: entryState(10).immFields,
      initialMutFields: entryState(10).mutFields,
      args: [{ type: 'U256', value: '0' }],
    });
    assert.equal(direct.ok, false);
    assert.equal(!direct.ok && direct.error, 'VM execution error: ExpectAContract');
  });

  it("remove destroys the entry and refunds its deposit to the key's address", () => {
    const result = completed(
      testContract({
        address: PARENT,
        bytecode: MAP_TEST,
        methodIndex: 2,
        args: [{ type: 'Address', value: SIGNER_ADDRESS }],
        existingContracts: [entryState(10)],
        inputAssets: inputs(10n ** 18n),
      }),
    );
    assert.equal(
      result.contracts.find((c) => c.address === ENTRY),
      undefined,
    );
    assert.deepEqual(
      result.events.map((e) => [e.eventIndex, e.fields[0]?.value]),
      [[-2, ENTRY]],
    );
  });
});
