/**
 * Byte vectors, addresses and conversions against alephium/alephium at
 * 63bcf6998508025f9538f3377629fe9e66df6c53, protocol/src/test/scala/org/alephium/protocol/vm/InstrSpec.scala:
 * "ByteVecSlice" (lines 1377-1405: the invalid (0,5), (3,2) and valid (0,4), (1,3), (3,3) slices),
 * "Encode" (1407-1417: `03000102010000`), "Zeros" (1419-1425: 4096 is the limit), "ByteVecToAddress"
 * (1427-1446: 32 and 34 random bytes are no address), "U256ToString" (4812), "U256From1Byte" (2289),
 * "GroupOfAddress" (2313); the serde of `Val` (protocol/.../vm/Val.scala) for the byte-vector forms.
 */
import assert from 'node:assert/strict';
import { hexToBytes } from '../../../src/core/protocol';
import { U256_MAX, vAddress, vBool, vByteVec, vU256, type Instr } from '../../../src/core/vm';
import { bytesOp, expectCompleted, expectFailure, i256Op, instr, ops, runOps, u256Op } from './assemble';

const bytes = (hex: string) => hexToBytes(hex);
const addressOp = (lockup: Uint8Array): Instr => instr('AddressConst', { kind: 'address', value: lockup });
const P2PKH = bytes('00' + '11'.repeat(32));
const P2C_GROUP_2 = bytes('03' + '22'.repeat(31) + '02');

