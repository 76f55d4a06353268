import { strict as assert } from 'node:assert';
import * as sdk from '@alephium/web3';
import { codec } from '@alephium/web3';
import {
  ProtocolError,
  type UnsignedTxInput,
  decodeUnsignedTx,
  encodeUnsignedTx,
  groupsOfUnsignedTx,
  outputKey,
  p2pkhUnlockScript,
  publicKeyOfUnlockScript,
  txIdFromUnsignedTx,
} from '../../../src/core/protocol';
import { Rng, UNSIGNED_EDGES, assertProtocolError, toHex } from './helpers';

type SdkLockup = Parameters<typeof sdk.addressFromLockupScript>[0];

function randomAmount(rng: Rng): string {
  if (rng.int(0, 9) === 0) return rng.pick(UNSIGNED_EDGES).toString();
  return rng.bigint(rng.pick([6, 14, 30, 64, 100, 256])).toString();
}

function randomUnlockScript(rng: Rng): string {
  const i32 = (): string => toHex(codec.i32Codec.encode(rng.int(-40000, 40000)));
  switch (rng.int(0, 6)) {
    case 0:
    case 1:
      return `00${rng.hex(33)}`;
    case 2: {
      const n = rng.int(0, rng.bool() ? 3 : 33);
      let s = `01${toHex(codec.i32Codec.encode(n))}`;
      for (let i = 0; i < n; i++) s += rng.hex(33) + i32();
      return s;
    }
    case 3:
      return '03';
    case 4:
      return rng.bool() ? '05' : `04${rng.hex(33)}`;
    default: {
      const n = rng.int(0, 3);
      let s = `06${toHex(codec.i32Codec.encode(n))}`;
      for (let i = 0; i < n; i++) {
        const kind = rng.int(0, 3);
        s += `0${kind}${rng.hex(kind === 2 ? 32 : 33)}`;
      }
      const m = rng.int(0, 3);
      s += toHex(codec.i32Codec.encode(m));
      for (let i = 0; i < m; i++) s += i32();
      return s;
    }
  }
}

function randomAssetAddress(rng: Rng): string {
  let lockup: SdkLockup;
  switch (rng.int(0, 5)) {
    case 0:
    case 1:
      lockup = { kind: 'P2PKH', value: rng.bytes(32) };
      break;
    case 2: {
      const n = rng.int(1, 4);
      lockup = {
        kind: 'P2MPKH',
        value: { publicKeyHashes: Array.from({ length: n }, () => rng.bytes(32)), m: rng.int(1, n) },
      };
      break;
    }
    case 3:
      lockup = { kind: 'P2SH', value: rng.bytes(32) };
      break;
    case 4: {
      const kind = rng.pick(['SecP256K1', 'SecP256R1', 'ED25519', 'WebAuthn'] as const);
      lockup = {
        kind: 'P2PK',
        value: {
          publicKeyLike: { kind, value: rng.bytes(kind === 'ED25519' ? 32 : 33) },
          group: rng.int(0, 3),
        },
      };
      break;
    }
    default:
      lockup = { kind: 'P2HMPK', value: { hash: rng.bytes(32), group: rng.int(0, 3) } };
  }
  return sdk.addressFromLockupScript(lockup);
}

function randomTx(rng: Rng): UnsignedTxInput {
  const nIn = rng.int(0, 4) === 0 ? rng.int(30, 40) : rng.int(1, 4);
  const nOut = rng.int(0, 4) === 0 ? rng.int(30, 40) : rng.int(0, 4);
  return {
    version: rng.int(0, 5) === 0 ? rng.int(0, 255) : 0,
    networkId: rng.pick([0, 1, 4, rng.int(0, 255)]),
    gasAmount: rng.pick([
      20000,
      63,
      64,
      8191,
      8192,
      625000,
      5000000,
      rng.int(0, 2 ** 31 - 1),
      rng.int(0, 100000),
    ]),
    gasPrice: rng.bool() ? '100000000000' : randomAmount(rng),
    inputs: Array.from({ length: nIn }, () => ({
      outputRef: { hint: rng.int(-(2 ** 31), 2 ** 31 - 1), key: rng.hex(32) },
      unlockScript: randomUnlockScript(rng),
    })),
    fixedOutputs: Array.from({ length: nOut }, () => ({
      attoAlphAmount: randomAmount(rng),
      address: randomAssetAddress(rng),
      tokens: Array.from({ length: rng.int(0, 6) === 0 ? rng.int(30, 34) : rng.int(0, 2) }, () => ({
        id: rng.hex(32),
        amount: randomAmount(rng),
      })),
      lockTime: rng.pick([0, rng.int(0, 2 ** 48), Number.MAX_SAFE_INTEGER, 1700264919275]),
      message: rng.hex(rng.pick([0, 1, 31, 32, 63, 64, rng.int(0, 300)])),
    })),
  };
}

