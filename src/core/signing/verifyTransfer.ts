/**
 * Verify-before-sign (docs/ARCHITECTURE.md, "Verify before signing": what you sign is what you asked for).
 *
 * The gateway builds the transaction, but we sign a txId, and a txId commits to *bytes* we did not
 * write. So before any signature exists we recompute txId = blake2b-256(unsignedTx), decode those bytes
 * locally, and prove that they spend only the sender's outputs, pay exactly the requested destinations
 * (plus change back to the sender), run no script and pay a sane fee. Anything else is refused with a
 * message that says what differed, so the user can tell a tampering gateway from a typo.
 *
 * The result is a {@link VerifiedTransfer}: the only thing {@link signVerifiedTransfer} accepts. It can
 * only be created in this module (an unexported token guards its constructor and a WeakSet records every
 * instance issued), so no code path can sign bytes that skipped verification.
 */
import {
  DEFAULT_GAS_PRICE,
  DUST_ATTO,
  ONE_ALPH,
  ProtocolError,
  UNLOCK_SCRIPT_TAGS,
  addressFromPublicKey,
  decodeUnsignedTx,
  encodeUnsignedTx,
  equalBytes,
  formatAlph,
  groupOfAddress,
  groupsOfUnsignedTx,
  isHex,
  parseAddress,
  publicKeyFromPrivateKey,
  publicKeyOfUnlockScript,
  signTxId,
  txIdFromUnsignedTx,
  verifyTxIdSignature,
  type DecodedFixedOutput,
  type DecodedUnsignedTx,
  type UnsignedTxInput,
} from '../protocol';
import { scriptGasBound, shapeGas } from './gasBounds';

// ---- inputs ------------------------------------------------------------------------------------------

export interface TokenAmountRequest {
  readonly id: string;
  readonly amount: bigint | string;
}

export interface TransferDestinationRequest {
  readonly address: string;
  readonly attoAlphAmount: bigint | string;
  readonly tokens?: readonly TokenAmountRequest[];
  /** Milliseconds; 0 or absent means spendable at once. */
  readonly lockTime?: number;
  /** Hex of the output's additional data; absent means empty. */
  readonly message?: string;
}

/** What the user asked for: the reference every built transaction is compared to. */
export interface TransferRequest {
  readonly fromPublicKey: string;
  readonly destinations: readonly TransferDestinationRequest[];
  readonly gasAmount?: number;
  readonly gasPrice?: bigint | string;
}

/** The gateway's answer to `POST /transactions/build` (extra fields are ignored, except `fundingTxs`). */
export interface BuildResponse {
  readonly unsignedTx: string;
  readonly txId: string;
  readonly gasAmount: number;
  readonly gasPrice: string;
  readonly fromGroup: number;
  readonly toGroup: number;
  readonly fundingTxs?: readonly unknown[];
}

/** The gateway's answer to `POST /transactions/decode-unsigned-tx`. */
export interface GatewayDecodeResponse {
  readonly fromGroup?: number;
  readonly toGroup?: number;
  readonly unsignedTx: UnsignedTxInput;
}

export interface VerifyOptions {
  /**
   * Largest acceptable fee (gas × price) per transaction. Defaults to 1 ALPH, the node's `gas-fee-cap`:
   * an honest node never builds above it, so a higher fee can only come from a tampering gateway.
   */
  readonly feeCapAtto?: bigint;
  /** When set, the bytes must carry this network id (0 mainnet, 1 testnet, 4 devnet...). */
  readonly expectedNetworkId?: number;
  /**
   * Network ids the bytes must not carry. A devnet profile refuses 0 and 1: a transaction for mainnet
   * or testnet signed "on a devnet" could be replayed there.
   */
  readonly refusedNetworkIds?: readonly number[];
}

export const DEFAULT_FEE_CAP_ATTO = ONE_ALPH;

/**
 * The most gas an honest node asks for a transfer of this shape when the user asked for none: the
 * node's schedule (1,000 per tx, 4,500 per output, about 4,100 per P2PKH input with its signature
 * check, 20,000 at least) with a 25 % margin. Real transfers of 1 to 128 inputs stay under it.
 */
export function transferGasBound(tx: Pick<DecodedUnsignedTx, 'inputs' | 'fixedOutputs'>): number {
  return shapeGas(tx.inputs.length, tx.fixedOutputs.length);
}

// ---- errors ------------------------------------------------------------------------------------------

export type VerificationCheck =
  | 'request'
  | 'funding-txs'
  | 'txid'
  | 'decode'
  | 'gateway-decode'
  | 'network'
  | 'script'
  | 'inputs'
  | 'outputs'
  | 'gas'
  | 'fee'
  | 'groups';

export interface VerificationProblem {
  readonly check: VerificationCheck;
  readonly message: string;
}

/**
 * The built transaction is not what was asked for. `problems` lists every difference found (not only
 * the first), so one refusal tells the whole story; `check` is the first one's, for branching.
 */
export class TransferVerificationError extends Error {
  readonly problems: readonly VerificationProblem[];
  readonly check: VerificationCheck;

  constructor(problems: readonly VerificationProblem[]) {
    const first = problems[0] ?? { check: 'request' as const, message: 'verification failed' };
    super(
      problems.length === 1
        ? `Refusing to sign: ${first.message}`
        : `Refusing to sign (${problems.length} problems): ${problems.map((p) => p.message).join('; ')}`,
    );
    this.name = 'TransferVerificationError';
    this.problems = problems;
    this.check = first.check;
  }

