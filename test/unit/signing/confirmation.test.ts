import { strict as assert } from 'node:assert';
import { ONE_ALPH } from '../../../src/core/protocol';
import {
  networkText,
  secondConfirmationText,
  sweepConfirmation,
  transferConfirmation,
} from '../../../src/core/signing/confirmation';
import { verifySweep, verifyTransfer } from '../../../src/core/signing/verify';
import type { TokenMeta } from '../../../src/core/tokens';
import {
  RECIPIENT,
  SECOND,
  SENDER,
  TOKEN_ID,
  honestRequest,
  honestTx,
  out,
  responseFor,
} from './verifyFixtures';

describe('confirmation summary', () => {
  it('shows amounts in ALPH and atto, recipient, fee, total, network and change from the verified bytes', () => {
    const s = transferConfirmation(verifyTransfer(honestRequest(), responseFor(honestTx())));
    assert.equal(s.title, `Send 1 ALPH to ${RECIPIENT.address}?`);
    assert.deepEqual(s.recipients[0]!.amount, { alph: '1', atto: '1000000000000000000' });
    assert.deepEqual({ alph: s.fee.alph, atto: s.fee.atto }, { alph: '0.002', atto: '2000000000000000' });
    assert.deepEqual(s.total, { alph: '1.002', atto: '1002000000000000000' });
    assert.equal(s.change.alph, '5');
    assert.equal(s.network.name, 'devnet (id 4)');
    assert.equal(s.requiresSecondConfirmation, false);
    assert.ok(s.text.includes(`To: ${RECIPIENT.address}`));
    assert.ok(s.text.includes('Amount: 1 ALPH (1000000000000000000 atto)'));
    assert.ok(s.text.includes('Total leaving your address: 1.002 ALPH (1002000000000000000 atto)'));
    assert.ok(s.text.includes(`From: ${SENDER.address}`));
    assert.ok(!/[<>]/.test(s.text), 'plain text, no markup');
  });

  it('lists several recipients and tokens', () => {
    const tx = honestTx([
      out(RECIPIENT.address, ONE_ALPH),
      out(SECOND.address, 10n ** 15n, { tokens: [{ id: TOKEN_ID, amount: '42' }] }),
    ]);
    const v = verifyTransfer(
      honestRequest({
        destinations: [
          { address: RECIPIENT.address, attoAlphAmount: ONE_ALPH },
          { address: SECOND.address, attoAlphAmount: 10n ** 15n, tokens: [{ id: TOKEN_ID, amount: '42' }] },
        ],
      }),
      responseFor(tx),
    );
    const s = transferConfirmation(v);
    assert.match(s.title, /Send 1\.001 ALPH and tokens to 2 recipients\?/);
    assert.ok(s.lines.includes(`  Token: 42 (raw; unknown token) of token ${TOKEN_ID}`));
    assert.deepEqual(s.tokensTotal, [
      { id: TOKEN_ID, amount: '42', text: `42 (raw; unknown token) of token ${TOKEN_ID}` },
    ]);
  });

  function tokenTransfer(amount: string) {
    const tx = honestTx([out(RECIPIENT.address, 10n ** 15n, { tokens: [{ id: TOKEN_ID, amount }] })]);
    return verifyTransfer(
      honestRequest({
        destinations: [
          { address: RECIPIENT.address, attoAlphAmount: 10n ** 15n, tokens: [{ id: TOKEN_ID, amount }] },
        ],
      }),
      responseFor(tx),
    );
  }

  it('names a listed token: symbol and decimal amount beside the raw amount and the whole id', () => {
    const meta: TokenMeta = { symbol: 'USDT', name: 'Tether USD', decimals: 6, source: 'token list' };
    const s = transferConfirmation(tokenTransfer('1234500000'), {
      tokens: new Map([[TOKEN_ID.toLowerCase(), meta]]),
    });
    const line = `1,234.5 USDT (1234500000 raw) of token ${TOKEN_ID}`;
    assert.ok(s.lines.includes(`  Token: ${line}`), s.text);
    assert.ok(s.lines.includes(`Total token: ${line}`), s.text);
    assert.deepEqual(s.recipients[0]!.tokens, [
      {
        id: TOKEN_ID,
        amount: '1234500000',
        symbol: 'USDT',
        decimalAmount: '1,234.5',
        source: 'token list',
        text: line,
      },
    ]);
  });

  it("marks a symbol read from the token's own contract as its claim, and never drops the raw id", () => {
    const claimed: TokenMeta = { symbol: 'USDT', name: 'Not Tether', decimals: 18, source: 'contract' };
    const s = transferConfirmation(tokenTransfer('500000'), {
      tokens: new Map([[TOKEN_ID.toLowerCase(), claimed]]),
    });
    assert.ok(
      s.lines.includes(
        `  Token: 0.0000000000005 USDT (500000 raw, as the token names itself) of token ${TOKEN_ID}`,
      ),
      s.text,
    );
    assert.equal(s.recipients[0]!.tokens[0]!.source, 'contract');
    // The title never carries a symbol a contract could have chosen to look like another token.
    assert.ok(!s.title.includes('USDT'), s.title);
  });

  it('a token the metadata does not know is shown raw, next to a known one', () => {
    const s = transferConfirmation(tokenTransfer('7'), { tokens: new Map([[TOKEN_ID, undefined]]) });
    assert.ok(s.lines.includes(`  Token: 7 (raw; unknown token) of token ${TOKEN_ID}`), s.text);
    assert.equal(s.recipients[0]!.tokens[0]!.symbol, undefined);
  });

  it('requires a second confirmation on mainnet (from the bytes or the profile) and above a threshold', () => {
    const mainnet = transferConfirmation(
      verifyTransfer(honestRequest(), responseFor({ ...honestTx(), networkId: 0 })),
    );
    assert.equal(mainnet.network.isMainnet, true);
    assert.equal(mainnet.requiresSecondConfirmation, true);
    assert.match(secondConfirmationText(mainnet), /real funds on mainnet.*1\.002 ALPH/);
    const v = verifyTransfer(honestRequest(), responseFor(honestTx()));
    assert.equal(transferConfirmation(v, { profileNetwork: 'Mainnet' }).requiresSecondConfirmation, true);
    assert.equal(
      transferConfirmation(v, { secondConfirmationAboveAtto: ONE_ALPH }).requiresSecondConfirmation,
      true,
    );
    assert.equal(
      transferConfirmation(v, { secondConfirmationAboveAtto: 2n * ONE_ALPH }).requiresSecondConfirmation,
      false,
    );
    assert.deepEqual(networkText(1), { name: 'testnet', networkId: 1, isMainnet: false });
  });
});

