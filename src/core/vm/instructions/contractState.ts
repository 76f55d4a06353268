/**
 * Fields and identities (`Instr.scala`: `LoadImmField`, `LoadMutField`, `StoreMutField` and their
 * `ByIndex` forms, `SelfContractId`, `SelfAddress`, `CallerContractId`, `CallerAddress`,
 * `ExternalCaller*`, `IsCalledFromTxScript`, the state and code hash instructions, and the constants
 * `NullContractAddress`, `ALPHTokenId`, `MinimalContractDeposit`). A script frame has no fields: its
 * field reads fail with the index errors of an empty field vector, its self reads with `ExpectAContract`.
 */
import { concatBytes } from '../../protocol';
import { popContractId, statefulOf } from '../calls';
import { ContractObject } from '../contractObject';
import { fail } from '../failure';
import type { Frame } from '../frame';
import { MINIMAL_ALPH_IN_CONTRACT } from '../settlement';
import { vAddress, vBool, vByteVec, vU256, type Val } from '../values';
import type { Handler, HandlerTable } from './handler';

const ZERO_ID = new Uint8Array(32);
const P2C_PREFIX = Uint8Array.of(3);
export const NULL_CONTRACT_ADDRESS = concatBytes(P2C_PREFIX, ZERO_ID);
/** `VarIndexInstr.popIndex`: an index above 255 fails with the index error of the field kind. */
const MAX_INDEX = 0xff;

function contractOf(frame: Frame): ContractObject | undefined {
  return frame.obj instanceof ContractObject ? frame.obj : undefined;
}

function immField(frame: Frame, index: number): Val {
  const obj = contractOf(frame);
  if (obj !== undefined) return obj.getImmField(index);
  fail('InvalidImmFieldIndex', `Invalid immutable field index: ${index}, immutable fields length is: 0`);
}

function mutFieldsOf(frame: Frame, index: number): ContractObject {
  const obj = contractOf(frame);
  if (obj !== undefined) return obj;
  fail('InvalidMutFieldIndex', `Invalid mutable field index: ${index}, mutable fields length is: 0`);
}

function byteOperand(instr: Parameters<Handler>[1]): number {
  if (instr.operand.kind !== 'byte') throw new Error(`${instr.name} has no index`);
  return instr.operand.value;
}

function popIndex(frame: Frame): number {
  const raw = frame.popU256();
  if (raw > BigInt(MAX_INDEX)) {
    fail(
      'InvalidMutFieldIndex',
      `Invalid mutable field index: ${raw}, mutable fields length is: ${MAX_INDEX}`,
    );
  }
  return Number(raw);
}

export function selfId(frame: Frame): Uint8Array {
  return frame.obj.contractId ?? fail('ExpectAContract');
}

export function callerOf(frame: Frame): Frame {
  return frame.callerFrame ?? fail('NoCaller');
}

/** `getCallAddress`: a contract frame's own address, or a script's unique input address. */
function callAddress(frame: Frame): Uint8Array {
  const id = frame.obj.contractId;
  return id === undefined ? statefulOf(frame).uniqueTxInputAddress() : concatBytes(P2C_PREFIX, id);
}

/** `getExternalCallerFrame`: the nearest caller that is not the same contract. */
function externalCaller(frame: Frame): Frame {
  const id = frame.obj.contractId;
  if (id === undefined) return frame;
  let caller = frame.callerFrame;
  while (caller?.obj.contractId !== undefined && equal(caller.obj.contractId, id))
    caller = caller.callerFrame;
  return caller ?? fail('ExternalCallerNotAvailable');
}

const equal = (a: Uint8Array, b: Uint8Array): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

function callerContract(frame: Frame): ContractObject {
  const obj = callerOf(frame).obj;
  return obj instanceof ContractObject ? obj : fail('ExpectStatefulContractObj');
}

function loaded(frame: Frame): ContractObject {
  return statefulOf(frame).loadContract(popContractId(frame));
}

const externalCallerAddress = (frame: Frame): Uint8Array =>
  frame.obj.contractId === undefined
    ? statefulOf(frame).uniqueTxInputAddress()
    : callAddress(externalCaller(frame));

export const CONTRACT_STATE_HANDLERS: HandlerTable = {
  LoadImmField: (frame, instr) => frame.push(immField(frame, byteOperand(instr))),
  LoadMutField: (frame, instr) => {
    const index = byteOperand(instr);
    frame.push(mutFieldsOf(frame, index).getMutField(index));
  },
  StoreMutField: (frame, instr) => {
    const index = byteOperand(instr);
    const v = frame.pop();
    mutFieldsOf(frame, index).setMutField(index, v);
  },
  LoadImmFieldByIndex: (frame) => frame.push(immField(frame, popIndex(frame))),
  LoadMutFieldByIndex: (frame) => {
    const index = popIndex(frame);
    frame.push(mutFieldsOf(frame, index).getMutField(index));
  },
  StoreMutFieldByIndex: (frame) => {
    const index = popIndex(frame);
    const v = frame.pop();
    mutFieldsOf(frame, index).setMutField(index, v);
  },
  SelfContractId: (frame) => frame.push(vByteVec(selfId(frame))),
  SelfAddress: (frame) => frame.push(vAddress(concatBytes(P2C_PREFIX, selfId(frame)))),
  CallerContractId: (frame) =>
    frame.push(vByteVec(callerOf(frame).obj.contractId ?? fail('ExpectAContract'))),
  CallerAddress: (frame) => {
    const caller = frame.callerFrame;
    frame.push(
      vAddress(caller === undefined ? statefulOf(frame).uniqueTxInputAddress() : callAddress(caller)),
    );
  },
  ExternalCallerContractId: (frame) => {
    const address = externalCallerAddress(frame);
    if (address[0] !== 3) fail('ExternalCallerIsNotContract');
    frame.push(vByteVec(address.subarray(1)));
  },
  ExternalCallerAddress: (frame) => frame.push(vAddress(externalCallerAddress(frame))),
  IsCalledFromTxScript: (frame) => frame.push(vBool(callerOf(frame).isScript)),
  CallerInitialStateHash: (frame) => frame.push(vByteVec(callerContract(frame).initialStateHash)),
  CallerCodeHash: (frame) => frame.push(vByteVec(callerContract(frame).codeHash)),
  ContractInitialStateHash: (frame) => frame.push(vByteVec(loaded(frame).initialStateHash)),
  ContractCodeHash: (frame) => frame.push(vByteVec(loaded(frame).codeHash)),
  NullContractAddress: (frame) => frame.push(vAddress(NULL_CONTRACT_ADDRESS)),
  ALPHTokenId: (frame) => frame.push(vByteVec(ZERO_ID)),
  MinimalContractDeposit: (frame) => frame.push(vU256(MINIMAL_ALPH_IN_CONTRACT)),
  /** Only marks a method's selector; running it does nothing but cost its `GasHigh`. */
  MethodSelector: () => undefined,
};
