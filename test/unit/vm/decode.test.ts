/**
 * Decoding against alephium/alephium at 63bcf6998508025f9538f3377629fe9e66df6c53:
 * - method bytes: protocol/src/test/scala/org/alephium/protocol/vm/ContractSpec.scala, "serialize method
 *   examples" (lines 204-226, the methods of MethodsFixture lines 164-201);
 * - CallExternalBySelector's 4-byte selector: InstrSpec.scala "serde" (lines 2576-2587);
 * - jump offsets within +-2^16 (`ControlCompanion.validate`), dev instruction prefixes 0..7 and the
 *   stateless table without stateful codes: Instr.scala; script validity: Contract.scala
 *   (`StatefulScript.validate`, `StatelessScript.validate`, `Method.validate`);
 * and against @alephium/web3's codec as an independent decoder, on a method holding every opcode.
 */
import assert from 'node:assert/strict';
import {
  ProtocolError,
  concatBytes,
  encodeCompactSigned,
  encodeCompactUnsigned,
  encodeI32,
  hexToBytes,
} from '../../../src/core/protocol';
import {
  I256_MIN,
  OPCODES,
  U256_MAX,
  decodeContract,
  decodeMethod,
  decodeScript,
  type OpcodeInfo,
} from '../../../src/core/vm';
import { compareMethodWithWeb3 } from './web3Oracle';

const hex = (s: string) => hexToBytes(s);

/** A sample operand for each layout, encoded by hand from the node's serde rules. */
function sampleOperand(info: OpcodeInfo): Uint8Array {
  switch (info.operand) {
    case 'none':
      return new Uint8Array(0);
    case 'byte':
      return Uint8Array.of(255);
    case 'i256':
      return encodeCompactSigned(I256_MIN);
    case 'u256':
      return encodeCompactUnsigned(U256_MAX);
    case 'bytes':
      return concatBytes(encodeI32(3), hex('010203'));
    case 'address':
      return hex('03' + '22'.repeat(32));
    case 'offset':
      return encodeI32(-(1 << 16));
    case 'bytesArray':
      return concatBytes(encodeI32(2), encodeI32(2), hex('6869'), encodeI32(0));
    case 'twoBytes':
      return hex('0102');
    case 'selector':
      return hex('ffffffff');
    case 'devInstr':
      return Uint8Array.of(7);
  }
}

function methodBytes(instrs: Uint8Array[], header = '0100000000'): Uint8Array {
  return concatBytes(hex(header), encodeI32(instrs.length), ...instrs);
}

const everyOpcode = methodBytes(
  OPCODES.map((info) => concatBytes(Uint8Array.of(info.code), sampleOperand(info))),
);

