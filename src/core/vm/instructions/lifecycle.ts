/**
 * Contract lifecycle (`Instr.scala`: `ContractFactory.__runWith` and its eleven create variants,
 * `CreateMapEntry`, `ContractExists`, `DestroySelf`, `MigrateSimple`, `MigrateWithFields`,
 * `SubContractId`, `SubContractIdOf`; `StatefulFrame.createContract` / `destroyContract` /
 * `migrateContract` in `Frame.scala`).
 *
 * A create pops, from the top: the token issuance (amount, and the recipient for the `Transfer`
 * forms), the mutable fields, the immutable fields (since Leman), the code (bytes, or a contract id to
 * copy), and for a sub-contract its path. The new id is Blake2b(txId ‖ u32be(next output index)) with
 * the last byte set to the group, or for a sub-contract the double Blake2b of parent id ‖ path.
 */
import {
  ProtocolError,
  Reader,
  addressFromLockupScript,
  bytesToHex,
  concatBytes,
  contractIdFromTx,
  contractIdFromTxBeforeLeman,
  equalBytes,
  hexToBytes,
  subContractId,
} from '../../protocol';
import { BalancesPerLockup } from '../balances';
import { popContractId, statefulOf } from '../calls';
import { ContractObject } from '../contractObject';
import { decodeContract, type Contract } from '../decode';
import { fail } from '../failure';
import type { Frame } from '../frame';
import { isForkEnabled } from '../forks';
import { gasHash, gasSubContractId } from '../gas';
import { coverExtraAlph, minimalContractDeposit } from '../settlement';
import { p2cKey, type StatefulContext, type TokenIssuance } from '../statefulContext';
import { readVal, vAddress, vByteVec, vBool, vI256, type Val } from '../values';
import { checkInCallerTrace } from './assets';
import { NULL_CONTRACT_ADDRESS, callerOf, selfId } from './contractState';
import type { Handler, HandlerTable } from './handler';
import { encodeMapEntryContract } from './mapEntry';

type Issuance = 'none' | 'issue' | 'issueAndTransfer';
const CREATE_EVENT_INDEX = -1n;
const DESTROY_EVENT_INDEX = -2n;
/** "ALPH": an immutable last field with this prefix names the standard interface of the new contract. */
const INTERFACE_PREFIX = Uint8Array.of(0x41, 0x4c, 0x50, 0x48);

/** `createContractEventId` / `destroyContractEventId`: zeros, then the event index, then the group. */
export function systemEventContractId(eventIndex: number, group: number): string {
  const id = new Uint8Array(32);
  id[30] = eventIndex & 0xff;
  id[31] = group;
  return bytesToHex(id);
}

/** `popFields`: a serialized `AVector[Val]`, any serde error being `SerdeErrorCreateContract`. */
export function popFields(frame: Frame): Val[] {
  const bytes = frame.popByteVec();
  try {
    const r = new Reader(bytes);
    const count = r.length('fields');
    const fields: Val[] = [];
    for (let i = 0; i < count; i++) fields.push(readVal(r));
    if (!r.atEnd()) throw new ProtocolError('redundant bytes after the fields');
    return fields;
  } catch (error) {
    if (error instanceof ProtocolError)
      fail('SerdeErrorCreateContract', `SerdeErrorCreateContract(${error.message})`);
    throw error;
  }
}

function decodeNewCode(bytes: Uint8Array): Contract {
  try {
    return decodeContract(bytes);
  } catch (error) {
    if (error instanceof ProtocolError)
      fail('SerdeErrorCreateContract', `SerdeErrorCreateContract(${error.message})`);
    throw error;
  }
}

function popIssuance(frame: Frame, kind: Issuance): TokenIssuance | undefined {
  if (kind === 'none') return undefined;
  if (kind === 'issue') return { amount: frame.popU256() };
  const transferTo = frame.popAddress();
  if (transferTo[0] === 3)
    fail('InvalidAssetAddress', `Invalid asset address ${addressFromLockupScript(transferTo)}`);
  return { amount: frame.popU256(), transferTo };
}

/** `ContractFactory.checkInactiveInstructions`: before Danube no new code may hold a Danube instruction. */
export function checkInactiveInstrs(ctx: StatefulContext, contract: Contract): void {
  if (isForkEnabled(ctx.hardFork, 'Danube')) return;
  for (const method of contract.methods) {
    const danube = method.instrs.find((i) => i.info.since === 'Danube');
    if (danube !== undefined) fail('InactiveInstr', `InactiveInstr(${danube.name})`);
  }
}

interface NewCode {
  readonly bytecode: Uint8Array;
  readonly contract: Contract;
}

