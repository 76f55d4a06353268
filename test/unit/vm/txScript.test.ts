/**
 * emulateTxScript on deploy scripts built by hand, as the node's BuildDeployContractTx builds them
 * (approve the deposit, push code and encoded fields, CreateContract). Each expected gas is the sum of
 * the node's charges, named where they are charged.
 */
import { strict as assert } from 'node:assert';
import {
  addressFromContractId,
  blake2b256,
  bytesToHex,
  contractIdFromTx,
  groupOfLockupScript,
  hexToBytes,
  txIdFromUnsignedTx,
} from '../../../src/core/protocol';
import { emulateTxScript, vU256, type Instr } from '../../../src/core/vm';
import { byteOp, bytesOp, instr, method, ops, u256Op } from './assemble';
import {
  SIGNER_ADDRESS,
  SIGNER_LOCKUP,
  encodeContract,
  encodeScript,
  fieldsBytes,
  unsignedTxOf,
} from './bytecode';

const ONE_ALPH = 10n ** 18n;
/** Testnet times inside Rhone and inside Danube (network_testnet.conf.tmpl lines 44-46). */
const TESTNET_RHONE = 1_720_000_000_000;
const TESTNET_DANUBE = 1_750_000_000_000;

/** `fn get() -> U256 { return counter }` over one immutable and one mutable U256. */
const CODE = encodeContract(2, [method(ops(byteOp('LoadMutField', 0)), { returnLength: 1 })]);
const IMM = fieldsBytes([vU256(7n)]);
const MUT = fieldsBytes([vU256(1n)]);

const approve = (amount: bigint): Instr[] => [
  instr('AddressConst', { kind: 'address', value: SIGNER_LOCKUP }),
  u256Op(amount),
  instr('ApproveAlph'),
];

function deployScript(
  prefix: readonly Instr[],
  create: readonly Instr[] = ops('CreateContract'),
): Uint8Array {
  const body = [...prefix, bytesOp(CODE), bytesOp(IMM), bytesOp(MUT), ...create, instr('Pop')];
  return encodeScript([method(body, { usePreapprovedAssets: true })]);
}

/** Fixed gas of approve + three BytesConst + Pop: AddressConst 2, U256Const 2, ApproveAlph 30, 2 each. */
const APPROVE_AND_PUSHES = 2 + 2 + 30 + 3 * 2 + 2;
/** ContractFactory: GasCreate 32000, the fields' estimated bytes (two U256: 32 each), code + 200. */
const CREATE = 32_000 + 64 + CODE.length + 200;
/** The caller's change is one generated output (Context.scala chargeGeneratedOutput, 4500). */
const CHANGE_OUTPUT = 4500;

