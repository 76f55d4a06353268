import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import type { CallOutcome } from '../../../src/core/gateway/batching';
import type { ContractCall } from '../../../src/core/gateway/client';
import { contractIdFromAddress } from '../../../src/core/protocol/address';
import {
  cleanTokenLabel,
  formatUnits,
  groupThousands,
  parseTokenList,
  TokenCatalog,
  tokenAmountText,
  type TokenMeta,
} from '../../../src/core/tokens';

const USDT = '556d9582463fe44fbd108aedc9f409f69086dc78d994b88ea6c9e65f8bf98e00';
const MADE_UP = 'ab'.repeat(32);

const hexOf = (text: string) => Buffer.from(text, 'utf8').toString('hex');
const ok = (type: string, value: string): CallOutcome => ({
  ok: true,
  result: { type: 'CallContractSucceeded', returns: [{ type, value }], gasUsed: 1 } as never,
});
const failed = (name: string): CallOutcome => {
  const error = new Error('x');
  error.name = name;
  return { ok: false, error };
};

describe('token amounts in their own units', () => {
  it('writes raw amounts exactly with the decimals, trailing zeros dropped', () => {
    assert.equal(formatUnits('12500000', 6), '12.5');
    assert.equal(formatUnits(1n, 18), '0.000000000000000001');
    assert.equal(formatUnits('1000000', 6), '1');
    assert.equal(formatUnits('0', 18), '0');
    assert.equal(formatUnits('123', 0), '123');
    assert.equal(formatUnits(2n ** 256n - 1n, 18).split('.')[1]?.length, 18);
    assert.throws(() => formatUnits('-1', 2), /never negative/);
    assert.throws(() => formatUnits('1', 37), /decimals/);
  });

  it('groups thousands of the whole part only', () => {
    assert.equal(groupThousands('1234567.123456'), '1,234,567.123456');
    assert.equal(groupThousands('123'), '123');
    assert.equal(groupThousands('1000'), '1,000');
  });

  it('always shows the raw amount and the whole id, and says when a name is the contract’s own claim', () => {
    const listed: TokenMeta = { symbol: 'USDT', name: 'Tether USD', decimals: 6, source: 'token list' };
    assert.equal(tokenAmountText(USDT, '12500000', listed), `12.5 USDT (12500000 raw) of token ${USDT}`);
    const claimed: TokenMeta = { ...listed, source: 'contract' };
    assert.equal(
      tokenAmountText(USDT, 12500000n, claimed),
      `12.5 USDT (12500000 raw, as the token names itself) of token ${USDT}`,
    );
    assert.equal(tokenAmountText(MADE_UP, '7', undefined), `7 (raw; unknown token) of token ${MADE_UP}`);
  });
});

describe('token labels from outside are plain, short text', () => {
  it('drops link, Markdown and HTML syntax, control and invisible characters, and cuts', () => {
    assert.equal(cleanTokenLabel('[USDT](command:x)', 16), 'USDTcommand:x');
    assert.equal(cleanTokenLabel('A\u202eLPH\u0000', 16), 'ALPH');
    assert.equal(cleanTokenLabel('  two   words  ', 16), 'two words');
    assert.equal(cleanTokenLabel('x'.repeat(100), 16), 'x'.repeat(16));
    assert.equal(cleanTokenLabel('\u200b\u200b', 16), undefined);
  });
});

describe('the token list', () => {
  const listed = {
    networkId: 0,
    tokens: [
      { id: USDT.toUpperCase(), symbol: 'USDT', name: 'Tether USD', decimals: 6 },
      { id: 'short', symbol: 'BAD', name: 'bad id', decimals: 6 },
      { id: MADE_UP, symbol: 'HUGE', name: 'too many decimals', decimals: 99 },
    ],
  };

  it('keeps the entries with a 32-byte id, sane decimals and a symbol, by lower-case id', () => {
    const list = parseTokenList(listed, 0);
    assert.deepEqual([...list.keys()], [USDT]);
    assert.deepEqual(list.get(USDT), {
      symbol: 'USDT',
      name: 'Tether USD',
      decimals: 6,
      source: 'token list',
    });
  });

  it("is empty for another network's list or a file that is not a list", () => {
    assert.equal(parseTokenList(listed, 1).size, 0);
    assert.equal(parseTokenList('nope', 0).size, 0);
    assert.equal(parseTokenList({ networkId: 0, tokens: {} }, 0).size, 0);
  });

  it('reads the shipped lists whole (225 mainnet and 31 testnet tokens in @alephium/token-list 0.0.21)', () => {
    const read = (network: string) =>
      JSON.parse(
        fs.readFileSync(require.resolve(`@alephium/token-list/dist/tokens/${network}.json`), 'utf8'),
      ) as unknown;
    const mainnet = parseTokenList(read('mainnet'), 0);
    const testnet = parseTokenList(read('testnet'), 1);
    assert.ok(mainnet.size >= 200, `mainnet ${mainnet.size}`);
    assert.ok(testnet.size >= 20, `testnet ${testnet.size}`);
    assert.equal(mainnet.get('0'.repeat(64))?.symbol, 'ALPH');
  });
});

