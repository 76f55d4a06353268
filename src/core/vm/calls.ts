/**
 * Calls between stateful frames (`StatefulFrame` in `Frame.scala`, `StatefulVM` in `VM.scala`): which
 * assets a callee gets (`getNewFrameBalancesState`), the checks of an external call (the caller pushes
 * the return and argument counts it expects, since Leman), and how a finished frame's assets merge
 * back into its caller (`switchBackFrame`, `mergeBack`) or, for the last frame, into the outputs.
 */
import { bytesToHex } from '../protocol';
import { BalanceState, type Balances } from './balances';
import type { Method } from './decode';
import { fail } from './failure';
import type { CodeObject, Frame } from './frame';
import { isForkEnabled } from './forks';
import { toInt32 } from './numeric';
import { cleanBalances } from './settlement';
import { StatefulContext, contractIdOfKey, p2cKey } from './statefulContext';

/** The stateful context of a frame; a stateless run (an asset script) has none. */
export function statefulOf(frame: Frame): StatefulContext {
  if (!(frame.ctx instanceof StatefulContext)) fail('ExpectStatefulFrame');
  return frame.ctx;
}

/** `popContractId`: a ByteVec of exactly 32 bytes. */
export function popContractId(frame: Frame): string {
  const bytes = frame.popByteVec();
  if (bytes.length !== 32)
    fail('InvalidContractId', `Invalid contract ID: expected 32 bytes, received ${bytesToHex(bytes)}`);
  return bytesToHex(bytes);
}

function contractAssets(
  ctx: StatefulContext,
  state: BalanceState,
  obj: CodeObject,
  method: Method,
  index: number,
  approved: boolean,
): BalanceState | undefined {
  const contractId = obj.contractId === undefined ? undefined : bytesToHex(obj.contractId);
  if (contractId === undefined) return approved ? state : undefined;
  if (method.useContractAssets) {
    const balances = ctx.useContractAssets(contractId, index);
    return state.remaining.add(p2cKey(contractId), balances) ? state : undefined;
  }
  if (method.usePayToContractOnly) {
    ctx.prepareForPayToContractOnly(contractId);
    return state;
  }
  return approved ? state : undefined;
}

/** `getNewFrameBalancesState`: the approved assets move to a payable callee, plus its own if it asks. */
export function newFrameBalanceState(
  caller: Frame,
  obj: CodeObject,
  method: Method,
  index: number,
): BalanceState | undefined {
  const ctx = statefulOf(caller);
  if (!isForkEnabled(ctx.hardFork, 'Leman')) {
    if (!method.usePreapprovedAssets) return undefined;
    const next = caller.getBalanceState().useApproved();
    if (obj.contractId !== undefined) {
      const id = bytesToHex(obj.contractId);
      next.remaining.add(p2cKey(id), ctx.useContractAssets(id, index));
    }
    return next;
  }
  if (method.usePreapprovedAssets) {
    return contractAssets(ctx, caller.getBalanceState().useApproved(), obj, method, index, true);
  }
  if (method.useContractAssets || method.usePayToContractOnly) {
    return contractAssets(ctx, new BalanceState(), obj, method, index, false);
  }
  return undefined;
}

/** `checkLength` of an external call: since Leman the caller states the count it expects. */
export function checkExternalLength(frame: Frame, expected: number, what: 'return' | 'arg'): void {
  if (!isForkEnabled(frame.ctx.hardFork, 'Leman')) return;
  const raw = frame.popU256();
  const got = toInt32(raw);
  if (got === undefined) fail(what === 'return' ? 'InvalidReturnLength' : 'InvalidArgLength');
  if (got === expected) return;
  if (what === 'return') {
    fail(
      'InvalidExternalMethodReturnLength',
      `Invalid number of external method return values, got: ${got}, expect: ${expected}`,
    );
  }
  fail(
    'InvalidExternalMethodArgLength',
    `Invalid number of external method arguments, got: ${got}, expect: ${expected}`,
  );
}

/** `chainCallerOutputs` (Danube): what a contract paid to the tx's callers is usable by the script. */
export function chainCallerOutputs(ctx: StatefulContext, state: BalanceState | undefined): void {
  if (state === undefined) return;
  const callers = [...new Set(ctx.txEnv.prevOutputs.map((o) => bytesToHex(o.lockupScript)))];
  for (const caller of callers) {
    const outputs = ctx.outputBalances.useForChainedInput(caller);
    if (outputs !== undefined && !state.remaining.add(caller, outputs)) fail('ChainCallerOutputsFailed');
  }
}

function mergeBack(
  ctx: StatefulContext,
  previous: Balances,
  current: Balances,
  frame: Frame,
  isApproved: boolean,
): boolean {
  const fork = ctx.hardFork;
  const selfId = frame.obj.contractId === undefined ? undefined : bytesToHex(frame.obj.contractId);
  for (const [key, balances] of current.all) {
    const keep =
      isForkEnabled(fork, 'Rhone') && !isApproved && selfId !== undefined && contractIdOfKey(key) === selfId;
    if (balances.scopeDepth <= 0) {
      if (!keep && !ctx.outputBalances.add(key, balances)) return false;
    } else if (isForkEnabled(fork, 'Danube') && keep && frame.method.useContractAssets) {
      continue;
    } else if (!previous.add(key, balances)) {
      return false;
    }
  }
  return true;
}

/** `switchBackFrame`: the callee's remaining and approved assets go back to its caller. */
export function switchBack(ctx: StatefulContext, current: Frame, previous: Frame): void {
  const mine = current.balanceState;
  if (mine === undefined) return;
  const sinceLeman = isForkEnabled(ctx.hardFork, 'Leman');
  if (!sinceLeman && !(current.method.usePreapprovedAssets || current.method.useContractAssets)) return;
  const theirs = previous.balanceState;
  if (theirs === undefined && !sinceLeman) fail('BalanceErrorWhenSwitchingBackFrame');
  const target = theirs?.remaining ?? ctx.outputBalances;
  const ok =
    mergeBack(ctx, target, mine.remaining, current, false) &&
    mergeBack(ctx, target, mine.approved, current, true);
  if (!ok) fail('BalanceErrorWhenSwitchingBackFrame');
}

/** `completeLastFrame`: state updates are charged, then the balances are settled into outputs. */
export function completeLastFrame(ctx: StatefulContext, last: Frame): void {
  ctx.updateContractStates();
  if (
    last.method.usePreapprovedAssets ||
    last.method.useContractAssets ||
    isForkEnabled(ctx.hardFork, 'Leman')
  ) {
    cleanBalances(ctx);
  }
}