  has(check: VerificationCheck): boolean {
    return this.problems.some((p) => p.check === check);
  }
}

// ---- the verified result -------------------------------------------------------------------------------

export interface VerifiedToken {
  readonly id: string;
  readonly amount: bigint;
}

export interface VerifiedOutput {
  readonly address: string;
  readonly attoAlphAmount: bigint;
  readonly tokens: readonly VerifiedToken[];
  readonly lockTime: number;
  readonly message: string;
}

/** What a verified script transaction runs: the exact script, and the assets it approves. */
export interface VerifiedScript {
  readonly kind: 'execute' | 'deploy';
  /** The script's hex, byte-equal to the one built locally from the user's choice. */
  readonly bytecode: string;
  readonly approvedAttoAlph: bigint;
  readonly approvedTokens: readonly VerifiedToken[];
}

interface VerifiedFields {
  readonly kind: 'transfer' | 'sweep' | 'script';
  readonly txId: string;
  readonly unsignedTx: string;
  readonly fromPublicKey: string;
  readonly fromAddress: string;
  readonly networkId: number;
  readonly fromGroup: number;
  readonly toGroup: number;
  readonly gasAmount: number;
  readonly gasPrice: bigint;
  readonly fee: bigint;
  readonly outputs: readonly VerifiedOutput[];
  readonly change: readonly VerifiedOutput[];
  readonly totalAlphSpent: bigint;
  readonly tokensSpent: readonly VerifiedToken[];
  /** Set for script transactions (execute, deploy). */
  readonly script?: VerifiedScript;
}

/** Never exported: holding it is what "this module made the object" means. */
const ISSUE: unique symbol = Symbol('VerifiedTransfer.issue');
const issued = new WeakSet<object>();

/**
 * A transaction whose bytes were proven to match the request. Immutable; only this module creates it.
 * `outputs` are the requested destinations as found in the bytes, `change` the outputs back to the
 * sender, `totalAlphSpent` = destinations' ALPH + fee (what leaves the sender), `tokensSpent` per token.
 */
export class VerifiedTransfer implements VerifiedFields {
  readonly kind!: 'transfer' | 'sweep' | 'script';
  readonly txId!: string;
  readonly unsignedTx!: string;
  readonly fromPublicKey!: string;
  readonly fromAddress!: string;
  readonly networkId!: number;
  readonly fromGroup!: number;
  readonly toGroup!: number;
  readonly gasAmount!: number;
  readonly gasPrice!: bigint;
  readonly fee!: bigint;
  readonly outputs!: readonly VerifiedOutput[];
  readonly change!: readonly VerifiedOutput[];
  readonly totalAlphSpent!: bigint;
  readonly tokensSpent!: readonly VerifiedToken[];
  readonly script?: VerifiedScript;

  /** @internal Callers cannot obtain the token, so `new VerifiedTransfer(...)` elsewhere always throws. */
  constructor(token: typeof ISSUE, fields: VerifiedFields) {
    if (token !== ISSUE)
      throw new Error('VerifiedTransfer can only be created by verifyTransfer/verifySweep');
    Object.assign(this, fields);
    deepFreeze(this);
    issued.add(this);
  }
}

