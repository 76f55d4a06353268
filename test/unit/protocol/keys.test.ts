import { strict as assert } from 'node:assert';
import * as sdk from '@alephium/web3';
import { addressFromPublicKey, groupOfAddress } from '../../../src/core/protocol';
import {
  publicKeyFromPrivateKey,
  randomPrivateKey,
  signTxId,
  verifyTxIdSignature,
} from '../../../src/core/protocol/keys';
import { deriveKeyFromMnemonic, mnemonicProblem } from '../../../src/core/protocol/mnemonic';
import { Rng, assertProtocolError } from './helpers';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

function flipS(sigHex: string): string {
  const s = BigInt(`0x${sigHex.slice(64)}`);
  return sigHex.slice(0, 64) + (N - s).toString(16).padStart(64, '0');
}

describe('protocol/keys vs @alephium/web3', () => {
  it('200 seeded keys: same public key, address and group as the SDK', () => {
    const rng = new Rng(20250101);
    for (let i = 0; i < 200; i++) {
      const sk = rng.hex(32);
      const pub = publicKeyFromPrivateKey(sk);
      assert.equal(pub, sdk.publicKeyFromPrivateKey(sk), `key #${i}`);
      const address = addressFromPublicKey(pub);
      assert.equal(address, sdk.addressFromPublicKey(pub), `key #${i}`);
      assert.equal(groupOfAddress(address), sdk.groupOfAddress(address), `key #${i}`);
    }
  });

  it('200 seeded txIds: signatures byte-identical to transactionSign, and cross-verified', () => {
    const rng = new Rng(777);
    for (let i = 0; i < 200; i++) {
      const sk = rng.hex(32);
      const txId = rng.hex(32);
      const pub = sdk.publicKeyFromPrivateKey(sk);
      const sig = signTxId(txId, sk);
      assert.equal(sig, sdk.transactionSign(txId, sk), `#${i}`);
      assert.match(sig, /^[0-9a-f]{128}$/);
      assert.ok(BigInt(`0x${sig.slice(64)}`) <= N / 2n, 'low-S');
      assert.ok(sdk.transactionVerifySignature(txId, pub, sig), `SDK verifies #${i}`);
      assert.ok(verifyTxIdSignature(txId, sig, pub), `we verify #${i}`);
      // Signing must not hash first: a signature over sha256(txId) must not verify.
      const other = rng.hex(32);
      assert.equal(verifyTxIdSignature(other, sig, pub), false);
    }
  });

  it('rejects the high-S twin of every valid signature, as the node and SDK do', () => {
    const rng = new Rng(31337);
    for (let i = 0; i < 50; i++) {
      const sk = rng.hex(32);
      const txId = rng.hex(32);
      const pub = publicKeyFromPrivateKey(sk);
      const high = flipS(signTxId(txId, sk));
      assert.equal(verifyTxIdSignature(txId, high, pub), false);
      assert.equal(sdk.transactionVerifySignature(txId, pub, high), false);
    }
  });

  it('accepts and rejects the published sign-verify vectors (alephium-web3 sign-verify.test.ts)', () => {
    const sk = '8fc5f0d120b730f97f6cea5f02ae4a6ee7bf451d9261c623ea69d85e870201d2';
    const pub = publicKeyFromPrivateKey(sk);
    assert.equal(pub, '039d5f34d2cb49a37db26b1f1568af51cc0d79f95e14057763187cfbe58782eab9');
    const txId = sk; // the SDK test signs the same 32 bytes it uses as a key
    const sig = signTxId(txId, sk);
    assert.equal(sig, sdk.transactionSign(txId, sk));
    assert.ok(verifyTxIdSignature(txId, sig, pub));
    const tampered = sig.slice(0, 10) + (sig[10] === '0' ? '1' : '0') + sig.slice(11);
    assert.equal(verifyTxIdSignature(txId, tampered, pub), false);
  });

  it('never throws on garbage input to verify', () => {
    const sk = '06ba79cdcfc70e0493c901d13eeea335f2ed0939ce2512549ca088b2391f26b7';
    const pub = publicKeyFromPrivateKey(sk);
    const txId = 'e7dd2fd0c518e35054139e0797140c41f775d46996a4513f70125e7768339f26';
    const sig = signTxId(txId, sk);
    const cases: [string, string, string][] = [
      ['', sig, pub],
      [txId, '', pub],
      [txId, sig, ''],
      [txId, sig.slice(2), pub],
      [txId, `${sig}00`, pub],
      [txId, 'zz'.repeat(64), pub],
      [txId, '00'.repeat(64), pub],
      [txId, 'ff'.repeat(64), pub],
      [txId, sig, `04${pub.slice(2)}`],
      [txId, sig, '02'.padEnd(66, 'f')],
      [`${txId}00`, sig, pub],
      [txId, `30440220${sig}`.slice(0, 128), pub], // DER-looking prefix
      [null as unknown as string, sig, pub],
    ];
    for (const [t, s, p] of cases) assert.equal(verifyTxIdSignature(t, s, p), false, `${t}/${s}/${p}`);
    assert.ok(verifyTxIdSignature(txId.toUpperCase(), sig.toUpperCase(), pub.toUpperCase()));
  });

  it('validates private keys without echoing them', () => {
    const txId = '00'.repeat(32);
    assertProtocolError(() => publicKeyFromPrivateKey('abc'), /must be hex/);
    assertProtocolError(() => publicKeyFromPrivateKey('zz'.repeat(32)), /must be hex/);
    assertProtocolError(
      () => publicKeyFromPrivateKey('00'.repeat(31)),
      /32 bytes \(64 hex characters\), got 62/,
    );
    assertProtocolError(() => publicKeyFromPrivateKey('00'.repeat(32)), /out of range/);
    assertProtocolError(() => publicKeyFromPrivateKey(N.toString(16)), /out of range/);
    assertProtocolError(() => signTxId(txId, 'ff'.repeat(32)), /out of range/);
    assertProtocolError(() => signTxId('abcd', '01'.padStart(64, '0')), /Transaction id must be 32 bytes/);
    try {
      publicKeyFromPrivateKey(`${'ab'.repeat(31)}zz`);
    } catch (e) {
      assert.ok(!(e as Error).message.includes('abab'), 'key material must not appear in the message');
    }
    assert.equal(
      publicKeyFromPrivateKey((N - 1n).toString(16)),
      sdk.publicKeyFromPrivateKey((N - 1n).toString(16)),
    );
  });

  it('randomPrivateKey yields distinct valid keys', () => {
    const a = randomPrivateKey();
    const b = randomPrivateKey();
    assert.match(a, /^[0-9a-f]{64}$/);
    assert.notEqual(a, b);
    assert.equal(publicKeyFromPrivateKey(a), sdk.publicKeyFromPrivateKey(a));
  });
});

