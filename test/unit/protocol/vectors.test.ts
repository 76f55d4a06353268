/**
 * Published vectors (alephium-client-facts §1.4, §2.4, §3.4; computed there with @alephium/web3 and
 * cross-checked with noble). They pin the exact bytes independently of this module's own output.
 */
import { strict as assert } from 'node:assert';
import {
  addressFromPublicKey,
  decodeUnsignedTx,
  encodeUnsignedTx,
  groupOfAddress,
  groupsOfUnsignedTx,
  grouplessAddressFromPublicKey,
  parseAddress,
  scriptHintOfLockupScript,
  txIdFromUnsignedTx,
} from '../../../src/core/protocol';
import { publicKeyFromPrivateKey, signTxId, verifyTxIdSignature } from '../../../src/core/protocol/keys';

const KEY1 = {
  privateKey: '06ba79cdcfc70e0493c901d13eeea335f2ed0939ce2512549ca088b2391f26b7',
  publicKey: '03f5f8d051c7a424af23697d75d9c73535468c3a453ab2698f4f38f792f597159b',
  address: '1F6FVZ8QRF2Ynyg4omDr8WsUhMW6aAvhekuUAcSFCcCGh',
};
const TX_HEX =
  '00000080004e20c1174876e80001381a1e8f6df717a1f81e40ebe422bd562654cac02deb57f611896b50531b0da4ca2ae0b00003f5f8d051c7a424af23697d75d9c73535468c3a453ab2698f4f38f792f597159b02c40de0b6b3a76400000082b8e9aa125556bfc690692741723288e3bd03f8285cfb6296f64be4c5f7bcf000000000000000000000c41bc16d674ec8000000d15be85341af5dca9adc3bbebae618ed596962fbac71e7dc56b6c659be7ed0c200000000000000000000';
const TX_ID = 'e7dd2fd0c518e35054139e0797140c41f775d46996a4513f70125e7768339f26';
const SIGNATURE =
  '1e19d22e07594dfab91e6bbbc9d0b9051b85201353756f7874a81c39aeb4bcb664658e4fcfaf275e888bc68dbc6c56d98a6d1326c50955409c27ad99c0869284';

const ADDRESS_VECTORS = [
  {
    n: 5,
    priv: '6d0648c927938c3e7acdc394e603df4ed5a1d7bb1ca3ecc1b2c9c2f0b66630d5',
    pub: '03f4005ac8677f7ad62c14803b61bed9da98980144086e6df9dbf81b8e94c94f16',
    address: '18TPRqR14snEkS38gFXCAv6UsvAAePihDSwV9ZR7UgeWB',
    hint: 0x1454f181,
    group: 0,
    gl: '3cUtNAUacAxW3C5mWTsksMnuVbBuDjsjeVo5HxCQYddcZC7rfiLvT',
    glGroup: 2,
  },
  {
    n: 7,
    priv: '315880234453bb6f159a3e56001f78da8c098051dba7c43a743e7361d8648e18',
    pub: '0201fa89cbba99b40ba1ca5696ab1c0202abb91f994a92b19e5f1257b739635d6b',
    address: '13U1z3ouFjHc6vUiSu4HLLgBXrrJ5dKwYRZRGKq7SAf8G',
    hint: 0xc6b052d9 | 0,
    group: 1,
    gl: '3cUpaq9uWCnCnLrdMFyTdyexTGCE2U8x3CRmvmUJWDTGJVh9e2Znj',
    glGroup: 3,
  },
  {
    n: 4,
    priv: '62ecccb5499de1791aceda49519923d5f4db593ac45311ad9558fbc60229f9df',
    pub: '0356f1502b1d3744360f2e2a0bc642634cf82e797513678855e17107143edc66db',
    address: '189LE26vHRn1pfwJo9oZR2MmHS1MwZmdscHMzt2fdh6zN',
    hint: 0x6541294b,
    group: 2,
    gl: '3cUsAzcyz62XRuW2BWRF8hNMnKtZiQa2b9eZxFm3aoUGE1fuHjhWK',
    glGroup: 3,
  },
  {
    n: 1,
    priv: KEY1.privateKey,
    pub: KEY1.publicKey,
    address: KEY1.address,
    hint: 0x381a1e8f,
    group: 3,
    gl: '3cUtP2p1Arqvba3rQpYzvtzR1oYCYKfk5tsD3syQpaaD27mEVgeQU',
    glGroup: 3,
  },
];

describe('protocol vectors (facts §1.4, §2.4, §3.4)', () => {
  it('derives the §1.4 public key and address', () => {
    assert.equal(publicKeyFromPrivateKey(KEY1.privateKey), KEY1.publicKey);
    assert.equal(addressFromPublicKey(KEY1.publicKey), KEY1.address);
    assert.equal(groupOfAddress(KEY1.address), 3);
  });

  it('signs the §1.4 txId byte-identically and verifies it', () => {
    assert.equal(signTxId(TX_ID, KEY1.privateKey), SIGNATURE);
    assert.ok(verifyTxIdSignature(TX_ID, SIGNATURE, KEY1.publicKey));
  });

  for (const v of ADDRESS_VECTORS) {
    it(`key ${v.n}: pubkey, P2PKH address, hint, group and groupless address`, () => {
      assert.equal(publicKeyFromPrivateKey(v.priv), v.pub);
      assert.equal(addressFromPublicKey(v.pub), v.address);
      const parsed = parseAddress(v.address);
      assert.equal(parsed.type, 'P2PKH');
      assert.equal(parsed.group, v.group);
      assert.equal(scriptHintOfLockupScript(parsed.lockupScript), v.hint);
      assert.equal(grouplessAddressFromPublicKey(v.pub), v.gl);
      assert.equal(groupOfAddress(v.gl), v.glGroup);
      for (let g = 0; g < 4; g++) assert.equal(groupOfAddress(`${v.gl}:${g}`), g);
    });
  }

  it('decodes the §3.4 unsigned tx to the published txId, keys, hints and groups', () => {
    assert.equal(txIdFromUnsignedTx(TX_HEX), TX_ID);
    const d = decodeUnsignedTx(TX_HEX);
    assert.equal(d.txId, TX_ID);
    assert.equal(d.gasAmount, 20000);
    assert.equal(d.gasPrice, '100000000000');
    assert.equal(d.inputs.length, 1);
    assert.equal(d.inputs[0]?.outputRef.hint, 0x381a1e8f);
    assert.equal(d.inputs[0]?.unlockScript, `00${KEY1.publicKey}`);
    assert.equal(d.fixedOutputs.length, 2);
    assert.equal(d.fixedOutputs[0]?.address, '19oHYETcvzkkQnseSznFtrRWxybtANRScxe6HnGBR7S7Z');
    assert.equal(d.fixedOutputs[0]?.hint, -837667263);
    assert.equal(d.fixedOutputs[0]?.attoAlphAmount, '1000000000000000000');
    assert.ok(d.fixedOutputs[0]?.key.startsWith('818e57c6'));
    assert.ok(d.fixedOutputs[0]?.key.endsWith('701f'));
    assert.equal(d.fixedOutputs[1]?.address, KEY1.address);
    assert.equal(d.fixedOutputs[1]?.attoAlphAmount, '2000000000000000000');
    assert.ok(d.fixedOutputs[1]?.key.startsWith('f8f4dfec'));
    assert.ok(d.fixedOutputs[1]?.key.endsWith('4e7e'));
    assert.deepEqual(groupsOfUnsignedTx(d), { fromGroup: 3, toGroup: 3 });
    assert.equal(encodeUnsignedTx(d), TX_HEX);
  });
});
