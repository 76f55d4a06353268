/**
 * Gas against alephium/alephium at 63bcf6998508025f9538f3377629fe9e66df6c53,
 * protocol/src/test/scala/org/alephium/protocol/vm/InstrSpec.scala, "test gas amount" (lines 4984-5120):
 * the table (lines 4990-5046) is transcribed below, and each entry is checked by the rule the node's
 * test applies to it (lines 5051-5117): fixed gas for `GasSimple`, `gas(32)` for other formulas, the
 * sizes it names for conversions, logs and Zeros, and real runs for ByteVecConcat, ByteVecSlice and
 * Encode. Formulas themselves: protocol/.../vm/GasSchedule.scala.
 */
import assert from 'node:assert/strict';
import {
  OPCODES,
  gasBytesConcat,
  gasBytesEq,
  gasExp,
  gasHash,
  gasLog,
  gasSubContractId,
  gasToByte,
  scriptBaseGas,
  contractLoadGas,
  simpleGas,
  vByteVec,
  vU256,
} from '../../../src/core/vm';
import { expectCompleted, instr, ops, runOps, u256Op } from './assemble';

const GAS_TABLE = `ConstTrue 2 ConstFalse 2 I256Const0 2 I256Const1 2 I256Const2 2 I256Const3 2 I256Const4 2 I256Const5 2
I256ConstN1 2 U256Const0 2 U256Const1 2 U256Const2 2 U256Const3 2 U256Const4 2 U256Const5 2 I256Const 2 U256Const 2
BytesConst 2 AddressConst 2 LoadLocal 3 StoreLocal 3 Pop 2 BoolNot 3 BoolAnd 3 BoolOr 3 BoolEq 3 BoolNeq 3
BoolToByteVec 1 I256Add 3 I256Sub 3 I256Mul 5 I256Div 5 I256Mod 5 I256Eq 3 I256Neq 3 I256Lt 3 I256Le 3 I256Gt 3
I256Ge 3 U256Add 3 U256Sub 3 U256Mul 5 U256Div 5 U256Mod 5 U256Eq 3 U256Neq 3 U256Lt 3 U256Le 3 U256Gt 3 U256Ge 3
U256ModAdd 8 U256ModSub 8 U256ModMul 8 NumericBitAnd 5 NumericBitOr 5 NumericXor 5 NumericSHL 5 NumericSHR 5
I256ToU256 3 I256ToByteVec 5 U256ToI256 3 U256ToByteVec 5 ByteVecEq 7 ByteVecNeq 7 ByteVecSize 2 ByteVecConcat 1
AddressEq 3 AddressNeq 3 AddressToByteVec 5 IsAssetAddress 3 IsContractAddress 3 Jump 8 IfTrue 8 IfFalse 8 Return 0
Assert 3 Blake2b 54 Keccak256 54 Sha256 54 Sha3 54 VerifyTxSignature 2000 VerifySecP256K1 2000 VerifyED25519 2000
NetworkId 3 BlockTimeStamp 3 BlockTarget 3 TxId 3 TxInputAddressAt 3 TxInputsSize 3 VerifyAbsoluteLocktime 5
VerifyRelativeLocktime 8 Log1 120 Log2 140 Log3 160 Log4 180 Log5 200 ByteVecSlice 1 ByteVecToAddress 5 Encode 1
Zeros 1 U256To1Byte 1 U256To2Byte 1 U256To4Byte 1 U256To8Byte 1 U256To16Byte 2 U256To32Byte 4 U256From1Byte 1
U256From2Byte 1 U256From4Byte 1 U256From8Byte 1 U256From16Byte 2 U256From32Byte 4 EthEcRecover 2500 Log6 220 Log7 240
Log8 260 Log9 280 ContractIdToAddress 5 LoadLocalByIndex 5 StoreLocalByIndex 5 Dup 2 AssertWithErrorCode 3 Swap 2
BlockHash 2 DEBUG 0 TxGasPrice 2 TxGasAmount 2 TxGasFee 2 I256Exp 1610 U256Exp 1610 U256ModExp 1610
VerifyBIP340Schnorr 2000 GetSegregatedSignature 3 MulModN 13 AddModN 8 U256ToString 4 I256ToString 4 BoolToString 4
GroupOfAddress 5 VerifySignature 2000 GetSegregatedWebAuthnSignature 8 DevInstr 0 I256RoundInfinityDiv 5
U256RoundInfinityDiv 5
LoadMutField 3 StoreMutField 3 ApproveAlph 30 ApproveToken 30 AlphRemaining 30 TokenRemaining 30 IsPaying 30
TransferAlph 30 TransferAlphFromSelf 30 TransferAlphToSelf 30 TransferToken 30 TransferTokenFromSelf 30
TransferTokenToSelf 30 CreateContract 32000 CreateContractWithToken 32000 CopyCreateContract 24000 DestroySelf 2000
SelfContractId 3 SelfAddress 3 CallerContractId 5 CallerAddress 5 IsCalledFromTxScript 5 CallerInitialStateHash 5
CallerCodeHash 5 ContractInitialStateHash 5 ContractCodeHash 5 MigrateSimple 32000 MigrateWithFields 32000
CopyCreateContractWithToken 24000 BurnToken 30 LockApprovedAssets 30 CreateSubContract 32000
CreateSubContractWithToken 32000 CopyCreateSubContract 24000 CopyCreateSubContractWithToken 24000
LoadMutFieldByIndex 5 StoreMutFieldByIndex 5 ContractExists 800 CreateContractAndTransferToken 32000
CopyCreateContractAndTransferToken 24000 CreateSubContractAndTransferToken 32000
CopyCreateSubContractAndTransferToken 24000 NullContractAddress 2 SubContractId 199 SubContractIdOf 199
ALPHTokenId 2 LoadImmField 3 LoadImmFieldByIndex 5 PayGasFee 30 MinimalContractDeposit 2 CreateMapEntry 32000
MethodSelector 10 ExternalCallerContractId 5 ExternalCallerAddress 5`;

