import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as sdk from '@alephium/web3';
import * as core from '../../../src/core';

// The names docs/core-api.md documents from src/core/index.ts, checked end to end on one flow:
// key -> address -> tx bytes -> txId -> signature, with @alephium/web3 as the independent oracle.
describe('src/core public API', () => {
  it('exports the documented names', () => {
    for (const name of [
      'publicKeyFromPrivateKey',
      'addressFromPublicKey',
      'groupOfAddress',
      'txIdFromUnsignedTx',
      'signTxId',
      'verifyTxIdSignature',
      'encodeUnsignedTx',
      'alphToAtto',
      'attoToAlph',
      'plainText',
      'markdownText',
      'codeSpan',
      'confirmationDecision',
      'scriptGasBound',
    ]) {
      assert.equal(typeof (core as Record<string, unknown>)[name], 'function', name);
    }
  });

  it('goes from a private key to a verified signature of an encoded transfer', () => {
    const privateKey = '06ba79cdcfc70e0493c901d13eeea335f2ed0939ce2512549ca088b2391f26b7';
    const publicKey = core.publicKeyFromPrivateKey(privateKey);
    const address = core.addressFromPublicKey(publicKey);
    assert.equal(address, sdk.addressFromPublicKey(publicKey));
    assert.equal(core.groupOfAddress(address), sdk.groupOfAddress(address));
    const hex = core.encodeUnsignedTx({
      version: 0,
      networkId: 4,
      gasAmount: 20000,
      gasPrice: '100000000000',
      inputs: [{ outputRef: { hint: 1, key: '11'.repeat(32) }, unlockScript: `00${publicKey}` }],
      fixedOutputs: [
        {
          hint: 0,
          key: '',
          attoAlphAmount: core.alphToAtto('1.5').toString(),
          address,
          tokens: [],
          lockTime: 0,
          message: '',
        },
      ],
    });
    const txId = core.txIdFromUnsignedTx(hex);
    // The SDK decodes our bytes and derives the same id from them.
    assert.equal(txId, sdk.codec.unsignedTxCodec.decodeApiUnsignedTx(sdk.hexToBinUnsafe(hex)).txId);
    const signature = core.signTxId(txId, privateKey);
    assert.equal(signature, sdk.transactionSign(txId, privateKey));
    assert.equal(core.verifyTxIdSignature(txId, signature, publicKey), true);
    assert.equal(core.attoToAlph(core.alphToAtto('1.5')), '1.5');
  });

  it('is the tests’ and the docs’ entry only: no file of the extension imports it', () => {
    const src = path.join(import.meta.dirname, '..', '..', '..', 'src');
    const barrel = path.join(src, 'core', 'index');
    const importers = fs
      .readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .filter((f) =>
        [
          ...fs
            .readFileSync(path.join(src, f), 'utf8')
            .matchAll(/from\s+'(\.[^']*)'|import\(\s*'(\.[^']*)'/g),
        ].some((m) => {
          const target = path.resolve(path.dirname(path.join(src, f)), m[1] ?? m[2] ?? '');
          return target === barrel || target === path.dirname(barrel);
        }),
      );
    assert.deepEqual(importers, []);
  });
});