function prepareCode(frame: Frame, ctx: StatefulContext, copy: boolean): NewCode {
  if (copy) {
    const obj = ctx.loadContract(popContractId(frame));
    return { bytecode: obj.bytecode, contract: obj.code };
  }
  const bytecode = frame.popByteVec();
  const contract = decodeNewCode(bytecode);
  ctx.checkAssetsModifier(contract);
  ctx.chargeContractCodeSize(bytecode.length);
  ctx.checkContract(contract);
  return { bytecode, contract };
}

function newContractId(frame: Frame, ctx: StatefulContext, sub: boolean): string {
  if (!sub && !isForkEnabled(ctx.hardFork, 'Leman'))
    return contractIdFromTxBeforeLeman(bytesToHex(ctx.txEnv.txId), ctx.nextOutputIndex);
  if (!sub) return contractIdFromTx(bytesToHex(ctx.txEnv.txId), ctx.nextOutputIndex, ctx.group);
  const parent = selfId(frame);
  const path = frame.popByteVec();
  ctx.chargeGas(gasHash(32 + path.length) + gasHash(32));
  return subContractId(bytesToHex(parent), bytesToHex(path), ctx.group);
}

/** `getInitialBalancesForNewContract`: the approved assets; since Danube topped up to the deposit. */
function initialBalances(frame: Frame, ctx: StatefulContext): BalancesPerLockup {
  const danube = isForkEnabled(ctx.hardFork, 'Danube');
  const hasApproved = (frame.balanceState?.approved.all.length ?? 0) > 0;
  const balances =
    !danube || hasApproved
      ? (frame.getBalanceState().approved.useAllMerged() ?? fail('InvalidBalances'))
      : new BalancesPerLockup();
  if (danube) {
    const lacking = minimalContractDeposit(ctx.hardFork) - balances.alph;
    if (lacking > 0n) coverExtraAlph(ctx, balances, lacking);
  }
  return balances;
}

/** `contractInterfaceIdGuessed`: the last immutable field's bytes after an "ALPH" prefix. */
function interfaceId(immFields: readonly Val[]): Val {
  const last = immFields[immFields.length - 1];
  if (last?.type !== 'ByteVec' || last.value.length < 4) return vByteVec(new Uint8Array());
  const prefixed = equalBytes(last.value.subarray(0, 4), INTERFACE_PREFIX);
  return vByteVec(prefixed ? last.value.subarray(4) : new Uint8Array());
}

function create(
  frame: Frame,
  ctx: StatefulContext,
  id: string,
  code: NewCode,
  imm: Val[],
  mut: Val[],
  sub: boolean,
  issuance?: TokenIssuance,
): void {
  if (isForkEnabled(ctx.hardFork, 'Leman') && id === '00'.repeat(32)) fail('ZeroContractId');
  const balances = initialBalances(frame, ctx);
  ctx.createContract(id, code.bytecode, code.contract, imm, balances, mut, issuance);
  const parent = sub ? vAddress(concatBytes(Uint8Array.of(3), selfId(frame))) : vByteVec(new Uint8Array());
  const fields = [vI256(CREATE_EVENT_INDEX), vAddress(hexToBytes(p2cKey(id))), parent, interfaceId(imm)];
  ctx.writeSystemLog(systemEventContractId(-1, ctx.group), fields);
}

function factory(copy: boolean, sub: boolean, issuance: Issuance): Handler {
  return (frame) => {
    const ctx = statefulOf(frame);
    const tokens = popIssuance(frame, issuance);
    const mut = popFields(frame);
    const imm = isForkEnabled(ctx.hardFork, 'Leman') ? popFields(frame) : [];
    ctx.chargeFieldSize([...imm, ...mut]);
    const code = prepareCode(frame, ctx, copy);
    checkInactiveInstrs(ctx, code.contract);
    const id = newContractId(frame, ctx, sub);
    create(frame, ctx, id, code, imm, mut, sub, tokens);
    if (isForkEnabled(ctx.hardFork, 'Leman')) frame.push(vByteVec(hexToBytes(id)));
  };
}

/** `CreateMapEntry(imm, mut)` (Rhone): a generated sub-contract that only its parent may use. */
const createMapEntry: Handler = (frame, instr) => {
  if (instr.operand.kind !== 'twoBytes') throw new Error('CreateMapEntry has no field counts');
  const [immCount, mutCount] = instr.operand.value;
  const ctx = statefulOf(frame);
  const mut = frame.opStack.popN(mutCount);
  const imm = frame.opStack.popN(immCount);
  ctx.chargeFieldSize([...imm, ...mut]);
  const bytecode = encodeMapEntryContract(immCount, mutCount);
  ctx.chargeContractCodeSize(bytecode.length);
  const code = { bytecode, contract: decodeContract(bytecode) };
  const id = newContractId(frame, ctx, true);
  create(frame, ctx, id, code, imm, mut, true);
};

