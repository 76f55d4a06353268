/**
 * Numbers and booleans (`Instr.scala`: `BinaryArithmeticInstr`, the Danube bitwise and shift
 * instructions, `ExpInstr`, `ModNInstr`, `LogicInstr`, `ConversionInstr`). Operands are popped right
 * first: `x - y` pops `y`, then `x`.
 */
import { fail } from '../failure';
import type { Frame } from '../frame';
import { isForkEnabled } from '../forks';
import { gasExp, GAS_ADD_MOD_N, GAS_MUL_MOD_N } from '../gas';
import { I256_MAX, i256, u256, u256ByteLength } from '../numeric';
import { vBool, vI256, vU256, valToString, type Val } from '../values';
import type { Handler, HandlerTable } from './handler';

function arithmeticError(name: string, a: Val, b: Val): never {
  fail('ArithmeticError', `Arithmetic error: ${name}(${valToString(a)}, ${valToString(b)})`);
}

type Checked = (x: bigint, y: bigint) => bigint | undefined;

function u256Op(name: string, op: Checked): Handler {
  return (frame) => {
    const y = frame.popU256();
    const x = frame.popU256();
    const out = op(x, y);
    if (out === undefined) arithmeticError(name, vU256(x), vU256(y));
    frame.push(vU256(out));
  };
}

function i256Op(name: string, op: Checked): Handler {
  return (frame) => {
    const y = frame.popI256();
    const x = frame.popI256();
    const out = op(x, y);
    if (out === undefined) arithmeticError(name, vI256(x), vI256(y));
    frame.push(vI256(out));
  };
}

function u256Compare(test: (x: bigint, y: bigint) => boolean): Handler {
  return (frame) => {
    const y = frame.popU256();
    const x = frame.popU256();
    frame.push(vBool(test(x, y)));
  };
}

function i256Compare(test: (x: bigint, y: bigint) => boolean): Handler {
  return (frame) => {
    const y = frame.popI256();
    const x = frame.popI256();
    frame.push(vBool(test(x, y)));
  };
}

const eq = (x: bigint, y: bigint): boolean => x === y;
const neq = (x: bigint, y: bigint): boolean => x !== y;
const lt = (x: bigint, y: bigint): boolean => x < y;
const le = (x: bigint, y: bigint): boolean => x <= y;
const gt = (x: bigint, y: bigint): boolean => x > y;
const ge = (x: bigint, y: bigint): boolean => x >= y;

/** I256 operands of bitwise and shift instructions arrived with Danube; before it they are an error. */
function requireDanubeForI256(frame: Frame, name: string, a: Val, b: Val): void {
  if (!isForkEnabled(frame.ctx.hardFork, 'Danube')) {
    fail('ArithmeticError', `${name}(${valToString(a)}, ${valToString(b)}) is not enabled before Danube`);
  }
}

function bitwise(name: string, op: (x: bigint, y: bigint) => bigint): Handler {
  return (frame) => {
    const b = frame.pop();
    const a = frame.pop();
    if (a.type === 'U256' && b.type === 'U256') return frame.push(vU256(op(a.value, b.value)));
    if (a.type === 'I256' && b.type === 'I256') {
      requireDanubeForI256(frame, name, a, b);
      return frame.push(vI256(op(a.value, b.value)));
    }
    arithmeticError(name, a, b);
  };
}

const shiftLeft: Handler = (frame) => {
  const b = frame.pop();
  const a = frame.pop();
  if (a.type === 'U256' && b.type === 'U256') {
    if (!isForkEnabled(frame.ctx.hardFork, 'Danube'))
      return frame.push(vU256(u256.shlDeprecated(a.value, b.value)));
    const out = u256.shl(a.value, b.value);
    if (out === undefined) arithmeticError('NumericSHL', a, b);
    return frame.push(vU256(out));
  }
  if (a.type === 'I256' && b.type === 'U256') {
    requireDanubeForI256(frame, 'NumericSHL', a, b);
    const out = i256.shl(a.value, b.value);
    if (out === undefined) arithmeticError('NumericSHL', a, b);
    return frame.push(vI256(out));
  }
  arithmeticError('NumericSHL', a, b);
};

const shiftRight: Handler = (frame) => {
  const b = frame.pop();
  const a = frame.pop();
  if (a.type === 'U256' && b.type === 'U256') return frame.push(vU256(u256.shr(a.value, b.value)));
  if (a.type === 'I256' && b.type === 'U256') {
    requireDanubeForI256(frame, 'NumericSHR', a, b);
    return frame.push(vI256(i256.shr(a.value, b.value)));
  }
  arithmeticError('NumericSHR', a, b);
};

