/**
 * Hashes and signatures (`Instr.scala`: `HashAlg`, `VerifyTxSignature`, `GenericVerifySignature`,
 * `VerifySignature`, `EthEcRecover`, `GetSegregatedSignature`), on @noble. The node accepts only
 * low-S ECDSA signatures (`SecP256K1.verify` and `SecP256R1.verify` check `isCanonical(s)`), verifies
 * the 32 data bytes as they are (no prehash), and takes compressed 33-byte keys.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { p256 } from '@noble/curves/nist.js';
import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256, sha3_256 } from '@noble/hashes/sha3.js';
import { blake2b256, bytesToHex, concatBytes } from '../../protocol';
import { fail } from '../failure';
import type { Frame } from '../frame';
import { gasHash } from '../gas';
import { vByteVec } from '../values';
import type { Handler, HandlerTable } from './handler';

type Verifier = (data: Uint8Array, signature: Uint8Array, publicKey: Uint8Array) => boolean;

const SIGNATURE_LENGTH = 64;
const SIGNED_DATA_LENGTH = 32;

function safely(verify: Verifier): Verifier {
  return (data, signature, publicKey) => {
    try {
      return verify(data, signature, publicKey);
    } catch {
      return false;
    }
  };
}

const verifySecp256k1 = safely((data, sig, key) =>
  secp256k1.verify(sig, data, key, { prehash: false, lowS: true, format: 'compact' }),
);
const verifySecp256r1 = safely((data, sig, key) =>
  p256.verify(sig, data, key, { prehash: false, lowS: true, format: 'compact' }),
);
const verifyEd25519 = safely((data, sig, key) => ed25519.verify(sig, data, key, { zip215: false }));
const verifyBip340 = safely((data, sig, key) => schnorr.verify(sig, data, key));

function hashWith(hash: (bytes: Uint8Array) => Uint8Array): Handler {
  return (frame) => {
    const input = frame.popByteVec();
    frame.ctx.chargeGas(gasHash(input.length));
    frame.push(vByteVec(hash(input)));
  };
}

function invalidSignature(publicKey: Uint8Array, data: Uint8Array, signature: Uint8Array): never {
  fail(
    'InvalidSignature',
    `Verification failed for signature ${bytesToHex(signature)}, public key: ${bytesToHex(publicKey)}, message: ${bytesToHex(data)}`,
  );
}

function checkSignedData(data: Uint8Array): void {
  if (data.length !== SIGNED_DATA_LENGTH) {
    fail('SignedDataIsNot32Bytes', `Signed data bytes should have 32 bytes, get ${data.length} instead`);
  }
}

/** `GenericVerifySignature`: pops the signature, then the public key, then the signed data. */
function verifyWith(publicKeyLength: number, verify: Verifier): Handler {
  return (frame) => {
    const signature = frame.popByteVec();
    if (signature.length !== SIGNATURE_LENGTH) {
      fail('InvalidSignatureFormat', `Signature ${bytesToHex(signature)} is not in the correct format`);
    }
    const publicKey = frame.popByteVec();
    if (publicKey.length !== publicKeyLength) {
      fail('InvalidPublicKey', `Invalid public key: ${bytesToHex(publicKey)}`);
    }
    const data = frame.popByteVec();
    checkSignedData(data);
    if (!verify(data, signature, publicKey)) invalidSignature(publicKey, data, signature);
  };
}

/** Signs the tx id with the next script signature (`VerifyTxSignature`). */
const verifyTxSignature: Handler = (frame) => {
  const publicKey = frame.popByteVec();
  if (publicKey.length !== 33) fail('InvalidPublicKey', `Invalid public key: ${bytesToHex(publicKey)}`);
  const signature = frame.ctx.popSignature();
  const txId = frame.ctx.txEnv.txId;
  if (!verifySecp256k1(txId, signature, publicKey)) invalidSignature(publicKey, txId, signature);
};

/** `PublicKeyLike` kinds by their type byte, with the key length each takes and how it verifies. */
const PUBLIC_KEY_KINDS: ReadonlyArray<{ readonly length: number; readonly verify?: Verifier }> = [
  { length: 33, verify: verifySecp256k1 },
  { length: 33, verify: verifySecp256r1 },
  { length: 32, verify: verifyEd25519 },
  { length: 33 },
];

/**
 * Danube's `VerifySignature`: the key type byte, the signature, the key and the data. WebAuthn keys
 * (type 3) need the WebAuthn payload decoder, which this milestone does not have: they stop the run
 * with an Error rather than a guessed answer.
 */
const verifySignature: Handler = (frame) => {
  const keyType = frame.popByteVec();
  if (keyType.length !== 1) fail('InvalidPublicKeyType', `InvalidPublicKeyType(${bytesToHex(keyType)})`);
  const signature = frame.popByteVec();
  const rawPublicKey = frame.popByteVec();
  const publicKeyBytes = concatBytes(keyType, rawPublicKey);
  const kind = PUBLIC_KEY_KINDS[keyType[0] as number];
  if (kind === undefined || rawPublicKey.length !== kind.length) {
    fail('InvalidPublicKey', `Invalid public key: ${bytesToHex(publicKeyBytes)}`);
  }
  const data = frame.popByteVec();
  checkSignedData(data);
  if (kind.verify === undefined) throw new Error('VerifySignature with a WebAuthn key is not supported yet');
  if (signature.length !== SIGNATURE_LENGTH) {
    fail('InvalidSignatureFormat', `Signature ${bytesToHex(signature)} is not in the correct format`);
  }
  if (!kind.verify(data, signature, rawPublicKey)) invalidSignature(publicKeyBytes, data, signature);
};

/** Ethereum's ecrecover: 65 bytes r ‖ s ‖ v with v 27 or 28; pushes the 20-byte address. */
function ethEcRecover(messageHash: Uint8Array, signature: Uint8Array): Uint8Array | undefined {
  if (messageHash.length !== 32 || signature.length !== 65) return undefined;
  const recovery = (signature[64] as number) - 27;
  if (recovery !== 0 && recovery !== 1) return undefined;
  try {
    const point = secp256k1.Signature.fromBytes(signature.subarray(0, 64), 'compact')
      .addRecoveryBit(recovery)
      .recoverPublicKey(messageHash);
    return keccak_256(point.toBytes(false).subarray(1)).subarray(12);
  } catch {
    return undefined;
  }
}

const ecRecover: Handler = (frame) => {
  const signature = frame.popByteVec();
  const messageHash = frame.popByteVec();
  const address = ethEcRecover(messageHash, signature) ?? fail('FailedInRecoverEthAddress');
  frame.push(vByteVec(address));
};

const segregatedSignature: Handler = (frame: Frame) => frame.push(vByteVec(frame.ctx.popSignature()));

export const CRYPTO_HANDLERS: HandlerTable = {
  Blake2b: hashWith(blake2b256),
  Keccak256: hashWith(keccak_256),
  Sha256: hashWith(sha256),
  Sha3: hashWith(sha3_256),
  VerifyTxSignature: verifyTxSignature,
  VerifySecP256K1: verifyWith(33, verifySecp256k1),
  VerifyED25519: verifyWith(32, verifyEd25519),
  VerifyBIP340Schnorr: verifyWith(32, verifyBip340),
  VerifySignature: verifySignature,
  EthEcRecover: ecRecover,
  GetSegregatedSignature: segregatedSignature,
  GetSegregatedWebAuthnSignature: () => {
    throw new Error('GetSegregatedWebAuthnSignature is not supported yet (WebAuthn payloads)');
  },
};
