/**
 * What a request to the gateway may carry, checked before it is sent: the request types, the field
 * validators and the body and query builders of every endpoint. A wrong input costs no request (and no
 * rate-limit headroom), and the error names the field so the UI can point at it. The client's endpoint
 * methods (client.ts) build here and send through the pipeline (pipeline.ts).
 */
import {
  DUST_ATTO,
  U256_MAX,
  decodeUnsignedTx,
  groupOfAddress,
  groupsOfUnsignedTx,
  parseAddress,
  type AddressType,
} from '../protocol';
import { ValidationError } from './errors';
import type { Priority } from './rateLimiter';
import type * as S from './schemas';
import type { RequestPurpose } from './usage';
import { isList } from '../util/guards';

// ---- request types ------------------------------------------------------------------------------------

export interface RequestOptions {
  readonly signal?: AbortSignal;
  /** `user` (default) goes before `background` polling. */
  readonly priority?: Priority;
  readonly timeoutMs?: number;
  /**
   * Skip reading the cache (the fresh answer is still cached), and join no identical request that was
   * already sent: its answer may be from before what the caller knows (a state re-read after new events).
   */
  readonly fresh?: boolean;
  /**
   * What a request is for, for the request ledger (usage.ts): `contracts`, `node` or `tracking` for
   * background work; requests at user priority count as the user's actions, except `assistant` (the
   * language-model tools), which the ledger keeps apart. Background ones without it count as other.
   */
  readonly purpose?: RequestPurpose;
}

export interface GroupPair {
  readonly fromGroup?: number;
  readonly toGroup?: number;
}

export interface BuildTransferRequest {
  readonly fromPublicKey: string;
  readonly destinations: readonly Destination[];
  readonly gasAmount?: number | null;
  readonly gasPrice?: string;
  /** Node extras, passed through when set. */
  readonly fromPublicKeyType?: string;
  readonly group?: number;
}

export interface SweepRequest {
  readonly fromPublicKey: string;
  readonly toAddress: string;
  readonly gasAmount?: number;
  readonly gasPrice?: string;
  readonly fromPublicKeyType?: string;
  readonly group?: number;
}

/** `POST /contracts/unsigned-tx/execute-script` (the node's BuildExecuteScriptTx). */
export interface BuildExecuteScriptRequest {
  readonly fromPublicKey: string;
  /** The TxScript's bytecode, hex; it is carried into the transaction as is. */
  readonly bytecode: string;
  /** ALPH approved to the script (atto units). */
  readonly attoAlphAmount?: string;
  readonly tokens?: readonly S.Token[];
  readonly gasAmount?: number;
  readonly gasPrice?: string;
  readonly group?: number;
}

/** `POST /contracts/unsigned-tx/deploy-contract` (the node's BuildDeployContractTx). */
export interface BuildDeployContractRequest {
  readonly fromPublicKey: string;
  /** Contract code followed by its encoded immutable and mutable fields, hex. */
  readonly bytecode: string;
  readonly initialAttoAlphAmount?: string;
  readonly initialTokenAmounts?: readonly S.Token[];
  readonly issueTokenAmount?: string;
  readonly issueTokenTo?: string;
  readonly gasAmount?: number;
  readonly gasPrice?: string;
  readonly group?: number;
}

/** An address's assets offered to a simulation (the node's TestInputAsset). */
export interface InputAsset {
  readonly address: string;
  readonly asset: { readonly attoAlphAmount: string; readonly tokens?: readonly S.Token[] };
}

/** `POST /contracts/call-tx-script` (the node's CallTxScript). */
export interface CallTxScriptRequest {
  readonly group: number;
  readonly bytecode: string;
  readonly callerAddress?: string;
  /** Run against the world state after this block (the node's persisted state), not the best state. */
  readonly worldStateBlockHash?: string;
  /** The txId the script sees (a failed transaction's own, to reproduce it); the node picks a random one. */
  readonly txId?: string;
  readonly inputAssets?: readonly InputAsset[];
  readonly interestedContracts?: readonly string[];
}