/** Normalizes the SDK's JSON (drops undefined fields) for deep comparison. */
function json<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

describe('protocol/unsignedTx vs @alephium/web3', () => {
  it('300 random transactions: encode, txId and full decode agree with the SDK', () => {
    const rng = new Rng(0x5eed);
    for (let i = 0; i < 300; i++) {
      const tx = randomTx(rng);
      const ctx = `tx #${i} (seed 0x5eed)`;
      const hex = encodeUnsignedTx(tx);
      const sdkBytes = codec.unsignedTxCodec.encodeApiUnsignedTx({ txId: '', ...tx } as Parameters<
        typeof codec.unsignedTxCodec.encodeApiUnsignedTx
      >[0]);
      assert.equal(hex, toHex(sdkBytes), ctx);
      const sdkDecoded = codec.unsignedTxCodec.decodeApiUnsignedTx(sdkBytes);
      assert.equal(txIdFromUnsignedTx(hex), sdkDecoded.txId, ctx);
      const mine = decodeUnsignedTx(toHex(sdkBytes));
      assert.deepEqual(mine, json(sdkDecoded), ctx);
      // Our decode reproduces the input, and re-encodes to the same bytes.
      assert.deepEqual(
        json({
          ...mine,
          txId: undefined,
          fixedOutputs: mine.fixedOutputs.map((o) => ({ ...o, hint: undefined, key: undefined })),
        }),
        json(tx),
        ctx,
      );
      assert.equal(encodeUnsignedTx(mine), hex, ctx);
      mine.fixedOutputs.forEach((o, j) => assert.equal(o.key, outputKey(mine.txId, j)));
      if (tx.inputs.length > 0) {
        const sdkGroups = sdk.groupIndexOfTransaction(codec.unsignedTxCodec.decode(sdkBytes));
        assert.deepEqual(groupsOfUnsignedTx(mine), { fromGroup: sdkGroups[0], toGroup: sdkGroups[1] }, ctx);
      }
    }
  });

  it('200 random script transactions (every opcode, P2SH inputs) decode exactly as the SDK does', () => {
    const rng = new Rng(99);
    let p2shInputs = 0;
    for (let i = 0; i < 200; i++) {
      const tx = { ...randomTx(rng), scriptOpt: toHex(randomScript(rng)) };
      if (rng.bool()) {
        const unlock = codec.unlockScript.unlockScriptCodec.encode({
          kind: 'P2SH',
          value: { script: codec.script.scriptCodec.decode(randomScript(rng)), params: randomVals(rng) },
        });
        tx.inputs.push({
          outputRef: { hint: rng.int(-(2 ** 31), 2 ** 31 - 1), key: rng.hex(32) },
          unlockScript: toHex(unlock),
        });
        p2shInputs++;
      }
      const ctx = `script tx #${i} (seed 99)`;
      const hex = encodeUnsignedTx(tx);
      const sdkBytes = codec.unsignedTxCodec.encodeApiUnsignedTx({ txId: '', ...tx } as Parameters<
        typeof codec.unsignedTxCodec.encodeApiUnsignedTx
      >[0]);
      assert.equal(hex, toHex(sdkBytes), ctx);
      assert.equal(hex.slice(4, 6), '01', 'Option tag of a present script');
      const mine = decodeUnsignedTx(hex);
      assert.deepEqual(mine, json(codec.unsignedTxCodec.decodeApiUnsignedTx(sdkBytes)), ctx);
      assert.equal(mine.scriptOpt, tx.scriptOpt, ctx);
      assert.equal(encodeUnsignedTx(mine), hex, ctx);
    }
    assert.ok(p2shInputs > 50);
    assert.equal(
      SIMPLE_INSTRS.length,
      182,
      'operand-free opcodes the SDK knows (201 in all with 19 operand ones)',
    );
  });

  it('rejects unknown opcodes and malformed scripts with the location', () => {
    const tx = randomTx(new Rng(3));
    // One public method, no args/locals/returns, one instruction with opcode 0x92 (unassigned).
    const bad = encodeUnsignedTx({ ...tx, scriptOpt: '0101000000000192' });
    assertProtocolError(
      () => decodeUnsignedTx(bad),
      /scriptOpt method 0 instr 0: unknown instruction opcode 0x92/,
    );
    const badBool = encodeUnsignedTx({ ...tx, scriptOpt: '010200000000' });
    assertProtocolError(() => decodeUnsignedTx(badBool), /isPublic byte 2 is not a boolean/);
    const badModifier = encodeUnsignedTx({ ...tx, scriptOpt: '010108000000' + '00' });
    assertProtocolError(() => decodeUnsignedTx(badModifier), /asset modifier 8 is invalid/);
    // U256Const 5 padded to two bytes: the node would re-serialize it (and hash) differently.
    const padded = encodeUnsignedTx({ ...tx, scriptOpt: '01010000000002134005' + '18' });
    assertProtocolError(
      () => decodeUnsignedTx(padded),
      /U256 constant at byte \d+ is not canonically encoded/,
    );
  });
});

