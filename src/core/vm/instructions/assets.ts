/**
 * Asset instructions (`Instr.scala`: `ApproveAlph`, `ApproveToken`, `AlphRemaining`, `TokenRemaining`,
 * `IsPaying`, the six `Transfer*`, `BurnToken`, `LockApprovedAssets`, `PayGasFee`). Each pays its
 * `GasBalance` (30) before it runs. Since Rhone a zero amount approves or transfers nothing and
 * cannot fail; since Leman a token id of 32 zero bytes means ALPH.
 */
import { addressFromLockupScript, bytesToHex, hexToBytes } from '../../protocol';
import type { BalanceState } from '../balances';
import { statefulOf } from '../calls';
import { fail } from '../failure';
import type { Frame } from '../frame';
import { isForkEnabled } from '../forks';
import { generateOutput, toTxOutputs } from '../settlement';
import { p2cKey } from '../statefulContext';
import { vBool, vU256 } from '../values';
import type { Handler, HandlerTable } from './handler';

export const ALPH_TOKEN_ID = '00'.repeat(32);
const LONG_MAX = (1n << 63n) - 1n;

/** `TokenId.from`: exactly 32 bytes. */
export function popTokenId(frame: Frame): string {
  const bytes = frame.popByteVec();
  if (bytes.length !== 32)
    fail('InvalidTokenId', `Invalid token ID: expected 32 bytes, received ${bytesToHex(bytes)}`);
  return bytesToHex(bytes);
}

function notEnough(lockup: string, token: string, expected: bigint, got: bigint): never {
  const tokenText = token === ALPH_TOKEN_ID ? 'ALPH' : token;
  const address = addressFromLockupScript(hexToBytes(lockup));
  fail(
    'NotEnoughApprovedBalance',
    `Not enough approved balance for address ${address}, tokenId: ${tokenText}, expected: ${expected}, got: ${got}`,
  );
}

const isAlph = (frame: Frame, token: string): boolean =>
  isForkEnabled(frame.ctx.hardFork, 'Leman') && token === ALPH_TOKEN_ID;
const skipZero = (frame: Frame, amount: bigint): boolean =>
  amount === 0n && isForkEnabled(frame.ctx.hardFork, 'Rhone');

function approve(frame: Frame, state: BalanceState, from: string, token: string, amount: bigint): void {
  if (skipZero(frame, amount)) return;
  if (isAlph(frame, token)) {
    if (!state.approveAlph(from, amount)) notEnough(from, token, amount, state.alphRemaining(from) ?? 0n);
  } else if (!state.approveToken(from, token, amount)) {
    notEnough(from, token, amount, state.tokenRemaining(from, token) ?? 0n);
  }
}

const approveAlph: Handler = (frame) => {
  const amount = frame.popU256();
  const from = bytesToHex(frame.popAddress());
  const state = frame.getBalanceState();
  if (skipZero(frame, amount)) return;
  if (!state.approveAlph(from, amount))
    notEnough(from, ALPH_TOKEN_ID, amount, state.alphRemaining(from) ?? 0n);
};

const approveToken: Handler = (frame) => {
  const amount = frame.popU256();
  const token = popTokenId(frame);
  const from = bytesToHex(frame.popAddress());
  approve(frame, frame.getBalanceState(), from, token, amount);
};

/** Before Rhone a lockup (or token) without an entry fails; since, it has zero. */
function remaining(frame: Frame, amount: bigint | undefined, missing: () => never): void {
  if (amount === undefined && !isForkEnabled(frame.ctx.hardFork, 'Rhone')) missing();
  frame.push(vU256(amount ?? 0n));
}

const alphRemaining: Handler = (frame) => {
  const address = frame.popAddress();
  const state = frame.getBalanceState();
  remaining(frame, state.alphRemaining(bytesToHex(address)), () =>
    fail('NoAlphBalanceForTheAddress', `NoAlphBalanceForTheAddress(${addressFromLockupScript(address)})`),
  );
};

const tokenRemaining: Handler = (frame) => {
  const token = frame.popByteVec();
  const address = frame.popAddress();
  if (token.length !== 32)
    fail('InvalidTokenId', `Invalid token ID: expected 32 bytes, received ${bytesToHex(token)}`);
  const id = bytesToHex(token);
  const state = frame.getBalanceState();
  const lockup = bytesToHex(address);
  const amount = isAlph(frame, id) ? state.alphRemaining(lockup) : state.tokenRemaining(lockup, id);
  remaining(frame, amount, () =>
    id === ALPH_TOKEN_ID
      ? fail('NoAlphBalanceForTheAddress', `NoAlphBalanceForTheAddress(${addressFromLockupScript(address)})`)
      : fail(
          'NoTokenBalanceForTheAddress',
          `NoTokenBalanceForTheAddress(${id},${addressFromLockupScript(address)})`,
        ),
  );
};

const isPaying: Handler = (frame) => {
  const address = frame.popAddress();
  frame.push(vBool(frame.getBalanceState().isPaying(bytesToHex(address))));
};

/** The running contract's lockup (`getContractLockupScript`); a script has none. */
function selfLockup(frame: Frame): string {
  const id = frame.obj.contractId ?? fail('ExpectAContract');
  return p2cKey(bytesToHex(id));
}

/** `getToAddressFromStack`: since Leman a contract may be paid only while it is on the call stack. */
function popRecipient(frame: Frame): string {
  const lockup = frame.popAddress();
  if (lockup[0] === 3 && isForkEnabled(frame.ctx.hardFork, 'Leman'))
    checkInCallerTrace(frame, bytesToHex(lockup.subarray(1)));
  return bytesToHex(lockup);
}