describe('emulateTxScript: deploy scripts', () => {
  it('charges script bytes + 200, the create, fields, code and the change output, as the node estimates a deploy', () => {
    const script = deployScript(approve(ONE_ALPH));
    const result = emulateTxScript({ unsignedTx: unsignedTxOf(script) });
    assert.equal(result.ok, true, result.error);
    // VM.checkCodeSize: GasCall.scriptBaseGas(script.length) = length + 200.
    assert.equal(result.gasUsed, script.length + 200 + APPROVE_AND_PUSHES + CREATE + CHANGE_OUTPUT);
  });

  it('gives the new contract the id Blake2b(txId ‖ u32be(fixed outputs)) with the group byte (CreateContractAbstract.getContractId)', () => {
    const unsignedTx = unsignedTxOf(deployScript(approve(ONE_ALPH)), { fixedOutputs: 2 });
    const result = emulateTxScript({ unsignedTx });
    const txId = txIdFromUnsignedTx(unsignedTx);
    const expected = contractIdFromTx(txId, 2, groupOfLockupScript(SIGNER_LOCKUP));
    const created = result.contracts.find((c) => c.created);
    assert.equal(created?.contractId, expected);
    assert.equal(created?.address, addressFromContractId(expected));
    assert.equal(created?.codeHash, bytesToHex(blake2b256(CODE)));
    assert.equal(created?.bytecode, bytesToHex(CODE));
    assert.deepEqual(created?.immFields, [{ type: 'U256', value: '7' }]);
    assert.deepEqual(created?.mutFields, [{ type: 'U256', value: '1' }]);
    assert.equal(created?.attoAlphAmount, ONE_ALPH.toString());
  });

  it('logs ContractCreated (-1) under the special id 00…(-1)(group) with the new address (Frame.scala createContract)', () => {
    const result = emulateTxScript({ unsignedTx: unsignedTxOf(deployScript(approve(ONE_ALPH))) });
    const created = result.contracts.find((c) => c.created);
    const special = new Uint8Array(32);
    special[30] = 0xff;
    special[31] = groupOfLockupScript(SIGNER_LOCKUP);
    assert.deepEqual(result.events, [
      {
        contractAddress: addressFromContractId(bytesToHex(special)),
        eventIndex: -1,
        fields: [
          { type: 'Address', value: created?.address },
          { type: 'ByteVec', value: '' },
          { type: 'ByteVec', value: '' },
        ],
      },
    ]);
  });

  it('outputs the contract, then the caller change: inputs less the approved ALPH and the gas fee', () => {
    const unsignedTx = unsignedTxOf(deployScript(approve(ONE_ALPH)), { gasAmount: 60_000 });
    const result = emulateTxScript({ unsignedTx });
    const fee = 60_000n * 100_000_000_000n;
    assert.deepEqual(
      result.generatedOutputs.map((o) => [o.address, o.attoAlphAmount]),
      [
        [result.contracts[0]?.address, ONE_ALPH.toString()],
        [SIGNER_ADDRESS, (10n ** 24n - ONE_ALPH - fee).toString()],
      ],
    );
  });

  it('counts the same gas under Rhone (the new contract cached, its assets flushed) and Danube', () => {
    const unsignedTx = unsignedTxOf(deployScript(approve(ONE_ALPH)), { networkId: 1 });
    const rhone = emulateTxScript({ unsignedTx, blockTimeStamp: TESTNET_RHONE });
    const danube = emulateTxScript({ unsignedTx, blockTimeStamp: TESTNET_DANUBE });
    assert.equal(rhone.ok && danube.ok, true);
    assert.equal(rhone.gasUsed, danube.gasUsed);
  });

  it('funds a deposit nobody approved from the caller since Danube, and fails with InvalidBalances before (Frame.scala getInitialBalancesForNewContract)', () => {
    const unsignedTx = unsignedTxOf(deployScript([]), { networkId: 1 });
    const danube = emulateTxScript({ unsignedTx, blockTimeStamp: TESTNET_DANUBE });
    assert.equal(danube.ok, true, danube.error);
    assert.equal(
      danube.contracts[0]?.attoAlphAmount,
      (ONE_ALPH / 10n).toString(),
      'minimalAlphInContract is 0.1 ALPH',
    );
    const rhone = emulateTxScript({ unsignedTx, blockTimeStamp: TESTNET_RHONE });
    assert.equal(rhone.ok, false);
    assert.match(rhone.error ?? '', /^InvalidBalances/);
  });

  it('issues tokens to the contract (CreateContractWithToken) or to an address (CreateContractAndTransferToken)', () => {
    const issued = 1000n;
    const toContract = deployScript(approve(ONE_ALPH), [u256Op(issued), instr('CreateContractWithToken')]);
    const kept = emulateTxScript({ unsignedTx: unsignedTxOf(toContract) });
    const created = kept.contracts[0];
    assert.deepEqual(created?.tokens, [{ id: created?.contractId, amount: '1000' }]);
    const pushTo = instr('AddressConst', { kind: 'address', value: SIGNER_LOCKUP });
    const toSigner = deployScript(approve(ONE_ALPH), [
      u256Op(issued),
      pushTo,
      instr('CreateContractAndTransferToken'),
    ]);
    const sent = emulateTxScript({ unsignedTx: unsignedTxOf(toSigner) });
    assert.deepEqual(sent.contracts[0]?.tokens, []);
    // TxOutput.from: one dust output (0.001 ALPH) per token, then the ALPH; each charged 4500.
    const tokenOutput = sent.generatedOutputs[1];
    assert.deepEqual(
      [tokenOutput?.attoAlphAmount, tokenOutput?.tokens[0]?.amount],
      ['1000000000000000', '1000'],
    );
    assert.equal(sent.generatedOutputs.length, 3);
    assert.equal(sent.gasUsed - kept.gasUsed, toSigner.length - toContract.length + 2 + 4500);
  });

  it('fails with NotEnoughApprovedBalance in the node words when the caller approves more than it has', () => {
    const unsignedTx = unsignedTxOf(deployScript(approve(2n * ONE_ALPH)));
    const result = emulateTxScript({
      unsignedTx,
      inputAssets: [{ address: SIGNER_ADDRESS, attoAlphAmount: ONE_ALPH.toString() }],
    });
    assert.equal(result.ok, false);
    const left = ONE_ALPH - 50_000n * 100_000_000_000n;
    assert.equal(
      result.error,
      `NotEnoughApprovedBalance: Not enough approved balance for address ${SIGNER_ADDRESS}, tokenId: ALPH, expected: ${2n * ONE_ALPH}, got: ${left}`,
    );
    assert.deepEqual([result.contracts, result.events, result.generatedOutputs], [[], [], []]);
  });

  it('before Leman: no immutable fields are popped, the id has no group byte and is not pushed (ContractId.deprecatedFrom)', () => {
    const code = encodeContract(1, [method(ops(byteOp('LoadMutField', 0)), { returnLength: 1 })]);
    const body = [...approve(ONE_ALPH), bytesOp(code), bytesOp(MUT), instr('CreateContract')];
    const unsignedTx = unsignedTxOf(encodeScript([method(body, { usePreapprovedAssets: true })]), {
      networkId: 0,
    });
    const result = emulateTxScript({ unsignedTx, blockTimeStamp: 1_670_000_000_000 });
    assert.equal(result.ok, true, result.error);
    const txId = hexToBytes(txIdFromUnsignedTx(unsignedTx));
    const expected = bytesToHex(blake2b256(Uint8Array.of(...txId, 0, 0, 0, 1)));
    assert.equal(result.contracts[0]?.contractId, expected);
    assert.deepEqual(result.contracts[0]?.immFields, []);
  });

  it('reports a tx without a script, and a contract whose field count differs (InvalidFieldLength)', () => {
    assert.match(emulateTxScript({ unsignedTx: unsignedTxOf(undefined) }).error ?? '', /^NoTxScript/);
    const wrong = encodeScript([
      method(
        [
          ...approve(ONE_ALPH),
          bytesOp(CODE),
          bytesOp(IMM),
          bytesOp(fieldsBytes([])),
          instr('CreateContract'),
        ],
        {
          usePreapprovedAssets: true,
        },
      ),
    ]);
    assert.match(emulateTxScript({ unsignedTx: unsignedTxOf(wrong) }).error ?? '', /^InvalidFieldLength/);
  });
});

describe('emulateTxScript: inputs it cannot run', () => {
  it('answers with ok false, not an exception, for a contract state whose code does not decode', () => {
    const call = [u256Op(0n), u256Op(0n), bytesOp(new Uint8Array(32).fill(4)), byteOp('CallExternal', 0)];
    const unsignedTx = unsignedTxOf(encodeScript([method(call)]));
    const state = {
      address: '',
      bytecode: 'ff',
      codeHash: '',
      immFields: [],
      mutFields: [],
      asset: { attoAlphAmount: '0' },
    };
    const result = emulateTxScript({ unsignedTx, contractState: () => state });
    assert.equal(result.ok, false);
    assert.match(result.error ?? '', /^InvalidInput: /);
  });
});
