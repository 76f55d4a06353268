/**
 * Per-address sums of ALPH and tokens, the arithmetic behind every "balance changes" table: a contract
 * call's dry run (what was offered against what came back) and a transaction's details (what its outputs
 * credit and its spender paid). Each caller decides what it adds; the sums and their order are here once.
 */
export interface TokenAmountLike {
  readonly id: string;
  readonly amount: string | bigint;
}

export interface TalliedChange {
  readonly address: string;
  readonly atto: bigint;
  /** Tokens whose sum is not zero, sorted by id. */
  readonly tokens: readonly { readonly id: string; readonly amount: bigint }[];
}

export class AssetTally {
  private readonly alph = new Map<string, bigint>();
  private readonly tokens = new Map<string, Map<string, bigint>>();

  /** Lists an address (in the order first seen) even if nothing is added to it. */
  touch(address: string): void {
    if (!this.alph.has(address)) {
      this.alph.set(address, 0n);
      this.tokens.set(address, new Map());
    }
  }

  /** Adds `sign` × the amounts to the address's sums. */
  add(address: string, atto: bigint, tokens: readonly TokenAmountLike[] = [], sign = 1n): void {
    this.touch(address);
    this.alph.set(address, (this.alph.get(address) as bigint) + sign * atto);
    const held = this.tokens.get(address) as Map<string, bigint>;
    for (const t of tokens) held.set(t.id, (held.get(t.id) ?? 0n) + sign * BigInt(t.amount));
  }

  /** Every address in the order first seen, with its ALPH sum and its non-zero token sums. */
  entries(): TalliedChange[] {
    return [...this.alph].map(([address, atto]) => ({
      address,
      atto,
      tokens: [...(this.tokens.get(address) as Map<string, bigint>)]
        .filter(([, v]) => v !== 0n)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([id, amount]) => ({ id, amount })),
    }));
  }
}
