import { strict as assert } from 'node:assert';
import * as sdk from '@alephium/web3';
import * as core from '../../../src/core';

// The names other code and other extensions rely on (docs/core-api.md), checked end to end on one flow:
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
});
