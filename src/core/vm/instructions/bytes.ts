/**
 * Byte vectors, addresses and conversions (`Instr.scala`: `ByteVecComparison`, `ByteVecConcat`,
 * `ByteVecSlice`, `ToByteVecInstr`, `U256ToBytesInstr`, `U256FromBytesInstr`, `ToStringInstr`,
 * `Encode`, `Zeros`, the address instructions). Size-priced instructions charge once they know the size,
 * at the point the node does.
 */
import {
  ProtocolError,
  bytesToHex,
  concatBytes,
  decodeLockupScript,
  equalBytes,
  groupOfLockupScript,
} from '../../protocol';
import { fail } from '../failure';
import { GAS_LOW, gasBytesConcat, gasBytesEq, gasBytesSlice, gasToByte } from '../gas';
import { toInt32, u256 } from '../numeric';
import {
  serializeVals,
  toByteVec,
  vAddress,
  vBool,
  vByteVec,
  vU256,
  valToString,
  type ValType,
} from '../values';
import type { Frame } from '../frame';
import type { Handler, HandlerTable } from './handler';

/** `Zeros.maxSize`. */
const MAX_ZEROS = 4096n;
const P2C_PREFIX = 3;
const CONTRACT_ID_LENGTH = 32;

function toByteVecOf(type: ValType): Handler {
  return (frame) => {
    const bytes = toByteVec(frame.popOf(type));
    frame.push(vByteVec(bytes));
    frame.ctx.chargeGas(gasToByte(bytes.length));
  };
}

function byteVecComparison(equal: boolean): Handler {
  return (frame) => {
    const x = frame.popByteVec();
    const y = frame.popByteVec();
    frame.ctx.chargeGas(gasBytesEq(x.length, frame.ctx.hardFork));
    frame.push(vBool(equalBytes(x, y) === equal));
  };
}

function addressComparison(equal: boolean): Handler {
  return (frame) => {
    const x = frame.popAddress();
    const y = frame.popAddress();
    frame.push(vBool(equalBytes(x, y) === equal));
  };
}

function u256ToBytes(size: number): Handler {
  return (frame) => {
    const value = frame.popU256();
    const bytes = u256.toFixedSizeBytes(value, size);
    if (bytes === undefined) {
      fail('InvalidConversion', `Invalid conversion from ${valToString(vU256(value))} to ByteVec`);
    }
    frame.push(vByteVec(bytes));
    frame.ctx.chargeGas(gasToByte(size));
  };
}

function u256FromBytes(size: number): Handler {
  return (frame) => {
    const bytes = frame.popByteVec();
    if (bytes.length !== size) fail('InvalidBytesSize');
    frame.push(vU256(u256.fromBytes(bytes)));
    frame.ctx.chargeGas(gasToByte(size));
  };
}

function toStringOf(render: (frame: Frame) => string): Handler {
  return (frame) => {
    const bytes = new TextEncoder().encode(render(frame));
    frame.push(vByteVec(bytes));
    frame.ctx.chargeGas(gasToByte(bytes.length));
  };
}

const concat: Handler = (frame) => {
  const right = frame.popByteVec();
  const left = frame.popByteVec();
  const result = concatBytes(left, right);
  frame.ctx.chargeGas(gasBytesConcat(result.length, frame.ctx.hardFork));
  frame.push(vByteVec(result));
};

const slice: Handler = (frame) => {
  const end = toInt32(frame.popU256()) ?? fail('InvalidBytesSliceArg');
  const begin = toInt32(frame.popU256()) ?? fail('InvalidBytesSliceArg');
  const bytes = frame.popByteVec();
  if (!(begin <= end && end <= bytes.length)) fail('InvalidBytesSliceArg');
  const result = bytes.slice(begin, end);
  frame.ctx.chargeGas(gasBytesSlice(result.length));
  frame.push(vByteVec(result));
};

const encode: Handler = (frame) => {
  const n = toInt32(frame.popU256()) ?? fail('InvalidLengthForEncodeInstr');
  const bytes = serializeVals(frame.opStack.popN(n));
  frame.ctx.chargeGas(gasBytesSlice(bytes.length));
  frame.push(vByteVec(bytes));
};

const zeros: Handler = (frame) => {
  const size = frame.popU256();
  if (size > MAX_ZEROS) fail('InvalidSizeForZeros');
  frame.ctx.chargeGas(gasBytesEq(Number(size)));
  frame.push(vByteVec(new Uint8Array(Number(size))));
};

const byteVecToAddress: Handler = (frame) => {
  const bytes = frame.popByteVec();
  try {
    decodeLockupScript(bytes);
  } catch (error) {
    if (!(error instanceof ProtocolError)) throw error;
    fail(
      'SerdeErrorByteVecToAddress',
      `Failed to deserialize ${bytesToHex(bytes)} to address: ${error.message}`,
    );
  }
  frame.ctx.chargeGas(gasToByte(bytes.length));
  frame.push(vAddress(bytes));
};

/** Charges its `GasLow` itself, after the id is checked (`ContractIdToAddress.runWithLeman`). */
const contractIdToAddress: Handler = (frame) => {
  const id = frame.popByteVec();
  if (id.length !== CONTRACT_ID_LENGTH) {
    fail('InvalidContractId', `Invalid contract ID: expected 32 bytes, received ${bytesToHex(id)}`);
  }
  frame.ctx.chargeGas(GAS_LOW);
  frame.push(vAddress(concatBytes(Uint8Array.of(P2C_PREFIX), id)));
};

const isContract = (lockupScript: Uint8Array): boolean => lockupScript[0] === P2C_PREFIX;

export const BYTES_HANDLERS: HandlerTable = {
  BoolToByteVec: toByteVecOf('Bool'),
  I256ToByteVec: toByteVecOf('I256'),
  U256ToByteVec: toByteVecOf('U256'),
  AddressToByteVec: toByteVecOf('Address'),
  ByteVecEq: byteVecComparison(true),
  ByteVecNeq: byteVecComparison(false),
  ByteVecSize: (frame) => frame.push(vU256(BigInt(frame.popByteVec().length))),
  ByteVecConcat: concat,
  ByteVecSlice: slice,
  AddressEq: addressComparison(true),
  AddressNeq: addressComparison(false),
  IsAssetAddress: (frame) => frame.push(vBool(!isContract(frame.popAddress()))),
  IsContractAddress: (frame) => frame.push(vBool(isContract(frame.popAddress()))),
  ByteVecToAddress: byteVecToAddress,
  ContractIdToAddress: contractIdToAddress,
  GroupOfAddress: (frame) => frame.push(vU256(BigInt(groupOfLockupScript(frame.popAddress())))),
  Encode: encode,
  Zeros: zeros,
  U256To1Byte: u256ToBytes(1),
  U256To2Byte: u256ToBytes(2),
  U256To4Byte: u256ToBytes(4),
  U256To8Byte: u256ToBytes(8),
  U256To16Byte: u256ToBytes(16),
  U256To32Byte: u256ToBytes(32),
  U256From1Byte: u256FromBytes(1),
  U256From2Byte: u256FromBytes(2),
  U256From4Byte: u256FromBytes(4),
  U256From8Byte: u256FromBytes(8),
  U256From16Byte: u256FromBytes(16),
  U256From32Byte: u256FromBytes(32),
  U256ToString: toStringOf((frame) => frame.popU256().toString()),
  I256ToString: toStringOf((frame) => frame.popI256().toString()),
  BoolToString: toStringOf((frame) => (frame.popBool() ? 'true' : 'false')),
};
