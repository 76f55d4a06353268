/**
 * Numbers and booleans against alephium/alephium at 63bcf6998508025f9538f3377629fe9e66df6c53:
 * the boundary cases of protocol/src/test/scala/org/alephium/protocol/vm/InstrSpec.scala ("I256Add"
 * to "I256RoundInfinityDiv" lines 838-949, "U256Add" to "U256RoundInfinityDiv" lines 993-1094, "I256Exp"
 * to "AddModN" lines 1127-1201, "I256ToU256" and "U256ToI256" lines 1203-1266) and of
 * util/src/test/scala/org/alephium/util/U256Spec.scala (shl and shr, lines 180-215), run through
 * the interpreter so that the pops, the failure and the gas are the instruction's.
 */
import assert from 'node:assert/strict';
import {
  I256_MAX,
  I256_MIN,
  U256_MAX,
  vBool,
  vI256,
  vU256,
  valToString,
  type HardFork,
  type Val,
} from '../../../src/core/vm';
import { expectCompleted, expectFailure, i256Op, instr, ops, runOps, u256Op } from './assemble';

const constOf = (v: Val) =>
  v.type === 'U256'
    ? u256Op(v.value)
    : v.type === 'I256'
      ? i256Op(v.value)
      : instr(v.value ? 'ConstTrue' : 'ConstFalse');

function binary(name: string, x: Val, y: Val, fork: HardFork = 'Danube') {
  return runOps([constOf(x), constOf(y), instr(name)], 1, { fork });
}

function expectValue(name: string, x: Val, y: Val, expected: Val, fork?: HardFork): void {
  assert.deepEqual(
    expectCompleted(binary(name, x, y, fork)).returns,
    [expected],
    `${name}(${valToString(x)}, ${valToString(y)})`,
  );
}

function expectArithmeticError(name: string, x: Val, y: Val, fork?: HardFork): string {
  const failed = expectFailure(binary(name, x, y, fork));
  assert.equal(failed.failure, 'ArithmeticError', `${name}(${valToString(x)}, ${valToString(y)})`);
  return failed.message;
}

const u = vU256;
const i = vI256;

