import { strict as assert } from 'node:assert';
import * as sdk from '@alephium/web3';
import { codec } from '@alephium/web3';
import bs58 from 'bs58';
import {
  addressFromContractId,
  addressFromLockupScript,
  addressFromPublicKey,
  addressFromScript,
  contractHint,
  contractIdFromAddress,
  contractIdFromTx,
  contractIdFromTxBeforeLeman,
  groupOfAddress,
  groupOfHint,
  groupOfLockupScript,
  grouplessAddressFromPublicKey,
  isValidAddress,
  lockupScriptFromAddress,
  parseAddress,
  scriptHintOfLockupScript,
  subContractId,
} from '../../../src/core/protocol';
import { Rng, assertProtocolError, toHex } from './helpers';

type SdkLockup = Parameters<typeof sdk.addressFromLockupScript>[0];

const KEY_SIZES = { SecP256K1: 33, SecP256R1: 33, ED25519: 32, WebAuthn: 33 } as const;

function randomSdkLockup(rng: Rng, kind: string): SdkLockup {
  switch (kind) {
    case 'P2PKH':
    case 'P2SH':
    case 'P2C':
      return { kind, value: rng.bytes(32) };
    case 'P2MPKH': {
      const n = rng.int(1, rng.bool() ? 4 : 40); // > 31 keys makes the i32 length two bytes
      const hashes = Array.from({ length: n }, () => rng.bytes(32));
      return { kind, value: { publicKeyHashes: hashes, m: rng.int(1, n) } };
    }
    case 'P2PK': {
      const k = rng.pick(Object.keys(KEY_SIZES) as (keyof typeof KEY_SIZES)[]);
      return {
        kind,
        value: { publicKeyLike: { kind: k, value: rng.bytes(KEY_SIZES[k]) }, group: rng.int(0, 3) },
      };
    }
    default:
      return { kind: 'P2HMPK', value: { hash: rng.bytes(32), group: rng.int(0, 3) } };
  }
}

/** The SDK's asset-output hint, taken from its own tx decoding path. */
function sdkHint(lockup: SdkLockup): number {
  const out = codec.assetOutput.AssetOutputCodec.toFixedAssetOutput(
    new Uint8Array(32),
    { amount: 1n, lockupScript: lockup, lockTime: 0n, tokens: [], additionalData: new Uint8Array(0) },
    0,
  );
  return out.hint;
}

describe('protocol/address vs @alephium/web3', () => {
  for (const kind of ['P2PKH', 'P2MPKH', 'P2SH', 'P2C', 'P2PK', 'P2HMPK']) {
    it(`${kind}: 150 random lockup scripts give the SDK's address, bytes, group and hint`, () => {
      const rng = new Rng(kind.length * 7919 + kind.charCodeAt(2));
      for (let i = 0; i < 150; i++) {
        const lockup = randomSdkLockup(rng, kind);
        if (kind === 'P2C' && i % 2 === 0) (lockup.value as Uint8Array)[31] = rng.int(0, 3); // node-style ids
        const bytes = codec.lockupScript.lockupScriptCodec.encode(lockup);
        const address = sdk.addressFromLockupScript(lockup);
        const ctx = `${kind} #${i} ${address}`;
        assert.equal(addressFromLockupScript(bytes), address, ctx);
        const parsed = parseAddress(address);
        assert.equal(parsed.type, kind, ctx);
        assert.equal(toHex(parsed.lockupScript), toHex(bytes), ctx);
        assert.equal(toHex(lockupScriptFromAddress(address)), toHex(sdk.addressToBytes(address)), ctx);
        assert.ok(isValidAddress(address), ctx);
        // SDK quirks: groupOfAddress returns a P2C id's raw last byte (the node reduces it mod 4), and
        // for P2MPKH it slices bytes 1..33 of the body, which is wrong once the key count needs a
        // 2-byte compact length (> 31 keys). groupOfLockupScript uses the first key hash, as the node does.
        const sdkGroup = kind === 'P2MPKH' ? sdk.groupOfLockupScript(lockup) : sdk.groupOfAddress(address);
        assert.equal(parsed.group, kind === 'P2C' ? sdkGroup % 4 : sdkGroup, ctx);
        assert.equal(groupOfLockupScript(bytes), parsed.group, ctx);
        if (kind !== 'P2C') {
          const hint = scriptHintOfLockupScript(bytes);
          assert.equal(hint, sdkHint(lockup), ctx);
          assert.equal(groupOfHint(hint), parsed.group, `${ctx}: hint encodes the group`);
        }
        if (kind === 'P2PK' || kind === 'P2HMPK') {
          const bare = address.slice(0, address.indexOf(':'));
          assert.equal(
            toHex(parseAddress(bare).lockupScript),
            toHex(sdk.addressToBytes(bare)),
            `${ctx} default group`,
          );
          assert.equal(groupOfAddress(bare), sdk.groupOfAddress(bare), `${ctx} default group`);
        }
        if (kind === 'P2C') {
          assert.equal(contractIdFromAddress(address), toHex(sdk.contractIdFromAddress(address)), ctx);
          assert.equal(
            addressFromContractId(toHex(lockup.value as Uint8Array)),
            sdk.addressFromContractId(toHex(lockup.value as Uint8Array)),
          );
          assert.equal(contractHint(toHex(lockup.value as Uint8Array)) & 1, 0, 'contract hints are even');
        }
      }
    });
  }

  it('P2SH of a script matches the SDK, including the Schnorr address of facts §1.4', () => {
    const rng = new Rng(77);
    for (let i = 0; i < 50; i++) {
      const script = rng.bytes(rng.int(0, 200));
      assert.equal(addressFromScript(script), sdk.addressFromScript(script));
    }
    const xOnly = 'f5f8d051c7a424af23697d75d9c73535468c3a453ab2698f4f38f792f597159b';
    const schnorr = addressFromScript(Buffer.from(`0101000000000458144020${xOnly}8685`, 'hex'));
    assert.equal(schnorr, 'iPE4DhavtotXwNBU8daT8XauX9eMyccxZGHMq6bNKTMS');
    assert.equal(groupOfAddress(schnorr), 2);
  });

  it('groupless secp256k1 addresses match the SDK for 100 random keys', () => {
    const rng = new Rng(4242);
    for (let i = 0; i < 100; i++) {
      const pub = sdk.publicKeyFromPrivateKey(rng.hex(32));
      assert.equal(grouplessAddressFromPublicKey(pub), sdk.addressFromPublicKey(pub, 'gl-secp256k1'));
      const g = rng.int(0, 3);
      assert.equal(groupOfAddress(grouplessAddressFromPublicKey(pub, g)), g);
    }
  });
});

