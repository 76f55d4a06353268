import { strict as assert } from 'node:assert';
import { codec } from '@alephium/web3';
import {
  Reader,
  Writer,
  encodeCompactSigned,
  encodeCompactUnsigned,
  encodeI32,
  encodeU32,
} from '../../../src/core/protocol';
import { Rng, SIGNED_EDGES, UNSIGNED_EDGES, assertProtocolError, toHex } from './helpers';

describe('protocol/codec compact integers', () => {
  it('matches the facts §3.1 examples', () => {
    assert.equal(toHex(encodeCompactSigned(20000)), '80004e20');
    assert.equal(toHex(encodeCompactUnsigned(10n ** 11n)), 'c1174876e800');
    assert.equal(toHex(encodeCompactUnsigned(10n ** 18n)), 'c40de0b6b3a7640000');
    assert.equal(toHex(encodeI32(32)), '4020'); // signed: 32 does not fit the 1-byte signed range
    assert.equal(toHex(encodeCompactUnsigned(32n)), '20');
    assert.equal(toHex(encodeU32(2 ** 30)), 'c040000000');
  });

  it('encodes u256 like the SDK, and decodes back, at edges and 2000 random values', () => {
    const rng = new Rng(101);
    const values = [...UNSIGNED_EDGES];
    for (let i = 0; i < 2000; i++) values.push(rng.bigint(256));
    for (const v of values) {
      const mine = encodeCompactUnsigned(v);
      assert.equal(toHex(mine), toHex(codec.u256Codec.encode(v)), `u256 ${v}`);
      const r = new Reader(mine);
      assert.equal(r.u256(), v);
      assert.ok(r.atEnd());
      assert.equal(new Reader(codec.u256Codec.encode(v)).u256(), v);
    }
  });

  it('encodes i256 like the SDK, and decodes back, at edges and 2000 random values', () => {
    const rng = new Rng(202);
    const values = [...SIGNED_EDGES];
    for (let i = 0; i < 2000; i++) {
      const v = rng.bigint(255);
      values.push(rng.bool() ? v : -v - 1n);
    }
    for (const v of values) {
      const mine = encodeCompactSigned(v);
      assert.equal(toHex(mine), toHex(codec.i256Codec.encode(v)), `i256 ${v}`);
      const r = new Reader(mine);
      assert.equal(r.i256(), v, `decode i256 ${v}`);
      assert.ok(r.atEnd());
    }
  });

  it('encodes i32 and u32 like the SDK over 2000 random values', () => {
    const rng = new Rng(303);
    const i32s = [
      0,
      -1,
      31,
      32,
      -32,
      -33,
      8191,
      8192,
      -8192,
      -8193,
      2 ** 29 - 1,
      2 ** 29,
      -(2 ** 29),
      -(2 ** 29) - 1,
      2 ** 31 - 1,
      -(2 ** 31),
    ];
    const u32s = [0, 63, 64, 16383, 16384, 2 ** 30 - 1, 2 ** 30, 2 ** 32 - 1];
    for (let i = 0; i < 2000; i++) {
      i32s.push(rng.int(-(2 ** 31), 2 ** 31 - 1) >> rng.int(0, 31));
      u32s.push(rng.u32() >>> rng.int(0, 31));
    }
    for (const v of i32s) {
      assert.equal(toHex(encodeI32(v)), toHex(codec.i32Codec.encode(v)), `i32 ${v}`);
      assert.equal(new Reader(encodeI32(v)).i32(), v);
    }
    for (const v of u32s) assert.equal(toHex(encodeU32(v)), toHex(codec.u32Codec.encode(v)), `u32 ${v}`);
  });

  it('rejects out-of-range values', () => {
    assertProtocolError(() => encodeCompactUnsigned(-1n), /u256 range/);
    assertProtocolError(() => encodeCompactUnsigned(1n << 256n), /u256 range/);
    assertProtocolError(() => encodeCompactSigned(1n << 255n), /i256 range/);
    assertProtocolError(() => encodeI32(2 ** 31), /32-bit signed/);
    assertProtocolError(() => encodeI32(1.5), /32-bit signed/);
    assertProtocolError(() => encodeU32(-1), /32-bit unsigned/);
    assertProtocolError(
      () => new Reader(Uint8Array.of(0xc4, 1, 2)).u256('gasPrice'),
      /end of data reading gasPrice at byte 0/,
    );
    assertProtocolError(
      () => new Reader(encodeCompactSigned(1n << 40n)).i32('gasAmount'),
      /gasAmount at byte 0 is not a 32-bit/,
    );
  });
});

describe('protocol/codec Reader/Writer', () => {
  it('writes and reads every primitive', () => {
    const bytes = new Writer()
      .u8(7)
      .int4(-837667263)
      .u64(1700264919275n)
      .i32(-5)
      .u256(10n ** 18n)
      .byteString(Uint8Array.of(1, 2, 3))
      .finish();
    const r = new Reader(bytes);
    assert.equal(r.u8(), 7);
    assert.equal(r.int4(), -837667263);
    assert.equal(r.u64(), 1700264919275n);
    assert.equal(r.i32(), -5);
    assert.equal(r.u256(), 10n ** 18n);
    assert.deepEqual([...r.byteString()], [1, 2, 3]);
    assert.ok(r.atEnd());
    assert.equal(toHex(new Writer().int4(-837667263).finish()), 'ce123641');
  });

  it('rejects lengths that cannot fit the remaining data', () => {
    assertProtocolError(
      () => new Reader(Uint8Array.of(0x3f)).length('inputs'),
      /inputs length at byte 0 is negative/,
    );
    assertProtocolError(
      () => new Reader(Uint8Array.of(0x05, 1)).byteString('message'),
      /message length at byte 0 is 5, but only 1/,
    );
  });
});
