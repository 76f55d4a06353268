/**
 * Amounts, tokens and outputs as verification compares them: normalized (tokens merged by id and sorted,
 * hex lowercase), so order and splitting do not matter and every difference can be named.
 */
import { equalBytes, parseAddress, type DecodedFixedOutput } from '../../protocol';
import { TransferVerificationError, type VerifiedOutput, type VerifiedToken } from './result';

/** An amount of atto the request gave as bigint or digits; anything else is a refused request. */
export function toBigInt(value: bigint | string | undefined, field: string): bigint {
  if (typeof value === 'bigint') {
    if (value < 0n)
      throw new TransferVerificationError([{ check: 'request', message: `${field} is negative` }]);
    return value;
  }
  if (typeof value !== 'string' || !/^\d+$/.test(value)) {
    throw new TransferVerificationError([
      { check: 'request', message: `${field} must be a non-negative integer (atto), got ${String(value)}` },
    ]);
  }
  return BigInt(value);
}

export function sameLockup(a: string, b: string): boolean {
  try {
    return equalBytes(parseAddress(a).lockupScript, parseAddress(b).lockupScript);
  } catch {
    return false;
  }
}

/** Tokens merged by id and sorted, so order and splitting of the same id do not matter when comparing. */
export function normalizeTokens(
  tokens: readonly { id: string; amount: bigint | string }[],
  field: string,
): VerifiedToken[] {
  const byId = new Map<string, bigint>();
  tokens.forEach((t, i) => {
    const id = String(t.id).toLowerCase();
    byId.set(id, (byId.get(id) ?? 0n) + toBigInt(t.amount, `${field}[${i}].amount`));
  });
  return [...byId].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, amount]) => ({ id, amount }));
}

export function tokensText(tokens: readonly VerifiedToken[]): string {
  return tokens.length === 0 ? 'no tokens' : tokens.map((t) => `${t.amount} of token ${t.id}`).join(', ');
}

export function sameTokens(a: readonly VerifiedToken[], b: readonly VerifiedToken[]): boolean {
  return a.length === b.length && a.every((t, i) => t.id === b[i]?.id && t.amount === b[i]?.amount);
}

export function outputOf(o: DecodedFixedOutput, where: string): VerifiedOutput {
  return {
    address: o.address,
    attoAlphAmount: BigInt(o.attoAlphAmount),
    tokens: normalizeTokens(o.tokens, `${where}.tokens`),
    lockTime: o.lockTime,
    message: o.message.toLowerCase(),
  };
}

export function addTokens(into: Map<string, bigint>, tokens: readonly VerifiedToken[]): void {
  for (const t of tokens) into.set(t.id, (into.get(t.id) ?? 0n) + t.amount);
}

export function tokenList(m: Map<string, bigint>): VerifiedToken[] {
  return [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, amount]) => ({ id, amount }));
}
