import { strict as assert } from 'node:assert';
import { codec } from '@alephium/web3';
import {
  type Instr,
  type Method,
  addressConst,
  bytesConst,
  constValue,
  decodeScript,
  encodeInstr,
  encodeScript,
  i256Const,
  u256Const,
} from '../../../src/core/bytecode';
import { SIMPLE_OPCODES, type SimpleName } from '../../../src/core/bytecode/instructions';
import { bytesToHex, lockupScriptFromAddress } from '../../../src/core/protocol';
import { SIGNED_EDGES, UNSIGNED_EDGES, assertProtocolError } from '../protocol/helpers';
import { hexOf, sdkInstrHex, sdkScriptHex, toSdkInstr } from './sdk';
import { Rng, randomAddress } from './values';

const SIMPLE = Object.keys(SIMPLE_OPCODES) as SimpleName[];

function randomInstr(rng: Rng): Instr {
  switch (rng.int(0, 9)) {
    case 0:
      return { name: 'U256Const', value: rng.pick([...UNSIGNED_EDGES, rng.bigint(256)]) };
    case 1:
      return { name: 'I256Const', value: rng.pick([...SIGNED_EDGES, -rng.bigint(200)]) };
    case 2:
      return bytesConst(rng.hex(rng.pick([0, 1, 31, 32, 64, 300])));
    case 3:
      return addressConst(bytesToHex(lockupScriptFromAddress(randomAddress(rng))));
    case 4:
      return {
        name: rng.pick(['CallLocal', 'CallExternal', 'LoadLocal', 'StoreLocal'] as const),
        index: rng.int(0, 255),
      };
    case 5:
      // Untyped opcodes with and without operands: Add, Jump, LoadImmField, MethodSelector, DEBUG.
      return rng.pick<Instr>([
        { name: 'Other', code: 0x2a, operand: '' },
        { name: 'Other', code: 0x4a, operand: bytesToHex(Uint8Array.of(0x40, 0x80)) },
        { name: 'Other', code: 0xce, operand: '07' },
        { name: 'Other', code: 0xd3, operand: 'deadbeef' },
        { name: 'Other', code: 0x7e, operand: '020161026263' },
      ]);
    default:
      return { name: rng.pick(SIMPLE) };
  }
}

function randomMethod(rng: Rng): Method {
  return {
    isPublic: rng.bool(),
    usePreapprovedAssets: rng.bool(),
    useContractAssets: rng.bool(),
    usePayToContractOnly: rng.bool(),
    argsLength: rng.int(0, 40),
    localsLength: rng.int(0, 300),
    returnLength: rng.int(0, 5),
    instrs: Array.from({ length: rng.int(0, 12) }, () => randomInstr(rng)),
  };
}