/** `ExpInstr`: the exponent is popped first, the base second, and the gas is charged after the power. */
const u256Exp: Handler = (frame) => {
  const exp = frame.popU256();
  const base = frame.popU256();
  const out = u256.pow(base, exp);
  if (out === undefined) fail('ArithmeticError', `Exp overflow: ${valToString(vU256(base))} ** ${exp}`);
  frame.ctx.chargeGas(gasExp(u256ByteLength(exp)));
  frame.push(vU256(out));
};

const i256Exp: Handler = (frame) => {
  const exp = frame.popU256();
  const base = frame.popI256();
  const out = i256.pow(base, exp);
  if (out === undefined) fail('ArithmeticError', `Exp overflow: ${valToString(vI256(base))} ** ${exp}`);
  frame.ctx.chargeGas(gasExp(u256ByteLength(exp)));
  frame.push(vI256(out));
};

const u256ModExp: Handler = (frame) => {
  const exp = frame.popU256();
  const base = frame.popU256();
  const out = u256.modPow(base, exp);
  frame.ctx.chargeGas(gasExp(u256ByteLength(exp)));
  frame.push(vU256(out));
};

function modN(
  symbol: string,
  gas: number,
  op: (x: bigint, y: bigint, n: bigint) => bigint | undefined,
): Handler {
  return (frame) => {
    const n = frame.popU256();
    const y = frame.popU256();
    const x = frame.popU256();
    const out = op(x, y, n);
    if (out === undefined) {
      fail(
        'ArithmeticError',
        `(${valToString(vU256(x))} ${symbol} ${valToString(vU256(y))}) % ${valToString(vU256(n))}`,
      );
    }
    frame.ctx.chargeGas(gas);
    frame.push(vU256(out));
  };
}

function binaryBool(op: (a: boolean, b: boolean) => boolean): Handler {
  return (frame) => {
    const b = frame.popBool();
    const a = frame.popBool();
    frame.push(vBool(op(a, b)));
  };
}

export const ARITHMETIC_HANDLERS: HandlerTable = {
  BoolNot: (frame) => frame.push(vBool(!frame.popBool())),
  BoolAnd: binaryBool((a, b) => a && b),
  BoolOr: binaryBool((a, b) => a || b),
  BoolEq: binaryBool((a, b) => a === b),
  BoolNeq: binaryBool((a, b) => a !== b),
  I256Add: i256Op('I256Add', i256.add),
  I256Sub: i256Op('I256Sub', i256.sub),
  I256Mul: i256Op('I256Mul', i256.mul),
  I256Div: i256Op('I256Div', i256.div),
  I256Mod: i256Op('I256Mod', i256.mod),
  I256RoundInfinityDiv: i256Op('I256RoundInfinityDiv', i256.roundInfinityDiv),
  I256Eq: i256Compare(eq),
  I256Neq: i256Compare(neq),
  I256Lt: i256Compare(lt),
  I256Le: i256Compare(le),
  I256Gt: i256Compare(gt),
  I256Ge: i256Compare(ge),
  U256Add: u256Op('U256Add', u256.add),
  U256Sub: u256Op('U256Sub', u256.sub),
  U256Mul: u256Op('U256Mul', u256.mul),
  U256Div: u256Op('U256Div', u256.div),
  U256Mod: u256Op('U256Mod', u256.mod),
  U256RoundInfinityDiv: u256Op('U256RoundInfinityDiv', u256.roundInfinityDiv),
  U256ModAdd: u256Op('U256ModAdd', u256.modAdd),
  U256ModSub: u256Op('U256ModSub', u256.modSub),
  U256ModMul: u256Op('U256ModMul', u256.modMul),
  U256Eq: u256Compare(eq),
  U256Neq: u256Compare(neq),
  U256Lt: u256Compare(lt),
  U256Le: u256Compare(le),
  U256Gt: u256Compare(gt),
  U256Ge: u256Compare(ge),
  NumericBitAnd: bitwise('NumericBitAnd', (x, y) => x & y),
  NumericBitOr: bitwise('NumericBitOr', (x, y) => x | y),
  NumericXor: bitwise('NumericXor', (x, y) => x ^ y),
  NumericSHL: shiftLeft,
  NumericSHR: shiftRight,
  I256Exp: i256Exp,
  U256Exp: u256Exp,
  U256ModExp: u256ModExp,
  MulModN: modN('*', GAS_MUL_MOD_N, u256.mulModN),
  AddModN: modN('+', GAS_ADD_MOD_N, u256.addModN),
  I256ToU256: (frame) => {
    const v = frame.popI256();
    if (v < 0n) fail('InvalidConversion', `Invalid conversion from ${valToString(vI256(v))} to U256`);
    frame.push(vU256(v));
  },
  U256ToI256: (frame) => {
    const v = frame.popU256();
    if (v > I256_MAX) fail('InvalidConversion', `Invalid conversion from ${valToString(vU256(v))} to I256`);
    frame.push(vI256(v));
  },
};
