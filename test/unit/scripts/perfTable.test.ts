import assert from 'node:assert/strict';
import { renderPerfTable, replaceBetweenMarkers } from '../../../scripts/perfTable.mjs';

const results = {
  date: '2026-11-25T05:00:00.000Z',
  machine: { cores: 2, cpu: 'Test CPU', node: 'v20.0.0' },
  figures: [
    {
      bench: 'session 10c + Node view',
      name: 'background requests, busiest hour',
      unit: 'req',
      summary: { median: 67, min: 66, max: 68, runs: 2 },
      target: '<= 69.4',
      met: true,
    },
    {
      bench: 'rate limit (Free)',
      name: 'user action | first byte, p95',
      unit: 'ms',
      summary: { median: 235.4, min: 175, max: 536, runs: 3 },
      target: '< 1,000',
      met: false,
      note: 'single commands',
    },
  ],
};

describe('scripts/perfTable.mjs: README Performance table from bench/results.json', () => {
  it('renders every figure with its median, spread, runs and target outcome', () => {
    const table: string = renderPerfTable(results);
    assert.match(table, /Measured 2026-11-25 on 2 cores \(Test CPU\), Node v20\.0\.0/);
    assert.match(
      table,
      /\| session 10c \+ Node view +\| background requests, busiest hour +\| 67 req \(66–68, 2\) +\| <= 69\.4: met +\|/,
    );
    // A pipe inside a cell is escaped so it cannot split the row; a missed target is loud.
    assert.match(table, /user action \\\| first byte, p95/);
    assert.match(table, /235 ms \(175–536, 3\); single commands/);
    assert.match(table, /< 1,000: \*\*not met\*\*/);
    assert.equal(table.split('\n').filter((l) => l.startsWith('|')).length, 4);
  });

  it('replaces only what lies between the markers, and refuses a README without them', () => {
    const readme = 'intro\n<!-- perf-table:start -->\nold table\n<!-- perf-table:end -->\noutro\n';
    const next: string = replaceBetweenMarkers(readme, 'NEW');
    assert.equal(next, 'intro\n<!-- perf-table:start -->\n\nNEW\n\n<!-- perf-table:end -->\noutro\n');
    assert.equal(replaceBetweenMarkers(next, 'NEW'), next, 'idempotent');
    assert.throws(() => replaceBetweenMarkers('no markers', 'NEW'), /markers/);
  });
});
