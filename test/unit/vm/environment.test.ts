/**
 * Hashes, signatures, the block and tx environment, logs, `debug!`, assertions and the Ralph
 * unit-test instructions, against alephium/alephium at 63bcf6998508025f9538f3377629fe9e66df6c53:
 * protocol/src/test/scala/org/alephium/protocol/vm/InstrSpec.scala ("AssertWithErrorCode" lines
 * 1649-1676, the hash tests 1696-1710, "VerifyAbsoluteLocktime" 277-318, "test EthEcRecover" 1976-1992
 * with the web3j vector of crypto/src/test/scala/org/alephium/crypto/SecP256K1Spec.scala lines 202-211,
 * "combine debug messages" and "Debug" 4753-4791, "test TxInstr.checkScriptFrameForLeman" 2144), the
 * low-S rule of crypto/.../SecP256K1.scala `verify` (lines 174-190) and ExeFailure.scala's texts.
 */
import assert from 'node:assert/strict';
import { ed25519 } from '@noble/curves/ed25519.js';
import { p256 } from '@noble/curves/nist.js';
import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '../../../src/core/protocol';
import { VirtualMachine, vAddress, vBool, vByteVec, vI256, vU256, type Instr } from '../../../src/core/vm';
import {
  bytesOp,
  context,
  expectCompleted,
  expectFailure,
  instr,
  method,
  ops,
  runOps,
  u256Op,
  type RunOptions,
} from './assemble';

const hex = (s: string) => hexToBytes(s);
const dev = (value: number): Instr => instr('DevInstr', { kind: 'devInstr', value });
const debugOp = (...parts: string[]): Instr =>
  instr('DEBUG', { kind: 'bytesArray', value: parts.map((p) => new TextEncoder().encode(p)) });
const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

