/** Small statistics and reporting helpers shared by the benchmarks. */

export interface Summary {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** How many runs the figure summarises. */
  readonly runs: number;
}

export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  // Nearest rank: the smallest value with at least q of the samples at or below it.
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1] as number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function summarize(values: readonly number[]): Summary {
  return {
    median: median(values),
    min: values.length ? Math.min(...values) : Number.NaN,
    max: values.length ? Math.max(...values) : Number.NaN,
    runs: values.length,
  };
}

/** One row of the final table. */
export interface Figure {
  /** Which benchmark (section of the table). */
  readonly bench: string;
  readonly name: string;
  readonly unit: string;
  readonly summary: Summary;
  /** Human-readable target, e.g. "< 50 ms"; absent when the figure is informative only. */
  readonly target?: string;
  /** Whether the target is met (undefined without a target). */
  readonly met?: boolean;
  readonly note?: string;
}

export function figure(
  bench: string,
  name: string,
  unit: string,
  values: readonly number[],
  extra: { target?: string; met?: (s: Summary) => boolean; note?: string } = {},
): Figure {
  const summary = summarize(values);
  return {
    bench,
    name,
    unit,
    summary,
    ...(extra.target !== undefined ? { target: extra.target } : {}),
    ...(extra.met ? { met: extra.met(summary) } : {}),
    ...(extra.note !== undefined ? { note: extra.note } : {}),
  };
}

export function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n)) return n.toLocaleString('en-US');
  const abs = Math.abs(n);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function renderTable(figures: readonly Figure[]): string {
  const header = ['bench', 'figure', 'median', 'min', 'max', 'runs', 'target', 'met'];
  const rows = figures.map((f) => [
    f.bench,
    f.name,
    `${fmt(f.summary.median)} ${f.unit}`.trim(),
    fmt(f.summary.min),
    fmt(f.summary.max),
    String(f.summary.runs),
    f.target ?? '',
    f.met === undefined ? '' : f.met ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i] as number)).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** A seeded PRNG (mulberry32), so that simulated scenarios are reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}