/** `checkPayToContractAddressInCallerTrace`: some frame of the call chain runs that contract. */
export function checkInCallerTrace(frame: Frame, contractId: string): void {
  for (let f: Frame | undefined = frame; f !== undefined; f = f.callerFrame) {
    if (f.obj.contractId === undefined) break;
    if (bytesToHex(f.obj.contractId) === contractId) return;
  }
  fail(
    'PayToContractAddressNotInCallerTrace',
    `Pay to contract address ${addressFromLockupScript(hexToBytes(p2cKey(contractId)))} is not allowed when this contract address is not in the call stack`,
  );
}

/** Moves ALPH (token undefined) or a token from a frame's remaining assets to the outputs. */
function move(frame: Frame, from: string, to: string, token: string | undefined, amount: bigint): void {
  if (skipZero(frame, amount)) return;
  const state = frame.getBalanceState();
  const outputs = statefulOf(frame).outputBalances;
  if (token === undefined) {
    if (!state.remaining.subAlph(from, amount))
      notEnough(from, ALPH_TOKEN_ID, amount, state.alphRemaining(from) ?? 0n);
    if (!outputs.addAlph(to, amount)) fail('BalanceOverflow');
    return;
  }
  if (!state.remaining.subToken(from, token, amount)) {
    notEnough(from, token, amount, state.tokenRemaining(from, token) ?? 0n);
  }
  if (!outputs.addToken(to, token, amount)) fail('BalanceOverflow');
}

function checkSelfTransfer(frame: Frame, from: string, to: string): void {
  if (isForkEnabled(frame.ctx.hardFork, 'Danube') && from === to) fail('InvalidSelfTransfer');
}

type Ends = (frame: Frame) => { from: string; to: string; self: boolean };

/** Operands are popped as the node pops them: amount, [token], recipient, sender. */
function transfer(withToken: boolean, ends: Ends): Handler {
  return (frame) => {
    const amount = frame.popU256();
    const token = withToken ? popTokenId(frame) : ALPH_TOKEN_ID;
    const { from, to, self } = ends(frame);
    if (self) checkSelfTransfer(frame, from, to);
    move(frame, from, to, !withToken || isAlph(frame, token) ? undefined : token, amount);
  };
}

const plain: Ends = (frame) => {
  const to = popRecipient(frame);
  return { to, from: bytesToHex(frame.popAddress()), self: false };
};
const fromSelf: Ends = (frame) => {
  const to = popRecipient(frame);
  return { to, from: selfLockup(frame), self: true };
};
const toSelf: Ends = (frame) => {
  const to = selfLockup(frame);
  return { to, from: bytesToHex(frame.popAddress()), self: true };
};

const burnToken: Handler = (frame) => {
  const amount = frame.popU256();
  const token = popTokenId(frame);
  const from = bytesToHex(frame.popAddress());
  const state = frame.getBalanceState();
  if (token === ALPH_TOKEN_ID) fail('BurningAlphNotAllowed');
  if (!state.remaining.subToken(from, token, amount))
    notEnough(from, token, amount, state.tokenRemaining(from, token) ?? 0n);
};

const lockApprovedAssets: Handler = (frame) => {
  const lockTime = frame.popU256();
  if (lockTime > LONG_MAX) fail('LockTimeOverflow');
  const blockTime = frame.ctx.blockEnv.timeStamp;
  if (lockTime <= blockTime)
    fail('InvalidLockTime', `InvalidLockTime(TimeStamp(${lockTime}ms),TimeStamp(${blockTime}ms))`);
  const lockup = frame.popAddress();
  if (lockup[0] === 3)
    fail('InvalidAssetAddress', `Invalid asset address ${addressFromLockupScript(lockup)}`);
  const state = frame.getBalanceState();
  const key = bytesToHex(lockup);
  const danube = isForkEnabled(frame.ctx.hardFork, 'Danube');
  const approved = danube ? state.approved.useAllMerged() : state.approved.useAll(key);
  if (approved === undefined) {
    fail(
      'NoAssetsApproved',
      danube ? 'No assets approved' : `No assets approved from address ${addressFromLockupScript(lockup)}`,
    );
  }
  const ctx = statefulOf(frame);
  for (const output of toTxOutputs(key, approved, ctx.hardFork, lockTime)) generateOutput(ctx, output);
};

/** `PayGasFee` (Rhone): a payer covers part of the tx fee, which goes back to the first input later. */
const payGasFee: Handler = (frame) => {
  const state = frame.getBalanceState();
  const amount = frame.popU256();
  const payer = bytesToHex(frame.popAddress());
  const ctx = statefulOf(frame);
  if (ctx.gasFee - ctx.gasFeePaid < amount) fail('GasOverPaid');
  if (!state.remaining.subAlph(payer, amount))
    notEnough(payer, ALPH_TOKEN_ID, amount, state.alphRemaining(payer) ?? 0n);
  ctx.gasFeePaid += amount;
};

export const ASSET_HANDLERS: HandlerTable = {
  ApproveAlph: approveAlph,
  ApproveToken: approveToken,
  AlphRemaining: alphRemaining,
  TokenRemaining: tokenRemaining,
  IsPaying: isPaying,
  TransferAlph: transfer(false, plain),
  TransferAlphFromSelf: transfer(false, fromSelf),
  TransferAlphToSelf: transfer(false, toSelf),
  TransferToken: transfer(true, plain),
  TransferTokenFromSelf: transfer(true, fromSelf),
  TransferTokenToSelf: transfer(true, toSelf),
  BurnToken: burnToken,
  LockApprovedAssets: lockApprovedAssets,
  PayGasFee: payGasFee,
};
