/**
 * "Decode Unsigned Transaction": the pasted bytes are decoded locally (the authority: they are what a
 * signature would commit to), the txId is recomputed from them, and the gateway's decoding, when asked,
 * is believed only if it re-encodes to exactly the same bytes. A gateway that describes other bytes
 * than the ones it handed out is named as such instead of being shown as the truth.
 */
import {
  decodeUnsignedTx,
  encodeUnsignedTx,
  groupsOfUnsignedTx,
  type DecodedUnsignedTx,
  type UnsignedTxInput,
} from '../protocol';

export type GatewayAgreement = 'agrees' | 'disagrees' | 'not-asked' | 'unavailable';

export interface DecodeCheck {
  readonly decoded: DecodedUnsignedTx;
  readonly txId: string;
  readonly fee: bigint;
  readonly groups?: { readonly fromGroup: number; readonly toGroup: number };
  readonly gateway: GatewayAgreement;
  /** What differed between the gateway's decoding and the bytes, or why it could not be asked. */
  readonly problems: readonly string[];
}

/** Accepts hex with surrounding whitespace, quotes or a 0x prefix, since people paste from many places. */
export function normalizeUnsignedTxHex(text: string): string {
  return text
    .trim()
    .replace(/^["']|["']$/g, '')
    .replace(/^0x/i, '')
    .replace(/\s+/g, '')
    .toLowerCase();
}

export function checkUnsignedTx(
  hexText: string,
  gatewayDecode?: { readonly unsignedTx: UnsignedTxInput } | Error,
): DecodeCheck {
  const hex = normalizeUnsignedTxHex(hexText);
  const decoded = decodeUnsignedTx(hex);
  const fee = BigInt(decoded.gasAmount) * BigInt(decoded.gasPrice);
  const groups = decoded.inputs.length > 0 ? groupsOfUnsignedTx(decoded) : undefined;
  const problems: string[] = [];
  let gateway: GatewayAgreement = 'not-asked';
  if (gatewayDecode instanceof Error) {
    gateway = 'unavailable';
    problems.push(`The gateway could not decode it: ${gatewayDecode.message}`);
  } else if (gatewayDecode) {
    const theirs = gatewayDecode.unsignedTx;
    let reencoded: string | undefined;
    try {
      reencoded = encodeUnsignedTx(theirs);
    } catch (e) {
      problems.push(`The gateway's decoding cannot be re-encoded: ${(e as Error).message}`);
    }
    if (reencoded !== undefined && reencoded !== hex) {
      problems.push("The gateway's decoding describes different bytes than the ones pasted");
    }
    if (typeof theirs.txId === 'string' && theirs.txId.toLowerCase() !== decoded.txId) {
      problems.push(`The gateway reports txId ${theirs.txId}, but the bytes hash to ${decoded.txId}`);
    }
    gateway = problems.length === 0 ? 'agrees' : 'disagrees';
  }
  return { decoded, txId: decoded.txId, fee, ...(groups ? { groups } : {}), gateway, problems };
}
