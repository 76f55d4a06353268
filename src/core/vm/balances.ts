/**
 * Asset balances as the node's VM keeps them while a transaction runs (`MutBalancesPerLockup.scala`,
 * `MutBalances.scala`, `MutBalanceState.scala`): per lockup script, an ALPH amount and token amounts;
 * per frame, what is `remaining` (usable now) and what is `approved` (handed to the next call).
 *
 * Lockup scripts and token ids are keyed by their hex so that equal bytes meet in one entry; the list
 * keeps the node's insertion order, which decides the order of the generated outputs. Every operation
 * that the node writes as `Option` returns false where the node returns None (an underflow, an
 * overflow past U256, a missing entry), and changes nothing in that case unless the node does too.
 */
import { bytesToHex, hexToBytes } from '../protocol';
import { U256_MAX } from './numeric';

const fitsU256 = (v: bigint): boolean => v >= 0n && v <= U256_MAX;

export class BalancesPerLockup {
  constructor(
    public alph: bigint = 0n,
    readonly tokens: Map<string, bigint> = new Map(),
    /** How many `useApproved` hand-overs these assets went through (Danube's merge-back rule). */
    public scopeDepth = 0,
  ) {}

  static of(alph: bigint, tokens: Iterable<readonly [string, bigint]> = []): BalancesPerLockup {
    return new BalancesPerLockup(alph, new Map(tokens));
  }

  copy(scopeDepth = this.scopeDepth): BalancesPerLockup {
    return new BalancesPerLockup(this.alph, new Map(this.tokens), scopeDepth);
  }

  /** `tokenVector`: non-zero tokens sorted by id, as outputs and contract assets list them. */
  tokenVector(): Array<[string, bigint]> {
    return [...this.tokens]
      .filter(([, amount]) => amount !== 0n)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  addAlph(amount: bigint): boolean {
    const sum = this.alph + amount;
    if (!fitsU256(sum)) return false;
    this.alph = sum;
    return true;
  }

  subAlph(amount: bigint): boolean {
    if (this.alph < amount) return false;
    this.alph -= amount;
    return true;
  }

  addToken(id: string, amount: bigint): boolean {
    const sum = (this.tokens.get(id) ?? 0n) + amount;
    if (!fitsU256(sum)) return false;
    this.tokens.set(id, sum);
    return true;
  }

  subToken(id: string, amount: bigint): boolean {
    const current = this.tokens.get(id);
    if (current === undefined || current < amount) return false;
    this.tokens.set(id, current - amount);
    return true;
  }

  /** `add`: as in the node, an overflow part-way leaves what was already added (the tx fails then). */
  add(other: BalancesPerLockup): boolean {
    if (!this.addAlph(other.alph)) return false;
    for (const [id, amount] of other.tokens) if (!this.addToken(id, amount)) return false;
    return true;
  }

  sub(other: BalancesPerLockup): boolean {
    if (!this.subAlph(other.alph)) return false;
    for (const [id, amount] of other.tokens) if (!this.subToken(id, amount)) return false;
    return true;
  }
}

export class Balances {
  readonly all: Array<[string, BalancesPerLockup]> = [];

  get(lockup: string): BalancesPerLockup | undefined {
    return this.all.find(([key]) => key === lockup)?.[1];
  }

  addAlph(lockup: string, amount: bigint): boolean {
    const entry = this.get(lockup);
    if (entry !== undefined) return entry.addAlph(amount);
    this.all.push([lockup, BalancesPerLockup.of(amount)]);
    return true;
  }

  addToken(lockup: string, id: string, amount: bigint): boolean {
    const entry = this.get(lockup);
    if (entry !== undefined) return entry.addToken(id, amount);
    this.all.push([lockup, BalancesPerLockup.of(0n, [[id, amount]])]);
    return true;
  }

  subAlph(lockup: string, amount: bigint): boolean {
    return this.get(lockup)?.subAlph(amount) ?? false;
  }

  subToken(lockup: string, id: string, amount: bigint): boolean {
    return this.get(lockup)?.subToken(id, amount) ?? false;
  }

  add(lockup: string, balances: BalancesPerLockup): boolean {
    const entry = this.get(lockup);
    if (entry !== undefined) return entry.add(balances);
    this.all.push([lockup, balances]);
    return true;
  }

  sub(lockup: string, balances: BalancesPerLockup): boolean {
    return this.get(lockup)?.sub(balances) ?? false;
  }

  /** `use`: hands every entry over one scope deeper and leaves this empty. */
  use(): Balances {
    const next = new Balances();
    for (const [lockup, entry] of this.all) next.all.push([lockup, entry.copy(entry.scopeDepth + 1)]);
    this.all.length = 0;
    return next;
  }

  /** `useAll(lockup)`: removes and returns that lockup's entry. */
  useAll(lockup: string): BalancesPerLockup | undefined {
    const index = this.all.findIndex(([key]) => key === lockup);
    if (index === -1) return undefined;
    return this.all.splice(index, 1)[0]?.[1];
  }

  /** `useAll()`: every entry summed into one (scope depth 0), this left empty; none: undefined. */
  useAllMerged(): BalancesPerLockup | undefined {
    if (this.all.length === 0) return undefined;
    const sum = new BalancesPerLockup();
    for (const [, entry] of this.all) sum.add(entry);
    this.all.length = 0;
    return sum;
  }

  /** `useForChainedInput`: takes a lockup's entry but keeps its place with an empty one. */
  useForChainedInput(lockup: string): BalancesPerLockup | undefined {
    const index = this.all.findIndex(([key]) => key === lockup);
    const entry = this.all[index];
    if (entry === undefined) return undefined;
    this.all[index] = [lockup, new BalancesPerLockup()];
    return entry[1];
  }

  /** `merge`: adds every entry of `other`, then empties it. */
  merge(other: Balances): boolean {
    for (const [lockup, entry] of other.all) if (!this.add(lockup, entry)) return false;
    other.all.length = 0;
    return true;
  }
}

/** `MutBalanceState`: a frame's usable assets and those approved for its next call. */
export class BalanceState {
  constructor(
    readonly remaining: Balances = new Balances(),
    readonly approved: Balances = new Balances(),
  ) {}

  approveAlph(lockup: string, amount: bigint): boolean {
    return this.remaining.subAlph(lockup, amount) && this.approved.addAlph(lockup, amount);
  }

  approveToken(lockup: string, id: string, amount: bigint): boolean {
    return this.remaining.subToken(lockup, id, amount) && this.approved.addToken(lockup, id, amount);
  }

  alphRemaining(lockup: string): bigint | undefined {
    return this.remaining.get(lockup)?.alph;
  }

  tokenRemaining(lockup: string, id: string): bigint | undefined {
    return this.remaining.get(lockup)?.tokens.get(id);
  }

  isPaying(lockup: string): boolean {
    return this.remaining.get(lockup) !== undefined;
  }

  /** `useApproved`: the callee's state, whose remaining is what was approved here. */
  useApproved(): BalanceState {
    return new BalanceState(this.approved.use(), new Balances());
  }
}

export const lockupKey = (lockupScript: Uint8Array): string => bytesToHex(lockupScript);
export const lockupOfKey = (key: string): Uint8Array => hexToBytes(key);
