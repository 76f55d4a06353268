/**
 * The opcode table against alephium/alephium at 63bcf6998508025f9538f3377629fe9e66df6c53:
 * - codes: protocol/src/test/scala/org/alephium/protocol/vm/InstrSpec.scala, "test bytecode"
 *   (lines 5122-5185), transcribed below as name and code;
 * - forks: the same file's LemanForkFixture (lines 71-93), RhoneForkFixture (96-105) and
 *   DanubeForkFixture (108-120), the instructions whose `runWith` checks that fork.
 */
import assert from 'node:assert/strict';
import {
  MAINNET_FORKS,
  OPCODES,
  forkActivationsOf,
  hardForkAt,
  isExecutable,
  opcodeByCode,
  opcodeByName,
} from '../../../src/core/vm';

const CODES_FROM_INSTR_SPEC = `CallLocal 0,CallExternal 1,Return 2,ConstTrue 3,ConstFalse 4,I256Const0 5,I256Const1 6,
I256Const2 7,I256Const3 8,I256Const4 9,I256Const5 10,I256ConstN1 11,U256Const0 12,U256Const1 13,U256Const2 14,
U256Const3 15,U256Const4 16,U256Const5 17,I256Const 18,U256Const 19,BytesConst 20,AddressConst 21,LoadLocal 22,
StoreLocal 23,Pop 24,BoolNot 25,BoolAnd 26,BoolOr 27,BoolEq 28,BoolNeq 29,BoolToByteVec 30,I256Add 31,I256Sub 32,
I256Mul 33,I256Div 34,I256Mod 35,I256Eq 36,I256Neq 37,I256Lt 38,I256Le 39,I256Gt 40,I256Ge 41,U256Add 42,U256Sub 43,
U256Mul 44,U256Div 45,U256Mod 46,U256Eq 47,U256Neq 48,U256Lt 49,U256Le 50,U256Gt 51,U256Ge 52,U256ModAdd 53,
U256ModSub 54,U256ModMul 55,NumericBitAnd 56,NumericBitOr 57,NumericXor 58,NumericSHL 59,NumericSHR 60,I256ToU256 61,
I256ToByteVec 62,U256ToI256 63,U256ToByteVec 64,ByteVecEq 65,ByteVecNeq 66,ByteVecSize 67,ByteVecConcat 68,
AddressEq 69,AddressNeq 70,AddressToByteVec 71,IsAssetAddress 72,IsContractAddress 73,Jump 74,IfTrue 75,IfFalse 76,
Assert 77,Blake2b 78,Keccak256 79,Sha256 80,Sha3 81,VerifyTxSignature 82,VerifySecP256K1 83,VerifyED25519 84,
NetworkId 85,BlockTimeStamp 86,BlockTarget 87,TxId 88,TxInputAddressAt 89,TxInputsSize 90,VerifyAbsoluteLocktime 91,
VerifyRelativeLocktime 92,Log1 93,Log2 94,Log3 95,Log4 96,Log5 97,ByteVecSlice 98,ByteVecToAddress 99,Encode 100,
Zeros 101,U256To1Byte 102,U256To2Byte 103,U256To4Byte 104,U256To8Byte 105,U256To16Byte 106,U256To32Byte 107,
U256From1Byte 108,U256From2Byte 109,U256From4Byte 110,U256From8Byte 111,U256From16Byte 112,U256From32Byte 113,
EthEcRecover 114,Log6 115,Log7 116,Log8 117,Log9 118,ContractIdToAddress 119,LoadLocalByIndex 120,
StoreLocalByIndex 121,Dup 122,AssertWithErrorCode 123,Swap 124,BlockHash 125,DEBUG 126,TxGasPrice 127,
TxGasAmount 128,TxGasFee 129,I256Exp 130,U256Exp 131,U256ModExp 132,VerifyBIP340Schnorr 133,
GetSegregatedSignature 134,MulModN 135,AddModN 136,U256ToString 137,I256ToString 138,BoolToString 139,
GroupOfAddress 140,VerifySignature 141,GetSegregatedWebAuthnSignature 142,DevInstr 143,I256RoundInfinityDiv 144,
U256RoundInfinityDiv 145,LoadMutField 160,StoreMutField 161,ApproveAlph 162,ApproveToken 163,AlphRemaining 164,
TokenRemaining 165,IsPaying 166,TransferAlph 167,TransferAlphFromSelf 168,TransferAlphToSelf 169,TransferToken 170,
TransferTokenFromSelf 171,TransferTokenToSelf 172,CreateContract 173,CreateContractWithToken 174,
CopyCreateContract 175,DestroySelf 176,SelfContractId 177,SelfAddress 178,CallerContractId 179,CallerAddress 180,
IsCalledFromTxScript 181,CallerInitialStateHash 182,CallerCodeHash 183,ContractInitialStateHash 184,
ContractCodeHash 185,MigrateSimple 186,MigrateWithFields 187,CopyCreateContractWithToken 188,BurnToken 189,
LockApprovedAssets 190,CreateSubContract 191,CreateSubContractWithToken 192,CopyCreateSubContract 193,
CopyCreateSubContractWithToken 194,LoadMutFieldByIndex 195,StoreMutFieldByIndex 196,ContractExists 197,
CreateContractAndTransferToken 198,CopyCreateContractAndTransferToken 199,CreateSubContractAndTransferToken 200,
CopyCreateSubContractAndTransferToken 201,NullContractAddress 202,SubContractId 203,SubContractIdOf 204,
ALPHTokenId 205,LoadImmField 206,LoadImmFieldByIndex 207,PayGasFee 208,MinimalContractDeposit 209,
CreateMapEntry 210,MethodSelector 211,CallExternalBySelector 212,ExternalCallerContractId 213,
ExternalCallerAddress 214`;