/** Every instruction the SDK knows, built through the SDK's own constructors (an independent table). */
const SIMPLE_INSTRS = Object.values(codec).filter(
  (v): v is codec.Instr =>
    typeof v === 'object' && v !== null && typeof (v as { code?: unknown }).code === 'number',
);

function randomInstr(rng: Rng): codec.Instr {
  switch (rng.int(0, 24)) {
    case 0:
      return codec.CallLocal(rng.int(0, 255));
    case 1:
      return codec.CallExternal(rng.int(0, 255));
    case 2: {
      const v = rng.bigint(255);
      return codec.I256Const(rng.bool() ? v : -v);
    }
    case 3:
      return codec.U256Const(rng.bigint(256));
    case 4:
      return codec.BytesConst(rng.bytes(rng.pick([0, 5, 32, 64, 100])));
    case 5:
      return codec.AddressConst(
        codec.lockupScript.lockupScriptCodec.decode(sdk.addressToBytes(randomAssetAddress(rng))),
      );
    case 6:
      return rng.bool() ? codec.LoadLocal(rng.int(0, 255)) : codec.StoreLocal(rng.int(0, 255));
    case 7:
      return rng.pick([codec.Jump, codec.IfTrue, codec.IfFalse])(rng.int(-100000, 100000));
    case 8:
      return codec.DEBUG(Array.from({ length: rng.int(0, 3) }, () => rng.bytes(rng.int(0, 40))));
    case 9:
      return rng.pick([codec.DevInstr, codec.LoadMutField, codec.StoreMutField, codec.LoadImmField])(
        rng.int(0, 255),
      );
    case 10:
      return codec.CreateMapEntry(rng.int(0, 255), rng.int(0, 255));
    case 11:
      return rng.pick([codec.MethodSelector, codec.CallExternalBySelector])(rng.int(-(2 ** 31), 2 ** 31 - 1));
    default:
      return rng.pick(SIMPLE_INSTRS);
  }
}

function randomScript(rng: Rng): Uint8Array {
  const methods = Array.from({ length: rng.int(1, 3) }, () => {
    const modifier = rng.int(0, 7);
    return {
      isPublic: rng.bool(),
      usePreapprovedAssets: (modifier & 3) === 1 || (modifier & 3) === 3,
      useContractAssets: (modifier & 3) === 1 || (modifier & 3) === 2,
      usePayToContractOnly: (modifier & 4) !== 0,
      argsLength: rng.int(0, 40),
      localsLength: rng.int(0, 40),
      returnLength: rng.int(0, 3),
      instrs: Array.from({ length: rng.int(0, 40) }, () => randomInstr(rng)),
    };
  });
  return codec.script.scriptCodec.encode({ methods });
}