export function isVerifiedTransfer(value: unknown): value is VerifiedTransfer {
  return typeof value === 'object' && value !== null && issued.has(value);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

// ---- helpers --------------------------------------------------------------------------------------------

function toBigInt(value: bigint | string | undefined, field: string): bigint {
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

function sameLockup(a: string, b: string): boolean {
  try {
    return equalBytes(parseAddress(a).lockupScript, parseAddress(b).lockupScript);
  } catch {
    return false;
  }
}

/** Tokens merged by id and sorted, so order and splitting of the same id do not matter when comparing. */
function normalizeTokens(
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

function tokensText(tokens: readonly VerifiedToken[]): string {
  return tokens.length === 0 ? 'no tokens' : tokens.map((t) => `${t.amount} of token ${t.id}`).join(', ');
}

function sameTokens(a: readonly VerifiedToken[], b: readonly VerifiedToken[]): boolean {
  return a.length === b.length && a.every((t, i) => t.id === b[i]?.id && t.amount === b[i]?.amount);
}

function outputOf(o: DecodedFixedOutput, where: string): VerifiedOutput {
  return {
    address: o.address,
    attoAlphAmount: BigInt(o.attoAlphAmount),
    tokens: normalizeTokens(o.tokens, `${where}.tokens`),
    lockTime: o.lockTime,
    message: o.message.toLowerCase(),
  };
}

function addTokens(into: Map<string, bigint>, tokens: readonly VerifiedToken[]): void {
  for (const t of tokens) into.set(t.id, (into.get(t.id) ?? 0n) + t.amount);
}

function tokenList(m: Map<string, bigint>): VerifiedToken[] {
  return [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, amount]) => ({ id, amount }));
}

function senderAddress(fromPublicKey: string): string {
  try {
    return addressFromPublicKey(fromPublicKey);
  } catch (e) {
    throw new TransferVerificationError([
      {
        check: 'request',
        message: `fromPublicKey is not a compressed secp256k1 key: ${(e as Error).message}`,
      },
    ]);
  }
}

/** txId and local decode: without both nothing else can be checked, so their failures end verification. */
function decodeChecked(
  unsignedTx: string,
  claimedTxId: string | undefined,
  problems: VerificationProblem[],
): { decoded: DecodedUnsignedTx; txId: string } {
  if (!isHex(unsignedTx) || unsignedTx.length === 0) {
    throw new TransferVerificationError([
      { check: 'decode', message: 'unsignedTx is not a non-empty hex string' },
    ]);
  }
  const txId = txIdFromUnsignedTx(unsignedTx);
  if (claimedTxId !== undefined && String(claimedTxId).toLowerCase() !== txId) {
    problems.push({
      check: 'txid',
      message: `the gateway's txId ${String(claimedTxId)} is not blake2b-256 of the unsigned transaction bytes (${txId}); signing it would sign something else`,
    });
  }
  let decoded: DecodedUnsignedTx;
  try {
    decoded = decodeUnsignedTx(unsignedTx);
  } catch (e) {
    const why = e instanceof ProtocolError ? e.message : String(e);
    throw new TransferVerificationError([
      ...problems,
      { check: 'decode', message: `the unsigned transaction cannot be decoded locally: ${why}` },
    ]);
  }
  return { decoded, txId };
}

function checkEnvelope(
  decoded: DecodedUnsignedTx,
  options: VerifyOptions,
  problems: VerificationProblem[],
  allowScript = false,
): void {
  if (decoded.version !== 0) {
    problems.push({ check: 'decode', message: `transaction version is ${decoded.version}, expected 0` });
  }
  if (options.expectedNetworkId !== undefined && decoded.networkId !== options.expectedNetworkId) {
    problems.push({
      check: 'network',
      message: `the transaction is for network id ${decoded.networkId}, but the active profile is network id ${options.expectedNetworkId}`,
    });
  }
  if (options.refusedNetworkIds?.includes(decoded.networkId)) {
    problems.push({
      check: 'network',
      message: `the transaction is for network id ${decoded.networkId} (${decoded.networkId === 0 ? 'mainnet' : decoded.networkId === 1 ? 'testnet' : 'refused'}), but the active profile is a devnet`,
    });
  }
  if (!allowScript && decoded.scriptOpt !== undefined && decoded.scriptOpt !== '') {
    problems.push({
      check: 'script',
      message: `the transaction carries a script (${decoded.scriptOpt.length / 2} bytes); a transfer must not run any code`,
    });
  }
}

/**
 * Every input must be unlocked by the sender's key: the first by a P2PKH unlock with exactly that key,
 * later ones by the same or by SameAsPrevious (which reuses the previous input's lockup). One signature
 * from us would otherwise authorize spending somebody else's outputs, or hide a P2SH script.
 */
function checkInputs(
  decoded: DecodedUnsignedTx,
  fromPublicKey: string,
  problems: VerificationProblem[],
): void {
  const pub = fromPublicKey.toLowerCase();
  if (decoded.inputs.length === 0) {
    problems.push({ check: 'inputs', message: 'the transaction has no inputs' });
    return;
  }
  const seen = new Set<string>();
  decoded.inputs.forEach((input, i) => {
    const key = input.outputRef.key.toLowerCase();
    if (seen.has(key))
      problems.push({ check: 'inputs', message: `input ${i} spends output ${key} a second time` });
    seen.add(key);
    const unlock = input.unlockScript.toLowerCase();
    const tag = parseInt(unlock.slice(0, 2), 16);
    if (tag === UNLOCK_SCRIPT_TAGS.SameAsPrevious) {
      if (i === 0) {
        problems.push({
          check: 'inputs',
          message: 'input 0 uses SameAsPrevious, but there is no previous input',
        });
      }
      return;
    }
    const inputKey = publicKeyOfUnlockScript(unlock);
    if (tag !== UNLOCK_SCRIPT_TAGS.P2PKH || inputKey === undefined) {
      const name =
        Object.entries(UNLOCK_SCRIPT_TAGS).find(([, v]) => v === tag)?.[0] ?? `tag 0x${unlock.slice(0, 2)}`;
      problems.push({
        check: 'inputs',
        message: `input ${i} is unlocked by a ${name} unlock script, not by the sender's key ${pub}`,
      });
    } else if (inputKey !== pub) {
      problems.push({
        check: 'inputs',
        message: `input ${i} is unlocked with public key ${inputKey}, not the sender's key ${pub}`,
      });
    }
  });
}

function checkGas(
  decoded: DecodedUnsignedTx,
  claimed: { gasAmount?: number; gasPrice?: string },
  requested: { gasAmount?: number; gasPrice?: bigint },
  feeCap: bigint,
  problems: VerificationProblem[],
): { gasPrice: bigint; fee: bigint } {
  const gasPrice = BigInt(decoded.gasPrice);
  if (claimed.gasAmount !== undefined && claimed.gasAmount !== decoded.gasAmount) {
    problems.push({
      check: 'gas',
      message: `the gateway reports gasAmount ${claimed.gasAmount}, but the bytes say ${decoded.gasAmount}`,
    });
  }
  if (claimed.gasPrice !== undefined && String(claimed.gasPrice) !== decoded.gasPrice) {
    problems.push({
      check: 'gas',
      message: `the gateway reports gasPrice ${String(claimed.gasPrice)}, but the bytes say ${decoded.gasPrice}`,
    });
  }
  if (requested.gasAmount !== undefined && requested.gasAmount !== decoded.gasAmount) {
    problems.push({
      check: 'gas',
      message: `gasAmount is ${decoded.gasAmount}, but ${requested.gasAmount} was requested`,
    });
  }
  // An honest node builds at the minimum gas price when none is asked for: anything above it is a fee
  // raised by the gateway (x100 is still under the 1 ALPH cap), not a choice the user made.
  if (requested.gasPrice === undefined && gasPrice !== DEFAULT_GAS_PRICE) {
    problems.push({
      check: 'gas',
      message: `gasPrice is ${gasPrice}, but none was requested and the network minimum is ${DEFAULT_GAS_PRICE}`,
    });
  }
  if (requested.gasAmount === undefined) {
    const bound = transferGasBound(decoded);
    if (decoded.gasAmount > bound) {
      problems.push({
        check: 'gas',
        message: `gasAmount is ${decoded.gasAmount}, more than a transfer of ${decoded.inputs.length} input(s) and ${decoded.fixedOutputs.length} output(s) needs (at most ${bound})`,
      });
    }
  }
  if (requested.gasPrice !== undefined && requested.gasPrice !== gasPrice) {
    problems.push({
      check: 'gas',
      message: `gasPrice is ${gasPrice}, but ${requested.gasPrice} was requested`,
    });
  }
  const fee = BigInt(decoded.gasAmount) * gasPrice;
  if (fee > feeCap) {
    problems.push({
      check: 'fee',
      message: `the fee ${formatAlph(fee)} (gas ${decoded.gasAmount} × price ${gasPrice}) exceeds the cap of ${formatAlph(feeCap)}`,
    });
  }
  return { gasPrice, fee };
}

function checkGroups(
  decoded: DecodedUnsignedTx,
  fromAddress: string,
  claimed: { fromGroup?: number; toGroup?: number },
  problems: VerificationProblem[],
): { fromGroup: number; toGroup: number } {
  if (decoded.inputs.length === 0)
    return { fromGroup: groupOfAddress(fromAddress), toGroup: groupOfAddress(fromAddress) };
  const local = groupsOfUnsignedTx(decoded);
  const senderGroup = groupOfAddress(fromAddress);
  if (local.fromGroup !== senderGroup) {
    problems.push({
      check: 'groups',
      message: `the inputs are in group ${local.fromGroup}, but the sender ${fromAddress} is in group ${senderGroup}`,
    });
  }
  if (claimed.fromGroup !== undefined && claimed.fromGroup !== local.fromGroup) {
    problems.push({
      check: 'groups',
      message: `the gateway reports fromGroup ${claimed.fromGroup}, but the bytes give ${local.fromGroup}`,
    });
  }
  if (claimed.toGroup !== undefined && claimed.toGroup !== local.toGroup) {
    problems.push({
      check: 'groups',
      message: `the gateway reports toGroup ${claimed.toGroup}, but the bytes give ${local.toGroup}`,
    });
  }
  return local;
}

/**
 * A decode endpoint is only trustworthy if its decoding re-encodes to the very bytes we would sign:
 * otherwise it could show the honest request while the bytes pay somebody else.
 */
function checkGatewayDecode(
  unsignedTx: string,
  txId: string,
  gatewayDecode: GatewayDecodeResponse,
  local: { fromGroup: number; toGroup: number } | undefined,
  problems: VerificationProblem[],
): void {
  let reencoded: string;
  try {
    reencoded = encodeUnsignedTx(gatewayDecode.unsignedTx);
  } catch (e) {
    problems.push({
      check: 'gateway-decode',
      message: `the gateway's decoding cannot be re-encoded (${(e as Error).message}), so it cannot be checked against the bytes`,
    });
    return;
  }
  if (reencoded !== unsignedTx.toLowerCase()) {
    problems.push({
      check: 'gateway-decode',
      message: `the gateway's decode endpoint describes a different transaction than the bytes it built: re-encoding its decoding gives txId ${txIdFromUnsignedTx(reencoded)}, the bytes have txId ${txId}`,
    });
    return;
  }
  const claimedId = gatewayDecode.unsignedTx.txId;
  if (claimedId !== undefined && claimedId.toLowerCase() !== txId) {
    problems.push({
      check: 'gateway-decode',
      message: `the gateway's decoding names txId ${claimedId}, but the bytes hash to ${txId}`,
    });
  }
  if (local) {
    for (const k of ['fromGroup', 'toGroup'] as const) {
      const v = gatewayDecode[k];
      if (v !== undefined && v !== local[k]) {
        problems.push({
          check: 'gateway-decode',
          message: `the gateway's decoding reports ${k} ${v}, the bytes give ${local[k]}`,
        });
      }
    }
  }
}

interface NormalizedDestination {
  readonly address: string;
  readonly attoAlphAmount: bigint;
  readonly tokens: readonly VerifiedToken[];
  readonly lockTime: number;
  readonly message: string;
}

function normalizeRequest(request: TransferRequest): {
  destinations: NormalizedDestination[];
  gasAmount?: number;
  gasPrice?: bigint;
} {
  if (!Array.isArray(request.destinations) || request.destinations.length === 0) {
    throw new TransferVerificationError([{ check: 'request', message: 'the request has no destinations' }]);
  }
  const destinations = request.destinations.map((d, i) => {
    const where = `destinations[${i}]`;
    try {
      parseAddress(d.address);
    } catch (e) {
      throw new TransferVerificationError([
        { check: 'request', message: `${where}.address: ${(e as Error).message}` },
      ]);
    }
    return {
      address: d.address,
      attoAlphAmount: toBigInt(d.attoAlphAmount, `${where}.attoAlphAmount`),
      tokens: normalizeTokens(d.tokens ?? [], `${where}.tokens`),
      lockTime: d.lockTime ?? 0,
      message: (d.message ?? '').toLowerCase(),
    };
  });
  return {
    destinations,
    ...(request.gasAmount !== undefined ? { gasAmount: request.gasAmount } : {}),
    ...(request.gasPrice !== undefined ? { gasPrice: toBigInt(request.gasPrice, 'gasPrice') } : {}),
  };
}

/**
 * Outputs [0, n) must be the n destinations in order (the node writes them first, in request order);
 * every later output must be change to the sender: spendable at once (a time-locked "change" would
 * freeze our own money), without a message, at most one ALPH-only change and at most one token-change
 * output per token (since Leman an asset output holds at most one token).
 */
function checkTransferOutputs(
  decoded: DecodedUnsignedTx,
  destinations: readonly NormalizedDestination[],
  fromAddress: string,
  problems: VerificationProblem[],
): { outputs: VerifiedOutput[]; change: VerifiedOutput[] } {
  const all = decoded.fixedOutputs.map((o, i) => outputOf(o, `fixedOutputs[${i}]`));
  const outputs: VerifiedOutput[] = [];
  const change: VerifiedOutput[] = [];
  if (all.length < destinations.length) {
    problems.push({
      check: 'outputs',
      message: `the transaction has ${all.length} output(s), fewer than the ${destinations.length} requested destination(s)`,
    });
  }
  destinations.forEach((want, i) => {
    const got = all[i];
    if (!got) return;
    outputs.push(got);
    if (!sameLockup(got.address, want.address)) {
      problems.push({
        check: 'outputs',
        message: `output ${i} pays ${got.address}, but destination ${i} is ${want.address}`,
      });
    }
    if (got.attoAlphAmount !== want.attoAlphAmount) {
      problems.push({
        check: 'outputs',
        message: `output ${i} carries ${formatAlph(got.attoAlphAmount)}, but destination ${i} asked for ${formatAlph(want.attoAlphAmount)}`,
      });
    }
    if (!sameTokens(got.tokens, want.tokens)) {
      problems.push({
        check: 'outputs',
        message: `output ${i} carries ${tokensText(got.tokens)}, but destination ${i} asked for ${tokensText(want.tokens)}`,
      });
    }
    if (got.lockTime !== want.lockTime) {
      problems.push({
        check: 'outputs',
        message: `output ${i} is locked until ${got.lockTime}, but destination ${i} asked for lockTime ${want.lockTime}`,
      });
    }
    if (got.message !== want.message) {
      problems.push({
        check: 'outputs',
        message: `output ${i} carries message '${got.message}', but destination ${i} asked for '${want.message}'`,
      });
    }
  });
  let alphChange = 0;
  const tokenChange = new Set<string>();
  all.slice(destinations.length).forEach((o, k) => {
    const i = destinations.length + k;
    const what = `output ${i} (${formatAlph(o.attoAlphAmount)}${o.tokens.length > 0 ? `, ${tokensText(o.tokens)}` : ''})`;
    if (!sameLockup(o.address, fromAddress)) {
      problems.push({
        check: 'outputs',
        message: `${what} pays ${o.address}: it is neither a requested destination nor change to the sender ${fromAddress}`,
      });
      return;
    }
    change.push(o);
    if (o.lockTime !== 0) {
      problems.push({ check: 'outputs', message: `change ${what} is time-locked until ${o.lockTime}` });
    }
    if (o.message !== '') {
      problems.push({
        check: 'outputs',
        message: `change ${what} carries an unexpected message '${o.message}'`,
      });
    }
    if (o.tokens.length === 0) {
      if (++alphChange > 1) {
        problems.push({
          check: 'outputs',
          message: `${what} is a second ALPH change output; at most one is expected`,
        });
      }
    } else if (o.tokens.length > 1) {
      problems.push({
        check: 'outputs',
        message: `change ${what} holds several tokens; token change holds one`,
      });
    } else {
      const id = (o.tokens[0] as VerifiedToken).id;
      if (tokenChange.has(id)) {
        problems.push({ check: 'outputs', message: `${what} is a second change output for token ${id}` });
      }
      tokenChange.add(id);
    }
    if (o.attoAlphAmount < DUST_ATTO) {
      problems.push({ check: 'outputs', message: `change ${what} is below the dust minimum` });
    }
  });
  return { outputs, change };
}

function fundingTxsProblem(response: { fundingTxs?: readonly unknown[] }): VerificationProblem | undefined {
  const funding = response.fundingTxs;
  if (funding === undefined || funding === null) return undefined;
  if (!Array.isArray(funding) || funding.length > 0) {
    return {
      check: 'funding-txs',
      message: `the build response carries ${Array.isArray(funding) ? funding.length : 'malformed'} funding transaction(s) (a groupless Danube build); they must be signed and submitted before the main transaction, which this extension does not support, and it never signs only part of such a set`,
    };
  }
  return undefined;
}

// ---- public API ---------------------------------------------------------------------------------------

/**
 * Verifies a built transfer against the request. Throws {@link TransferVerificationError} listing every
 * difference; returns the {@link VerifiedTransfer} that may be confirmed and signed.
 */
export function verifyTransfer(
  request: TransferRequest,
  response: BuildResponse,
  gatewayDecode?: GatewayDecodeResponse,
  options: VerifyOptions = {},
): VerifiedTransfer {
  const funding = fundingTxsProblem(response);
  if (funding) throw new TransferVerificationError([funding]);
  const fromAddress = senderAddress(request.fromPublicKey);
  const normalized = normalizeRequest(request);
  const feeCap = options.feeCapAtto ?? DEFAULT_FEE_CAP_ATTO;
  const problems: VerificationProblem[] = [];

  const { decoded, txId } = decodeChecked(response.unsignedTx, response.txId, problems);
  const local = decoded.inputs.length > 0 ? groupsOfUnsignedTx(decoded) : undefined;
  if (gatewayDecode) checkGatewayDecode(response.unsignedTx, txId, gatewayDecode, local, problems);
  checkEnvelope(decoded, options, problems);
  checkInputs(decoded, request.fromPublicKey, problems);
  const { outputs, change } = checkTransferOutputs(decoded, normalized.destinations, fromAddress, problems);
  const { gasPrice, fee } = checkGas(
    decoded,
    { gasAmount: response.gasAmount, gasPrice: response.gasPrice },
    normalized,
    feeCap,
    problems,
  );
  const groups = checkGroups(decoded, fromAddress, response, problems);
  if (problems.length > 0) throw new TransferVerificationError(problems);

  const spentTokens = new Map<string, bigint>();
  for (const o of outputs) addTokens(spentTokens, o.tokens);
  return new VerifiedTransfer(ISSUE, {
    kind: 'transfer',
    txId,
    unsignedTx: response.unsignedTx.toLowerCase(),
    fromPublicKey: request.fromPublicKey.toLowerCase(),
    fromAddress,
    networkId: decoded.networkId,
    fromGroup: groups.fromGroup,
    toGroup: groups.toGroup,
    gasAmount: decoded.gasAmount,
    gasPrice,
    fee,
    outputs,
    change,
    totalAlphSpent: outputs.reduce((s, o) => s + o.attoAlphAmount, 0n) + fee,
    tokensSpent: tokenList(spentTokens),
  });
}

export interface SweepRequestToVerify {
  readonly fromPublicKey: string;
  readonly toAddress: string;
  /** The lockTime asked for the swept outputs (default 0). */
  readonly lockTime?: number;
  readonly gasAmount?: number;
  readonly gasPrice?: bigint | string;
}

export interface SweepTxToVerify {
  readonly txId: string;
  readonly unsignedTx: string;
  readonly gasAmount?: number;
  readonly gasPrice?: string;
}

export interface VerifiedSweep {
  readonly fromAddress: string;
  readonly toAddress: string;
  /** In the order they must be signed and submitted. */
  readonly txs: readonly VerifiedTransfer[];
  /** ALPH arriving at the destination, over all transactions. */
  readonly totalSwept: bigint;
  readonly totalFee: bigint;
  readonly tokensSwept: readonly VerifiedToken[];
}

/**
 * Verifies every transaction of a sweep: txId recomputed, no script, inputs the sender's (and no input
 * spent by two of them, which would make all but one fail), and every output to `toAddress`, nothing to
 * anybody else, not even change. Problems are prefixed with the transaction's position.
 */
export function verifySweep(
  request: SweepRequestToVerify,
  unsignedTxs: readonly SweepTxToVerify[],
  options: VerifyOptions & { fromGroup?: number; toGroup?: number } = {},
): VerifiedSweep {
  const fromAddress = senderAddress(request.fromPublicKey);
  try {
    parseAddress(request.toAddress);
  } catch (e) {
    throw new TransferVerificationError([
      { check: 'request', message: `toAddress: ${(e as Error).message}` },
    ]);
  }
  if (!Array.isArray(unsignedTxs) || unsignedTxs.length === 0) {
    throw new TransferVerificationError([
      { check: 'outputs', message: 'the sweep has no transactions to sign' },
    ]);
  }
  const feeCap = options.feeCapAtto ?? DEFAULT_FEE_CAP_ATTO;
  const wantLock = request.lockTime ?? 0;
  const requestedGas = {
    ...(request.gasAmount !== undefined ? { gasAmount: request.gasAmount } : {}),
    ...(request.gasPrice !== undefined ? { gasPrice: toBigInt(request.gasPrice, 'gasPrice') } : {}),
  };
  const problems: VerificationProblem[] = [];
  const spentInputs = new Map<string, number>();
  const verified: VerifiedFields[] = [];
  unsignedTxs.forEach((tx, k) => {
    const local: VerificationProblem[] = [];
    let decoded: DecodedUnsignedTx;
    let txId: string;
    try {
      ({ decoded, txId } = decodeChecked(tx.unsignedTx, tx.txId, local));
    } catch (e) {
      if (!(e instanceof TransferVerificationError)) throw e;
      problems.push(...e.problems.map((p) => ({ ...p, message: `sweep tx ${k}: ${p.message}` })));
      return;
    }
    checkEnvelope(decoded, options, local);
    checkInputs(decoded, request.fromPublicKey, local);
    for (const input of decoded.inputs) {
      const key = input.outputRef.key.toLowerCase();
      const other = spentInputs.get(key);
      if (other !== undefined && other !== k) {
        local.push({ check: 'inputs', message: `input ${key} is also spent by sweep tx ${other}` });
      }
      spentInputs.set(key, k);
    }
    const outputs = decoded.fixedOutputs.map((o, i) => outputOf(o, `fixedOutputs[${i}]`));
    if (outputs.length === 0) local.push({ check: 'outputs', message: 'the transaction has no outputs' });
    outputs.forEach((o, i) => {
      if (!sameLockup(o.address, request.toAddress)) {
        local.push({
          check: 'outputs',
          message: `output ${i} pays ${formatAlph(o.attoAlphAmount)} to ${o.address}, not to the sweep destination ${request.toAddress}`,
        });
      }
      if (o.lockTime !== wantLock) {
        local.push({
          check: 'outputs',
          message: `output ${i} is locked until ${o.lockTime}, expected ${wantLock}`,
        });
      }
      if (o.message !== '') {
        local.push({ check: 'outputs', message: `output ${i} carries an unexpected message '${o.message}'` });
      }
    });
    const { gasPrice, fee } = checkGas(decoded, tx, requestedGas, feeCap, local);
    const groups = checkGroups(
      decoded,
      fromAddress,
      { fromGroup: options.fromGroup, toGroup: options.toGroup },
      local,
    );
    problems.push(...local.map((p) => ({ ...p, message: `sweep tx ${k}: ${p.message}` })));
    const tokens = new Map<string, bigint>();
    for (const o of outputs) addTokens(tokens, o.tokens);
    verified.push({
      kind: 'sweep',
      txId,
      unsignedTx: tx.unsignedTx.toLowerCase(),
      fromPublicKey: request.fromPublicKey.toLowerCase(),
      fromAddress,
      networkId: decoded.networkId,
      fromGroup: groups.fromGroup,
      toGroup: groups.toGroup,
      gasAmount: decoded.gasAmount,
      gasPrice,
      fee,
      outputs,
      change: [],
      totalAlphSpent: outputs.reduce((s, o) => s + o.attoAlphAmount, 0n) + fee,
      tokensSpent: tokenList(tokens),
    });
  });
  // The cap is what the user may lose to fees in one go: a sweep of N transactions must not cost N caps.
  const totalFee = verified.reduce((s, f) => s + f.fee, 0n);
  if (totalFee > feeCap) {
    problems.push({
      check: 'gas',
      message: `the sweep's fees add up to ${formatAlph(totalFee)} over ${verified.length} transaction(s), above the cap of ${formatAlph(feeCap)}`,
    });
  }
  if (problems.length > 0) throw new TransferVerificationError(problems);
  const txs = verified.map((f) => new VerifiedTransfer(ISSUE, f));
  const tokens = new Map<string, bigint>();
  for (const t of txs) addTokens(tokens, t.tokensSpent);
  return deepFreeze({
    fromAddress,
    toAddress: request.toAddress,
    txs,
    totalSwept: txs.reduce((s, t) => s + t.totalAlphSpent - t.fee, 0n),
    totalFee: txs.reduce((s, t) => s + t.fee, 0n),
    tokensSwept: tokenList(tokens),
  });
}

// ---- script transactions (execute a method, deploy a contract) ---------------------------------------

/** What the user chose, as the reference a built script transaction is compared to. */
export interface ScriptTxRequest {
  readonly kind: 'execute' | 'deploy';
  readonly fromPublicKey: string;
  /**
   * The script the transaction must carry, built locally: for execute the very bytecode sent to the
   * gateway, for deploy the script the node compiles around the contract's bytecode and fields.
   */
  readonly expectedScript: string;
  /** The assets the script approves (they are inside `expectedScript`; listed for the confirmation). */
  readonly approvedAttoAlph: bigint;
  readonly approvedTokens: readonly TokenAmountRequest[];
  readonly gasAmount?: number;
  readonly gasPrice?: bigint | string;
  /**
   * The gas a dry run of the same script used; with no gas requested, the built gas may be at most
   * this plus what its inputs and outputs cost (+25 %), so a gateway cannot inflate the fee.
   */
  readonly simulatedGas?: number;
  /** Says what differs between the expected and the built script ("calls method 3 instead of 1"). */
  readonly describeScriptDifference?: (expected: string, actual: string) => string | undefined;
}

/**
 * Verifies a built script transaction: the txId is blake2b of the bytes, the script is byte for byte the
 * one built locally (so the method, the arguments and the approved assets are exactly the user's), every
 * input is the signer's, every fixed output is change back to the signer (approved assets leave only
 * through the script, which approves exactly what the user approved), and gas and fee are within bounds.
 */
export function verifyScriptTx(
  request: ScriptTxRequest,
  response: BuildResponse,
  options: VerifyOptions = {},
): VerifiedTransfer {
  const funding = fundingTxsProblem(response);
  if (funding) throw new TransferVerificationError([funding]);
  const fromAddress = senderAddress(request.fromPublicKey);
  const expectedScript = request.expectedScript.toLowerCase();
  if (!isHex(expectedScript) || expectedScript.length === 0) {
    throw new TransferVerificationError([{ check: 'request', message: 'the expected script is not hex' }]);
  }
  const approvedTokens = normalizeTokens(request.approvedTokens, 'approvedTokens');
  const requestedGasPrice =
    request.gasPrice !== undefined ? toBigInt(request.gasPrice, 'gasPrice') : undefined;
  const feeCap = options.feeCapAtto ?? DEFAULT_FEE_CAP_ATTO;
  const problems: VerificationProblem[] = [];

  const { decoded, txId } = decodeChecked(response.unsignedTx, response.txId, problems);
  checkEnvelope(decoded, options, problems, true);
  const actualScript = (decoded.scriptOpt ?? '').toLowerCase();
  if (actualScript === '') {
    problems.push({
      check: 'script',
      message: 'the transaction carries no script: it would not run anything',
    });
  } else if (actualScript !== expectedScript) {
    const why = request.describeScriptDifference?.(expectedScript, actualScript);
    problems.push({
      check: 'script',
      message: `the transaction's script is not the one built for your ${request.kind === 'deploy' ? 'deployment' : 'call'}${why ? `: ${why}` : ''} (${actualScript.length / 2} bytes, expected ${expectedScript.length / 2})`,
    });
  }
  checkInputs(decoded, request.fromPublicKey, problems);
  const { change } = checkTransferOutputs(decoded, [], fromAddress, problems);
  const requested = {
    ...(request.gasAmount !== undefined ? { gasAmount: request.gasAmount } : {}),
    ...(requestedGasPrice !== undefined ? { gasPrice: requestedGasPrice } : {}),
  };
  // The transfer-shape bound does not apply to scripts; their own bound is checked below.
  const { gasPrice, fee } = checkGas(
    decoded,
    { gasAmount: response.gasAmount, gasPrice: response.gasPrice },
    { ...requested, gasAmount: request.gasAmount ?? decoded.gasAmount },
    feeCap,
    problems,
  );
  // Every script transaction has a gas bound that does not come from the gateway alone (gasBounds.ts):
  // the deploy script's size, or the dry run's gas under an absolute ceiling.
  if (request.gasAmount === undefined) {
    const bound = scriptGasBound({
      kind: request.kind,
      scriptBytes: expectedScript.length / 2,
      inputs: decoded.inputs.length,
      outputs: decoded.fixedOutputs.length,
      ...(request.simulatedGas !== undefined ? { simulatedGas: request.simulatedGas } : {}),
    });
    if (decoded.gasAmount > bound.maxGas) {
      problems.push({ check: 'gas', message: `gasAmount is ${decoded.gasAmount}, but ${bound.rule}` });
    }
  }
  const groups = checkGroups(decoded, fromAddress, response, problems);
  if (problems.length > 0) throw new TransferVerificationError(problems);

  return new VerifiedTransfer(ISSUE, {
    kind: 'script',
    txId,
    unsignedTx: response.unsignedTx.toLowerCase(),
    fromPublicKey: request.fromPublicKey.toLowerCase(),
    fromAddress,
    networkId: decoded.networkId,
    fromGroup: groups.fromGroup,
    toGroup: groups.toGroup,
    gasAmount: decoded.gasAmount,
    gasPrice,
    fee,
    outputs: [],
    change,
    totalAlphSpent: request.approvedAttoAlph + fee,
    tokensSpent: approvedTokens,
    script: {
      kind: request.kind,
      bytecode: expectedScript,
      approvedAttoAlph: request.approvedAttoAlph,
      approvedTokens,
    },
  });
}

export interface SignedTransfer {
  readonly txId: string;
  readonly unsignedTx: string;
  readonly signature: string;
  readonly fromGroup: number;
  readonly toGroup: number;
}

/** Raised when something that did not come out of verification is handed to the signer. */
export class NotVerifiedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotVerifiedError';
  }
}

