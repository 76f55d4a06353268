/**
 * The operand stack and the locals, as `Stack.scala` and `VarVector.scala` lay them out: one array of
 * `opStackMaxSize` (1024) values shared by every frame of a run. A callee's locals are reserved on top
 * of its caller's values and its own stack starts after them, so the 1024 limit holds for the whole
 * call chain, and a callee can never pop what its caller pushed (since Leman, or whenever it has
 * locals; before Leman a callee without locals shares its caller's stack as the node's did).
 */
import { fail } from './failure';
import type { Val } from './values';

/** `opStackMaxSize` and `frameStackMaxSize` in `vm/package.scala`. */
export const OP_STACK_MAX_SIZE = 1024;
export const FRAME_STACK_MAX_SIZE = 1024;

export class OpStack {
  constructor(
    private readonly underlying: Val[],
    /** Where this frame's stack begins in the shared array. */
    readonly offset: number,
    private current: number,
    private readonly maxIndex: number,
  ) {}

  static ofCapacity(capacity: number = OP_STACK_MAX_SIZE): OpStack {
    return new OpStack(new Array<Val>(capacity), 0, 0, capacity);
  }

  get size(): number {
    return this.current - this.offset;
  }

  push(v: Val): void {
    if (this.current >= this.maxIndex) fail('StackOverflow');
    this.underlying[this.current++] = v;
  }

  pushAll(values: readonly Val[]): void {
    if (this.current + values.length > this.maxIndex) fail('StackOverflow');
    for (const v of values) this.underlying[this.current++] = v;
  }

  pop(): Val {
    if (this.current - 1 < this.offset) fail('StackUnderflow');
    this.current -= 1;
    return this.underlying[this.current] as Val;
  }

  /** The top `n` values, deepest first (`Stack.pop(n)`). */
  popN(n: number): Val[] {
    if (n > this.size) fail('StackUnderflow');
    if (n < 0) fail('NegativeArgumentInStack');
    const start = this.current - n;
    const values = this.underlying.slice(start, this.current);
    this.current = start;
    return values;
  }

  remove(n: number): void {
    if (n > this.size) fail('StackUnderflow');
    if (n <= 0) fail('NegativeArgumentInStack');
    this.current -= n;
  }

  dupTop(): void {
    if (this.current <= this.offset) fail('StackUnderflow');
    this.push(this.underlying[this.current - 1] as Val);
  }

  swapTopTwo(): void {
    if (this.current - 2 < this.offset) fail('StackUnderflow');
    const top = this.underlying[this.current - 1] as Val;
    this.underlying[this.current - 1] = this.underlying[this.current - 2] as Val;
    this.underlying[this.current - 2] = top;
  }

  /** A new stack over the free space above this one (a Leman callee without locals). */
  remainingStack(): OpStack {
    return new OpStack(this.underlying, this.current, this.current, this.maxIndex);
  }

  /** Reserves `n` slots for a callee's locals and starts its stack after them (`reserveForVars`). */
  reserveForVars(n: number): { readonly locals: Locals; readonly stack: OpStack } {
    const next = this.current + n;
    if (next > this.maxIndex) fail('StackOverflow');
    if (n < 0) fail('NegativeArgumentInStack');
    return {
      locals: new Locals(this.underlying, this.current, n),
      stack: new OpStack(this.underlying, next, next, this.maxIndex),
    };
  }

  /** A copy of this frame's values, bottom first, for a debugger. */
  values(): Val[] {
    return this.underlying.slice(this.offset, this.current);
  }
}

export class Locals {
  constructor(
    private readonly underlying: Val[],
    private readonly start: number,
    readonly length: number,
  ) {}

  static readonly empty = new Locals([], 0, 0);

  private check(index: number): void {
    if (index < 0 || index >= this.length) {
      fail('InvalidVarIndex', `Invalid var index: ${index}, max index is: ${this.length - 1}`);
    }
  }

  get(index: number): Val {
    this.check(index);
    return this.underlying[this.start + index] as Val;
  }

  set(index: number, v: Val): void {
    this.check(index);
    this.underlying[this.start + index] = v;
  }

  values(): Val[] {
    return this.underlying.slice(this.start, this.start + this.length);
  }
}
