/**
 * The block and transaction environment, logs, `debug!` and the Ralph unit-test instructions
 * (`Instr.scala`: `BlockInstr`, `TxInstr`, `LockTimeInstr`, `LogInstr`, `DEBUG`, `DevInstr`).
 */
import { concatBytes } from '../../protocol';
import { MAINNET_NETWORK_ID, TESTNET_NETWORK_ID } from '../context';
import { fail, type VmFailure } from '../failure';
import type { Frame } from '../frame';
import { isForkEnabled } from '../forks';
import { gasLog } from '../gas';
import { I256_MIN, isU256, toInt32, u256 } from '../numeric';
import { toDebugString, vAddress, vByteVec, vI256, vU256, valEquals, valToString } from '../values';
import type { Handler, HandlerTable } from './handler';

/** `debugEventIndex` (-3) and the zero contract id the node logs a script's debug message under. */
export const DEBUG_EVENT_INDEX = -3n;
const ZERO_CONTRACT_ID = '00'.repeat(32);
const LONG_MAX = (1n << 63n) - 1n;
const P2PKH_PREFIX = 0;
const P2C_PREFIX = 3;

const DEV_TEST_CHECK_START = 0;
const DEV_TEST_ERROR_START = 1;
const DEV_TEST_CHECK_END = 2;
const DEV_TEST_EQUAL = 3;
const DEV_RANDOM_U256 = 4;
const DEV_RANDOM_I256 = 5;
const DEV_RANDOM_CONTRACT_ADDRESS = 6;
const DEV_RANDOM_ASSET_ADDRESS = 7;

/** Since Leman, `txInputsSize!` and `txInputAddress!` are for TxScripts only. */
function checkScriptFrameForLeman(frame: Frame): void {
  if (isForkEnabled(frame.ctx.hardFork, 'Leman') && !frame.isScript) {
    fail(
      'AccessTxInputAddressInContract',
      '`txInputsSize` and `txInputAddress` functions are only allowed in TxScript',
    );
  }
}

function prevOutputAt(frame: Frame, rawIndex: bigint): { lockupScript: Uint8Array; lockTime: bigint } {
  const index = toInt32(rawIndex);
  const output = index === undefined ? undefined : frame.ctx.txEnv.prevOutputs[index];
  if (output === undefined) fail('InvalidTxInputIndex', `Invalid tx input index ${rawIndex}`);
  return output;
}

function popMillis(frame: Frame): bigint {
  const value = frame.popU256();
  if (value > LONG_MAX) fail('LockTimeOverflow');
  return value;
}

const verifyAbsoluteLocktime: Handler = (frame) => {
  const lockUntil = popMillis(frame);
  const blockTime = frame.ctx.blockEnv.timeStamp;
  if (lockUntil > blockTime) {
    fail(
      'AbsoluteLockTimeVerificationFailed',
      `Absolute lock time verification failed. Lock time: TimeStamp(${lockUntil}ms), block time: TimeStamp(${blockTime}ms)`,
    );
  }
};

const verifyRelativeLocktime: Handler = (frame) => {
  const duration = popMillis(frame);
  const output = prevOutputAt(frame, frame.popU256());
  if (output.lockTime === 0n) {
    fail('RelativeLockTimeExpectPersistedUtxo', 'UTXO for the relative lock time is not persisted yet');
  }
  const lockUntil = output.lockTime + duration;
  if (lockUntil > LONG_MAX) fail('LockTimeOverflow');
  const blockTime = frame.ctx.blockEnv.timeStamp;
  if (lockUntil > blockTime) {
    fail(
      'RelativeLockTimeVerificationFailed',
      `Relative lock time verification failed. Lock time: TimeStamp(${lockUntil}ms), block time: TimeStamp(${blockTime}ms)`,
    );
  }
};

function log(n: number): Handler {
  return (frame) => {
    frame.ctx.chargeGas(gasLog(n));
    const fields = frame.opStack.popN(n);
    frame.ctx.writeLog(frame.contractIdHex, fields);
  };
}

const debug: Handler = (frame, instr) => {
  if (instr.operand.kind !== 'bytesArray') throw new Error('DEBUG has no string parts');
  const parts = instr.operand.value;
  if (frame.ctx.blockEnv.networkId === MAINNET_NETWORK_ID) {
    fail('DebugIsNotSupportedForMainnet', 'Debug is not supported for mainnet');
  }
  if (parts.length === 0) fail('DebugMessageIsEmpty');
  const values = frame.opStack.popN(parts.length - 1);
  const encoder = new TextEncoder();
  const pieces: Uint8Array[] = [];
  values.forEach((v, k) => pieces.push(parts[k] as Uint8Array, encoder.encode(toDebugString(v))));
  pieces.push(parts[parts.length - 1] as Uint8Array);
  const message = concatBytes(...pieces);
  const contractId = frame.contractIdHex;
  frame.ctx.writeLog(contractId ?? ZERO_CONTRACT_ID, [vI256(DEBUG_EVENT_INDEX), vByteVec(message)]);
  const text = new TextDecoder().decode(message);
  frame.ctx.debugMessages.push(contractId === undefined ? { message: text } : { contractId, message: text });
};

function popInt(frame: Frame): number {
  const raw = frame.popU256();
  const value = toInt32(raw);
  if (value === undefined) {
    fail(
      'InvalidErrorCode',
      `Invalid error code ${raw}: The error code cannot exceed the maximum value for int32 (2147483647)`,
    );
  }
  return value;
}