/** `checkNonRecursive` from the caller: the contract may not be running further up the stack. */
function checkNotInCallers(
  frame: Frame,
  id: Uint8Array,
  failure: 'ContractDestructionShouldNotBeCalledFromSelf' | 'UnexpectedRecursiveCallInMigration',
): void {
  for (let f: Frame | undefined = callerOf(frame); f?.obj.contractId !== undefined; f = f.callerFrame) {
    if (equalBytes(f.obj.contractId, id)) fail(failure);
  }
}

/** `runReturn` inside the instruction, then `pc -= 1`: the step's advance lands on the implicit return. */
function returnNow(frame: Frame): void {
  frame.returnTo(frame.opStack.popN(frame.method.returnLength));
  frame.complete();
  frame.pc -= 1;
}

const destroySelf: Handler = (frame) => {
  const ctx = statefulOf(frame);
  let refund = frame.popAddress();
  if (equalBytes(refund, NULL_CONTRACT_ADDRESS) && isForkEnabled(ctx.hardFork, 'Danube'))
    refund = ctx.firstTxInputLockup();
  if (refund[0] === 3) {
    if (!isForkEnabled(ctx.hardFork, 'Leman')) fail('InvalidAddressTypeInContractDestroy');
    checkInCallerTrace(frame, bytesToHex(refund.subarray(1)));
  }
  const id = selfId(frame);
  checkNotInCallers(frame, id, 'ContractDestructionShouldNotBeCalledFromSelf');
  const assets = frame.getBalanceState().remaining.useAll(p2cKey(bytesToHex(id))) ?? fail('InvalidBalances');
  ctx.destroyContract(bytesToHex(id), assets, refund);
  ctx.writeSystemLog(systemEventContractId(-2, ctx.group), [
    vI256(DESTROY_EVENT_INDEX),
    vAddress(concatBytes(Uint8Array.of(3), id)),
  ]);
  returnNow(frame);
};

function migrate(withFields: boolean): Handler {
  return (frame) => {
    const ctx = statefulOf(frame);
    const mut = withFields ? popFields(frame) : undefined;
    const imm = withFields ? popFields(frame) : undefined;
    const bytecode = frame.popByteVec();
    ctx.chargeContractCodeSize(bytecode.length);
    const contract = decodeNewCode(bytecode);
    checkInactiveInstrs(ctx, contract);
    const obj = frame.obj instanceof ContractObject ? frame.obj : fail('ExpectAContract');
    checkNotInCallers(frame, obj.contractId, 'UnexpectedRecursiveCallInMigration');
    ctx.migrateContract(obj, bytecode, contract, imm, mut);
    returnNow(frame);
  };
}

function subContractIdOf(ofSelf: boolean): Handler {
  return (frame) => {
    const ctx = statefulOf(frame);
    const path = frame.popByteVec();
    const parent = ofSelf ? bytesToHex(selfId(frame)) : popContractId(frame);
    ctx.chargeGas(gasSubContractId(path.length));
    frame.push(vByteVec(hexToBytes(subContractId(parent, bytesToHex(path), ctx.group))));
  };
}

export const LIFECYCLE_HANDLERS: HandlerTable = {
  CreateContract: factory(false, false, 'none'),
  CreateContractWithToken: factory(false, false, 'issue'),
  CreateContractAndTransferToken: factory(false, false, 'issueAndTransfer'),
  CopyCreateContract: factory(true, false, 'none'),
  CopyCreateContractWithToken: factory(true, false, 'issue'),
  CopyCreateContractAndTransferToken: factory(true, false, 'issueAndTransfer'),
  CreateSubContract: factory(false, true, 'none'),
  CreateSubContractWithToken: factory(false, true, 'issue'),
  CreateSubContractAndTransferToken: factory(false, true, 'issueAndTransfer'),
  CopyCreateSubContract: factory(true, true, 'none'),
  CopyCreateSubContractWithToken: factory(true, true, 'issue'),
  CopyCreateSubContractAndTransferToken: factory(true, true, 'issueAndTransfer'),
  CreateMapEntry: createMapEntry,
  ContractExists: (frame) => {
    const ctx = statefulOf(frame);
    frame.push(vBool(ctx.worldState.getContract(popContractId(frame)) !== undefined));
  },
  DestroySelf: destroySelf,
  MigrateSimple: migrate(false),
  MigrateWithFields: migrate(true),
  SubContractId: subContractIdOf(true),
  SubContractIdOf: subContractIdOf(false),
};