function randomVals(rng: Rng): codec.val.Val[] {
  return Array.from({ length: rng.int(0, 4) }, (): codec.val.Val => {
    switch (rng.int(0, 4)) {
      case 0:
        return { kind: 'Bool', value: rng.bool() };
      case 1:
        return { kind: 'I256', value: -rng.bigint(200) };
      case 2:
        return { kind: 'U256', value: rng.bigint(256) };
      case 3:
        return { kind: 'ByteVec', value: rng.bytes(rng.int(0, 50)) };
      default:
        return {
          kind: 'Address',
          value: codec.lockupScript.lockupScriptCodec.decode(sdk.addressToBytes(randomAssetAddress(rng))),
        };
    }
  });
}

describe('protocol/unsignedTx: bytes that are not an unsigned transaction', () => {
  it('says "not an unsigned transaction" for input too short to be one (Decode with 00ff)', () => {
    assertProtocolError(
      () => decodeUnsignedTx('00ff'),
      /^Not an unsigned transaction: 2 byte\(s\), and the shortest one has 7 /,
    );
    assertProtocolError(() => decodeUnsignedTx('000400c1'), /^Not an unsigned transaction: 4 byte/);
  });

  it('says so for bytes that end before the transaction does, naming where', () => {
    assertProtocolError(
      () => decodeUnsignedTx('0004000100ff00ff00'),
      /^Not an unsigned transaction, or a truncated one: Unexpected end of data reading inputs length at byte 5/,
    );
  });
});

