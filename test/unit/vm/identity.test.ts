/**
 * Who called, and code changes (`Instr.scala`: CallerAddress, IsCalledFromTxScript, CallerContractId,
 * SelfAddress, MigrateSimple, MigrateWithFields; `Frame.scala` getCallerAddress, migrateContract;
 * `Context.scala` migrateContract), run through testContract, whose generated caller is a TxScript.
 */
import { strict as assert } from 'node:assert';
import { addressFromContractId, blake2b256, bytesToHex } from '../../../src/core/protocol';
import { testContract, vU256, type TestContractResult } from '../../../src/core/vm';
import { byteOp, bytesOp, instr, method, ops } from './assemble';
import { SIGNER_ADDRESS, encodeContract, fieldsBytes } from './bytecode';

const ID = '55'.repeat(31) + '00';
const inputs = [{ address: SIGNER_ADDRESS, asset: { attoAlphAmount: (10n ** 18n).toString() } }];

function run(
  methods: Parameters<typeof encodeContract>[1],
  fieldLength = 0,
  mut: readonly string[] = [],
): TestContractResult {
  return testContract({
    address: addressFromContractId(ID),
    bytecode: bytesToHex(encodeContract(fieldLength, methods)),
    initialMutFields: mut.map((value) => ({ type: 'U256', value })),
    inputAssets: inputs,
  });
}

function returnsOf(result: TestContractResult): unknown[] {
  if (!result.ok) throw new Error(result.error);
  return result.returns.map((r) => r.value);
}

describe('callers and migration', () => {
  it("answers a script caller: IsCalledFromTxScript true, CallerAddress the tx's unique input address", () => {
    const asked = method(ops('IsCalledFromTxScript', 'CallerAddress', 'SelfAddress'), { returnLength: 3 });
    assert.deepEqual(returnsOf(run([asked])), [true, SIGNER_ADDRESS, addressFromContractId(ID)]);
  });

  it('fails CallerContractId from a script caller with ExpectAContract (a script has no contract id)', () => {
    const result = run([method(ops('CallerContractId'), { returnLength: 1 })]);
    assert.equal(!result.ok && result.error, 'VM execution error: ExpectAContract');
  });

  it('migrates the code and keeps the fields (MigrateSimple), or replaces them too (MigrateWithFields)', () => {
    const next = encodeContract(1, [method(ops(byteOp('LoadMutField', 0)), { returnLength: 1 })]);
    const simple = testContract({
      address: addressFromContractId(ID),
      bytecode: bytesToHex(encodeContract(1, [method([bytesOp(next), instr('MigrateSimple')])])),
      initialMutFields: [{ type: 'U256', value: '7' }],
    });
    assert.equal(simple.ok, true, !simple.ok ? simple.error : '');
    const after = simple.ok ? simple.contracts[0] : undefined;
    assert.equal(after?.bytecode, bytesToHex(next));
    assert.equal(
      simple.ok && simple.codeHash,
      bytesToHex(blake2b256(next)),
      'a migrated contract reports its new hash',
    );
    assert.deepEqual(after?.mutFields, [{ type: 'U256', value: '7' }]);
    const withFields = testContract({
      address: addressFromContractId(ID),
      bytecode: bytesToHex(
        encodeContract(1, [
          method([
            bytesOp(next),
            bytesOp(fieldsBytes([])),
            bytesOp(fieldsBytes([vU256(9n)])),
            instr('MigrateWithFields'),
          ]),
        ]),
      ),
      initialMutFields: [{ type: 'U256', value: '7' }],
    });
    assert.deepEqual(withFields.ok ? withFields.contracts[0]?.mutFields : undefined, [
      { type: 'U256', value: '9' },
    ]);
  });

  it('refuses new code whose field count differs from the fields it keeps (InvalidFieldLength)', () => {
    const next = encodeContract(2, [method([])]);
    const result = run([method([bytesOp(next), instr('MigrateSimple')])], 1, ['7']);
    assert.equal(!result.ok && result.error, 'VM execution error: InvalidFieldLength');
  });
});
