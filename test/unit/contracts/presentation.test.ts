import assert from 'node:assert/strict';
import { GatewayHttpError, MissingKeyError, NetworkError } from '../../../src/core/gateway';
import {
  contractRow,
  eventsHeader,
  latestEventsTitle,
  problemBadge,
  stateRows,
  tokenIssuerName,
} from '../../../src/core/contracts/watching/rows';
import { ArtifactRegistry } from '../../../src/core/artifacts';
import { addressFromContractId } from '../../../src/core/protocol';
import { blocksTable } from '../../../src/core/node/nodeQueries';

describe('watched contracts: counts and problems say what the user sees', () => {
  it('the Events header counts the events listed, not the counter that includes hidden Debug slots', () => {
    // 3 events listed while the counter is at 6 (each call also emitted a Debug event the node hides).
    const header = eventsHeader(3, 6);
    assert.equal(header.description, '3 shown · newest first');
    assert.match(header.tooltip, /counter is at 6/);
    assert.match(header.tooltip, /Debug/);
    // Events delivered by the watcher before the counter was read still count.
    assert.equal(eventsHeader(3, undefined).description, '3 shown · newest first');
  });

  it('a latest-events listing is titled by what it lists', () => {
    assert.match(
      latestEventsTitle('Counter', 5, 4, 8).markdown,
      /^All 4 listed event\(s\) \(5 asked for\) of Counter/,
    );
    assert.match(latestEventsTitle('Counter', 5, 5, 12).markdown, /^Latest 5 event\(s\) of Counter/);
    assert.match(latestEventsTitle('Counter', 5, 5, 12).markdown, /event counter 12, Debug events included/);
    // The name is outside text (a deployments key): escaped; the title's own words are not.
    assert.equal(
      latestEventsTitle('[x](command:y)', 5, 5, 12).markdown.includes('\\[x\\]\\(command\\:y\\)'),
      true,
    );
  });

  it('a rejected key is not reported as an unreachable node', () => {
    assert.equal(
      problemBadge(new GatewayHttpError('GET /contracts/x/state', 401, 'bad key')),
      '⚠ API key rejected',
    );
    assert.equal(problemBadge(new MissingKeyError('GET /contracts/x/state')), '⚠ no API key');
    assert.equal(problemBadge(new NetworkError('GET /x', new Error('ECONNREFUSED'))), '⚠ unreachable');
    assert.equal(problemBadge(new GatewayHttpError('GET /x', 503, 'syncing')), '⚠ node syncing');
    assert.equal(problemBadge(new Error('boom')), '⚠ error');
  });

  it('the contract row carries the problem badge it is given', () => {
    const row = contractRow({
      watched: { address: '25AYwUgBexTJnpdbYRaWn3hcmnGKPsjaSSYgyZ8ZJeAv9', group: 0, name: 'Counter' },
      resolved: undefined,
      codeHash: undefined,
      error: 'GET /contracts/x/state: 401 bad key',
      errorBadge: '⚠ API key rejected',
    });
    assert.match(row.description ?? '', /⚠ API key rejected/);
    assert.doesNotMatch(row.description ?? '', /unreachable/);
  });
});

describe('blocks in a time range, as text', () => {
  it('aligns thousands of rows in columns, newest first as given, with the count in the title', () => {
    const rows = Array.from({ length: 1200 }, (_, i) => ({
      hash: i.toString(16).padStart(64, '0'),
      timestamp: Date.UTC(2026, 10, 24, 12) - i * 1000,
      chainFrom: i % 4,
      chainTo: (i >> 2) % 4,
      height: 100_000 - i,
      txCount: i % 3 === 0 ? 12 : 1,
    }));
    const text = blocksTable(Date.UTC(2026, 10, 24, 11), Date.UTC(2026, 10, 24, 12), rows);
    const lines = text.trimEnd().split('\n');
    assert.match(lines[0]!, /: 1200 block\(s\), newest first$/);
    assert.equal(lines.length, 4 + rows.length, 'title, blank line, header, rule, then one line per block');
    // Every hash starts in the same column, so the table reads as a table in any editor.
    const hashColumn = lines[4]!.indexOf(rows[0]!.hash);
    assert.ok(hashColumn > 0);
    for (let i = 0; i < rows.length; i++) assert.equal(lines[4 + i]!.indexOf(rows[i]!.hash), hashColumn);
    assert.doesNotMatch(text, /\|/, 'no Markdown table syntax');
  });

  it('lists a day of blocks (more rows than a function call takes arguments)', () => {
    const rows = Array.from({ length: 200_000 }, (_, i) => ({
      hash: i.toString(16).padStart(64, '0'),
      timestamp: Date.UTC(2026, 10, 24, 12) - i * 400,
      chainFrom: i % 4,
      chainTo: (i >> 2) % 4,
      height: 300_000 - i,
      txCount: 1,
    }));
    const text = blocksTable(Date.UTC(2026, 10, 23, 12), Date.UTC(2026, 10, 24, 12), rows);
    assert.match(text, /: 200000 block\(s\), newest first/);
  });
});

describe('tokens named by their issuing contract', () => {
  const faucetId = '33'.repeat(31) + '00';
  const registry = ArtifactRegistry.fromFiles([
    {
      path: 'deployments/.deployments.devnet.json',
      text: JSON.stringify({
        deployerAddress: '1DrDyTr9RpRsQnDnXo2YRiPzPW4ooHX5LLoqXrqfMrpQH',
        contracts: {
          TokenFaucet: {
            txId: 'ab'.repeat(32),
            codeHash: 'cd'.repeat(32),
            contractInstance: {
              address: addressFromContractId(faucetId),
              contractId: faucetId,
              groupIndex: 0,
            },
          },
        },
      }),
    },
  ]);

  it('names a token after the deployment whose contract issued it, and leaves unknown ones by id', () => {
    assert.equal(tokenIssuerName(faucetId.toUpperCase(), registry), 'TokenFaucet');
    assert.equal(tokenIssuerName('44'.repeat(32), registry), undefined);
    const { rows } = stateRows(
      undefined,
      {
        immFields: [],
        mutFields: [],
        codeHash: 'cd'.repeat(32),
        asset: {
          attoAlphAmount: '1',
          tokens: [
            { id: faucetId, amount: '5' },
            { id: '44'.repeat(32), amount: '7' },
          ],
        },
      },
      registry,
    );
    const labels = rows.map((r) => r.label);
    assert.ok(labels.includes('Token TokenFaucet'), labels.join(', '));
    assert.ok(
      labels.some((l) => l.startsWith('Token 444444')),
      labels.join(', '),
    );
  });
});
