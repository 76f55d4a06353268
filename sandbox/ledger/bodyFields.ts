/**
 * Checks of request-body fields, worded as the node words its 400s. Transfers and script builds share them,
 * so a field is checked the same way wherever it appears.
 */
import {
  DEFAULT_GAS_PRICE,
  addressFromPublicKey,
  p2pkhUnlockScript,
  parseAddress,
} from '../../src/core/protocol';
import { BadRequest, MAX_GAS, MIN_GAS } from './types';

export function parseIntStrict(v: unknown, field: string): bigint {
  if (typeof v !== 'string' || !/^\d+$/.test(v))
    throw new BadRequest(`Invalid value for: body (${field}: expected a decimal integer string)`);
  return BigInt(v);
}

export function checkAddress(a: unknown, field: string): string {
  if (typeof a !== 'string') throw new BadRequest(`Invalid value for: body (missing ${field})`);
  try {
    parseAddress(a);
  } catch (e) {
    throw new BadRequest(
      `Invalid value for: body (${field}: Unable to decode address from ${a}: ${(e as Error).message})`,
    );
  }
  return a;
}

export function checkPublicKey(pub: unknown): string {
  if (typeof pub !== 'string') throw new BadRequest('Invalid value for: body (missing fromPublicKey)');
  try {
    p2pkhUnlockScript(pub);
    return addressFromPublicKey(pub);
  } catch (e) {
    throw new BadRequest(`Invalid value for: body (fromPublicKey: ${(e as Error).message})`);
  }
}

export function estimateGas(inputs: number, outputs: number): number {
  // Node's transfer estimate: base + per-input + per-output, never below the minimal gas.
  return Math.max(MIN_GAS, 1000 + inputs * 2000 + outputs * 4500);
}

export function parseTokens(raw: unknown, field: string): Map<string, bigint> {
  const out = new Map<string, bigint>();
  if (raw === undefined || raw === null) return out;
  if (!Array.isArray(raw)) throw new BadRequest(`Invalid value for: body (${field} must be an array)`);
  raw.forEach((t: unknown, j) => {
    const tt = (t ?? {}) as Record<string, unknown>;
    if (typeof tt.id !== 'string' || !/^[0-9a-fA-F]{64}$/.test(tt.id))
      throw new BadRequest(`Invalid value for: body (${field}[${j}].id must be 32-byte hex)`);
    const a = parseIntStrict(tt.amount, `${field}[${j}].amount`);
    const id = tt.id.toLowerCase();
    if (a > 0n) out.set(id, (out.get(id) ?? 0n) + a);
  });
  return out;
}

/** The optional `gasAmount` and `gasPrice` of a build request. */
export function gasOptions(body: Record<string, unknown>): { gasAmount?: number; gasPrice: bigint } {
  let gasAmount: number | undefined;
  if (body.gasAmount !== undefined && body.gasAmount !== null) {
    if (typeof body.gasAmount !== 'number' || !Number.isInteger(body.gasAmount))
      throw new BadRequest('Invalid value for: body (gasAmount must be an integer)');
    if (body.gasAmount < MIN_GAS || body.gasAmount > MAX_GAS)
      throw new BadRequest(`Invalid gas amount ${body.gasAmount}: must be between ${MIN_GAS} and ${MAX_GAS}`);
    gasAmount = body.gasAmount;
  }
  let gasPrice = DEFAULT_GAS_PRICE;
  if (body.gasPrice !== undefined && body.gasPrice !== null) {
    gasPrice = parseIntStrict(body.gasPrice, 'gasPrice');
    if (gasPrice < DEFAULT_GAS_PRICE)
      throw new BadRequest(`Gas price ${gasPrice} too small, minimum is ${DEFAULT_GAS_PRICE}`);
  }
  return { ...(gasAmount !== undefined ? { gasAmount } : {}), gasPrice };
}
