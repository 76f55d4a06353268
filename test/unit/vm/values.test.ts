/**
 * Values against alephium/alephium at 63bcf6998508025f9538f3377629fe9e66df6c53:
 * protocol/src/test/scala/org/alephium/protocol/vm/ValSpec.scala "convert to debug messages" (lines
 * 25-35), the serde and size rules of protocol/.../vm/Val.scala (type ids Bool 0 .. Address 4,
 * `estimateByteSize`: 32 per key of a P2MPKH address), and @alephium/web3's `valCodec` as an
 * independent decoder of the serialized values.
 */
import assert from 'node:assert/strict';
import { codec } from '@alephium/web3';
import {
  Reader,
  concatBytes,
  encodeI32,
  hexToBytes,
  lockupScriptFromAddress,
} from '../../../src/core/protocol';
import {
  I256_MIN,
  U256_MAX,
  estimateByteSize,
  readVal,
  serializeVal,
  serializeVals,
  toDebugString,
  vAddress,
  vBool,
  vByteVec,
  vI256,
  vU256,
  valEquals,
  type Val,
} from '../../../src/core/vm';

const ADDRESS = '1C2RAVWSuaXw8xtUxqVERR7ChKBE1XgscNFw73NSHE1v3';
const SAMPLES: Val[] = [
  vBool(true),
  vI256(I256_MIN),
  vI256(-1n),
  vU256(U256_MAX),
  vU256(64n),
  vByteVec(hexToBytes('00010203')),
  vAddress(lockupScriptFromAddress(ADDRESS)),
];

describe('VM values', () => {
  it('prints debug strings as ValSpec "convert to debug messages" does (lines 25-35)', () => {
    assert.equal(toDebugString(vBool(true)), 'true');
    assert.equal(toDebugString(vBool(false)), 'false');
    assert.equal(toDebugString(vI256(-123456n)), '-123456');
    assert.equal(toDebugString(vU256(123456n)), '123456');
    assert.equal(toDebugString(vByteVec(hexToBytes('00010203'))), '00010203');
    assert.equal(toDebugString(vAddress(lockupScriptFromAddress(ADDRESS))), ADDRESS);
  });

  it('serializes each value with its type id, read back by itself and by @alephium/web3', () => {
    for (const v of SAMPLES) {
      const bytes = serializeVal(v);
      const back = readVal(new Reader(bytes));
      assert.ok(valEquals(back, v), `${v.type} round trip`);
      const theirs = codec.val.valCodec.decode(bytes);
      assert.equal(theirs.kind, v.type);
      assert.deepEqual(codec.val.valCodec.encode(theirs), bytes, `${v.type} as web3 re-encodes it`);
    }
    assert.deepEqual(
      serializeVals([vBool(false), vU256(1n)]),
      concatBytes(encodeI32(2), hexToBytes('00000201')),
    );
    assert.throws(() => readVal(new Reader(hexToBytes('05'))), /Invalid type id: 5/);
  });

  it('estimates sizes: 1 for a Bool, 32 for numbers and simple addresses, 32 per key of a P2MPKH', () => {
    assert.equal(estimateByteSize(vBool(true)), 1);
    assert.equal(estimateByteSize(vU256(0n)), 32);
    assert.equal(estimateByteSize(vByteVec(new Uint8Array(5))), 5);
    assert.equal(estimateByteSize(vAddress(lockupScriptFromAddress(ADDRESS))), 32);
    const p2mpkh = concatBytes(hexToBytes('01'), encodeI32(3), new Uint8Array(96), encodeI32(2));
    assert.equal(estimateByteSize(vAddress(p2mpkh)), 96);
  });

  it('compares values structurally, never across types', () => {
    assert.ok(valEquals(vByteVec(hexToBytes('01')), vByteVec(hexToBytes('01'))));
    assert.ok(!valEquals(vU256(1n), vI256(1n)));
    assert.ok(!valEquals(vByteVec(hexToBytes('01')), vAddress(hexToBytes('01'))));
  });
});