/**
 * Signs a verified transfer's txId with the sender's key (ECDSA over the 32 txId bytes, low-S). The
 * key must be the one whose public key the transfer was verified for; it is never echoed in errors.
 */
export function signVerifiedTransfer(verified: VerifiedTransfer, privateKeyHex: string): SignedTransfer {
  if (!isVerifiedTransfer(verified)) {
    throw new NotVerifiedError(
      'Refusing to sign: only a transaction returned by verifyTransfer/verifySweep can be signed',
    );
  }
  // Frozen, so this cannot differ; recomputing costs microseconds and keeps the invariant local.
  if (txIdFromUnsignedTx(verified.unsignedTx) !== verified.txId) {
    throw new NotVerifiedError('Refusing to sign: the txId no longer matches the verified bytes');
  }
  let publicKey: string;
  try {
    publicKey = publicKeyFromPrivateKey(privateKeyHex);
  } catch (e) {
    throw new NotVerifiedError(`Cannot sign: ${(e as Error).message}`);
  }
  if (publicKey !== verified.fromPublicKey) {
    throw new NotVerifiedError(
      `Cannot sign: the signing key's public key ${publicKey} is not the sender ${verified.fromPublicKey} the transaction was verified for`,
    );
  }
  const signature = signTxId(verified.txId, privateKeyHex);
  // A signature the node would reject is worse than none: it burns a submit and confuses the user.
  if (!verifyTxIdSignature(verified.txId, signature, publicKey)) {
    throw new NotVerifiedError('Signing produced a signature that does not verify');
  }
  return {
    txId: verified.txId,
    unsignedTx: verified.unsignedTx,
    signature,
    fromGroup: verified.fromGroup,
    toGroup: verified.toGroup,
  };
}
