/**
 * The Ralph debug session on the sandbox project's Counter (its artifact and counter.ral, the project's
 * own files): breakpoints placed by the source map, stops, frames, variables and the failure of
 * `incrementBy(101)` at its `assert!` line, named by the enum constant (issue 31's journey, without VS Code).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseContractArtifact } from '../../../src/core/artifacts';
import { scanRalph } from '../../../src/core/ralph/scanner';
import { RalphDebugSession, type MethodLaunch } from '../../../src/core/ralphDebug/session';

const PROJECT = join(import.meta.dirname, '..', '..', '..', 'sandbox', 'project');
const SOURCE_PATH = join(PROJECT, 'contracts', 'counter.ral');
const source = readFileSync(SOURCE_PATH, 'utf8');
const artifact = parseContractArtifact(
  JSON.parse(readFileSync(join(PROJECT, 'artifacts', 'Counter.ral.json'), 'utf8')),
);
const OWNER = '1DrDyTr9RpRsQnDnXo2YRiPzPW4ooHX5LLoqXrqfMrpQH';
const lineOf = (text: string): number => source.split('\n').findIndex((l) => l.includes(text));

function launch(step: string, overrides: Partial<MethodLaunch> = {}): MethodLaunch {
  return {
    artifact,
    method: 'incrementBy',
    args: [{ type: 'U256', value: step }],
    immFields: [{ type: 'Address', value: OWNER }],
    mutFields: [
      { type: 'U256', value: '7' },
      { type: 'Bool', value: false },
    ],
    caller: OWNER,
    source: { path: SOURCE_PATH, scan: scanRalph(source) },
    ...overrides,
  };
}

describe('Ralph debug session (VM, plain Node)', () => {
  const stepLine = lineOf('assert!(step <= MaxStep, ErrorCodes.StepTooLarge)');

  it('stops at the assert! line of incrementBy(101) with step = 101 and the fields, then on the failure there', () => {
    const output: string[] = [];
    const session = new RalphDebugSession(launch('101'), { output: (t) => output.push(t) });
    const bps = session.setBreakpoints(SOURCE_PATH, [stepLine]);
    assert.deepEqual(bps, [{ line: stepLine, verified: true }]);
    const first = session.start(false);
    assert.equal(first.kind, 'stopped');
    assert.equal(first.kind === 'stopped' && first.reason, 'breakpoint');
    const frames = session.stackFrames();
    assert.deepEqual(
      frames.map((f) => f.name),
      ['Counter.incrementBy', 'TxScript (calls Counter.incrementBy)'],
    );
    assert.equal(frames[0]?.line, stepLine);
    const scopes = session.scopes(frames[0].id);
    const vars = (name: string) => scopes.find((s) => s.name === name)?.variables;
    assert.deepEqual(vars('Arguments'), [{ name: 'step', value: '101', type: 'U256' }]);
    assert.deepEqual(
      vars('Fields')?.map((v) => [v.name, v.value]),
      [
        ['owner', OWNER],
        ['count', '7'],
        ['paused', 'false'],
      ],
    );
    const failure = session.continue();
    assert.equal(failure.kind, 'stopped');
    assert.equal(failure.kind === 'stopped' && failure.reason, 'exception');
    assert.match(
      failure.kind === 'stopped' ? failure.description : '',
      /^AssertionFailedWithErrorCode \(ErrorCodes\.StepTooLarge\)/,
    );
    assert.equal(session.stackFrames()[0]?.line, stepLine);
    const end = session.continue();
    assert.equal(end.kind, 'ended');
    assert.equal(end.kind === 'ended' && end.result.ok, false);
  });

  it('a step goes from line to placed line; the run emits Incremented to the output and ends ok', () => {
    const output: string[] = [];
    const session = new RalphDebugSession(launch('5'), { output: (t) => output.push(t) });
    const entry = session.start(true);
    assert.equal(entry.kind === 'stopped' && entry.reason, 'entry');
    const lines = [session.stackFrames()[0]?.line];
    for (let i = 0; i < 10; i++) {
      const s = session.next();
      if (s.kind === 'ended') break;
      lines.push(session.stackFrames()[0]?.line);
    }
    const fnLine = lineOf('pub fn incrementBy');
    const after = (text: string) => source.split('\n').findIndex((l, i) => i > fnLine && l.includes(text));
    assert.deepEqual(lines, [
      fnLine,
      after('assert!(!paused, ErrorCodes.Paused)'),
      stepLine,
      after('emit Incremented(callerAddress!(), count)'),
    ]);
    assert.ok(
      output.some((t) => t.startsWith('event Incremented @ ') && t.includes('12')),
      output.join(''),
    );
    assert.equal(session.result?.ok, true);
  });

  it('a line the bytecode cannot place is refused with the reason, never moved', () => {
    const session = new RalphDebugSession(launch('5'), { output: () => undefined });
    const [bp] = session.setBreakpoints(SOURCE_PATH, [lineOf('count = count + step')]);
    assert.equal(bp?.verified, false);
    assert.match(bp?.message ?? '', /Not placed: only function lines/);
  });
});
