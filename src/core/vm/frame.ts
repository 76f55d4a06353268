/**
 * One method activation (`Frame.scala`): its code object, method, pc, operand stack and locals, and
 * where its return values go. The typed pops fail with the node's `InvalidType` text.
 */
import { addressFromContractId, bytesToHex } from '../protocol';
import type { BalanceState } from './balances';
import type { ExecutionContext } from './context';
import type { Method } from './decode';
import { fail } from './failure';
import { isForkEnabled } from './forks';
import { Locals, type OpStack } from './stack';
import { vBool, valToString, type Val, type ValOf, type ValType } from './values';

/** What a frame runs: a script (no contract id) or a contract (`ContractObject`). */
export interface CodeObject {
  readonly methods: readonly Method[];
  /** The contract id (32 bytes); absent for a TxScript or an asset script. */
  readonly contractId?: Uint8Array;
}

export class Frame {
  pc = 0;
  /** The frame that called this one (`callerFrameOpt`); undefined for the entry frame. */
  callerFrame: Frame | undefined;
  /** Assets this frame may use (`balanceStateOpt`); only stateful frames of payable methods have them. */
  balanceState: BalanceState | undefined;

  constructor(
    readonly ctx: ExecutionContext,
    readonly obj: CodeObject,
    readonly methodIndex: number,
    readonly method: Method,
    readonly opStack: OpStack,
    readonly locals: Locals,
    readonly returnTo: (values: Val[]) => void,
  ) {}

  get isScript(): boolean {
    return this.obj.contractId === undefined;
  }

  get contractIdHex(): string | undefined {
    return this.obj.contractId === undefined ? undefined : bytesToHex(this.obj.contractId);
  }

  /** The base58 address of the running contract, for failure texts; undefined in a script. */
  contractAddress(): string | undefined {
    const id = this.contractIdHex;
    return id === undefined ? undefined : addressFromContractId(id);
  }

  /** `getBalanceState`: a frame without assets fails with `NoBalanceAvailable`. */
  getBalanceState(): BalanceState {
    return this.balanceState ?? fail('NoBalanceAvailable');
  }

  /** `offsetPC`: the target must lie inside the method; the step then advances past it. */
  offsetPC(offset: number): void {
    const next = this.pc + offset;
    if (next < 0 || next >= this.method.instrs.length) fail('InvalidInstrOffset');
    this.pc = next;
  }

  complete(): void {
    this.pc = this.method.instrs.length;
  }

  push(v: Val): void {
    this.opStack.push(v);
  }

  pop(): Val {
    return this.opStack.pop();
  }

  popOf<T extends ValType>(type: T): ValOf<T> {
    const v = this.opStack.pop();
    if (v.type !== type) fail('InvalidType', `Invalid type, expected: ${type}, got: ${valToString(v)}`);
    return v as ValOf<T>;
  }

  popBool(): boolean {
    return this.popOf('Bool').value;
  }

  popI256(): bigint {
    return this.popOf('I256').value;
  }

  popU256(): bigint {
    return this.popOf('U256').value;
  }

  popByteVec(): Uint8Array {
    return this.popOf('ByteVec').value;
  }

  popAddress(): Uint8Array {
    return this.popOf('Address').value;
  }
}

/**
 * `Frame.build`: a frame for `method` with its arguments already taken. The locals are the arguments
 * followed by `False` in every other slot (the node fills them with `Val.False`, whatever their type).
 */
export function buildFrame(
  ctx: ExecutionContext,
  obj: CodeObject,
  methodIndex: number,
  method: Method,
  args: readonly Val[],
  stack: OpStack,
  returnTo: (values: Val[]) => void,
): Frame {
  if (args.length !== method.argsLength) {
    fail(
      'InvalidMethodArgLength',
      `Invalid number of method arguments, got: ${args.length}, expect: ${method.argsLength}`,
    );
  }
  if (method.localsLength === 0) {
    const own = isForkEnabled(ctx.hardFork, 'Leman') ? stack.remainingStack() : stack;
    return new Frame(ctx, obj, methodIndex, method, own, Locals.empty, returnTo);
  }
  const { locals, stack: own } = stack.reserveForVars(method.localsLength);
  for (let i = 0; i < method.localsLength; i++) locals.set(i, args[i] ?? vBool(false));
  return new Frame(ctx, obj, methodIndex, method, own, locals, returnTo);
}

/** `getMethod`: the node's `InvalidMethodIndex` text when the index is past the last method. */
export function methodAt(obj: CodeObject, index: number): Method {
  const method = obj.methods[index];
  if (method === undefined) {
    fail('InvalidMethodIndex', `Invalid method index ${index}, method length: ${obj.methods.length}`);
  }
  return method;
}
