#!/usr/bin/env node
/**
 * The Performance table of CONTRIBUTING.md, regenerated from bench/results.json so it cannot drift from what the
 * benchmarks measured. Replaces what lies between the two markers in CONTRIBUTING.md:
 *
 *   <!-- perf-table:start -->  …  <!-- perf-table:end -->
 *
 *   node scripts/perfTable.mjs            rewrite CONTRIBUTING.md (run at the end of `npm run bench`)
 *   node scripts/perfTable.mjs --check    exit 1 if CONTRIBUTING.md is not what the results give
 *
 * Node builtins only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const START = '<!-- perf-table:start -->';
const END = '<!-- perf-table:end -->';

export function fmt(n) {
  if (typeof n !== 'number' || !Number.isFinite(n)) return String(n);
  if (Number.isInteger(n)) return n.toLocaleString('en-US');
  const abs = Math.abs(n);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

const cell = (s) => String(s).replace(/\|/g, '\\|');

/** The markdown table of a results.json object. */
export function renderPerfTable(results) {
  const rows = [['bench', 'figure', 'median (min–max, runs)', 'target']];
  for (const f of results.figures ?? []) {
    const s = f.summary;
    const unit = f.unit ? ` ${f.unit}` : '';
    const spread =
      s.runs > 1 && s.min !== s.max ? ` (${fmt(s.min)}–${fmt(s.max)}, ${s.runs})` : ` (${s.runs})`;
    const note = f.note ? `; ${f.note}` : '';
    const target = f.target === undefined ? '' : `${f.target}: ${f.met ? 'met' : '**not met**'}`;
    rows.push([f.bench, f.name, `${fmt(s.median)}${unit}${spread}${note}`, target].map(cell));
  }
  const widths = rows[0].map((_, i) => Math.max(3, ...rows.map((r) => r[i].length)));
  const line = (r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  const machine = results.machine ?? {};
  return [
    `Measured ${String(results.date ?? '').slice(0, 10)} on ${machine.cores ?? '?'} cores (${machine.cpu ?? 'unknown CPU'}), ` +
      `Node ${machine.node ?? '?'}; generated from \`bench/results.json\` by \`scripts/perfTable.mjs\`.`,
    '',
    line(rows[0]),
    `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`,
    ...rows.slice(1).map(line),
  ].join('\n');
}

export function replaceBetweenMarkers(readme, table) {
  const a = readme.indexOf(START);
  const b = readme.indexOf(END);
  if (a < 0 || b < a) throw new Error(`the file has no ${START} … ${END} markers`);
  // Blank lines around the table, as Prettier formats Markdown.
  return `${readme.slice(0, a + START.length)}\n\n${table}\n\n${readme.slice(b)}`;
}

function main() {
  const results = JSON.parse(fs.readFileSync(path.join(root, 'bench', 'results.json'), 'utf8'));
  const file = path.join(root, 'CONTRIBUTING.md');
  const readme = fs.readFileSync(file, 'utf8');
  const next = replaceBetweenMarkers(readme, renderPerfTable(results));
  if (process.argv.includes('--check')) {
    if (next !== readme) {
      console.error(
        'CONTRIBUTING.md Performance table differs from bench/results.json: run `npm run bench:table`',
      );
      process.exit(1);
    }
    return;
  }
  if (next !== readme) fs.writeFileSync(file, next);
  console.log(
    `CONTRIBUTING.md: Performance table from bench/results.json (${(results.figures ?? []).length} figures)`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