/** `DevInstr.checkError`: what a `testFail!` / `testError!` block expected against what happened. */
function checkTestOutcome(failure: VmFailure | undefined, expected: number | undefined): void {
  if (failure === undefined)
    fail('ExpectedAnExeFailure', 'Assertion Failed: the test code did not throw an exception');
  if (expected === undefined) return;
  if (failure.failure === 'AssertionFailedWithErrorCode') {
    if (failure.errorCode === expected) return;
    fail(
      'NotExpectedErrorInTest',
      `Unexpected error code in test. Expected: ${expected}, but got: ${failure.errorCode}.`,
    );
  }
  fail(
    'NotExpectedErrorInTest',
    `Unexpected execution failure in test. Expected error code: ${expected}, but got failure: ${failure.message}.`,
  );
}

function randomSigned256(bytes: Uint8Array): bigint {
  const unsigned = u256.fromBytes(bytes);
  return unsigned + I256_MIN * 2n * (unsigned >> 255n);
}

function runDevInstr(frame: Frame, kind: number): void {
  const ctx = frame.ctx;
  switch (kind) {
    case DEV_TEST_CHECK_START:
      ctx.testEnv = { sourcePosIndex: popInt(frame), testFrame: frame };
      return;
    case DEV_TEST_ERROR_START: {
      const sourcePosIndex = popInt(frame);
      ctx.testEnv = { sourcePosIndex, expectedErrorCode: popInt(frame), testFrame: frame };
      return;
    }
    case DEV_TEST_CHECK_END: {
      const env = ctx.testEnv ?? fail('InvalidTestCheckInstr');
      ctx.testEnv = undefined;
      return checkTestOutcome(env.failure, env.expectedErrorCode);
    }
    case DEV_TEST_EQUAL: {
      const errorCode = popInt(frame);
      const right = frame.pop();
      const left = frame.pop();
      if (valEquals(left, right)) return;
      fail(
        'NotEqualInTest',
        `Assertion Failed: left(${valToString(left)}) is not equal to right(${valToString(right)})`,
        { errorCode },
      );
    }
    case DEV_RANDOM_U256:
      return frame.push(vU256(u256.fromBytes(ctx.randomBytes(32))));
    case DEV_RANDOM_I256:
      return frame.push(vI256(randomSigned256(ctx.randomBytes(32))));
    case DEV_RANDOM_CONTRACT_ADDRESS:
      return frame.push(vAddress(concatBytes(Uint8Array.of(P2C_PREFIX), ctx.randomBytes(32))));
    case DEV_RANDOM_ASSET_ADDRESS:
      return frame.push(vAddress(concatBytes(Uint8Array.of(P2PKH_PREFIX), ctx.randomBytes(32))));
  }
}

const devInstr: Handler = (frame, instr) => {
  if (instr.operand.kind !== 'devInstr') throw new Error('DevInstr has no kind');
  const network = frame.ctx.blockEnv.networkId;
  if (network === MAINNET_NETWORK_ID || network === TESTNET_NETWORK_ID)
    fail('DevInstrIsOnlySupportedOnDevnet');
  runDevInstr(frame, instr.operand.value);
};

export const ENVIRONMENT_HANDLERS: HandlerTable = {
  NetworkId: (frame) => frame.push(vByteVec(Uint8Array.of(frame.ctx.blockEnv.networkId))),
  BlockTimeStamp: (frame) => {
    const millis = frame.ctx.blockEnv.timeStamp;
    if (millis < 0n) fail('NegativeTimeStamp', `Negative timestamp ${millis}`);
    frame.push(vU256(millis));
  },
  BlockTarget: (frame) => {
    const target = frame.ctx.blockEnv.target;
    if (!isU256(target)) fail('InvalidBlockTarget', `Invalid block target ${target}`);
    frame.push(vU256(target));
  },
  BlockHash: (frame) => {
    const hash = frame.ctx.blockEnv.blockHash ?? fail('NoBlockHashAvailable');
    frame.push(vByteVec(hash));
  },
  TxId: (frame) => frame.push(vByteVec(frame.ctx.txEnv.txId)),
  TxInputAddressAt: (frame) => {
    checkScriptFrameForLeman(frame);
    frame.push(vAddress(prevOutputAt(frame, frame.popU256()).lockupScript));
  },
  TxInputsSize: (frame) => {
    checkScriptFrameForLeman(frame);
    frame.push(vU256(BigInt(frame.ctx.txEnv.prevOutputs.length)));
  },
  TxGasPrice: (frame) => frame.push(vU256(frame.ctx.txEnv.gasPrice)),
  TxGasAmount: (frame) => frame.push(vU256(BigInt(frame.ctx.txEnv.gasAmount))),
  TxGasFee: (frame) => frame.push(vU256(frame.ctx.txEnv.gasPrice * BigInt(frame.ctx.txEnv.gasAmount))),
  VerifyAbsoluteLocktime: verifyAbsoluteLocktime,
  VerifyRelativeLocktime: verifyRelativeLocktime,
  Log1: log(1),
  Log2: log(2),
  Log3: log(3),
  Log4: log(4),
  Log5: log(5),
  Log6: log(6),
  Log7: log(7),
  Log8: log(8),
  Log9: log(9),
  DEBUG: debug,
  DevInstr: devInstr,
};