describe('protocol/address published vectors (alephium-web3 address.test.ts)', () => {
  const groups: [string, number][] = [
    ['15EM5rGtt7dPRZScE4Z9oL2EDfj84JnoSgq3NNgdcGFyu', 0],
    ['1D59jXR9NpD9ZQqZTRVcVbKVh6ko5TUMt89WvkA8P9P7w', 1],
    ['14tAT3nm7UqVP7gZ35icSdT3AEffv1kaUUMbWQK5PFygr', 2],
    ['12F5aVQoQ7cNrgsVN2YPciwYvwmtJp4ohLa2x4R5KgLbG', 3],
    ['2jW1n2icPtc55Cdm8TF9FjGH681cWthsaZW3gaUFekFZepJoeyY3ZbY7y5SCtAjyCjLL24c4L2Vnfv3KDdAypCddfAY', 0],
    ['2jXboVD9p66wrAHkPHx2AQocAzYXUWeppmRT3PuVT3ccxX9u8puTnwLeQ2VbTd4sNkgSEgk1cLbyVGLFshGweJCk1Mr', 1],
    ['2je1yvQHpg8bKCDmvr1koELSNbty5DHrHYRkXomiRNvP5VcsZTK3WisBco2sCtCULM2YbxRxPd7QwhdP2hz9PEQwB1S', 2],
    ['2jWukVCejM4Zifz9LvMG4dfR6SEecHLX8VqbswhGwnu61d28B861UhLu3ZmTHu4N14m1kk9rbxreBYzcxta1WPawKzG', 3],
    ['eBrjfQNeyUCuxE4zpbfMZcbS3PuvbMJDQBCyk4HRHtX4', 0],
    ['euWxyF55nGTxavL6mgGeMrFdvSRzHor8AmhgPXm8Lm9D', 1],
    ['n2pYTzmA27tkp7UNFPhMJpjz3jr5vgessxqJ7kwomBMF', 2],
    ['tLf6hDfrUugmxZhKxGoZMpAUBt3NcZ2hrTspTCmZ6JdQ', 3],
    ['yya86C6UemCeLs5Ztwjcf2Mp2Kkt4mwzzRpBiG6qQ9kj', 0],
    ['yya86C6UemCeLs5Ztwjcf2Mp2Kkt4mwzzRpBiG6qQ9kk', 1],
    ['yya86C6UemCeLs5Ztwjcf2Mp2Kkt4mwzzRpBiG6qQ9km', 2],
    ['yya86C6UemCeLs5Ztwjcf2Mp2Kkt4mwzzRpBiG6qQ9kn', 3],
    ['3cUs6NYx4yS3n3t4ukgDcvHxvoer4i1tag2sJvEaadUjRottEiujx', 1],
    ['3cUqhqEgt8qFAokkD7qRsy9Q2Q9S1LEiSdogbBmaq7CnshB8BdjfK', 2],
    ['3cUrFgcoKdfWTqXEX32JsJyJ5y7rufetcUjo7bemo5kcS9zQghv5K', 3],
    ['3cUqhqEgt8qFAokkD7qRsy9Q2Q9S1LEiSdogbBmaq7CnshB8BdjfK:0', 0],
    ['3cUqhqEgt8qFAokkD7qRsy9Q2Q9S1LEiSdogbBmaq7CnshB8BdjfK:3', 3],
    ['AysNhoEDMej7hyoTBnVb2zNSvJ5zSj6LXoB3LwnTv2NGaZ7ufh', 0],
    ['AysNhoEDMej7hyoTBnVb2zNSvJ5zSj6LXoB3LwnTv2NGaZ7ufh:2', 2],
  ];
  for (const [address, group] of groups) {
    it(`group of ${address.slice(0, 12)}… is ${group}`, () => assert.equal(groupOfAddress(address), group));
  }

  it('decodes the groupless byte vector and the P2PKH from pubkey vector', () => {
    const expected = '0402d105a6c69a0be5fb5d45df8a2bd7f442d45fe31a1dac842b8eb5753672d65d446d8b5390';
    assert.equal(
      toHex(lockupScriptFromAddress('bQzqBqFx88QitLeX7oCJh1Xvpr9tKUAFoSo9rhAZukfj6SvTYXh')),
      `${expected}00`,
    );
    assert.equal(
      toHex(lockupScriptFromAddress('bQzqBqFx88QitLeX7oCJh1Xvpr9tKUAFoSo9rhAZukfj6SvTYXh:2')),
      `${expected}02`,
    );
    assert.equal(
      addressFromPublicKey('030f9f042a9410969f1886f85fa20f6e43176ae23fc5e64db15b3767c84c5db2dc'),
      '1ACCkgFfmTif46T3qK12znuWjb5Bk9jXpqaeWt2DXx8oc',
    );
    assert.equal(
      grouplessAddressFromPublicKey('029592852f5d289785904b89a073ff80ee6155c894b1d13ecb16bcf3ac02473e1a'),
      '3cUqhqEgt8qFAokkD7qRsy9Q2Q9S1LEiSdogbBmaq7CnshB8BdjfK',
    );
    assert.equal(
      contractIdFromAddress('wCTeteGBeSEC54GpkS8jWBzYiYNTBUuTW3WzxGd9yExT'),
      '25469eb0d0d0a55deea832924547b7b166c70a3554fe321e81886d3c18f19d64',
    );
    assert.equal(parseAddress('qeKk7r92Vn2Xjn4GcMEcJ2EwVfVs27kWUpptrWcWsUWC').type, 'P2SH');
    assert.equal(parseAddress('vobthYg1e9tPKhmF96rpkv3akCj7vhvgPpsP4qwZqDw3').type, 'P2C');
  });

  it('contract and sub-contract ids follow the node (facts §2.3)', () => {
    assert.equal(
      addressFromContractId('0000000000000000000000000000000000000000000000000000000000000000'),
      'tgx7VNFoP9DJiFMFgXXtafQZkUvyEdDHT9ryamHJYrjq',
    );
    const sub = subContractId('25469eb0d0d0a55deea832924547b7b166c70a3554fe321e81886d3c18f19d64', '0a', 2);
    assert.ok(sub.startsWith('6d7d8a7d') && sub.endsWith('69173902'), sub);
    assert.equal(addressFromContractId(sub), '224MaeAjkC8CBAZtktHYwdoxSxkeB3X98aZW4CwxaSRi1');
    assert.equal(
      sub,
      sdk.subContractId('25469eb0d0d0a55deea832924547b7b166c70a3554fe321e81886d3c18f19d64', '0a', 2),
    );
    // Create-event special addresses: 30 zero bytes, index byte, group byte.
    // Event index -1 (ContractCreated) is the byte 0xff, -2 (ContractDestroyed) is 0xfe.
    assert.equal(
      addressFromContractId(`${'00'.repeat(30)}ff03`),
      'tgx7VNFoP9DJiFMFgXXtafQZkUvyEdDHT9ryamHJZC9Q',
    );
    assert.equal(
      addressFromContractId(`${'00'.repeat(30)}fe00`),
      'tgx7VNFoP9DJiFMFgXXtafQZkUvyEdDHT9ryamHJZC4w',
    );
    const id = contractIdFromTx('e7dd2fd0c518e35054139e0797140c41f775d46996a4513f70125e7768339f26', 1, 2);
    assert.equal(id.slice(62), '02');
    assert.equal(groupOfAddress(addressFromContractId(id)), 2);
    // ContractId.scala: `deprecatedFrom` (before Leman) is the same Blake2b of tx id and 4-byte index as
    // `from`, which then replaces the last byte with the group.
    const old = contractIdFromTxBeforeLeman(
      'e7dd2fd0c518e35054139e0797140c41f775d46996a4513f70125e7768339f26',
      1,
    );
    assert.equal(old.slice(0, 62), id.slice(0, 62));
    assert.notEqual(
      old,
      contractIdFromTxBeforeLeman('e7dd2fd0c518e35054139e0797140c41f775d46996a4513f70125e7768339f26', 2),
    );
  });
});