describe('the token catalog (list first, then the token contract, cached)', () => {
  const list = parseTokenList(
    { networkId: 0, tokens: [{ id: USDT, symbol: 'USDT', name: 'Tether', decimals: 6 }] },
    0,
  );

  function recordingPort(answer: (call: ContractCall) => CallOutcome) {
    const seen: ContractCall[][] = [];
    const port = (calls: readonly ContractCall[]) => {
      seen.push([...calls]);
      return Promise.resolve(calls.map(answer));
    };
    return { seen, port };
  }

  const tokenAnswers = (call: ContractCall): CallOutcome =>
    call.methodIndex === 0
      ? ok('ByteVec', hexOf('TKN'))
      : call.methodIndex === 1
        ? ok('ByteVec', hexOf('My Token'))
        : ok('U256', '9');

  it('answers listed tokens without a request', async () => {
    const { seen, port } = recordingPort(tokenAnswers);
    const catalog = new TokenCatalog(list, port);
    assert.equal(catalog.requestsFor([USDT]), 0);
    assert.equal((await catalog.resolve([USDT])).get(USDT)?.symbol, 'USDT');
    assert.equal(seen.length, 0);
  });

  it("reads an unknown token's getSymbol, getName and getDecimals from its contract, once", async () => {
    const { seen, port } = recordingPort(tokenAnswers);
    const saved: unknown[] = [];
    const catalog = new TokenCatalog(list, port, { load: () => undefined, save: (r) => saved.push(r) });
    assert.equal(catalog.requestsFor([MADE_UP, USDT]), 1);
    const meta = (await catalog.resolve([MADE_UP, USDT])).get(MADE_UP);
    assert.deepEqual(meta, { symbol: 'TKN', name: 'My Token', decimals: 9, source: 'contract' });
    assert.deepEqual(
      seen[0]?.map((c) => [contractIdFromAddress(c.address), c.methodIndex]),
      [
        [MADE_UP, 0],
        [MADE_UP, 1],
        [MADE_UP, 2],
      ],
    );
    await catalog.resolve([MADE_UP]);
    assert.equal(seen.length, 1, 'a second look sends nothing');
    assert.equal(saved.length, 1);
    // A new session starts from what was saved.
    const next = new TokenCatalog(list, port, {
      load: () => saved[0] as Record<string, TokenMeta>,
      save: () => undefined,
    });
    assert.equal(next.known(MADE_UP)?.symbol, 'TKN');
  });

  it('remembers a contract that is not a token for the session, but asks again after a failed request', async () => {
    const notToken = recordingPort(() => failed('ContractCallFailedError'));
    const catalog = new TokenCatalog(list, notToken.port);
    assert.equal((await catalog.resolve([MADE_UP])).get(MADE_UP), undefined);
    assert.equal(catalog.requestsFor([MADE_UP]), 0);
    const down = recordingPort(() => failed('NetworkError'));
    const other = new TokenCatalog(list, down.port);
    await other.resolve([MADE_UP]);
    assert.equal(other.requestsFor([MADE_UP]), 1);
  });

  it('refuses answers that are not a fungible token’s (wrong types, absurd decimals)', async () => {
    const odd = recordingPort((call) =>
      call.methodIndex === 2 ? ok('U256', '77') : ok('ByteVec', hexOf('X')),
    );
    const catalog = new TokenCatalog(list, odd.port);
    assert.equal((await catalog.resolve([MADE_UP])).get(MADE_UP), undefined);
  });

  it('packs the calls of up to six tokens into one multicall of 18', () => {
    const ids = Array.from({ length: 7 }, (_, i) => i.toString(16).padStart(64, '0').replace(/^0/, 'f'));
    const catalog = new TokenCatalog(list, recordingPort(tokenAnswers).port);
    assert.equal(catalog.requestsFor(ids.slice(0, 6)), 1);
    assert.equal(catalog.requestsFor(ids), 2);
  });
});
