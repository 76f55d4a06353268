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
    assert.equal(shouldOfferRalphExtension(plain, false), true);
    assert.equal(shouldOfferRalphExtension(plain, true), false);
    assert.equal(
      shouldOfferRalphExtension([...plain, { id: 'Alephium.ralph-lsp', packageJSON: {} }], false),
      false,
    );
    const other = { id: 'someone.ralph', packageJSON: { contributes: { languages: [{ id: 'ralph' }] } } };
    assert.equal(shouldOfferRalphExtension([other], false), false);
    const byExtension = {
      id: 'x.y',
      packageJSON: { contributes: { languages: [{ id: 'r', extensions: ['.ral'] }] } },
    };
    assert.equal(shouldOfferRalphExtension([byExtension], false), false);
    assert.equal(RALPH_EXTENSION_ID, 'alephium.ralph-lsp');
  });

  it('names the task type and the problem matcher package.json contributes', () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as {
      contributes: { taskDefinitions: { type: string }[]; problemMatchers: { name: string }[] };
    };
    assert.ok(pkg.contributes.taskDefinitions.some((d) => d.type === ALEPHIUM_TASK_TYPE));
    assert.ok(pkg.contributes.problemMatchers.some((m) => `$${m.name}` === RALPH_PROBLEM_MATCHER));
  });
});