describe('protocol/keys mnemonic derivation (alephium-web3 hd-wallet.test.ts vectors)', () => {
  const mnemonic =
    'vault alarm sad mass witness property virus style good flower rice alpha viable evidence run glare pretty scout evil judge enroll refuse another lava';
  const plain = [
    'a642942e67258589cd2b1822c631506632db5a12aabcf413604e785300d762a5',
    'bd7dd0c4abd3cf8ba2d169c8320a2cc8bc8ab583b0db9a32d4352d6f5b15d037',
    '93ae1392f36a592aca154ea14e51b791c248beaea1b63117c57cc46d56e5f482',
    'ec8c4e863e4027d5217c382bfc67bd2638f21d6f956653505229f1d242123a9a',
  ];
  const withPassphrase = [
    '62814353f0fac259b448441898f294b17eff73ab1fd6a7fc4b8216f7e039bdce',
    'ff8efb234d82f49ece8b34fa9a7250e16879a7a8a222463390159e2e51a1a117',
    '9fce4cb835651c8d2aeed1daead8bd04ab314d586e9b8423ee0d7a264cb8608e',
    'd8da830fe81dc6be8b2d0cc60dff79412f7b58445ab5463c63d1791b08ec1110',
  ];

  it("derives m/44'/1234'/0'/0/i keys", () => {
    plain.forEach((sk, i) => {
      const k = deriveKeyFromMnemonic(mnemonic, i);
      assert.equal(k.privateKey, sk, `index ${i}`);
      assert.equal(k.publicKey, sdk.publicKeyFromPrivateKey(sk));
      assert.equal(k.address, sdk.addressFromPublicKey(k.publicKey));
    });
    withPassphrase.forEach((sk, i) =>
      assert.equal(deriveKeyFromMnemonic(mnemonic, i, 'Alephium').privateKey, sk),
    );
    assert.equal(
      deriveKeyFromMnemonic(`  ${mnemonic.toUpperCase().replace(/ /g, '  ')}\n`).privateKey,
      plain[0],
    );
  });

  it('rejects invalid mnemonics with a clear reason and without echoing words', () => {
    assertProtocolError(() => deriveKeyFromMnemonic(''), /Mnemonic is empty/);
    assertProtocolError(
      () => deriveKeyFromMnemonic('vault alarm sad'),
      /has 3 words; expected 12, 15, 18, 21 or 24/,
    );
    const words = mnemonic.split(' ');
    const unknown = [...words.slice(0, 5), 'notaword', ...words.slice(6)].join(' ');
    assertProtocolError(
      () => deriveKeyFromMnemonic(unknown),
      /^Mnemonic word 6 is not in the BIP39 English wordlist$/,
    );
    const swapped = [words[1], words[0], ...words.slice(2)].join(' ');
    assertProtocolError(() => deriveKeyFromMnemonic(swapped), /checksum is invalid/);
    assertProtocolError(() => deriveKeyFromMnemonic(mnemonic, -1), /Derivation index -1/);
  });

  it('checks a phrase as it is typed (mnemonicProblem), with the same reasons', () => {
    assert.equal(mnemonicProblem(mnemonic), undefined);
    assert.equal(mnemonicProblem(`  ${mnemonic.toUpperCase().split(' ').join('   ')} `), undefined);
    const words = mnemonic.split(' ');
    assert.match(mnemonicProblem([words[1], words[0], ...words.slice(2)].join(' ')) ?? '', /checksum/);
    assert.match(mnemonicProblem(words.slice(0, 11).join(' ')) ?? '', /has 11 words/);
  });
});
