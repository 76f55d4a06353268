/** One figure of bench/results.json, as the table reads it. */
export interface PerfFigure {
  bench: string;
  name: string;
  unit: string;
  summary: { median: number; min: number; max: number; runs: number };
  target?: string;
  met?: boolean;
  note?: string;
}

/** The parts of bench/results.json the Performance table is made from. */
export interface PerfResults {
  date?: string;
  machine?: { cores?: number; cpu?: string; node?: string };
  figures?: PerfFigure[];
}

export function fmt(n: unknown): string;
/** The markdown table of a results.json object. */
export function renderPerfTable(results: PerfResults): string;
/** `readme` with what lies between the perf-table markers replaced by `table`; throws without the markers. */
export function replaceBetweenMarkers(readme: string, table: string): string;
