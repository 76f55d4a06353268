/**
 * Asset instructions in a payable TxScript, per fork where the node's rules differ (`Instr.scala`
 * ApproveAssetBase, AlphRemaining, TokenRemaining, Transfer, BurnToken, LockApprovedAssets,
 * PayGasFee). A script cannot return values, so each check ends in `Assert`.
 */
import { strict as assert } from 'node:assert';
import { emulateTxScript, type EmulateTxScriptResult, type Instr } from '../../../src/core/vm';
import { bytesOp, instr, method, ops, u256Op } from './assemble';
import { SIGNER_ADDRESS, SIGNER_LOCKUP, encodeScript, unsignedTxOf } from './bytecode';

const ONE_ALPH = 10n ** 18n;
/** Testnet times inside Leman, Rhone and Danube (network_testnet.conf.tmpl lines 44-46). */
const AT = { Leman: 1_700_000_000_000, Rhone: 1_720_000_000_000, Danube: 1_750_000_000_000 } as const;
const OTHER = Uint8Array.of(0, ...new Uint8Array(32).fill(9));
const signer = (): Instr => instr('AddressConst', { kind: 'address', value: SIGNER_LOCKUP });
const other = (): Instr => instr('AddressConst', { kind: 'address', value: OTHER });

function run(
  body: readonly Instr[],
  fork: keyof typeof AT = 'Danube',
  payable = true,
): EmulateTxScriptResult {
  const script = encodeScript([method(body, { usePreapprovedAssets: payable })]);
  return emulateTxScript({ unsignedTx: unsignedTxOf(script, { networkId: 1 }), blockTimeStamp: AT[fork] });
}

const failureOf = (r: EmulateTxScriptResult): string => (r.ok ? 'ok' : ((r.error ?? '').split(':')[0] ?? ''));

describe('asset instructions', () => {
  it('AlphRemaining of an address without assets: 0 since Rhone, NoAlphBalanceForTheAddress before', () => {
    const body = [other(), ...ops('AlphRemaining', 'U256Const0', 'U256Eq', 'Assert')];
    assert.equal(failureOf(run(body, 'Rhone')), 'ok');
    assert.equal(failureOf(run(body, 'Leman')), 'NoAlphBalanceForTheAddress');
  });

  it('approving zero from an address without assets succeeds since Rhone and fails before', () => {
    const body = [other(), u256Op(0n), instr('ApproveAlph')];
    assert.equal(failureOf(run(body, 'Rhone')), 'ok');
    assert.equal(failureOf(run(body, 'Leman')), 'NotEnoughApprovedBalance');
  });

  it('TokenRemaining of the ALPH id (32 zero bytes) is the ALPH remaining since Leman', () => {
    const alphId = bytesOp(new Uint8Array(32));
    const body = [
      signer(),
      alphId,
      instr('TokenRemaining'),
      signer(),
      ...ops('AlphRemaining', 'U256Eq', 'Assert'),
    ];
    assert.equal(failureOf(run(body, 'Leman')), 'ok');
  });

  it('IsPaying tells a lockup with assets; a frame without assets fails with NoBalanceAvailable', () => {
    assert.equal(failureOf(run([signer(), instr('IsPaying'), instr('Assert')])), 'ok');
    assert.equal(failureOf(run([other(), instr('IsPaying'), instr('BoolNot'), instr('Assert')])), 'ok');
    assert.equal(
      failureOf(run([signer(), instr('IsPaying'), instr('Pop')], 'Danube', false)),
      'NoBalanceAvailable',
    );
  });

  it('TransferAlph pays an asset address: one more generated output (4500) with the amount', () => {
    const paid = run([signer(), other(), u256Op(ONE_ALPH), instr('TransferAlph')]);
    assert.equal(paid.ok, true, paid.error);
    assert.deepEqual(paid.generatedOutputs[0]?.attoAlphAmount, ONE_ALPH.toString());
    const none = run([]);
    const extraBytes = 2 * 34 + 1 + 9 + 1; // two AddressConst, U256Const of 10^18, TransferAlph
    assert.equal(paid.gasUsed - none.gasUsed, extraBytes + 2 + 2 + 2 + 30 + 4500);
  });

  it('BurnToken refuses ALPH (BurningAlphNotAllowed) and a token nobody holds (NotEnoughApprovedBalance)', () => {
    const burn = (id: Uint8Array): Instr[] => [signer(), bytesOp(id), u256Op(1n), instr('BurnToken')];
    assert.equal(failureOf(run(burn(new Uint8Array(32)))), 'BurningAlphNotAllowed');
    assert.equal(failureOf(run(burn(new Uint8Array(32).fill(5)))), 'NotEnoughApprovedBalance');
  });

  it('LockApprovedAssets makes a locked output of the approved assets, and refuses a lock time not in the future', () => {
    const lock = (until: number): Instr[] => [
      signer(),
      u256Op(ONE_ALPH),
      instr('ApproveAlph'),
      signer(),
      u256Op(BigInt(until)),
      instr('LockApprovedAssets'),
    ];
    const locked = run(lock(AT.Danube + 1));
    assert.equal(locked.ok, true, locked.error);
    assert.equal(locked.generatedOutputs[0]?.attoAlphAmount, ONE_ALPH.toString());
    assert.equal(failureOf(run(lock(AT.Danube))), 'InvalidLockTime');
  });

  it('PayGasFee (Rhone) may not pay more than the fee left (GasOverPaid); what it pays goes back to the first input', () => {
    const fee = 50_000n * 100_000_000_000n;
    assert.equal(failureOf(run([signer(), u256Op(fee + 1n), instr('PayGasFee')])), 'GasOverPaid');
    const paid = run([signer(), u256Op(fee), instr('PayGasFee')]);
    assert.equal(paid.ok, true, paid.error);
    const change = paid.generatedOutputs.find((o) => o.address === SIGNER_ADDRESS);
    assert.equal(
      change?.attoAlphAmount,
      (10n ** 24n - fee).toString(),
      'reimburseGas: the first input gets back what payGasFee! paid',
    );
  });
});
