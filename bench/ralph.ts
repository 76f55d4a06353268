/**
 * Debugging in the editor on a large source: scanning a 2,010-line `.ral` file and computing every
 * CodeLens of it (one per event with 1,000 seen events, Simulate, Execute and Debug per public function) from
 * data already held. No request is involved; this is the time the editor waits for lenses.
 */
import { ArtifactRegistry } from '../src/core/artifacts';
import { lensesFor, type SeenEvent } from '../src/core/debugging/lensModel';
import { scanRalph } from '../src/core/ralph/scanner';
import { BIG_ROUNDS, bigRalphArtifactJson, bigRalphSource } from '../test/unit/ralph/fixtures';
import { figure, type Figure } from './lib/stats';

export function ralphBench(runs: number): { figures: Figure[]; raw: { scanMs: number[]; lensMs: number[] } } {
  const text = bigRalphSource();
  const lines = text.split('\n').length;
  const registry = ArtifactRegistry.fromFiles([
    { path: 'artifacts/Big.ral.json', text: bigRalphArtifactJson() },
  ]);
  const now = Date.now();
  const events: SeenEvent[] = Array.from({ length: 1000 }, (_, i) => ({
    txId: i.toString(16).padStart(64, '0'),
    eventIndex: i % BIG_ROUNDS,
    timestamp: now - i * 1000,
  }));
  const address = '22fnZLkZJUSyhXgboirmJktWkEBRk1pV8L6gfpc53hvVM';
  const scanMs: number[] = [];
  const lensMs: number[] = [];
  let lensCount = 0;
  // The first run is cold (module code not yet optimised): it is what a person opening the file waits.
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    const scan = scanRalph(text);
    const t1 = performance.now();
    lensCount = lensesFor(
      scan,
      {
        registry,
        network: 'devnet',
        instancesOf: () => [{ address, group: 0, deployed: true, watched: true }],
        seenEvents: () => events,
      },
      { now, executeAvailable: true },
    ).length;
    const t2 = performance.now();
    scanMs.push(t1 - t0);
    lensMs.push(t2 - t0);
  }
  const bench = `ralph source (${lines.toLocaleString('en-US')} lines)`;
  return {
    figures: [
      figure(bench, 'scan (declarations, checks, emits)', 'ms', scanMs, {
        note: `first run cold: ${scanMs[0]?.toFixed(1)} ms`,
      }),
      figure(bench, 'scan + every lens (1,000 seen events)', 'ms', lensMs, {
        target: '< 100 ms',
        met: (s) => s.max < 100,
        note: `${lensCount} lenses; first run cold: ${lensMs[0]?.toFixed(1)} ms`,
      }),
    ],
    raw: { scanMs, lensMs },
  };
}
