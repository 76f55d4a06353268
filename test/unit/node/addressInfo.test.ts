import { strict as assert } from 'node:assert';
import type { Balance } from '../../../src/core/gateway/schemas';
import { addressFromPublicKey } from '../../../src/core/protocol';
import { publicKeyFromPrivateKey } from '../../../src/core/protocol/keys';
import {
  addressInfo,
  addressInfoMarkdown,
  balanceTokenIds,
  checkAddress,
} from '../../../src/core/node/nodeQueries';
import type { TokenMeta } from '../../../src/core/tokens';

const ADDRESS = addressFromPublicKey(publicKeyFromPrivateKey('11'.repeat(32)));
const LISTED = 'aa'.repeat(32);
const CLAIMED = 'bb'.repeat(32);
const UNKNOWN = 'cc'.repeat(32);

const balance = {
  balance: '2000000000000000000',
  lockedBalance: '0',
  utxoNum: 3,
  tokenBalances: [
    { id: LISTED, amount: '12500000' },
    { id: CLAIMED, amount: '3000000000000000000000' },
    { id: UNKNOWN, amount: '42' },
  ],
  lockedTokenBalances: [{ id: LISTED, amount: '1000000' }],
} as unknown as Balance;

const names = new Map<string, TokenMeta | undefined>([
  [LISTED, { symbol: 'USDT', name: 'Tether USD', decimals: 6, source: 'token list' }],
  [CLAIMED, { symbol: 'SBX', name: 'Sandbox', decimals: 18, source: 'contract' }],
  [UNKNOWN, undefined],
]);

describe('Address Info names the tokens it lists', () => {
  it('asks for each token id once', () => {
    assert.deepEqual(balanceTokenIds(balance).sort(), [LISTED, CLAIMED, UNKNOWN].sort());
  });

  it('gives symbol and decimal amounts beside the raw amounts and the whole id', () => {
    const info = addressInfo(checkAddress(ADDRESS), 0, balance, names);
    const byId = new Map(info.balance!.tokens.map((t) => [t.id, t]));
    assert.deepEqual(byId.get(LISTED), {
      id: LISTED,
      amount: '12500000',
      locked: '1000000',
      symbol: 'USDT',
      decimalAmount: '12.5',
      decimalLocked: '1',
      source: 'token list',
    });
    assert.deepEqual(byId.get(UNKNOWN), { id: UNKNOWN, amount: '42', locked: '0' });
    // The document is read as source: its numbers are written plainly (no `12\.5`, no `3\,000`).
    const md = addressInfoMarkdown(info);
    assert.ok(
      md.includes(`- 12.5 USDT (12500000 raw) of token \`${LISTED}\`; locked 1 USDT (1000000 raw)`),
      md,
    );
    assert.ok(
      md.includes(
        `- 3,000 SBX (3000000000000000000000 raw, as the token names itself) of token \`${CLAIMED}\``,
      ),
      md,
    );
    assert.ok(md.includes(`- \`${UNKNOWN}\`: 42`), md);
  });

  it('without names, lists raw amounts as before', () => {
    const md = addressInfoMarkdown(addressInfo(checkAddress(ADDRESS), 0, balance));
    assert.ok(md.includes(`- \`${LISTED}\`: 12500000 (locked 1000000)`), md);
    assert.ok(!md.includes('USDT'));
  });
});
