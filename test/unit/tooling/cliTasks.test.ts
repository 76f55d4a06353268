import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  ALEPHIUM_TASK_TYPE,
  RALPH_EXTENSION_ID,
  RALPH_PROBLEM_MATCHER,
  cliTaskPlans,
  shouldOfferRalphExtension,
} from '../../../src/core/tooling/cliTasks';

/** This extension's id, read from its manifest: it names the `ralph` language for breakpoints only. */
const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as {
  publisher: string;
  name: string;
  contributes: unknown;
};
const OWN = `${manifest.publisher}.${manifest.name}`;

describe('beside the CLI and the Ralph extension', () => {
  it('offers compile, test and deploy per project, the pinned CLI without a download', () => {
    assert.deepEqual(
      cliTaskPlans([{ relativeRoot: '', pinsCli: true }]).map((p) => [p.name, p.args.join(' ')]),
      [
        ['compile', '--no-install @alephium/cli compile'],
        ['test', '--no-install @alephium/cli test'],
        ['deploy', '--no-install @alephium/cli deploy'],
      ],
    );
    const two = cliTaskPlans([
      { relativeRoot: 'a', pinsCli: false },
      { relativeRoot: 'b/c', pinsCli: true },
    ]);
    assert.deepEqual(
      two.map((p) => p.name),
      ['compile (a)', 'test (a)', 'deploy (a)', 'compile (b/c)', 'test (b/c)', 'deploy (b/c)'],
    );
    assert.equal(two[0]!.args.join(' '), '@alephium/cli compile');
  });

  it('offers the Ralph extension once, and only while nothing gives .ral a language', () => {
    const plain = [
      { id: 'ms-python.python', packageJSON: { contributes: { languages: [{ id: 'python' }] } } },
    ];
    assert.equal(shouldOfferRalphExtension(plain, false, OWN), true);
    assert.equal(shouldOfferRalphExtension(plain, true, OWN), false);
    assert.equal(
      shouldOfferRalphExtension([...plain, { id: 'Alephium.ralph-lsp', packageJSON: {} }], false, OWN),
      false,
    );
    const other = { id: 'someone.ralph', packageJSON: { contributes: { languages: [{ id: 'ralph' }] } } };
    assert.equal(shouldOfferRalphExtension([other], false, OWN), false);
    const byExtension = {
      id: 'x.y',
      packageJSON: { contributes: { languages: [{ id: 'r', extensions: ['.ral'] }] } },
    };
    assert.equal(shouldOfferRalphExtension([byExtension], false, OWN), false);
    assert.equal(RALPH_EXTENSION_ID, 'alephium.ralph-lsp');
    // This extension gives `.ral` the `ralph` language (for breakpoints), yet the offer still stands.
    const own = { id: OWN, packageJSON: manifest };
    assert.equal(shouldOfferRalphExtension([...plain, own], false, OWN), true);
    assert.equal(shouldOfferRalphExtension([own], false, 'someone.else'), false);
  });

  it('names the task type and the problem matcher package.json contributes', () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as {
      contributes: { taskDefinitions: { type: string }[]; problemMatchers: { name: string }[] };
    };
    assert.ok(pkg.contributes.taskDefinitions.some((d) => d.type === ALEPHIUM_TASK_TYPE));
    assert.ok(pkg.contributes.problemMatchers.some((m) => `$${m.name}` === RALPH_PROBLEM_MATCHER));
  });
});