const TABLE = new Map<string, number>();
const words = GAS_TABLE.split(/\s+/);
for (let i = 0; i < words.length; i += 2) TABLE.set(words[i] as string, Number(words[i + 1]));

const TO_BYTE_SIZES: Readonly<Record<string, number>> = {
  BoolToByteVec: 1,
  I256ToByteVec: 33,
  U256ToByteVec: 33,
  AddressToByteVec: 33,
  ByteVecToAddress: 33,
  U256To1Byte: 1,
  U256To2Byte: 2,
  U256To4Byte: 4,
  U256To8Byte: 8,
  U256To16Byte: 16,
  U256To32Byte: 32,
  U256From1Byte: 1,
  U256From2Byte: 2,
  U256From4Byte: 4,
  U256From8Byte: 8,
  U256From16Byte: 16,
  U256From32Byte: 32,
};
const GAS32_FORMULAS: Readonly<Record<string, (size: number) => number>> = {
  Blake2b: gasHash,
  Keccak256: gasHash,
  Sha256: gasHash,
  Sha3: gasHash,
  ByteVecEq: gasBytesEq,
  ByteVecNeq: gasBytesEq,
  I256Exp: gasExp,
  U256Exp: gasExp,
  U256ModExp: gasExp,
  U256ToString: gasToByte,
  I256ToString: gasToByte,
  BoolToString: gasToByte,
  SubContractId: gasSubContractId,
  SubContractIdOf: gasSubContractId,
};
/** Entries the node's test checks by running the instruction; checked below the same way. */
const RUN_CHECKED = new Set(['ByteVecConcat', 'ByteVecSlice', 'Encode']);