describe('verifySweep and its confirmation', () => {
  function sweepTx(label: string, outputs = [out(RECIPIENT.address, 3n * ONE_ALPH)]) {
    const base = honestTx(outputs);
    const tx = {
      ...base,
      inputs: [
        { ...base.inputs[0]!, outputRef: { ...base.inputs[0]!.outputRef, key: `${label}`.padEnd(64, '0') } },
      ],
    };
    const r = responseFor(tx);
    return { txId: r.txId, unsignedTx: r.unsignedTx, gasAmount: r.gasAmount, gasPrice: r.gasPrice };
  }
  const req = { fromPublicKey: SENDER.publicKey, toAddress: RECIPIENT.address };

  it('verifies every transaction and totals the set', () => {
    const sweep = verifySweep(req, [sweepTx('a1'), sweepTx('b2')]);
    assert.equal(sweep.txs.length, 2);
    assert.equal(sweep.totalSwept, 6n * ONE_ALPH);
    assert.equal(sweep.totalFee, 2n * 20000n * 10n ** 11n);
    const s = sweepConfirmation(sweep);
    assert.match(s.title, /Sweep 6 ALPH from .* in 2 transactions\?/);
    assert.equal(s.txIds.length, 2);
    assert.equal(s.change.atto, '0');
    // Each transaction of the sweep shows its own gas and fee.
    for (const t of sweep.txs)
      assert.ok(s.lines.includes(`  ${t.txId}: gas 20000 × 100000000000 atto = 0.002 ALPH`));
  });

  it('refuses change elsewhere, a wrong txId, shared inputs, and an empty set', () => {
    assert.throws(
      () =>
        verifySweep(req, [sweepTx('a1', [out(RECIPIENT.address, ONE_ALPH), out(SENDER.address, ONE_ALPH)])]),
      /sweep tx 0: output 1 pays 1 ALPH .* to \w+, not to the sweep destination/,
    );
    assert.throws(
      () => verifySweep(req, [{ ...sweepTx('a1'), txId: '00'.repeat(32) }]),
      /sweep tx 0: the gateway's txId 0+ is not blake2b-256/,
    );
    assert.throws(
      () => verifySweep(req, [sweepTx('a1'), sweepTx('a1', [out(RECIPIENT.address, 2n * ONE_ALPH)])]),
      /sweep tx 1: input a1\d* is also spent by sweep tx 0/,
    );
    assert.throws(() => verifySweep(req, []), /no transactions to sign/);
  });

  it('applies the fee cap to the whole sweep, not to each transaction', () => {
    // Three transactions at 0.002 ALPH each: under a 0.005 ALPH cap one by one, over it together.
    const three = [sweepTx('a1'), sweepTx('b2'), sweepTx('c3')];
    assert.throws(
      () => verifySweep(req, three, { feeCapAtto: 5n * 10n ** 15n }),
      /the sweep's fees add up to 0\.006 ALPH .* over 3 transaction\(s\), above the cap of 0\.005 ALPH/,
    );
    assert.equal(verifySweep(req, three, { feeCapAtto: 6n * 10n ** 15n }).totalFee, 6n * 10n ** 15n);
  });
});
