/**
 * What people type into the send, sweep and track prompts, checked as they type. Each checker returns
 * a sentence saying what is wrong (for an input box's validation message) or undefined; each parser
 * throws that same sentence, so an argument passed by automation is held to the same rules as typing.
 */
import {
  DEFAULT_GAS_AMOUNT,
  DEFAULT_GAS_PRICE,
  MAX_GAS_PER_TX,
  alphToAtto,
  dustProblem,
  isHash32,
  isTxId,
  parseAddress,
} from '../protocol';
import type { TokenAmountRequest } from '../signing/verify';
import { scalarText } from '../util/guards';

/**
 * The one rule for where a transfer or a sweep may pay: an asset address (base58, not a contract). Each
 * surface words it for its reader (the input box here, the field errors of sendTransfer and sendSweep),
 * but none re-implements it.
 */
export type RecipientVerdict =
  | { readonly kind: 'ok'; readonly address: Recipient }
  | { readonly kind: 'empty' }
  | { readonly kind: 'hex' }
  | { readonly kind: 'invalid'; readonly reason: string }
  | { readonly kind: 'contract' };

declare const recipientBrand: unique symbol;
/** An address that passed {@link recipientVerdict}: trimmed, base58, an asset (not a contract) address. */
export type Recipient = string & { readonly [recipientBrand]: true };

export function recipientVerdict(text: unknown): RecipientVerdict {
  const value = typeof text === 'string' ? text.trim() : '';
  if (value === '') return { kind: 'empty' };
  if (/^[0-9a-fA-F]{64,}$/.test(value)) return { kind: 'hex' };
  let type: string;
  try {
    type = parseAddress(value).type;
  } catch (e) {
    return { kind: 'invalid', reason: (e as Error).message };
  }
  if (type === 'P2C') return { kind: 'contract' };
  return { kind: 'ok', address: value as Recipient };
}

/** The input box's sentence for a recipient, or undefined when it is one. */
export function checkRecipient(text: string): string | undefined {
  const verdict = recipientVerdict(text);
  switch (verdict.kind) {
    case 'ok':
      return undefined;
    case 'empty':
      return 'A recipient address is required.';
    case 'hex':
      return 'That is hex; Alephium addresses are base58.';
    case 'invalid':
      return `Not an Alephium address: ${verdict.reason}`;
    case 'contract':
      return 'That is a contract address; paying a contract needs a script, not a transfer.';
  }
}

/**
 * The recipient as a validated value, or an Error saying `${role}: <the input box's sentence>`, so an
 * argument passed by automation is held to the rule the input box applies.
 */
export function parseRecipient(text: string, role = 'Recipient'): Recipient {
  const verdict = recipientVerdict(text);
  if (verdict.kind === 'ok') return verdict.address;
  throw new Error(`${role}: ${checkRecipient(text) as string}`);
}

/** Exact ALPH → atto (no floats), at least the dust minimum. */
export function parseAlphAmount(text: string): bigint {
  let atto: bigint;
  try {
    atto = alphToAtto(text);
  } catch (e) {
    throw new Error((e as Error).message);
  }
  const dust = dustProblem(atto);
  if (dust) throw new Error(dust);
  return atto;
}

export function checkAlphAmount(text: string): string | undefined {
  try {
    parseAlphAmount(text);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * Tokens as an argument (`[{id, amount}]`) or as typed (`id:amount, id:amount`); empty means none.
 * Amounts are integers in the token's smallest unit: decimals differ per token and are not on chain.
 */
export function parseTokens(value: unknown): TokenAmountRequest[] {
  if (value === undefined || value === null || value === '') return [];
  const entries: { id: unknown; amount: unknown }[] = Array.isArray(value)
    ? (value as { id: unknown; amount: unknown }[])
    : typeof value === 'string'
      ? value
          .split(/[,;\n]/)
          .map((s) => s.trim())
          .filter((s) => s !== '')
          .map((s) => {
            const [id, amount, ...rest] = s.split(/\s*[:=]\s*|\s+/);
            if (rest.length > 0) throw new Error(`Token '${s}': write it as tokenId:amount.`);
            return { id, amount };
          })
      : (() => {
          throw new Error('tokens must be an array of {id, amount} or text like tokenId:amount');
        })();
  return entries.map((t, i) => {
    const id = typeof t?.id === 'string' ? t.id.trim().toLowerCase() : '';
    if (!isHash32(id)) throw new Error(`Token ${i + 1}: the id must be 32 bytes of hex.`);
    const amount = typeof t.amount === 'bigint' ? t.amount.toString() : (scalarText(t.amount) ?? '').trim();
    if (!/^\d+$/.test(amount) || BigInt(amount) === 0n) {
      throw new Error(`Token ${i + 1}: the amount must be a positive integer (smallest unit).`);
    }
    return { id, amount };
  });
}

export function checkTokens(text: string): string | undefined {
  try {
    parseTokens(text);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Optional gas amount: empty lets the node estimate. */
export function parseGasAmount(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number((scalarText(value) ?? '').trim());
  if (!Number.isInteger(n) || n < DEFAULT_GAS_AMOUNT || n > MAX_GAS_PER_TX) {
    throw new Error(`Gas amount must be an integer from ${DEFAULT_GAS_AMOUNT} to ${MAX_GAS_PER_TX}.`);
  }
  return n;
}

/** Optional gas price in atto: empty takes the node's default. */
export function parseGasPrice(value: unknown): bigint | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const s = typeof value === 'bigint' ? value.toString() : (scalarText(value) ?? '').trim();
  if (!/^\d+$/.test(s)) throw new Error('Gas price must be an integer number of atto.');
  const v = BigInt(s);
  if (v < DEFAULT_GAS_PRICE) {
    throw new Error(`Gas price must be at least ${DEFAULT_GAS_PRICE} atto (the node's minimum).`);
  }
  return v;
}

/** Gas as typed in one box: "gasAmount" or "gasAmount, gasPrice"; empty means node defaults. */
export function parseGas(text: string): { gasAmount?: number; gasPrice?: bigint } {
  const parts = text
    .split(/[,\s]+/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length > 2) throw new Error('Write gasAmount, or gasAmount, gasPrice (atto).');
  const gasAmount = parseGasAmount(parts[0]);
  const gasPrice = parseGasPrice(parts[1]);
  return {
    ...(gasAmount !== undefined ? { gasAmount } : {}),
    ...(gasPrice !== undefined ? { gasPrice } : {}),
  };
}

export function checkGas(text: string): string | undefined {
  try {
    parseGas(text);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

export function parseTxId(text: unknown): string {
  const s = typeof text === 'string' ? text.trim().toLowerCase().replace(/^0x/, '') : '';
  if (!isTxId(s)) throw new Error('A transaction id is 64 hex digits.');
  return s;
}

export function checkTxId(text: string): string | undefined {
  try {
    parseTxId(text);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Optional groups as typed: "0,1", "0 1" or "0→1"; empty lets the gateway search. */
export function parseGroups(text: string): { fromGroup?: number; toGroup?: number } {
  const s = text.trim();
  if (s === '') return {};
  const m = /^([0-3])\s*(?:,|\s|->|→)\s*([0-3])$/.exec(s);
  if (!m) throw new Error('Groups are two numbers from 0 to 3, e.g. 0,1 (or leave empty).');
  return { fromGroup: Number(m[1]), toGroup: Number(m[2]) };
}

export function checkGroups(text: string): string | undefined {
  try {
    parseGroups(text);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
