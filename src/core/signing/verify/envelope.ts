/**
 * The checks every built transaction gets, whatever it does: the txId is blake2b-256 of the bytes, the
 * bytes decode locally (and the gateway's own decoding, when asked, re-encodes to them), the version and
 * network are the expected ones, every input is unlocked by the sender's key, gas and fee are the ones
 * asked for and under the cap, and the groups are the bytes' own. Each check adds what it finds to a list
 * of problems, so one refusal names every difference.
 */
import {
  DEFAULT_GAS_PRICE,
  ONE_ALPH,
  ProtocolError,
  UNLOCK_SCRIPT_TAGS,
  addressFromPublicKey,
  decodeUnsignedTx,
  encodeUnsignedTx,
  formatAlph,
  groupOfAddress,
  groupsOfUnsignedTx,
  isHex,
  publicKeyOfUnlockScript,
  txIdFromUnsignedTx,
  type DecodedUnsignedTx,
  type UnsignedTxInput,
} from '../../protocol';
import { shapeGas } from '../gasBounds';
import { TransferVerificationError, type VerificationProblem } from './result';

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

export function senderAddress(fromPublicKey: string): string {
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
export function decodeChecked(
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

export function checkEnvelope(
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
export function checkInputs(
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

export function checkGas(
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

export function checkGroups(
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
export function checkGatewayDecode(
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

/** A groupless (Danube) build comes with funding transactions: refused whole, never half signed. */
export function fundingTxsProblem(response: {
  fundingTxs?: readonly unknown[];
}): VerificationProblem | undefined {
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