function gasByTheNodesRule(name: string): number {
  const logFields = /^Log(\d)$/.exec(name);
  if (logFields) return gasLog(Number(logFields[1]));
  // The node checks Zeros as `gas(33) == 3 + 5 * entry` (InstrSpec line 5057).
  if (name === 'Zeros') return (gasBytesEq(33) - 3) / 5;
  const size = TO_BYTE_SIZES[name];
  if (size !== undefined) return gasToByte(size);
  const formula = GAS32_FORMULAS[name];
  if (formula !== undefined) return formula(32);
  return simpleGas(name) ?? NaN;
}

describe('VM gas (InstrSpec "test gas amount")', () => {
  it('transcribes an entry for every instruction but the three calls (InstrSpec lines 5048-5049)', () => {
    assert.equal(TABLE.size, 201 - 3);
    const untabled = OPCODES.filter((o) => !TABLE.has(o.name)).map((o) => o.name);
    assert.deepEqual(untabled.sort(), ['CallExternal', 'CallExternalBySelector', 'CallLocal']);
  });

  it('prices every table entry as the node does', () => {
    for (const [name, tableGas] of TABLE) {
      if (RUN_CHECKED.has(name)) continue;
      assert.equal(gasByTheNodesRule(name), tableGas, name);
    }
  });

  it('charges ByteVecConcat 3 + 1 per byte of the result: 326 for 123 + 200 bytes (InstrSpec line 5080)', () => {
    const program = ops(
      instr('BytesConst', { kind: 'bytes', value: new Uint8Array(123) }),
      instr('BytesConst', { kind: 'bytes', value: new Uint8Array(200) }),
      'ByteVecConcat',
      'ByteVecSize',
    );
    const { returns, gasUsed } = expectCompleted(runOps(program));
    assert.deepEqual(returns, [vU256(323n)]);
    assert.equal(gasUsed, 2 + 2 + 326 * (TABLE.get('ByteVecConcat') ?? 0) + 2);
  });

  it('charges ByteVecConcat 1 per byte before Leman (gasDeprecated)', () => {
    assert.equal(gasBytesConcat(323, 'Genesis'), 323);
    assert.equal(gasBytesEq(32, 'Genesis'), 4);
    const program = ops(
      instr('BytesConst', { kind: 'bytes', value: new Uint8Array(123) }),
      instr('BytesConst', { kind: 'bytes', value: new Uint8Array(200) }),
      'ByteVecConcat',
      'Pop',
    );
    assert.equal(expectCompleted(runOps(program, 0, { fork: 'Genesis' })).gasUsed, 2 + 2 + 323 + 2);
  });

  it('charges ByteVecSlice 3 + 1 per byte of the slice: 1..10 of 20 bytes costs 12 (InstrSpec line 5088)', () => {
    const program = ops(
      instr('BytesConst', { kind: 'bytes', value: new Uint8Array(20) }),
      u256Op(1n),
      u256Op(10n),
      'ByteVecSlice',
    );
    const { returns, gasUsed } = expectCompleted(runOps(program));
    assert.deepEqual(returns, [vByteVec(new Uint8Array(9))]);
    assert.equal(gasUsed, 2 + 2 + 2 + 3 + 9 * (TABLE.get('ByteVecSlice') ?? 0));
  });

  it('charges Encode 3 + 1 per encoded byte: True, False, 0 encode to 7 bytes (InstrSpec line 5097)', () => {
    const program = ops('ConstTrue', 'ConstFalse', 'U256Const0', 'U256Const3', 'Encode');
    const { returns, gasUsed } = expectCompleted(runOps(program));
    assert.deepEqual(returns, [vByteVec(Uint8Array.from([3, 0, 1, 0, 0, 2, 0]))]);
    assert.equal(gasUsed, 4 * 2 + 3 + 7 * (TABLE.get('Encode') ?? 0));
  });

  it('prices a script at its bytes + 200 and a contract load at 800 + 1 per word (GasSchedule.scala)', () => {
    assert.equal(scriptBaseGas(100), 300);
    assert.equal(contractLoadGas(64), 808);
    assert.equal(contractLoadGas(65), 809);
  });
});
