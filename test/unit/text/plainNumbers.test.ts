/**
 * Result documents are read as source (a read-only editor, not a preview), so the Markdown escaping of
 * outside text must not put backslashes into numbers: `1,000,000 SBX`, never `1\,000\,000 SBX`. What
 * could form a link, a tag or emphasis is still escaped.
 */
import { strict as assert } from 'node:assert';
import { markdownText } from '../../../src/core/text/inert';
import { addressInfo, addressInfoMarkdown, checkAddress } from '../../../src/core/node/nodeQueries';
import { addressFromPublicKey } from '../../../src/core/protocol';
import { publicKeyFromPrivateKey } from '../../../src/core/protocol/keys';
import type { Balance } from '../../../src/core/gateway/schemas';
import type { TokenMeta } from '../../../src/core/tokens';

describe('plain numbers in result documents', () => {
  it('a number keeps its separators and its decimal point as written', () => {
    assert.equal(markdownText('1,000,000 SBX'), '1,000,000 SBX');
    assert.equal(markdownText('12.5'), '12.5');
    assert.equal(markdownText('0.000001 USDT'), '0.000001 USDT');
  });

  it('punctuation that is not inside a number is still escaped', () => {
    assert.equal(markdownText('1.'), '1\\.');
    assert.equal(markdownText('a,b'), 'a\\,b');
    assert.equal(markdownText('[x](command:y)'), '\\[x\\]\\(command\\:y\\)');
    assert.equal(markdownText('1.](x'), '1\\.\\]\\(x');
    assert.equal(markdownText('*1,5*'), '\\*1,5\\*');
  });

  it("Address Info's document shows a million tokens as 1,000,000 SBX", () => {
    const address = addressFromPublicKey(publicKeyFromPrivateKey('11'.repeat(32)));
    const token = 'bb'.repeat(32);
    const balance = {
      balance: '2500000000000000000',
      lockedBalance: '0',
      utxoNum: 1,
      tokenBalances: [{ id: token, amount: '1000000000000000000000000' }],
    } as unknown as Balance;
    const names = new Map<string, TokenMeta | undefined>([
      [token, { symbol: 'SBX', name: 'Sandbox', decimals: 18, source: 'contract' }],
    ]);
    const md = addressInfoMarkdown(addressInfo(checkAddress(address), 0, balance, names));
    assert.ok(md.includes('- 1,000,000 SBX ('), md);
    assert.ok(!md.includes('\\,'), md);
    assert.ok(!/\d\\\.\d/.test(md), md);
  });
});