describe('VM byte vectors and addresses', () => {
  it('slices only 0 <= begin <= end <= size (InstrSpec lines 1377-1405)', () => {
    const data = bytes('01020304');
    for (const [begin, end] of [
      [0n, 5n],
      [3n, 2n],
    ] as const) {
      const failed = expectFailure(
        runOps([bytesOp(data), u256Op(begin), u256Op(end), instr('ByteVecSlice')]),
      );
      assert.equal(failed.failure, 'InvalidBytesSliceArg', `${begin}..${end}`);
    }
    for (const [begin, end, hex] of [
      [0n, 4n, '01020304'],
      [1n, 3n, '0203'],
      [3n, 3n, ''],
    ] as const) {
      const run = expectCompleted(runOps([bytesOp(data), u256Op(begin), u256Op(end), instr('ByteVecSlice')]));
      assert.deepEqual(run.returns, [vByteVec(bytes(hex))]);
      assert.equal(run.gasUsed, 6 + 3 + hex.length / 2);
    }
  });

  it('encodes the top n values with their type ids, and refuses an n past an Int (InstrSpec lines 1407-1417)', () => {
    const program = ops('ConstTrue', 'U256Const1', 'ConstFalse', 'U256Const3', 'Encode');
    assert.deepEqual(expectCompleted(runOps(program)).returns, [vByteVec(bytes('03000102010000'))]);
    const failed = expectFailure(runOps(ops('ConstTrue', u256Op(U256_MAX), 'Encode')));
    assert.equal(failed.failure, 'InvalidLengthForEncodeInstr');
  });

  it('makes at most 4096 zero bytes, priced 3 + 1 per word (InstrSpec lines 1419-1425)', () => {
    assert.equal(expectFailure(runOps([u256Op(4097n), instr('Zeros')])).failure, 'InvalidSizeForZeros');
    const run = expectCompleted(runOps([u256Op(4096n), instr('Zeros')]));
    assert.deepEqual(run.returns, [vByteVec(new Uint8Array(4096))]);
    assert.equal(run.gasUsed, 2 + 3 + 4096 / 8);
  });

  it('turns a serialized lockup script into an address and refuses other bytes (InstrSpec lines 1427-1446)', () => {
    const run = expectCompleted(runOps([bytesOp(P2PKH), instr('ByteVecToAddress')]));
    assert.deepEqual(run.returns, [vAddress(P2PKH)]);
    assert.equal(run.gasUsed, 2 + 5);
    for (const hex of ['00' + '11'.repeat(31), '00' + '11'.repeat(33)]) {
      assert.equal(
        expectFailure(runOps([bytesOp(bytes(hex)), instr('ByteVecToAddress')])).failure,
        'SerdeErrorByteVecToAddress',
      );
    }
  });

  it('makes a contract address from a 32-byte id only, charging GasLow after the check', () => {
    const run = expectCompleted(runOps([bytesOp(P2C_GROUP_2.subarray(1)), instr('ContractIdToAddress')]));
    assert.deepEqual(run.returns, [vAddress(P2C_GROUP_2)]);
    assert.equal(run.gasUsed, 2 + 5);
    const failed = expectFailure(runOps([bytesOp(new Uint8Array(31)), instr('ContractIdToAddress')]));
    assert.deepEqual([failed.failure, failed.gasUsed], ['InvalidContractId', 2]);
  });

  it('tells asset from contract addresses and reads the group of a contract from its last byte', () => {
    assert.deepEqual(expectCompleted(runOps([addressOp(P2PKH), instr('IsAssetAddress')])).returns, [
      vBool(true),
    ]);
    assert.deepEqual(expectCompleted(runOps([addressOp(P2C_GROUP_2), instr('IsContractAddress')])).returns, [
      vBool(true),
    ]);
    assert.deepEqual(expectCompleted(runOps([addressOp(P2C_GROUP_2), instr('GroupOfAddress')])).returns, [
      vU256(2n),
    ]);
    const eq = runOps([addressOp(P2PKH), addressOp(P2C_GROUP_2), instr('AddressNeq')]);
    assert.deepEqual(expectCompleted(eq).returns, [vBool(true)]);
  });

  it('compares byte vectors for 3 + 1 per word since Leman and 1 per word before', () => {
    const program = [bytesOp(new Uint8Array(17)), bytesOp(new Uint8Array(17)), instr('ByteVecEq')];
    const leman = expectCompleted(runOps(program));
    assert.deepEqual([leman.returns, leman.gasUsed], [[vBool(true)], 4 + 3 + 3]);
    assert.equal(expectCompleted(runOps(program, 1, { fork: 'Genesis' })).gasUsed, 4 + 3);
  });

  it('gives numbers and booleans their serde form as bytes, priced 1 per word', () => {
    const u = expectCompleted(runOps([u256Op(64n), instr('U256ToByteVec')]));
    assert.deepEqual([u.returns, u.gasUsed], [[vByteVec(bytes('4040'))], 2 + 1]);
    assert.deepEqual(expectCompleted(runOps([i256Op(-1n), instr('I256ToByteVec')])).returns, [
      vByteVec(bytes('3f')),
    ]);
    assert.deepEqual(expectCompleted(runOps(ops('ConstTrue', 'BoolToByteVec'))).returns, [
      vByteVec(bytes('01')),
    ]);
    assert.deepEqual(expectCompleted(runOps([addressOp(P2PKH), instr('AddressToByteVec')])).returns, [
      vByteVec(P2PKH),
    ]);
  });

  it('converts U256 to and from fixed sizes, failing when it does not fit (InstrSpec line 2289)', () => {
    const to2 = expectCompleted(runOps([u256Op(0x1234n), instr('U256To2Byte')]));
    assert.deepEqual([to2.returns, to2.gasUsed], [[vByteVec(bytes('1234'))], 2 + 1]);
    assert.equal(expectFailure(runOps([u256Op(256n), instr('U256To1Byte')])).failure, 'InvalidConversion');
    assert.deepEqual(expectCompleted(runOps([bytesOp(bytes('00ff')), instr('U256From2Byte')])).returns, [
      vU256(255n),
    ]);
    assert.equal(
      expectFailure(runOps([bytesOp(bytes('ff')), instr('U256From2Byte')])).failure,
      'InvalidBytesSize',
    );
  });

  it('writes numbers and booleans in decimal ASCII (InstrSpec line 4812)', () => {
    const text = (hex: string) => vByteVec(new TextEncoder().encode(hex));
    assert.deepEqual(expectCompleted(runOps([u256Op(U256_MAX), instr('U256ToString')])).returns, [
      text(U256_MAX.toString()),
    ]);
    assert.deepEqual(expectCompleted(runOps([i256Op(-42n), instr('I256ToString')])).returns, [text('-42')]);
    const bool = expectCompleted(runOps(ops('ConstFalse', 'BoolToString')));
    assert.deepEqual([bool.returns, bool.gasUsed], [[text('false')], 2 + 1]);
  });

  it('concatenates left then right and measures sizes', () => {
    const run = expectCompleted(
      runOps([bytesOp(bytes('0102')), bytesOp(bytes('03')), instr('ByteVecConcat'), instr('ByteVecSize')]),
    );
    assert.deepEqual(run.returns, [vU256(3n)]);
    const concat = expectCompleted(
      runOps([bytesOp(bytes('0102')), bytesOp(bytes('03')), instr('ByteVecConcat')]),
    );
    assert.deepEqual(concat.returns, [vByteVec(bytes('010203'))]);
  });
});