export interface SubmitRequest extends GroupPair {
  readonly unsignedTx: string;
  readonly signature: string;
}

export interface ContractCall {
  readonly address: string;
  readonly methodIndex: number;
  /** Defaults to the contract's group. */
  readonly group?: number;
  readonly args?: readonly S.Val[];
  readonly callerAddress?: string;
  readonly worldStateBlockHash?: string;
  readonly txId?: string;
  readonly interestedContracts?: readonly string[];
  readonly inputAssets?: readonly unknown[];
}

// ---- field validators ---------------------------------------------------------------------------------

export const MAX_EVENT_PAGE = 100;
export const MAX_MULTICALL = 20;
/** Below this a "millisecond" timestamp is almost surely in seconds (10^11 ms is March 1973). */
const MIN_PLAUSIBLE_MS = 100_000_000_000;
const MAX_MS = 8_640_000_000_000_000;

export function required<T>(field: string, value: T | undefined | null): T {
  if (value === undefined || value === null || (typeof value === 'string' && value.length === 0)) {
    throw new ValidationError(field, 'is required');
  }
  return value;
}

export const ASSET_ADDRESS_TYPES: readonly AddressType[] = ['P2PKH', 'P2MPKH', 'P2SH', 'P2PK', 'P2HMPK'];
export const CONTRACT_ADDRESS_TYPES: readonly AddressType[] = ['P2C'];

/** A base58 address of a known type; `allowed` narrows the types (e.g. contracts only). */
export function validateAddress(field: string, value: unknown, allowed?: readonly AddressType[]): string {
  if (typeof value !== 'string' || value.length === 0) throw new ValidationError(field, 'is required');
  let type: AddressType;
  try {
    type = parseAddress(value).type;
  } catch (error) {
    throw new ValidationError(field, error instanceof Error ? error.message : 'is not a valid address');
  }
  if (allowed && !allowed.includes(type)) {
    const want = allowed === CONTRACT_ADDRESS_TYPES ? 'a contract address' : `one of ${allowed.join(', ')}`;
    throw new ValidationError(field, `must be ${want}, got a ${type} address`);
  }
  return value;
}

export function validateGroup(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 3) {
    throw new ValidationError(field, `must be an integer group 0 to 3, got ${String(value)}`);
  }
  return value;
}