describe('VM arithmetic (InstrSpec boundary cases)', () => {
  it('fails I256 add, sub and mul on overflow either way (InstrSpec lines 838-854)', () => {
    expectArithmeticError('I256Add', i(I256_MAX), i(1n));
    expectArithmeticError('I256Add', i(I256_MIN), i(-1n));
    expectArithmeticError('I256Sub', i(I256_MIN), i(1n));
    expectArithmeticError('I256Sub', i(I256_MAX), i(-1n));
    expectArithmeticError('I256Mul', i(I256_MAX), i(2n));
    expectArithmeticError('I256Mul', i(I256_MIN), i(2n));
    expectValue('I256Add', i(I256_MAX - 1n), i(1n), i(I256_MAX));
    expectValue('I256Sub', i(3n), i(5n), i(-2n));
  });

  it('divides I256 toward zero and fails on zero and on MinValue / -1 (InstrSpec lines 856-870)', () => {
    expectValue('I256Div', i(-7n), i(2n), i(-3n));
    expectValue('I256Mod', i(-7n), i(2n), i(-1n));
    expectValue('I256Div', i(-1n), i(I256_MIN), i(0n));
    expectValue('I256Div', i(0n), i(1n), i(0n));
    expectArithmeticError('I256Div', i(1n), i(0n));
    expectArithmeticError('I256Div', i(I256_MIN), i(-1n));
    expectArithmeticError('I256Mod', i(1n), i(0n));
  });

  it('rounds I256 division away from zero (InstrSpec lines 942-949)', () => {
    expectValue('I256RoundInfinityDiv', i(7n), i(2n), i(4n));
    expectValue('I256RoundInfinityDiv', i(-7n), i(2n), i(-4n));
    expectValue('I256RoundInfinityDiv', i(-7n), i(-2n), i(4n));
    expectValue('I256RoundInfinityDiv', i(0n), i(1n), i(0n));
    expectArithmeticError('I256RoundInfinityDiv', i(1n), i(0n));
    expectArithmeticError('I256RoundInfinityDiv', i(I256_MIN), i(-1n));
    assert.equal(
      expectFailure(binary('I256RoundInfinityDiv', i(7n), i(2n), 'Rhone')).failure,
      'InactiveInstr',
    );
  });

  it('fails U256 add, sub and mul outside 0..2^256-1 (InstrSpec lines 993-1010)', () => {
    expectArithmeticError('U256Add', u(U256_MAX), u(1n));
    expectValue('U256Sub', u(U256_MAX), u(U256_MAX), u(0n));
    expectArithmeticError('U256Sub', u(0n), u(1n));
    expectArithmeticError('U256Sub', u(1n), u(2n));
    expectArithmeticError('U256Mul', u(U256_MAX), u(2n));
    expectArithmeticError('U256Div', u(1n), u(0n));
    expectArithmeticError('U256Mod', u(1n), u(0n));
    expectValue('U256RoundInfinityDiv', u(7n), u(2n), u(4n));
    expectArithmeticError('U256RoundInfinityDiv', u(1n), u(0n));
  });

  it('names the instruction and both operands in its ArithmeticError', () => {
    assert.equal(
      expectArithmeticError('U256Sub', u(0n), u(1n)),
      'Arithmetic error: U256Sub(U256(0), U256(1))',
    );
  });

  it('wraps the modular U256 operations modulo 2^256 (InstrSpec lines 1050-1060)', () => {
    expectValue('U256ModAdd', u(U256_MAX), u(2n), u(1n));
    expectValue('U256ModSub', u(0n), u(1n), u(U256_MAX));
    expectValue('U256ModMul', u(U256_MAX), u(2n), u(U256_MAX - 1n));
  });

  it('compares and combines as typed: a U256 comparison pops the right operand first', () => {
    expectValue('U256Lt', u(1n), u(2n), vBool(true));
    expectValue('I256Ge', i(-1n), i(-1n), vBool(true));
    expectValue('BoolAnd', vBool(true), vBool(false), vBool(false));
    expectValue('BoolNeq', vBool(true), vBool(false), vBool(true));
    const typed = expectFailure(binary('U256Add', i(1n), u(1n)));
    assert.deepEqual(
      [typed.failure, typed.message],
      ['InvalidType', 'Invalid type, expected: U256, got: I256(1)'],
    );
  });

  it('shifts U256 left with overflow checks since Danube and wrapping before (U256Spec lines 180-215, InstrSpec lines 1074-1083)', () => {
    expectValue('NumericSHL', u(1n), u(255n), u(1n << 255n));
    expectArithmeticError('NumericSHL', u(2n), u(255n));
    expectArithmeticError('NumericSHL', u(1n), u(256n));
    expectValue('NumericSHL', u(0n), u(U256_MAX), u(0n));
    expectArithmeticError('NumericSHL', u(U256_MAX), u(1n));
    expectValue('NumericSHL', u(U256_MAX), u(1n), u(U256_MAX - 1n), 'Rhone');
    expectValue('NumericSHL', u(1n), u(256n), u(0n), 'Rhone');
    expectValue('NumericSHR', u(U256_MAX), u(255n), u(1n));
    expectValue('NumericSHR', u(U256_MAX), u(1n << 16n), u(0n));
  });

  it('shifts and masks I256 only since Danube; I256 right shifts round toward zero (InstrSpec lines 908-940)', () => {
    expectValue('NumericSHR', i(-7n), u(1n), i(-3n));
    expectValue('NumericSHL', i((I256_MAX - 1n) / 2n), u(1n), i(I256_MAX - 1n));
    expectArithmeticError('NumericSHL', i(I256_MAX), u(1n));
    expectValue('NumericBitAnd', i(-1n), i(6n), i(6n));
    expectValue('NumericXor', i(-1n), i(0n), i(-1n));
    assert.match(
      expectArithmeticError('NumericBitAnd', i(-1n), i(6n), 'Rhone'),
      /is not enabled before Danube$/,
    );
    assert.match(
      expectArithmeticError('NumericSHR', i(-1n), u(1n), 'Rhone'),
      /is not enabled before Danube$/,
    );
    expectArithmeticError('NumericBitOr', u(1n), i(1n));
  });

  it('raises to a power with gas 10 + 50 per exponent byte, charged after the power (InstrSpec lines 1127-1167)', () => {
    const pow = expectCompleted(binary('U256Exp', u(3n), u(100n)));
    assert.deepEqual(pow.returns, [u(3n ** 100n)]);
    assert.equal(pow.gasUsed, 2 + 2 + 10 + 50 * 1);
    assert.deepEqual(expectCompleted(binary('I256Exp', i(-2n), u(255n))).returns, [i(I256_MIN)]);
    assert.deepEqual(expectCompleted(binary('I256Exp', i(-1n), u(U256_MAX))).returns, [i(-1n)]);
    assert.deepEqual(expectCompleted(binary('U256Exp', u(0n), u(0n))).returns, [u(1n)]);
    const overflow = expectFailure(binary('U256Exp', u(2n), u(256n)));
    assert.deepEqual(
      [overflow.failure, overflow.message, overflow.gasUsed],
      ['ArithmeticError', 'Exp overflow: U256(2) ** 256', 4],
    );
    expectArithmeticError('I256Exp', i(2n), u(255n));
    expectArithmeticError('U256Exp', u(3n), u(200n));
    assert.deepEqual(expectCompleted(binary('U256ModExp', u(2n), u(256n))).returns, [u(0n)]);
    assert.deepEqual(expectCompleted(binary('U256ModExp', u(3n), u(2n))).returns, [u(9n)]);
  });

  it('computes MulModN and AddModN on the full product and fails on a zero modulus (InstrSpec lines 1169-1201)', () => {
    const mul = expectCompleted(runOps([u256Op(U256_MAX), u256Op(U256_MAX), u256Op(7n), instr('MulModN')]));
    assert.deepEqual(mul.returns, [u((U256_MAX * U256_MAX) % 7n)]);
    assert.equal(mul.gasUsed, 2 * 3 + 13);
    const add = expectCompleted(runOps([u256Op(U256_MAX), u256Op(U256_MAX), u256Op(10n), instr('AddModN')]));
    assert.deepEqual(add.returns, [u((2n * U256_MAX) % 10n)]);
    const zero = expectFailure(runOps(ops('U256Const2', 'U256Const2', 'U256Const0', 'AddModN')));
    assert.deepEqual([zero.failure, zero.gasUsed], ['ArithmeticError', 6]);
  });

  it('converts between I256 and U256 only in range (InstrSpec lines 1203-1266)', () => {
    assert.deepEqual(expectCompleted(runOps([i256Op(5n), instr('I256ToU256')])).returns, [u(5n)]);
    assert.equal(expectFailure(runOps([i256Op(-1n), instr('I256ToU256')])).failure, 'InvalidConversion');
    assert.deepEqual(expectCompleted(runOps([u256Op(I256_MAX), instr('U256ToI256')])).returns, [i(I256_MAX)]);
    assert.equal(expectFailure(runOps([u256Op(U256_MAX), instr('U256ToI256')])).failure, 'InvalidConversion');
  });
});
