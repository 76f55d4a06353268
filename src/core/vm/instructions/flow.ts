/**
 * Constants, locals, stack shuffles, jumps and assertions (`Instr.scala`: `ConstInstr`, `LoadLocal`,
 * `StoreLocal`, `VarIndexInstr`, `PureStackInstr`, `ControlInstr`, `Assert`, `AssertWithErrorCode`).
 * A jump moves the pc by its offset and the step then advances by one, so `Jump(0)` is a no-op.
 */
import type { Instr } from '../decode';
import { fail } from '../failure';
import type { Frame } from '../frame';
import { toInt32 } from '../numeric';
import { vAddress, vBool, vByteVec, vI256, vU256, type Val } from '../values';
import type { Handler, HandlerTable } from './handler';

/** `VarIndexInstr.popIndex`: an index popped as U256 must fit in an Int and be at most 0xff. */
const MAX_VAR_INDEX = 0xff;

function constant(v: Val): Handler {
  return (frame) => frame.push(v);
}

function byteOperand(instr: Instr): number {
  if (instr.operand.kind !== 'byte') throw new Error(`${instr.name} has no byte operand`);
  return instr.operand.value;
}

function offsetOperand(instr: Instr): number {
  if (instr.operand.kind !== 'offset') throw new Error(`${instr.name} has no offset operand`);
  return instr.operand.value;
}

function popVarIndex(frame: Frame): number {
  const raw = frame.popU256();
  const index = toInt32(raw);
  if (index === undefined || index > MAX_VAR_INDEX) {
    fail('InvalidVarIndex', `Invalid var index: ${raw}, max index is: ${MAX_VAR_INDEX}`);
  }
  return index;
}

function conditionalJump(when: boolean): Handler {
  return (frame, instr) => {
    if (frame.popBool() === when) frame.offsetPC(offsetOperand(instr));
  };
}

const pushOperand: Handler = (frame, instr) => {
  const { operand } = instr;
  switch (operand.kind) {
    case 'i256':
      return frame.push(vI256(operand.value));
    case 'u256':
      return frame.push(vU256(operand.value));
    case 'bytes':
      return frame.push(vByteVec(operand.value));
    case 'address':
      return frame.push(vAddress(operand.value));
    default:
      throw new Error(`${instr.name} has no constant operand`);
  }
};

const assertWithErrorCode: Handler = (frame) => {
  const rawCode = frame.popU256();
  const errorCode = toInt32(rawCode);
  if (errorCode === undefined) {
    fail(
      'InvalidErrorCode',
      `Invalid error code ${rawCode}: The error code cannot exceed the maximum value for int32 (2147483647)`,
    );
  }
  if (frame.popBool()) return;
  const contractId = frame.contractIdHex;
  const where = contractId === undefined ? 'TxScript' : `Contract @ ${frame.contractAddress()}`;
  fail(
    'AssertionFailedWithErrorCode',
    `Assertion Failed in ${where}, Error Code: ${errorCode}`,
    contractId === undefined ? { errorCode } : { errorCode, contractId },
  );
};

export const FLOW_HANDLERS: HandlerTable = {
  ConstTrue: constant(vBool(true)),
  ConstFalse: constant(vBool(false)),
  I256Const0: constant(vI256(0n)),
  I256Const1: constant(vI256(1n)),
  I256Const2: constant(vI256(2n)),
  I256Const3: constant(vI256(3n)),
  I256Const4: constant(vI256(4n)),
  I256Const5: constant(vI256(5n)),
  I256ConstN1: constant(vI256(-1n)),
  U256Const0: constant(vU256(0n)),
  U256Const1: constant(vU256(1n)),
  U256Const2: constant(vU256(2n)),
  U256Const3: constant(vU256(3n)),
  U256Const4: constant(vU256(4n)),
  U256Const5: constant(vU256(5n)),
  I256Const: pushOperand,
  U256Const: pushOperand,
  BytesConst: pushOperand,
  AddressConst: pushOperand,
  LoadLocal: (frame, instr) => frame.push(frame.locals.get(byteOperand(instr))),
  StoreLocal: (frame, instr) => {
    const v = frame.pop();
    frame.locals.set(byteOperand(instr), v);
  },
  LoadLocalByIndex: (frame) => frame.push(frame.locals.get(popVarIndex(frame))),
  StoreLocalByIndex: (frame) => {
    const index = popVarIndex(frame);
    const v = frame.pop();
    frame.locals.set(index, v);
  },
  Pop: (frame) => frame.opStack.remove(1),
  Dup: (frame) => frame.opStack.dupTop(),
  Swap: (frame) => frame.opStack.swapTopTwo(),
  Jump: (frame, instr) => frame.offsetPC(offsetOperand(instr)),
  IfTrue: conditionalJump(true),
  IfFalse: conditionalJump(false),
  Assert: (frame) => {
    if (!frame.popBool()) fail('AssertionFailed');
  },
  AssertWithErrorCode: assertWithErrorCode,
};