describe('bytecode instructions: codec against the SDK codec', () => {
  it('encodes every supported instruction exactly as the SDK codec does, and decodes it back', () => {
    const rng = new Rng(11);
    for (let n = 0; n < 600; n++) {
      const instr = randomInstr(rng);
      const ours = encodeInstr(instr);
      assert.equal(
        ours,
        sdkInstrHex(toSdkInstr(instr)),
        JSON.stringify(instr, (_, v: unknown) => (typeof v === 'bigint' ? `${v}` : v)),
      );
      const script = encodeScript([{ ...randomMethod(rng), instrs: [instr] }]);
      assert.deepEqual(decodeScript(script)[0]?.instrs, [instr]);
    }
  });

  it('every one-byte instruction name has the SDK codec opcode of that name', () => {
    for (const name of SIMPLE) {
      assert.equal(encodeInstr({ name }), sdkInstrHex(toSdkInstr({ name })), name);
    }
  });

  it('encodes methods and scripts (all asset-modifier combinations) exactly as the SDK codec, and round-trips', () => {
    const rng = new Rng(12);
    for (let n = 0; n < 200; n++) {
      const methods = Array.from({ length: rng.int(0, 3) }, () => randomMethod(rng));
      const ours = encodeScript(methods);
      const sdk = sdkScriptHex(methods.map((m) => ({ ...m, instrs: m.instrs.map(toSdkInstr) })));
      assert.equal(ours, sdk);
      assert.deepEqual(decodeScript(ours), methods);
      // And the SDK reads our bytes into the same flags and counts.
      const back = codec.script.scriptCodec.decode(Buffer.from(ours, 'hex'));
      back.methods.forEach((m, i) => {
        const e = methods[i] as Method;
        assert.equal(m.usePreapprovedAssets, e.usePreapprovedAssets);
        assert.equal(m.useContractAssets, e.useContractAssets);
        assert.equal(m.usePayToContractOnly, e.usePayToContractOnly);
        assert.equal(m.instrs.length, e.instrs.length);
      });
    }
  });

  it('decodes what the SDK encodes (including instructions we do not type)', () => {
    const rng = new Rng(13);
    const sdkInstrs: codec.Instr[] = [
      codec.U256Const1,
      codec.U256Const(12345n),
      codec.I256ConstN1,
      codec.Dup,
      codec.ApproveAlph,
      codec.CallerAddress,
      codec.Jump(-3),
      codec.LoadImmField(2),
      codec.U256Add,
      codec.BytesConst(rng.bytes(40)),
    ];
    const hex = sdkScriptHex([
      {
        isPublic: true,
        usePreapprovedAssets: true,
        useContractAssets: false,
        usePayToContractOnly: false,
        argsLength: 0,
        localsLength: 1,
        returnLength: 0,
        instrs: sdkInstrs,
      },
    ]);
    const [m] = decodeScript(hex);
    assert.ok(m);
    assert.deepEqual(
      m.instrs.map((i) => i.name),
      [
        'U256Const1',
        'U256Const',
        'I256ConstN1',
        'Dup',
        'ApproveAlph',
        'CallerAddress',
        'Other',
        'Other',
        'Other',
        'BytesConst',
      ],
    );
    assert.equal(encodeScript([m]), hex);
  });

  it('uses the one-byte constant forms exactly where the SDK (toU256/toI256) does', () => {
    for (const v of [...UNSIGNED_EDGES, 2n, 3n, 4n, 5n, 6n]) {
      assert.equal(encodeInstr(u256Const(v)), sdkInstrHex(codec.toU256(v)), `U256 ${v}`);
    }
    for (const v of [...SIGNED_EDGES, -1n, -2n, 5n, 6n]) {
      assert.equal(encodeInstr(i256Const(v)), sdkInstrHex(codec.toI256(v)), `I256 ${v}`);
    }
    assert.deepEqual(constValue(u256Const(4n)), { type: 'U256', value: 4n });
    assert.deepEqual(constValue(i256Const(-1n)), { type: 'I256', value: -1n });
    assert.deepEqual(constValue({ name: 'ConstTrue' }), { type: 'Bool', value: true });
    assert.equal(constValue({ name: 'Pop' }), undefined);
  });

  it('rejects malformed scripts with a message that says what is wrong', () => {
    const one = encodeScript([
      {
        isPublic: true,
        usePreapprovedAssets: false,
        useContractAssets: false,
        usePayToContractOnly: false,
        argsLength: 0,
        localsLength: 0,
        returnLength: 0,
        instrs: [{ name: 'U256Const', value: 100n }],
      },
    ]);
    assertProtocolError(() => decodeScript(one + '00'), /trailing byte/);
    assertProtocolError(() => decodeScript(one.slice(0, -2)), /Unexpected end of data/);
    // 0x92 is not an opcode.
    assertProtocolError(
      () => decodeScript(one.replace(/13(4064)$/, '92$1')),
      /unknown instruction opcode 0x92/,
    );
    // isPublic must be 0 or 1.
    assertProtocolError(() => decodeScript('0102' + one.slice(4)), /isPublic byte 2/);
    // 100 written in the 4-byte compact form instead of the 2-byte one.
    assertProtocolError(() => decodeScript(one.replace(/4064$/, '80000064')), /canonically/);
    assert.equal(hexOf(Buffer.from(one, 'hex')), one);
  });
});
