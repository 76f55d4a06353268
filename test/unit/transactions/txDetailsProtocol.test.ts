import { strict as assert } from 'node:assert';
import {
  TX_DETAILS_LIMITS,
  adoptPageState,
  parseTxDetailsState,
  parseWebviewMessage,
} from '../../../src/core/transactions/txDetailsProtocol';

const TX = 'ab'.repeat(32);

describe('tx details webview: every message from the page is parsed exactly (shared/txDetailsProtocol)', () => {
  it('accepts the three shapes the page sends', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'refresh' }), { type: 'refresh' });
    assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(
      parseWebviewMessage({ type: 'ready', state: { txId: TX, showRaw: true, fromGroup: 0 } }),
      {
        type: 'ready',
        state: { txId: TX, showRaw: true, fromGroup: 0 },
      },
    );
    assert.deepEqual(parseWebviewMessage({ type: 'rendered', text: 'Transaction' }), {
      type: 'rendered',
      text: 'Transaction',
    });
  });

  it('ignores wrong types, unknown types and extra keys (the old check looked at `type` only)', () => {
    for (const bad of [
      { type: 'rendered', text: 42 },
      { type: 'rendered', text: ['a', 'b'] },
      { type: 'rendered' },
      { type: 'refresh', extra: 1 },
      { type: 'ready', state: {}, command: 'alephium.sendTransfer' },
      { type: 'sign' },
      null,
      'refresh',
      [{ type: 'refresh' }],
    ])
      assert.equal(parseWebviewMessage(bad), undefined, JSON.stringify(bad));
  });

  it('accepts Explain and Open Failure with no arguments: the page never names a transaction or a file', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'explain' }), { type: 'explain' });
    assert.deepEqual(parseWebviewMessage({ type: 'openFailure' }), { type: 'openFailure' });
    for (const bad of [
      { type: 'explain', txId: TX },
      { type: 'openFailure', path: 'file:///etc/passwd' },
      { type: 'openFailure', line: 3 },
    ])
      assert.equal(parseWebviewMessage(bad), undefined, JSON.stringify(bad));
  });

  it('accepts Open in Explorer with no arguments: the host opens its own transaction, never a URL from the page', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'openInExplorer' }), { type: 'openInExplorer' });
    for (const bad of [
      { type: 'openInExplorer', txId: TX },
      { type: 'openInExplorer', url: 'https://evil.example' },
    ])
      assert.equal(parseWebviewMessage(bad), undefined, JSON.stringify(bad));
  });

  it('bounds the rendered text the page reports', () => {
    const huge = 'x'.repeat(TX_DETAILS_LIMITS.renderedChars * 3);
    const parsed = parseWebviewMessage({ type: 'rendered', text: huge });
    assert.equal(parsed?.type === 'rendered' ? parsed.text.length : -1, TX_DETAILS_LIMITS.renderedChars);
  });

  it('refuses a page state with attacker-sized or malformed hex, and keeps `ready` itself', () => {
    const tooLong = 'a'.repeat(TX_DETAILS_LIMITS.unsignedTxHexChars + 2);
    assert.equal(parseTxDetailsState({ txId: TX, unsignedTx: tooLong }), undefined);
    assert.equal(parseTxDetailsState({ txId: TX, unsignedTx: 'abc' }), undefined);
    assert.equal(parseTxDetailsState({ txId: TX, unsignedTx: 'zz' }), undefined);
    assert.equal(parseTxDetailsState({ txId: TX, fromGroup: 4 }), undefined);
    assert.equal(parseTxDetailsState({ txId: TX, showRaw: 'yes' }), undefined);
    assert.equal(parseTxDetailsState({ txId: 'ab', showRaw: true }), undefined);
    assert.equal(parseTxDetailsState({ txId: TX, evil: true }), undefined);
    // A stale or hostile state does not stop the panel from loading: `ready` without it.
    assert.deepEqual(parseWebviewMessage({ type: 'ready', state: { txId: TX, unsignedTx: tooLong } }), {
      type: 'ready',
    });
    const fits = 'AB'.repeat(TX_DETAILS_LIMITS.unsignedTxHexChars / 2);
    assert.equal(
      parseTxDetailsState({ txId: TX.toUpperCase(), unsignedTx: fits })?.unsignedTx,
      fits.toLowerCase(),
    );
  });

  it('takes only the raw toggle from the page: never an unsigned transaction, groups or another txId', () => {
    const shown = { txId: TX };
    const page = parseTxDetailsState({ txId: TX, showRaw: true, unsignedTx: 'cd'.repeat(100), fromGroup: 3 });
    // The old handler adopted the page's whole state: a transaction panel switched to the page's bytes.
    assert.deepEqual(adoptPageState(shown, page), { txId: TX, showRaw: true });
    const decoded = { txId: TX, unsignedTx: 'ee'.repeat(50) };
    assert.deepEqual(adoptPageState(decoded, page), { ...decoded, showRaw: true });
    assert.equal(adoptPageState(shown, { txId: 'cd'.repeat(32), showRaw: true }), shown);
    assert.equal(adoptPageState(shown, undefined), shown);
  });
});
