/**
 * Hand-built transfer fixtures: an honest build, and a way to tamper with any field of it and re-encode,
 * so every refusal of the verifier can be shown on exactly one difference.
 */
import {
  DUST_ATTO,
  ONE_ALPH,
  addressFromPublicKey,
  blake2b256,
  bytesToHex,
  encodeUnsignedTx,
  groupsOfUnsignedTx,
  decodeUnsignedTx,
  p2pkhUnlockScript,
  parseAddress,
  scriptHintOfLockupScript,
  txIdFromUnsignedTx,
  type UnsignedTxInput,
} from '../../../src/core/protocol';
import { publicKeyFromPrivateKey } from '../../../src/core/protocol/keys';
import type { BuildResponse, GatewayDecodeResponse, TransferRequest } from '../../../src/core/signing/verify';

export function keyOf(label: string): { privateKey: string; publicKey: string; address: string } {
  const privateKey = bytesToHex(blake2b256(new TextEncoder().encode(`workflows test key ${label}`)));
  const publicKey = publicKeyFromPrivateKey(privateKey);
  return { privateKey, publicKey, address: addressFromPublicKey(publicKey) };
}

export const SENDER = keyOf('sender');
export const RECIPIENT = keyOf('recipient');
export const SECOND = keyOf('second recipient');
export const ATTACKER = keyOf('attacker');
export const TOKEN_ID = bytesToHex(blake2b256(new TextEncoder().encode('a token')));
export const NETWORK_ID = 4;

export function refKey(label: string): string {
  return bytesToHex(blake2b256(new TextEncoder().encode(`utxo ${label}`)));
}

export function hintOf(address: string): number {
  return scriptHintOfLockupScript(parseAddress(address).lockupScript);
}

export type Output = UnsignedTxInput['fixedOutputs'][number];

export function out(address: string, atto: bigint, extra: Partial<Output> = {}): Output {
  return { attoAlphAmount: String(atto), address, tokens: [], lockTime: 0, message: '', ...extra };
}

/** The honest transaction: 1 ALPH to RECIPIENT, change back to SENDER, two inputs (second SameAsPrevious). */
export function honestTx(outputs?: Output[]): UnsignedTxInput {
  return {
    version: 0,
    networkId: NETWORK_ID,
    gasAmount: 20000,
    gasPrice: String(10n ** 11n),
    inputs: [
      {
        outputRef: { hint: hintOf(SENDER.address), key: refKey('a') },
        unlockScript: p2pkhUnlockScript(SENDER.publicKey),
      },
      { outputRef: { hint: hintOf(SENDER.address), key: refKey('b') }, unlockScript: '03' },
    ],
    fixedOutputs: outputs ?? [out(RECIPIENT.address, ONE_ALPH), out(SENDER.address, 5n * ONE_ALPH)],
  };
}

export function honestRequest(extra: Partial<TransferRequest> = {}): TransferRequest {
  return {
    fromPublicKey: SENDER.publicKey,
    destinations: [{ address: RECIPIENT.address, attoAlphAmount: ONE_ALPH }],
    ...extra,
  };
}

/** What an honest gateway answers for `tx`; `override` changes the claims without touching the bytes. */
export function responseFor(tx: UnsignedTxInput, override: Partial<BuildResponse> = {}): BuildResponse {
  const unsignedTx = encodeUnsignedTx(tx);
  const groups = groupsOfUnsignedTx(decodeUnsignedTx(unsignedTx));
  return {
    unsignedTx,
    txId: txIdFromUnsignedTx(unsignedTx),
    gasAmount: tx.gasAmount,
    gasPrice: tx.gasPrice,
    ...groups,
    ...override,
  };
}

export function decodeResponseFor(tx: UnsignedTxInput): GatewayDecodeResponse {
  const hex = encodeUnsignedTx(tx);
  return { ...groupsOfUnsignedTx(decodeUnsignedTx(hex)), unsignedTx: decodeUnsignedTx(hex) };
}

export const DUST = DUST_ATTO;