export function validateInt(
  field: string,
  value: unknown,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ValidationError(field, `must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

export function validateLimit(field: string, value: unknown): number {
  return validateInt(field, value, 1, MAX_EVENT_PAGE);
}

export function validateTimestamp(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_MS) {
    throw new ValidationError(field, `must be an integer Unix time in milliseconds, got ${String(value)}`);
  }
  if (value < MIN_PLAUSIBLE_MS) {
    throw new ValidationError(field, `${value} looks like seconds; timestamps are in milliseconds`);
  }
  return value;
}

export function validateTimeRange(fromTs: unknown, toTs: unknown): { fromTs: number; toTs: number } {
  const from = validateTimestamp('fromTs', fromTs);
  const to = validateTimestamp('toTs', toTs);
  if (from >= to) throw new ValidationError('toTs', `must be greater than fromTs (${from}), got ${to}`);
  return { fromTs: from, toTs: to };
}

/** Hex of exactly `bytes` bytes (or any non-empty even length when `bytes` is undefined). */
export function validateHex(field: string, value: unknown, bytes?: number): string {
  if (typeof value !== 'string' || value.length === 0) throw new ValidationError(field, 'is required');
  if (!/^[0-9a-fA-F]*$/.test(value)) throw new ValidationError(field, 'must be a hex string');
  if (value.length % 2 !== 0) throw new ValidationError(field, 'must have an even number of hex digits');
  if (bytes !== undefined && value.length !== bytes * 2) {
    throw new ValidationError(
      field,
      `must be ${bytes} bytes (${bytes * 2} hex digits), got ${value.length / 2}`,
    );
  }
  return value;
}

export const validateTxId = (field: string, value: unknown): string => validateHex(field, value, 32);
export const validateBlockHash = (field: string, value: unknown): string => validateHex(field, value, 32);
export const validatePublicKey = (field: string, value: unknown): string => validateHex(field, value, 33);
export const validateSignature = (field: string, value: unknown): string => validateHex(field, value, 64);

/** A non-negative integer amount as a decimal string (no sign, no decimals, no exponent), within U256. */
export function validateAmount(field: string, value: unknown): bigint {
  if (typeof value !== 'string' || value.length === 0) {
    throw new ValidationError(field, 'is required as an integer string of smallest units');
  }
  if (!/^\d+$/.test(value)) {
    throw new ValidationError(
      field,
      `must be a non-negative integer string of smallest units, got "${value}"`,
    );
  }
  const amount = BigInt(value);
  if (amount > U256_MAX) throw new ValidationError(field, 'exceeds the U256 range');
  return amount;
}

export interface TokenTransfer {
  readonly id: string;
  readonly amount: string;
}

export interface Destination {
  readonly address: string;
  /** Smallest units of the native coin (the spec's name for the node's `attoAlphAmount`). */
  readonly attoCoinAmount: string;
  readonly tokens?: readonly TokenTransfer[];
  /** Optional node extras, passed through when set. */
  readonly lockTime?: number;
  readonly message?: string;
}

/** Every destination: a valid address, an amount at or above dust (also for token outputs), valid tokens. */
export function validateDestinations(field: string, value: unknown): readonly Destination[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new ValidationError(field, 'must be a non-empty array of destinations');
  }
  value.forEach((d: Partial<Destination> | undefined, i) => {
    const at = `${field}[${i}]`;
    if (typeof d !== 'object' || d === null) throw new ValidationError(at, 'must be an object');
    validateAddress(`${at}.address`, d.address);
    const amount = validateAmount(`${at}.attoCoinAmount`, d.attoCoinAmount);
    if (amount < DUST_ATTO) {
      throw new ValidationError(
        `${at}.attoCoinAmount`,
        `${amount} is below the dust minimum of ${DUST_ATTO} (0.001 coin); the node would reject the build`,
      );
    }
    if (d.tokens !== undefined) {
      if (!Array.isArray(d.tokens)) throw new ValidationError(`${at}.tokens`, 'must be an array');
      d.tokens.forEach((t: Partial<TokenTransfer> | undefined, j) => {
        validateHex(`${at}.tokens[${j}].id`, t?.id, 32);
        validateAmount(`${at}.tokens[${j}].amount`, t?.amount);
      });
    }
    if (d.lockTime !== undefined) validateInt(`${at}.lockTime`, d.lockTime, 0);
    if (d.message !== undefined && d.message !== '') validateHex(`${at}.message`, d.message);
  });
  return value as readonly Destination[];
}

function validateTokens(field: string, tokens: unknown): S.Token[] {
  if (!Array.isArray(tokens)) throw new ValidationError(field, 'must be an array');
  const seen = new Set<string>();
  return tokens.map((t: unknown, i) => {
    if (typeof t !== 'object' || t === null)
      throw new ValidationError(`${field}[${i}]`, 'must be {id, amount}');
    const { id, amount } = t as { id?: unknown; amount?: unknown };
    const tokenId = validateHex(`${field}[${i}].id`, id, 32).toLowerCase();
    if (seen.has(tokenId)) throw new ValidationError(`${field}[${i}].id`, 'is listed twice');
    seen.add(tokenId);
    const value = validateAmount(`${field}[${i}].amount`, amount);
    if (value === 0n) throw new ValidationError(`${field}[${i}].amount`, 'must be positive');
    return { id: tokenId, amount: value.toString() };
  });
}

export function validateInputAssets(field: string, assets: unknown): InputAsset[] {
  if (!Array.isArray(assets)) throw new ValidationError(field, 'must be an array');
  return assets.map((a: unknown, i) => {
    if (typeof a !== 'object' || a === null)
      throw new ValidationError(`${field}[${i}]`, 'must be {address, asset}');
    const { address, asset } = a as { address?: unknown; asset?: unknown };
    if (typeof asset !== 'object' || asset === null) {
      throw new ValidationError(`${field}[${i}].asset`, 'must be {attoAlphAmount, tokens?}');
    }
    const { attoAlphAmount, tokens } = asset as { attoAlphAmount?: unknown; tokens?: unknown };
    return {
      address: validateAddress(`${field}[${i}].address`, address),
      asset: {
        attoAlphAmount: validateAmount(`${field}[${i}].asset.attoAlphAmount`, attoAlphAmount).toString(),
        ...(tokens !== undefined ? { tokens: validateTokens(`${field}[${i}].asset.tokens`, tokens) } : {}),
      },
    };
  });
}

// ---- bodies -------------------------------------------------------------------------------------------

type Body = Record<string, unknown>;

/** `POST /transactions/build`. */
export function transferBody(request: BuildTransferRequest): Body {
  required('request', request);
  validatePublicKey('fromPublicKey', request.fromPublicKey);
  const destinations = validateDestinations('destinations', request.destinations);
  const gasAmount = request.gasAmount ?? undefined;
  if (gasAmount !== undefined) validateInt('gasAmount', gasAmount, 1);
  if (request.gasPrice !== undefined) validateAmount('gasPrice', request.gasPrice);
  if (request.group !== undefined) validateGroup('group', request.group);
  return {
    fromPublicKey: request.fromPublicKey,
    ...(request.fromPublicKeyType !== undefined ? { fromPublicKeyType: request.fromPublicKeyType } : {}),
    destinations: destinations.map((d) => ({
      address: d.address,
      // The spec names the amount `attoCoinAmount`, the node `attoAlphAmount`; both readers ignore
      // the other's name, so sending both works against either.
      attoCoinAmount: d.attoCoinAmount,
      attoAlphAmount: d.attoCoinAmount,
      ...(d.tokens !== undefined ? { tokens: d.tokens.map((t) => ({ id: t.id, amount: t.amount })) } : {}),
      ...(d.lockTime !== undefined ? { lockTime: d.lockTime } : {}),
      ...(d.message !== undefined ? { message: d.message } : {}),
    })),
    ...(gasAmount !== undefined ? { gasAmount } : {}),
    ...(request.gasPrice !== undefined ? { gasPrice: request.gasPrice } : {}),
    ...(request.group !== undefined ? { group: request.group } : {}),
  };
}

/** `POST /transactions/sweep-address/build`: the request as given, without its unset fields. */
export function sweepBody(request: SweepRequest): Body {
  required('request', request);
  validatePublicKey('fromPublicKey', request.fromPublicKey);
  validateAddress('toAddress', request.toAddress);
  if (request.gasAmount !== undefined) validateInt('gasAmount', request.gasAmount, 1);
  if (request.gasPrice !== undefined) validateAmount('gasPrice', request.gasPrice);
  if (request.group !== undefined) validateGroup('group', request.group);
  return Object.fromEntries(Object.entries(request).filter(([, v]) => v !== undefined));
}

/**
 * The submit's unsigned bytes and the groups its status is asked in when its answer is lost: given, or
 * decoded from the transaction.
 */
export function checkSubmit(request: SubmitRequest): { unsignedTx: string; groups: Required<GroupPair> } {
  required('request', request);
  const unsignedTx = validateHex('unsignedTx', request.unsignedTx);
  validateSignature('signature', request.signature);
  if (request.fromGroup !== undefined && request.toGroup !== undefined) {
    const fromGroup = validateGroup('fromGroup', request.fromGroup);
    return { unsignedTx, groups: { fromGroup, toGroup: validateGroup('toGroup', request.toGroup) } };
  }
  try {
    return { unsignedTx, groups: groupsOfUnsignedTx(decodeUnsignedTx(request.unsignedTx)) };
  } catch {
    // Script transactions cannot be decoded locally; the groups are then needed to recover a lost submit.
    throw new ValidationError('fromGroup', 'fromGroup and toGroup are required for this transaction');
  }
}

/** What a script or deploy build starts with: the signer's key and bytecode that is not empty. */
function bytecodeBody(request: { readonly fromPublicKey: string; readonly bytecode: string }): Body {
  required('request', request);
  validatePublicKey('fromPublicKey', request.fromPublicKey);
  return { fromPublicKey: request.fromPublicKey, bytecode: nonEmptyBytecode(request.bytecode) };
}

function nonEmptyBytecode(value: unknown): string {
  const bytecode = validateHex('bytecode', value);
  if (bytecode.length === 0) throw new ValidationError('bytecode', 'must not be empty');
  return bytecode;
}

function addGasAndGroup(
  body: Body,
  request: { readonly gasAmount?: number; readonly gasPrice?: string; readonly group?: number },
): Body {
  if (request.gasAmount !== undefined) body.gasAmount = validateInt('gasAmount', request.gasAmount, 1);
  if (request.gasPrice !== undefined) body.gasPrice = validateAmount('gasPrice', request.gasPrice).toString();
  if (request.group !== undefined) body.group = validateGroup('group', request.group);
  return body;
}

/** `POST /contracts/unsigned-tx/execute-script`. */
export function executeScriptBody(request: BuildExecuteScriptRequest): Body {
  const body = bytecodeBody(request);
  if (request.attoAlphAmount !== undefined) {
    body.attoAlphAmount = validateAmount('attoAlphAmount', request.attoAlphAmount).toString();
  }
  if (request.tokens !== undefined) body.tokens = validateTokens('tokens', request.tokens);
  return addGasAndGroup(body, request);
}

/** `POST /contracts/unsigned-tx/deploy-contract`. */
export function deployContractBody(request: BuildDeployContractRequest): Body {
  const body = bytecodeBody(request);
  if (request.initialAttoAlphAmount !== undefined) {
    body.initialAttoAlphAmount = validateAmount(
      'initialAttoAlphAmount',
      request.initialAttoAlphAmount,
    ).toString();
  }
  if (request.initialTokenAmounts !== undefined) {
    body.initialTokenAmounts = validateTokens('initialTokenAmounts', request.initialTokenAmounts);
  }
  if (request.issueTokenAmount !== undefined) {
    body.issueTokenAmount = validateAmount('issueTokenAmount', request.issueTokenAmount).toString();
  }
  if (request.issueTokenTo !== undefined) {
    if (request.issueTokenAmount === undefined) {
      throw new ValidationError('issueTokenTo', 'needs issueTokenAmount');
    }
    body.issueTokenTo = validateAddress('issueTokenTo', request.issueTokenTo);
  }
  return addGasAndGroup(body, request);
}

/** `POST /contracts/call-tx-script`. */
export function callTxScriptBody(request: CallTxScriptRequest): Body {
  required('request', request);
  const group = validateGroup('group', request.group);
  const body: Body = { group, bytecode: nonEmptyBytecode(request.bytecode) };
  if (request.callerAddress !== undefined) {
    body.callerAddress = validateAddress('callerAddress', request.callerAddress);
  }
  if (request.worldStateBlockHash !== undefined) {
    body.worldStateBlockHash = validateBlockHash('worldStateBlockHash', request.worldStateBlockHash);
  }
  if (request.txId !== undefined) body.txId = validateTxId('txId', request.txId);
  if (request.inputAssets !== undefined) {
    body.inputAssets = validateInputAssets('inputAssets', request.inputAssets);
  }
  if (request.interestedContracts !== undefined) {
    body.interestedContracts = request.interestedContracts.map((a, i) =>
      validateAddress(`interestedContracts[${i}]`, a, CONTRACT_ADDRESS_TYPES),
    );
  }
  return body;
}

/** One call of `call-contract` or of a multicall; `field` names it in errors (`call`, `calls[3]`). */
export function contractCallBody(field: string, call: ContractCall): Body {
  if (typeof call !== 'object' || call === null) throw new ValidationError(field, 'is required');
  const address = validateAddress(`${field}.address`, call.address, CONTRACT_ADDRESS_TYPES);
  const group =
    call.group !== undefined ? validateGroup(`${field}.group`, call.group) : groupOfAddress(address);
  validateInt(`${field}.methodIndex`, call.methodIndex, 0);
  if (call.args !== undefined) {
    if (!isList(call.args)) throw new ValidationError(`${field}.args`, 'must be an array');
    call.args.forEach((arg, i) => {
      if (typeof arg !== 'object' || arg === null || typeof arg.type !== 'string' || !('value' in arg)) {
        throw new ValidationError(`${field}.args[${i}]`, 'must be a {type, value} object');
      }
    });
  }
  if (call.callerAddress !== undefined) validateAddress(`${field}.callerAddress`, call.callerAddress);
  if (call.worldStateBlockHash !== undefined)
    validateBlockHash(`${field}.worldStateBlockHash`, call.worldStateBlockHash);
  if (call.txId !== undefined) validateTxId(`${field}.txId`, call.txId);
  call.interestedContracts?.forEach((a, i) =>
    validateAddress(`${field}.interestedContracts[${i}]`, a, CONTRACT_ADDRESS_TYPES),
  );
  const body: Body = { group, address, methodIndex: call.methodIndex };
  for (const name of [
    'args',
    'callerAddress',
    'worldStateBlockHash',
    'txId',
    'interestedContracts',
  ] as const) {
    if (call[name] !== undefined) body[name] = call[name];
  }
  // Sent as checked (amounts as integer strings, token ids lower-cased), never as given.
  if (call.inputAssets !== undefined) {
    body.inputAssets = validateInputAssets(`${field}.inputAssets`, call.inputAssets);
  }
  return body;
}

/**
 * Whether a call body's answer can never change: it pins the world state of one block, so the same
 * body gives the same answer for as long as the node keeps that block.
 */
export function pinsWorldState(body: Body): boolean {
  return typeof body.worldStateBlockHash === 'string';
}

/** `POST /contracts/multicall-contract`: 1 to {@link MAX_MULTICALL} calls. */
export function multicallBody(calls: readonly ContractCall[]): { calls: Body[] } {
  if (!isList(calls) || calls.length === 0) throw new ValidationError('calls', 'must be a non-empty array');
  if (calls.length > MAX_MULTICALL) {
    throw new ValidationError('calls', `at most ${MAX_MULTICALL} calls per multicall, got ${calls.length}`);
  }
  return { calls: calls.map((c, i) => contractCallBody(`calls[${i}]`, c)) };
}

// ---- queries ------------------------------------------------------------------------------------------

/** `?fromGroup=…&toGroup=…` of the groups given (empty when none is). */
export function groupsQuery(groups: GroupPair, query = new URLSearchParams()): URLSearchParams {
  if (groups.fromGroup !== undefined)
    query.set('fromGroup', String(validateGroup('fromGroup', groups.fromGroup)));
  if (groups.toGroup !== undefined) query.set('toGroup', String(validateGroup('toGroup', groups.toGroup)));
  return query;
}

/** `?group=…` when a group is given, else nothing. */
export function groupSuffix(group: number | undefined): string {
  return group !== undefined ? `?group=${validateGroup('group', group)}` : '';
}

/** `?…` of a non-empty query, else nothing. */
export function querySuffix(query: URLSearchParams): string {
  return query.size > 0 ? `?${query.toString()}` : '';
}

/** One page of a contract's events: where it starts, how many were asked for, and its query. */
export function eventsPageQuery(page: { start: number; limit?: number; group?: number }): {
  start: number;
  limit: number | undefined;
  query: URLSearchParams;
} {
  required('page', page);
  const start = validateInt('start', page.start, 0);
  const limit = page.limit !== undefined ? validateLimit('limit', page.limit) : undefined;
  const query = new URLSearchParams({ start: String(start) });
  if (limit !== undefined) query.set('limit', String(limit));
  if (page.group !== undefined) query.set('group', String(validateGroup('group', page.group)));
  return { start, limit, query };
}
