import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArtifactRegistry } from '../../../src/core/artifacts';
import {
  gasDelta,
  gasLens,
  GasMemory,
  gasWords,
  type GasRecord,
} from '../../../src/core/debugging/gasMemory';
import { lensesFor } from '../../../src/core/debugging/lensModel';
import { scanRalph } from '../../../src/core/ralph/scanner';
import { sandboxArtifactFiles } from '../artifacts/helpers';

const OLD = 'a'.repeat(64);
const NEW = 'b'.repeat(64);
const run = (over: Partial<GasRecord>): GasRecord => ({
  contract: 'Counter',
  method: 'increment',
  codeHash: NEW,
  gasUsed: 1000,
  via: 'simulate',
  at: 1,
  ...over,
});

describe('gas per method, remembered (core/debugging/gasMemory)', () => {
  it('keeps the newest run per code hash and tells the change since the code before', () => {
    const memory = new GasMemory();
    memory.record(run({ codeHash: OLD, gasUsed: 11_145, at: 1 }));
    memory.record(run({ codeHash: NEW, gasUsed: 12_000, at: 2 }));
    memory.record(run({ codeHash: NEW, gasUsed: 12_345, at: 3, via: 'execute' }));
    assert.equal(memory.latest('Counter', 'increment')?.gasUsed, 12_345);
    assert.equal(memory.before('Counter', 'increment', NEW)?.gasUsed, 11_145);
    assert.equal(memory.all().length, 2, 'one record per code hash');
    assert.deepEqual(gasLens(memory, 'Counter', 'increment', NEW), {
      title: '12,345 gas · +1,200 since the code changed',
      tooltip:
        'Measured by the last execute of this code (0.0012345 ALPH at the minimum gas price; a transaction adds its base gas).\nBefore the last code change: 11,145 gas.',
    });
  });

  it('says when the last measure is of older code, and nothing for a method that never ran', () => {
    const memory = new GasMemory();
    memory.record(run({ codeHash: OLD, gasUsed: 900 }));
    assert.equal(
      gasLens(memory, 'Counter', 'increment', NEW)?.title,
      '900 gas (before the last code change)',
    );
    assert.equal(gasLens(memory, 'Counter', 'reset', NEW), undefined);
  });

  it('keeps small argument lists for the Gas Report and drops large ones', () => {
    const memory = new GasMemory();
    memory.record(run({ method: 'add', args: [{ type: 'U256', value: '5' }] }));
    memory.record(run({ method: 'big', args: [{ type: 'ByteVec', value: 'ab'.repeat(2000) }] }));
    assert.deepEqual(
      memory.rerunnable('Counter').map((r) => r.method),
      ['add'],
    );
    assert.equal(memory.latest('Counter', 'big')?.args, undefined);
  });

  it('saves every change and loads back only well-formed records', () => {
    let saved: readonly GasRecord[] = [];
    const memory = new GasMemory({ load: () => undefined, save: (r) => (saved = r) });
    let fired = 0;
    memory.onDidChange(() => fired++);
    memory.record(run({}));
    assert.equal(fired, 1);
    const loaded = new GasMemory({
      load: () => [
        ...saved,
        { contract: '[x](command:y)', method: 'm', codeHash: NEW, gasUsed: 1, via: 'simulate', at: 1 },
        'junk',
        null,
      ],
      save: () => undefined,
    });
    assert.deepEqual(loaded.all(), saved);
  });

  it('words gas, its ALPH cost at the minimum price, and signed deltas', () => {
    assert.deepEqual(gasWords(20_000), { gas: '20,000 gas', alph: '0.002 ALPH' });
    assert.equal(gasDelta(10, 10), '±0');
    assert.equal(gasDelta(700, 1000), '−300');
  });
});

describe('the gas lens on a public function', () => {
  it('sits on each pub fn that ran, with the simulation’s gas, and re-runs the simulation', () => {
    const registry = ArtifactRegistry.fromFiles(sandboxArtifactFiles());
    const counter = registry.byName('Counter')!;
    const source = readFileSync(
      join(import.meta.dirname, '..', '..', '..', 'sandbox', 'project', 'contracts', 'counter.ral'),
      'utf8',
    );
    const method = 'increment';
    assert.ok(counter.functions.some((f) => f.name === method));
    const memory = new GasMemory();
    memory.record(run({ method, codeHash: counter.codeHash, gasUsed: 4321 }));
    const address = '22fnZLkZJUSyhXgboirmJktWkEBRk1pV8L6gfpc53hvVM';
    const lenses = lensesFor(
      scanRalph(source),
      {
        registry,
        network: 'devnet',
        instancesOf: () => [{ address, deployed: true, watched: true }],
        seenEvents: () => [],
        gas: memory,
      },
      { now: 0, executeAvailable: true },
    );
    const gas = lenses.filter((l) => l.title.endsWith(' gas'));
    assert.equal(gas.length, 1, lenses.map((l) => l.title).join(' | '));
    assert.equal(gas[0]?.title, '4,321 gas');
    assert.deepEqual(gas[0]?.command, { kind: 'simulate', address, method });
  });
});