const EXPECTED_CODES = CODES_FROM_INSTR_SPEC.split(',').map((pair) => {
  const [name, code] = pair.trim().split(' ');
  return [name as string, Number(code)] as const;
});

const LEMAN =
  `ByteVecSlice ByteVecToAddress Encode Zeros U256To1Byte U256To2Byte U256To4Byte U256To8Byte U256To16Byte
U256To32Byte U256From1Byte U256From2Byte U256From4Byte U256From8Byte U256From16Byte U256From32Byte EthEcRecover Log6
Log7 Log8 Log9 ContractIdToAddress LoadLocalByIndex StoreLocalByIndex Dup AssertWithErrorCode Swap BlockHash DEBUG
TxGasPrice TxGasAmount TxGasFee I256Exp U256Exp U256ModExp VerifyBIP340Schnorr GetSegregatedSignature MulModN AddModN
U256ToString I256ToString BoolToString MigrateSimple MigrateWithFields CopyCreateContractWithToken BurnToken
LockApprovedAssets CreateSubContract CreateSubContractWithToken CopyCreateSubContract CopyCreateSubContractWithToken
LoadMutFieldByIndex StoreMutFieldByIndex ContractExists CreateContractAndTransferToken
CopyCreateContractAndTransferToken CreateSubContractAndTransferToken CopyCreateSubContractAndTransferToken
NullContractAddress SubContractId SubContractIdOf ALPHTokenId LoadImmField LoadImmFieldByIndex`.split(/\s+/);
const RHONE =
  'GroupOfAddress PayGasFee MinimalContractDeposit CreateMapEntry MethodSelector CallExternalBySelector'.split(
    ' ',
  );
const DANUBE =
  `VerifySignature GetSegregatedWebAuthnSignature DevInstr I256RoundInfinityDiv U256RoundInfinityDiv
ExternalCallerContractId ExternalCallerAddress`.split(/\s+/);

describe('VM opcode table (InstrSpec "test bytecode" and fork fixtures)', () => {
  it('has 201 instructions: 145 stateless (CallLocal, Return and 3..145) and 56 stateful', () => {
    assert.equal(OPCODES.length, 201);
    assert.equal(OPCODES.filter((o) => !o.stateful).length, 145);
    assert.equal(OPCODES.filter((o) => o.stateful).length, 56);
    assert.equal(EXPECTED_CODES.length, 201);
  });

  it('gives every instruction the code of InstrSpec "test bytecode" (lines 5129-5185)', () => {
    for (const [name, code] of EXPECTED_CODES) {
      assert.equal(opcodeByName(name).code, code, name);
      assert.equal(opcodeByCode(code)?.name, name, `code ${code}`);
    }
  });

  it('leaves the codes between 146 and 159 and above 214 unassigned', () => {
    for (let code = 146; code < 160; code++) assert.equal(opcodeByCode(code), undefined, `code ${code}`);
    for (let code = 215; code < 256; code++) assert.equal(opcodeByCode(code), undefined, `code ${code}`);
  });

  it('annotates each instruction with the fork whose check it runs (InstrSpec lines 71-120)', () => {
    const expected = new Map<string, string>();
    for (const name of LEMAN) expected.set(name, 'Leman');
    for (const name of RHONE) expected.set(name, 'Rhone');
    for (const name of DANUBE) expected.set(name, 'Danube');
    assert.equal(expected.size, LEMAN.length + RHONE.length + DANUBE.length);
    for (const info of OPCODES) assert.equal(info.since, expected.get(info.name) ?? 'Genesis', info.name);
  });

  it('executes every instruction of the 201, stateless and stateful', () => {
    assert.deepEqual(
      OPCODES.filter((o) => !isExecutable(o.name)).map((o) => o.name),
      [],
    );
  });
});

describe('VM hard forks by block time (NetworkConfig.getHardFork)', () => {
  it('switches at the activation millisecond of network_mainnet.conf.tmpl (lines 31-33), inclusive', () => {
    assert.equal(hardForkAt(MAINNET_FORKS, 1680170400000 - 1), 'Genesis');
    assert.equal(hardForkAt(MAINNET_FORKS, 1680170400000), 'Leman');
    assert.equal(hardForkAt(MAINNET_FORKS, 1718186400000), 'Rhone');
    assert.equal(hardForkAt(MAINNET_FORKS, 1752573600000 - 1), 'Rhone');
    assert.equal(hardForkAt(MAINNET_FORKS, 1752573600000), 'Danube');
  });

  it('uses the testnet times for network 1 (network_testnet.conf.tmpl lines 44-46) and the devnet ones otherwise', () => {
    assert.equal(hardForkAt(forkActivationsOf(1), 1746446400000), 'Danube');
    assert.equal(hardForkAt(forkActivationsOf(0), 1746446400000), 'Rhone');
    assert.equal(hardForkAt(forkActivationsOf(4), 1732666200000), 'Danube');
  });
});
