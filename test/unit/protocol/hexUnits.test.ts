import { strict as assert } from 'node:assert';
import { convertAlphAmountWithDecimals } from '@alephium/web3';
import {
  DEFAULT_GAS_AMOUNT,
  DEFAULT_GAS_PRICE,
  DUST_ATTO,
  ONE_ALPH,
  alphToAtto,
  attoToAlph,
  bytesToHex,
  dustProblem,
  formatAlph,
  hexToBytes,
  isHash32,
  isHex,
  isTxId,
  shortTxId,
  parseAtto,
} from '../../../src/core/protocol';
import { Rng, assertProtocolError } from './helpers';

describe('protocol/hex', () => {
  it('round-trips bytes and emits lowercase', () => {
    assert.equal(bytesToHex(Uint8Array.of(0, 1, 0xab, 0xff)), '0001abff');
    assert.deepEqual([...hexToBytes('0001ABff')], [0, 1, 0xab, 0xff]);
    assert.deepEqual([...hexToBytes('')], []);
  });
  it('rejects odd length and non-hex with a position', () => {
    assertProtocolError(() => hexToBytes('abc'), /odd number of characters \(3\)/);
    assertProtocolError(() => hexToBytes('zz'), /non-hex character at position 0/);
    assertProtocolError(() => hexToBytes('0x00'), /non-hex character at position 1/);
  });
  it('isHex checks evenness and byte length', () => {
    assert.equal(isHex('00ff'), true);
    assert.equal(isHex('00ff', 2), true);
    assert.equal(isHex('00ff', 3), false);
    assert.equal(isHex('0'), false);
    assert.equal(isHex('g0'), false);
    assert.equal(isHex(12), false);
  });
});

describe('protocol/units', () => {
  it('has the node constants (facts §7)', () => {
    assert.equal(ONE_ALPH, 1_000_000_000_000_000_000n);
    assert.equal(DUST_ATTO, 1_000_000_000_000_000n);
    assert.equal(DEFAULT_GAS_AMOUNT, 20000);
    assert.equal(DEFAULT_GAS_PRICE, 100_000_000_000n);
  });

  it('parses ALPH amounts exactly', () => {
    assert.equal(alphToAtto('1'), 1000000000000000000n);
    assert.equal(alphToAtto('1.5'), 1500000000000000000n);
    assert.equal(alphToAtto('0.000000000000000001'), 1n);
    assert.equal(alphToAtto('  0.001 '), 1000000000000000n);
    assert.equal(alphToAtto('0'), 0n);
    assert.equal(alphToAtto('.5'), 500000000000000000n);
    assert.equal(alphToAtto('2.'), 2000000000000000000n);
    assert.equal(alphToAtto('123456789.123456789123456789'), 123456789123456789123456789n);
    // 0.1 + 0.2 would be 0.30000000000000004 in floating point.
    assert.equal(alphToAtto('0.3'), 300000000000000000n);
  });

  it('rejects malformed ALPH amounts with specific messages', () => {
    assertProtocolError(() => alphToAtto(''), /empty/);
    assertProtocolError(() => alphToAtto('   '), /empty/);
    assertProtocolError(() => alphToAtto('-1'), /negative/);
    assertProtocolError(() => alphToAtto('+1'), /sign/);
    assertProtocolError(() => alphToAtto('1e18'), /exponent/);
    assertProtocolError(() => alphToAtto('1,5'), /comma/);
    assertProtocolError(() => alphToAtto('1,000'), /comma/);
    assertProtocolError(() => alphToAtto('0.0000000000000000001'), /19 decimals; at most 18/);
    assertProtocolError(() => alphToAtto('abc'), /not a decimal number/);
    assertProtocolError(() => alphToAtto('1.2.3'), /not a decimal number/);
    assertProtocolError(() => alphToAtto('.'), /not a decimal number/);
    assertProtocolError(() => alphToAtto('1 000'), /not a decimal number/);
    assertProtocolError(() => alphToAtto('0x10'), /not a decimal number/);
    assertProtocolError(() => alphToAtto('9'.repeat(80)), /too large/);
  });

  it('formats atto exactly, trimming zeros', () => {
    assert.equal(attoToAlph(0n), '0');
    assert.equal(attoToAlph('0'), '0');
    assert.equal(attoToAlph(1n), '0.000000000000000001');
    assert.equal(attoToAlph(10n ** 18n), '1');
    assert.equal(attoToAlph(1500000000000000000n), '1.5');
    assert.equal(attoToAlph('123456789123456789123456789'), '123456789.123456789123456789');
    assertProtocolError(() => attoToAlph(-1n), /negative/);
    assertProtocolError(() => attoToAlph('1.5'), /not a non-negative integer/);
  });

  it('parseAtto names the field', () => {
    assert.equal(parseAtto('42', 'gasPrice'), 42n);
    assertProtocolError(
      () => parseAtto('-1', 'fixedOutputs[0].attoAlphAmount'),
      /fixedOutputs\[0\]\.attoAlphAmount '-1'/,
    );
    assertProtocolError(() => parseAtto('', 'gasPrice'), /gasPrice '' is not a non-negative integer/);
    assertProtocolError(() => parseAtto('1e3', 'x'), /x '1e3'/);
    assertProtocolError(
      () => parseAtto(12 as unknown as string, 'amount'),
      /amount must be a decimal string/,
    );
    assertProtocolError(() => parseAtto((1n << 256n).toString(), 'amount'), /u256/);
  });

  it('round-trips 500 random amounts and parses them as the SDK does', () => {
    const rng = new Rng(0xa1f);
    for (let i = 0; i < 500; i++) {
      const atto = rng.bigint(96);
      const text = attoToAlph(atto);
      assert.equal(alphToAtto(text), atto, `round trip of ${atto}`);
      assert.equal(convertAlphAmountWithDecimals(text), atto, `SDK parse of ${text}`);
    }
  });
});

describe('protocol/hex, units and format: the shared shapes and sentences', () => {
  it('isHash32 (and isTxId) accept 32 bytes of hex in either case and nothing else', () => {
    assert.equal(isHash32('ab'.repeat(32)), true);
    assert.equal(isHash32('AB'.repeat(32)), true);
    assert.equal(isTxId('0f'.repeat(32)), true);
    for (const bad of [
      'ab'.repeat(31),
      'ab'.repeat(33),
      `${'ab'.repeat(31)}zz`,
      `0x${'ab'.repeat(31)}`,
      42,
      undefined,
    ]) {
      assert.equal(isHash32(bad), false, String(bad));
    }
  });

  it('dustProblem says the one dust rule, and nothing at or above 0.001 ALPH', () => {
    assert.equal(dustProblem(DUST_ATTO), undefined);
    assert.equal(dustProblem(ONE_ALPH), undefined);
    assert.match(
      dustProblem(DUST_ATTO - 1n) ?? '',
      /below the dust minimum of 0\.001 ALPH \(1000000000000000 atto\)/,
    );
    assert.match(dustProblem(-1n) ?? '', /negative/);
  });

  it('formats ALPH with its atto, and shortens a txId', () => {
    assert.equal(formatAlph(ONE_ALPH + ONE_ALPH / 2n), '1.5 ALPH (1500000000000000000 atto)');
    assert.equal(shortTxId('0123456789abcdef'.repeat(4)), '0123456789…abcdef');
    assert.equal(shortTxId('short'), 'short');
  });
});