describe('protocol/address errors', () => {
  const valid = '1F6FVZ8QRF2Ynyg4omDr8WsUhMW6aAvhekuUAcSFCcCGh';
  const gl = '3cUqhqEgt8qFAokkD7qRsy9Q2Q9S1LEiSdogbBmaq7CnshB8BdjfK';
  it('says what is wrong', () => {
    assertProtocolError(() => parseAddress(''), /^Address is empty$/);
    assertProtocolError(
      () => parseAddress('xyz0'),
      /Address 'xyz0' is not valid base58 \(character '0' is not allowed\)/,
    );
    assertProtocolError(
      () => parseAddress('1F6FVZ8QRF2Ynyg4omDr8WsUhMW6aAvhekuUAcSFCcCGI'),
      /not valid base58 \(character 'I'/,
    );
    assertProtocolError(() => parseAddress(` ${valid}`), /contains whitespace/);
    assertProtocolError(
      () => parseAddress(bs58.encode(Uint8Array.of(7, ...new Uint8Array(32)))),
      /unknown lockup script type prefix 0x07/,
    );
    assertProtocolError(
      () => parseAddress(valid.slice(0, -3)),
      /P2PKH public key hash needs 32 bytes.*wrong length/,
    );
    assertProtocolError(
      () => parseAddress(bs58.encode(Uint8Array.of(0, ...new Uint8Array(33)))),
      /1 unexpected trailing byte.*wrong length/,
    );
    assertProtocolError(
      () => parseAddress(bs58.encode(Uint8Array.of(3, ...new Uint8Array(31)))),
      /P2C contract id needs 32 bytes/,
    );
    assertProtocolError(() => parseAddress(`${gl.slice(0, -1)}v`), /bad checksum/);
    assertProtocolError(() => parseAddress(`${gl}:4`), /group 4 is out of range 0\.\.3/);
    assertProtocolError(() => parseAddress(`${gl}:j`), /invalid group suffix ':j'/);
    assertProtocolError(() => parseAddress(`${gl}:`), /invalid group suffix/);
    assertProtocolError(() => parseAddress(`${valid}:1`), /only groupless .* this is P2PKH/);
    assertProtocolError(() => parseAddress(':1'), /empty before the group suffix/);
    assertProtocolError(() => parseAddress('LUw'), /P2MPKH has 0 public key hashes/);
    assertProtocolError(
      () =>
        parseAddress(
          '2jVWAcAPphJ8ueZNG1BPwbfPFjjbvorprceuqzgmJQ1ZRyELRpWgARvdB3T9trqpiJs7f4GkudPt6rQLnGbQYqq2NCi',
        ),
      /threshold m=3 is invalid for n=2/,
    );
    assertProtocolError(
      () =>
        parseAddress(
          '2jW1n2icPtc55Cdm8TF9FjGH681cWthsaZW3gaUFekFZepJoeyY3ZbY7y5SCtAjyCjLL24c4L2Vnfv3KDdAypCddfA',
        ),
      /unknown P2PK public key kind/,
    );
    assertProtocolError(() => addressFromLockupScript(Uint8Array.of(4, 9)), /unknown P2PK public key kind 9/);
    assertProtocolError(() => contractIdFromAddress(valid), /is a P2PKH address, not a contract/);
    assertProtocolError(() => addressFromContractId('abcd'), /Contract id must be 32 bytes/);
    assertProtocolError(
      () => addressFromPublicKey('04'.repeat(33)),
      /compressed secp256k1 key starting with 02 or 03/,
    );
    assertProtocolError(() => parseAddress(12 as unknown as string), /must be a string/);
    assert.equal(isValidAddress('asdasdf'), false);
    assert.equal(isValidAddress(''), false);
  });

  it('rejects a group byte out of range inside a serialized groupless lockup', () => {
    const good = lockupScriptFromAddress(`${gl}:1`);
    const bad = Uint8Array.from(good);
    bad[bad.length - 1] = 4;
    assertProtocolError(() => addressFromLockupScript(bad), /group 4 is out of range/);
  });
});