describe('protocol/unsignedTx errors', () => {
  const base: UnsignedTxInput = {
    version: 0,
    networkId: 0,
    gasAmount: 20000,
    gasPrice: '100000000000',
    inputs: [{ outputRef: { hint: 1, key: '11'.repeat(32) }, unlockScript: `00${'02'.repeat(33)}` }],
    fixedOutputs: [
      {
        attoAlphAmount: '1',
        address: '1F6FVZ8QRF2Ynyg4omDr8WsUhMW6aAvhekuUAcSFCcCGh',
        tokens: [],
        lockTime: 0,
        message: '',
      },
    ],
  };
  const hex = encodeUnsignedTx(base);

  it('every truncation and every single-byte corruption either decodes or throws ProtocolError', () => {
    for (let n = 0; n < hex.length; n += 2) {
      assert.throws(() => decodeUnsignedTx(hex.slice(0, n)), ProtocolError, `truncated to ${n / 2} bytes`);
    }
    const rng = new Rng(5);
    for (let i = 0; i < 2000; i++) {
      const b = Buffer.from(hex, 'hex');
      b[rng.int(0, b.length - 1)] = rng.int(0, 255);
      try {
        const d = decodeUnsignedTx(b.toString('hex'));
        assert.equal(encodeUnsignedTx(d), b.toString('hex'));
      } catch (e) {
        assert.ok(e instanceof ProtocolError, `corruption #${i}: ${String(e)}`);
      }
    }
  });

  it('rejects trailing bytes, non-canonical integers, contract outputs and unknown tags', () => {
    assertProtocolError(() => decodeUnsignedTx(`${hex}00`), /1 unexpected trailing byte/);
    assertProtocolError(() => decodeUnsignedTx(''), /empty/);
    // Too short to be a transaction: said as such, not as a field the reader ran out of (see above).
    assertProtocolError(() => decodeUnsignedTx('0000'), /^Not an unsigned transaction: 2 byte/);
    assertProtocolError(() => decodeUnsignedTx('00000200000000'), /invalid scriptOpt tag 0x2 at byte 2/);
    // gasAmount 20000 written in 5-byte multi-byte form instead of 4-byte form.
    assert.ok(hex.startsWith('00000080004e20'));
    assertProtocolError(() => decodeUnsignedTx(`000000c000004e20${hex.slice(14)}`), /non-canonical encoding/);
    const unknownTag = hex.replace(`00${'02'.repeat(33)}`, `09${'02'.repeat(33)}`);
    assertProtocolError(() => decodeUnsignedTx(unknownTag), /inputs\[0\]: unknown unlock script tag 0x09/);
    const p2sh = hex.replace(`00${'02'.repeat(33)}`, `02${'02'.repeat(33)}`);
    assertProtocolError(() => decodeUnsignedTx(p2sh), /inputs\[0\] P2SH script method 0/);
    const p2pkhLockup = '00d15be85341af5dca9adc3bbebae618ed596962fbac71e7dc56b6c659be7ed0c2';
    assert.ok(hex.includes(p2pkhLockup));
    assertProtocolError(
      () => decodeUnsignedTx(hex.replace(p2pkhLockup, `03${p2pkhLockup.slice(2)}`)),
      /fixedOutputs\[0\]: asset outputs cannot be locked to a contract/,
    );
  });

  it('names the offending field when encoding', () => {
    const out = base.fixedOutputs[0]!;
    const input = base.inputs[0]!;
    assertProtocolError(() => encodeUnsignedTx({ ...base, gasPrice: '-1' }), /gasPrice '-1'/);
    assertProtocolError(() => encodeUnsignedTx({ ...base, gasAmount: 1.5 }), /gasAmount must be an integer/);
    assertProtocolError(
      () => encodeUnsignedTx({ ...base, version: 256 }),
      /version must be an integer in 0\.\.255/,
    );
    assertProtocolError(
      () => encodeUnsignedTx({ ...base, fixedOutputs: [{ ...out, address: 'nope0' }] }),
      /fixedOutputs\[0\]\.address: Address 'nope0' is not valid base58/,
    );
    assertProtocolError(
      () =>
        encodeUnsignedTx({
          ...base,
          fixedOutputs: [{ ...out, address: 'tgx7VNFoP9DJiFMFgXXtafQZkUvyEdDHT9ryamHJYrjq' }],
        }),
      /fixedOutputs\[0\]\.address is a contract address/,
    );
    assertProtocolError(
      () => encodeUnsignedTx({ ...base, fixedOutputs: [{ ...out, attoAlphAmount: '1.5' }] }),
      /fixedOutputs\[0\]\.attoAlphAmount '1\.5'/,
    );
    assertProtocolError(
      () => encodeUnsignedTx({ ...base, fixedOutputs: [{ ...out, tokens: [{ id: 'ab', amount: '1' }] }] }),
      /fixedOutputs\[0\]\.tokens\[0\]\.id must be 32 bytes/,
    );
    assertProtocolError(
      () => encodeUnsignedTx({ ...base, fixedOutputs: [{ ...out, lockTime: -1 }] }),
      /fixedOutputs\[0\]\.lockTime/,
    );
    assertProtocolError(
      () => encodeUnsignedTx({ ...base, fixedOutputs: [{ ...out, message: 'x' }] }),
      /fixedOutputs\[0\]\.message/,
    );
    assertProtocolError(
      () => encodeUnsignedTx({ ...base, inputs: [{ ...input, outputRef: { hint: 1, key: 'ab' } }] }),
      /inputs\[0\]\.outputRef\.key must be 32 bytes/,
    );
    assertProtocolError(
      () => encodeUnsignedTx({ ...base, inputs: [{ ...input, unlockScript: '' }] }),
      /inputs\[0\]\.unlockScript is empty/,
    );
    assertProtocolError(
      () => encodeUnsignedTx({ ...base, inputs: [{ ...input, unlockScript: '0002' }] }),
      /inputs\[0\] public key/,
    );
    assertProtocolError(
      () => encodeUnsignedTx({ ...base, inputs: [{ ...input, unlockScript: '0300' }] }),
      /inputs\[0\]\.unlockScript has 1 unexpected trailing byte/,
    );
    assertProtocolError(
      () =>
        encodeUnsignedTx({
          ...base,
          inputs: [{ ...input, outputRef: { hint: 2 ** 31, key: '11'.repeat(32) } }],
        }),
      /hint must be an integer/,
    );
  });

  it('groups need an input; unlock script helpers', () => {
    assertProtocolError(() => groupsOfUnsignedTx({ inputs: [], fixedOutputs: [] }), /no inputs/);
    const pub = '03f5f8d051c7a424af23697d75d9c73535468c3a453ab2698f4f38f792f597159b';
    assert.equal(p2pkhUnlockScript(pub), `00${pub}`);
    assert.equal(publicKeyOfUnlockScript(`00${pub}`), pub);
    assert.equal(publicKeyOfUnlockScript('03'), undefined);
    assert.equal(publicKeyOfUnlockScript(`01${pub}`), undefined);
    assertProtocolError(() => p2pkhUnlockScript('04'.repeat(33)), /not a compressed secp256k1 key/);
    assertProtocolError(() => p2pkhUnlockScript('02'), /Public key must be 33 bytes/);
  });
});