describe('VM decoding', () => {
  it('reads the eight asset modifiers of ContractSpec "serialize method examples" (lines 204-226)', () => {
    const cases: Array<[string, boolean, boolean, boolean]> = [
      ['010103040500', true, true, false],
      ['010003040500', false, false, false],
      ['010303040500', true, false, false],
      ['010203040500', false, true, false],
      ['010503040500', true, true, true],
      ['010403040500', false, false, true],
      ['010703040500', true, false, true],
      ['010603040500', false, true, true],
    ];
    for (const [bytes, preapproved, contractAssets, payToContractOnly] of cases) {
      const m = decodeMethod(hex(bytes));
      assert.deepEqual(
        [
          m.isPublic,
          m.usePreapprovedAssets,
          m.useContractAssets,
          m.usePayToContractOnly,
          m.argsLength,
          m.localsLength,
          m.returnLength,
          m.instrs.length,
        ],
        [true, preapproved, contractAssets, payToContractOnly, 3, 4, 5, 0],
        bytes,
      );
    }
    assert.throws(() => decodeMethod(hex('010803040500')), /Invalid assets modifier/);
    assert.throws(() => decodeMethod(hex('020003040500')), /invalid bool byte 2/);
  });

  it('decodes every one of the 201 opcodes with its operand, as @alephium/web3 does', () => {
    const method = decodeMethod(everyOpcode);
    assert.equal(method.instrs.length, 201);
    assert.deepEqual(compareMethodWithWeb3(everyOpcode), []);
    const byName = new Map(method.instrs.map((i) => [i.name, i.operand]));
    assert.deepEqual(byName.get('U256Const'), { kind: 'u256', value: U256_MAX });
    assert.deepEqual(byName.get('I256Const'), { kind: 'i256', value: I256_MIN });
    assert.deepEqual(byName.get('Jump'), { kind: 'offset', value: -(1 << 16) });
    assert.deepEqual(byName.get('CallExternalBySelector'), { kind: 'selector', value: -1 });
    assert.deepEqual(byName.get('CreateMapEntry'), { kind: 'twoBytes', value: [1, 2] });
    assert.deepEqual(byName.get('LoadLocal'), { kind: 'byte', value: 255 });
  });

  it('reads a selector as 4 big-endian bytes (InstrSpec "serde", lines 2576-2587)', () => {
    const m = decodeMethod(methodBytes([hex('d400000000'), hex('d4ffffffff')]));
    assert.deepEqual(
      m.instrs.map((i) => i.operand),
      [
        { kind: 'selector', value: 0 },
        { kind: 'selector', value: -1 },
      ],
    );
  });

  it('refuses jump offsets beyond +-65536, dev prefixes past 7, unknown codes and trailing bytes', () => {
    assert.equal(
      decodeMethod(methodBytes([concatBytes(hex('4a'), encodeI32(1 << 16))])).instrs[0]?.name,
      'Jump',
    );
    assert.throws(
      () => decodeMethod(methodBytes([concatBytes(hex('4a'), encodeI32((1 << 16) + 1))])),
      /Invalid offset 65537/,
    );
    assert.throws(() => decodeMethod(methodBytes([hex('8f08')])), /Invalid dev instr prefix 8/);
    assert.throws(() => decodeMethod(methodBytes([hex('92')])), /invalid code 146/);
    assert.throws(() => decodeMethod(concatBytes(methodBytes([hex('0c')]), hex('00'))), /redundant/);
  });

  it('has no stateful instruction in an asset script (the stateless table)', () => {
    assert.throws(
      () => decodeMethod(methodBytes([hex('a000')]), 'stateless'),
      /Instruction - invalid code 160/,
    );
    assert.equal(decodeMethod(methodBytes([hex('a000')]), 'stateful').instrs[0]?.name, 'LoadMutField');
  });

  it('validates scripts: a public first method, lengths in order, no preapproved assets in an asset script', () => {
    const publicMethod = methodBytes([hex('0c')]);
    assert.equal(decodeScript(concatBytes(encodeI32(1), publicMethod)).length, 1);
    const privateFirst = methodBytes([], '0000000000');
    assert.throws(() => decodeScript(concatBytes(encodeI32(1), privateFirst)), /Invalid TxScript/);
    assert.throws(() => decodeScript(encodeI32(0)), /Invalid TxScript/);
    const localsBelowArgs = methodBytes([], '0100020100');
    assert.throws(() => decodeScript(concatBytes(encodeI32(1), localsBelowArgs)), /Invalid TxScript/);
    const preapproved = methodBytes([], '0103000000');
    assert.equal(decodeScript(concatBytes(encodeI32(1), preapproved)).length, 1);
    assert.throws(() => decodeScript(concatBytes(encodeI32(1), preapproved), 'stateless'), /Invalid script/);
  });

  it('cuts a contract into its methods at the recorded end offsets', () => {
    const first = methodBytes([hex('0c'), hex('02')]);
    const second = methodBytes([hex('a001')], '0002000000');
    const contract = concatBytes(
      encodeI32(2),
      encodeI32(2),
      encodeI32(first.length),
      encodeI32(first.length + second.length),
      first,
      second,
    );
    const decoded = decodeContract(contract);
    assert.equal(decoded.fieldLength, 2);
    assert.deepEqual(
      decoded.methods.map((m) => m.instrs.map((i) => i.name)),
      [['U256Const0', 'Return'], ['LoadMutField']],
    );
    assert.equal(decoded.methods[1]?.useContractAssets, true);
    const short = concatBytes(encodeI32(0), encodeI32(1), encodeI32(first.length + 1), first);
    assert.throws(() => decodeContract(short), ProtocolError);
  });
});