describe('VM hashes and signatures', () => {
  it('hashes with blake2b-256, keccak256, sha256 and sha3-256 for 30 + 6 per word (InstrSpec lines 1696-1710)', () => {
    const empty: Array<[string, string]> = [
      ['Blake2b', '0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8'],
      ['Keccak256', 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470'],
      ['Sha256', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
      ['Sha3', 'a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a'],
    ];
    for (const [name, digest] of empty) {
      const run = expectCompleted(runOps([bytesOp(new Uint8Array(0)), instr(name)]));
      assert.deepEqual([run.returns, run.gasUsed], [[vByteVec(hex(digest))], 2 + 30], name);
    }
    assert.equal(
      expectCompleted(runOps([bytesOp(new Uint8Array(33)), instr('Blake2b')])).gasUsed,
      2 + 30 + 6 * 5,
    );
  });

  it('verifies a low-S secp256k1 signature of 32 bytes and refuses the high-S twin (SecP256K1.scala lines 174-190)', () => {
    const key = secp256k1.utils.randomSecretKey();
    const publicKey = secp256k1.getPublicKey(key, true);
    const data = new Uint8Array(32).fill(9);
    const signature = secp256k1.sign(data, key, { prehash: false, lowS: true });
    const verify = (sig: Uint8Array, message = data) =>
      runOps([bytesOp(message), bytesOp(publicKey), bytesOp(sig), instr('VerifySecP256K1')], 0);
    assert.equal(expectCompleted(verify(signature)).gasUsed, 6 + 2000);
    const s = BigInt('0x' + bytesToHex(signature.subarray(32)));
    const highS = new Uint8Array(signature);
    highS.set(hex((CURVE_ORDER - s).toString(16).padStart(64, '0')), 32);
    assert.equal(expectFailure(verify(highS)).failure, 'InvalidSignature');
    const shortData = expectFailure(verify(signature, new Uint8Array(31)));
    assert.deepEqual(
      [shortData.failure, shortData.message],
      ['SignedDataIsNot32Bytes', 'Signed data bytes should have 32 bytes, get 31 instead'],
    );
    assert.equal(expectFailure(verify(signature.subarray(0, 63))).failure, 'InvalidSignatureFormat');
  });

  it('verifies ed25519 and BIP340 signatures, and the tx signature against the tx id', () => {
    const data = new Uint8Array(32).fill(3);
    const edKey = ed25519.utils.randomSecretKey();
    const edRun = runOps(
      [
        bytesOp(data),
        bytesOp(ed25519.getPublicKey(edKey)),
        bytesOp(ed25519.sign(data, edKey)),
        instr('VerifyED25519'),
      ],
      0,
    );
    expectCompleted(edRun);
    const schnorrKey = schnorr.utils.randomSecretKey();
    const bip340 = runOps(
      [
        bytesOp(data),
        bytesOp(schnorr.getPublicKey(schnorrKey)),
        bytesOp(schnorr.sign(data, schnorrKey)),
        instr('VerifyBIP340Schnorr'),
      ],
      0,
    );
    expectCompleted(bip340);

    const txKey = secp256k1.utils.randomSecretKey();
    const txId = new Uint8Array(32).fill(7);
    const signature = secp256k1.sign(txId, txKey, { prehash: false });
    const txEnv = { txId, signatures: [signature] };
    const program = [bytesOp(secp256k1.getPublicKey(txKey, true)), instr('VerifyTxSignature')];
    expectCompleted(runOps(program, 0, { txEnv }));
    assert.equal(
      expectFailure(runOps(program, 0, { txEnv: { txId: new Uint8Array(32), signatures: [signature] } }))
        .failure,
      'InvalidSignature',
    );
    assert.equal(expectFailure(runOps(program, 0)).failure, 'StackUnderflow', 'no signature left to pop');
  });

  it('pops script signatures from the end of the tx list, as Stack.popOnly does (Context.scala line 941)', () => {
    const first = new Uint8Array(64).fill(1);
    const second = new Uint8Array(64).fill(2);
    const run = runOps(ops('GetSegregatedSignature', 'GetSegregatedSignature'), 2, {
      txEnv: { signatures: [first, second] },
    });
    assert.deepEqual(expectCompleted(run).returns, [vByteVec(second), vByteVec(first)]);
  });

  it('verifies by key type since Danube (VerifySignature: ed25519, secp256r1) and refuses a wrong key length', () => {
    const data = new Uint8Array(32).fill(5);
    const key = ed25519.utils.randomSecretKey();
    const run = (keyType: string, publicKey: Uint8Array, options?: RunOptions) =>
      runOps(
        [
          bytesOp(data),
          bytesOp(publicKey),
          bytesOp(ed25519.sign(data, key)),
          bytesOp(hex(keyType)),
          instr('VerifySignature'),
        ],
        0,
        options,
      );
    expectCompleted(run('02', ed25519.getPublicKey(key)));
    const r1Key = p256.utils.randomSecretKey();
    const r1Signature = p256.sign(data, r1Key, { prehash: false, lowS: true });
    const r1 = [
      bytesOp(data),
      bytesOp(p256.getPublicKey(r1Key, true)),
      bytesOp(r1Signature),
      bytesOp(hex('01')),
    ];
    assert.equal(expectCompleted(runOps([...r1, instr('VerifySignature')], 0)).gasUsed, 8 + 2000);
    assert.equal(expectFailure(run('02', new Uint8Array(33))).failure, 'InvalidPublicKey');
    assert.equal(expectFailure(run('0202', ed25519.getPublicKey(key))).failure, 'InvalidPublicKeyType');
    assert.equal(
      expectFailure(run('02', ed25519.getPublicKey(key), { fork: 'Rhone' })).failure,
      'InactiveInstr',
    );
  });

  it("recovers web3j's Ethereum address (SecP256K1Spec lines 202-211, InstrSpec lines 1976-1992)", () => {
    const message = new TextEncoder().encode('\u0019Ethereum Signed Message:\n16v0G9u7huK4mJb2K1');
    const signature = hex(
      '2c6401216c9031b9a6fb8cbfccab4fcec6c951cdf40e2320108d1856eb532250576865fbcd452bcdc4c57321b619ed7a9cfd38bd973c3e1e0243ac2777fe9d5b1b',
    );
    const run = expectCompleted(
      runOps([bytesOp(keccak_256(message)), bytesOp(signature), instr('EthEcRecover')]),
    );
    assert.deepEqual(
      [run.returns, run.gasUsed],
      [[vByteVec(hex('31b26e43651e9371c88af3d36c14cfd938baf4fd'))], 4 + 2500],
    );
    const swapped = expectFailure(
      runOps([bytesOp(signature), bytesOp(keccak_256(message)), instr('EthEcRecover')]),
    );
    assert.equal(swapped.failure, 'FailedInRecoverEthAddress');
  });
});

describe('VM environment, logs and assertions', () => {
  it('reads the block: network id, timestamp, target and hash (absent in a dry run)', () => {
    const blockEnv = { networkId: 1, timeStamp: 1234n, target: 99n, blockHash: new Uint8Array(32).fill(1) };
    const run = expectCompleted(
      runOps(ops('NetworkId', 'BlockTimeStamp', 'BlockTarget', 'BlockHash'), 4, { blockEnv }),
    );
    assert.deepEqual(run.returns, [
      vByteVec(hex('01')),
      vU256(1234n),
      vU256(99n),
      vByteVec(new Uint8Array(32).fill(1)),
    ]);
    assert.equal(run.gasUsed, 3 + 3 + 3 + 2);
    assert.equal(expectFailure(runOps(ops('BlockHash'))).failure, 'NoBlockHashAvailable');
  });

  it('reads the tx: id, inputs, gas price, amount and fee; inputs only from a script since Leman (InstrSpec line 2144)', () => {
    const lockupScript = hex('00' + 'ab'.repeat(32));
    const txEnv = { prevOutputs: [{ lockupScript, lockTime: 0n }], gasPrice: 10n, gasAmount: 3 };
    const program = ops(
      'U256Const0',
      'TxInputAddressAt',
      'TxInputsSize',
      'TxGasPrice',
      'TxGasAmount',
      'TxGasFee',
    );
    const run = expectCompleted(runOps(program, 5, { txEnv }));
    assert.deepEqual(run.returns, [vAddress(lockupScript), vU256(1n), vU256(10n), vU256(3n), vU256(30n)]);
    const missing = expectFailure(runOps(ops('U256Const1', 'TxInputAddressAt'), 1, { txEnv }));
    assert.deepEqual([missing.failure, missing.message], ['InvalidTxInputIndex', 'Invalid tx input index 1']);
    const inContract = { txEnv, contractId: new Uint8Array(32) };
    assert.equal(
      expectFailure(runOps(ops('TxInputsSize'), 1, inContract)).failure,
      'AccessTxInputAddressInContract',
    );
    expectCompleted(runOps(ops('TxInputsSize'), 1, { ...inContract, fork: 'Genesis' }));
  });

  it('checks absolute lock times against the block time (InstrSpec lines 277-318)', () => {
    const blockEnv = { timeStamp: 1000n };
    expectCompleted(runOps([u256Op(1000n), instr('VerifyAbsoluteLocktime')], 0, { blockEnv }));
    const locked = expectFailure(runOps([u256Op(1001n), instr('VerifyAbsoluteLocktime')], 0, { blockEnv }));
    assert.equal(
      locked.message,
      'Absolute lock time verification failed. Lock time: TimeStamp(1001ms), block time: TimeStamp(1000ms)',
    );
    assert.equal(
      expectFailure(runOps([u256Op(1n << 63n), instr('VerifyAbsoluteLocktime')], 0)).failure,
      'LockTimeOverflow',
    );
  });

  it('checks relative lock times from the spent UTXO, which must be persisted', () => {
    const lockupScript = hex('00' + 'ab'.repeat(32));
    const at = (lockTime: bigint) => ({
      txEnv: { prevOutputs: [{ lockupScript, lockTime }] },
      blockEnv: { timeStamp: 1000n },
    });
    const program = [u256Op(0n), u256Op(100n), instr('VerifyRelativeLocktime')];
    expectCompleted(runOps(program, 0, at(900n)));
    assert.equal(expectFailure(runOps(program, 0, at(901n))).failure, 'RelativeLockTimeVerificationFailed');
    assert.equal(expectFailure(runOps(program, 0, at(0n))).failure, 'RelativeLockTimeExpectPersistedUtxo');
  });

  it('logs n fields for 100 + 20 n gas, with the contract id when a contract logs', () => {
    const vm = new VirtualMachine(context());
    vm.start({
      code: { methods: [method(ops('U256Const0', 'ConstTrue', 'Log2'))] },
      methodIndex: 0,
      args: [],
    });
    assert.equal(expectCompleted(vm.run()).gasUsed, 2 + 2 + 140);
    assert.deepEqual(vm.ctx.logs, [{ fields: [vU256(0n), vBool(true)] }]);
  });

  it('interpolates debug! values in their debug form and refuses mainnet (InstrSpec lines 4753-4791)', () => {
    const vm = new VirtualMachine(context());
    const program = [bytesOp(new TextEncoder().encode('Alephium')), debugOp('Hello, ', '!')];
    vm.start({ code: { methods: [method(program)] }, methodIndex: 0, args: [] });
    assert.equal(expectCompleted(vm.run()).gasUsed, 2);
    assert.deepEqual(vm.ctx.debugMessages, [{ message: 'Hello, 416c65706869756d!' }]);
    assert.deepEqual(vm.ctx.logs[0]?.fields, [
      vI256(-3n),
      vByteVec(new TextEncoder().encode('Hello, 416c65706869756d!')),
    ]);
    assert.equal(expectFailure(runOps([debugOp('Hello, ', '!')], 0)).failure, 'StackUnderflow');
    assert.equal(expectFailure(runOps([debugOp()], 0)).failure, 'DebugMessageIsEmpty');
    assert.equal(
      expectFailure(runOps([debugOp('hi')], 0, { blockEnv: { networkId: 0 } })).failure,
      'DebugIsNotSupportedForMainnet',
    );
  });

  it('fails assert! with the error code, in a script and in a contract (InstrSpec lines 1649-1676)', () => {
    const script = expectFailure(runOps(ops('ConstFalse', 'U256Const0', 'AssertWithErrorCode'), 0));
    assert.deepEqual(
      [script.failure, script.message],
      ['AssertionFailedWithErrorCode', 'Assertion Failed in TxScript, Error Code: 0'],
    );
    const contractId = hex('00'.repeat(31) + '01');
    const vm = new VirtualMachine(context());
    vm.start({
      code: { methods: [method(ops('ConstFalse', 'U256Const5', 'AssertWithErrorCode'))], contractId },
      methodIndex: 0,
      args: [],
    });
    const failed = vm.run();
    assert.equal(failed.status, 'failed');
    assert.deepEqual([vm.failure?.errorCode, vm.failure?.contractId], [5, bytesToHex(contractId)]);
    assert.match(vm.failure?.message ?? '', /^Assertion Failed in Contract @ \w+, Error Code: 5$/);
    const tooBig = expectFailure(
      runOps([instr('ConstFalse'), u256Op(1n << 31n), instr('AssertWithErrorCode')], 0),
    );
    assert.equal(tooBig.failure, 'InvalidErrorCode');
    assert.equal(expectFailure(runOps(ops('ConstFalse', 'Assert'), 0)).failure, 'AssertionFailed');
  });
});

describe('VM Ralph unit-test instructions (DevInstr)', () => {
  it('passes testFail! when its block fails, resuming at the block end (Frame.scala handleError)', () => {
    const program = ops('U256Const0', dev(0), 'U256Const0', 'U256Const1', 'U256Sub', dev(2), 'ConstTrue');
    assert.deepEqual(expectCompleted(runOps(program)).returns, [vBool(true)]);
  });

  it('fails testFail! whose block does not fail with ExpectedAnExeFailure', () => {
    assert.equal(expectFailure(runOps(ops('U256Const0', dev(0), dev(2)), 0)).failure, 'ExpectedAnExeFailure');
  });

  it('compares the error code of testError! with the failed assert!', () => {
    const block = (expected: string) =>
      ops(expected, 'U256Const0', dev(1), 'ConstFalse', 'U256Const5', 'AssertWithErrorCode', dev(2));
    expectCompleted(runOps(block('U256Const5'), 0));
    const wrong = expectFailure(runOps(block('U256Const4'), 0));
    assert.deepEqual(
      [wrong.failure, wrong.message],
      ['NotExpectedErrorInTest', 'Unexpected error code in test. Expected: 4, but got: 5.'],
    );
  });

  it('fails testEqual! on different values and refuses test instructions on mainnet and testnet', () => {
    const unequal = expectFailure(runOps(ops('U256Const1', 'U256Const2', 'U256Const0', dev(3)), 0));
    assert.deepEqual(
      [unequal.failure, unequal.message],
      ['NotEqualInTest', 'Assertion Failed: left(U256(1)) is not equal to right(U256(2))'],
    );
    expectCompleted(runOps(ops('U256Const1', 'U256Const1', 'U256Const0', dev(3)), 0));
    for (const networkId of [0, 1]) {
      assert.equal(
        expectFailure(runOps([dev(4)], 1, { blockEnv: { networkId } })).failure,
        'DevInstrIsOnlySupportedOnDevnet',
      );
    }
    const random = expectCompleted(runOps([dev(4)], 1)).returns[0];
    assert.equal(random?.type, 'U256');
  });
});
