import { strict as assert } from 'node:assert';
import {
  MAX_RALPH_FILE_BYTES,
  oversizedSourceFile,
  ralphSourcesGlob,
} from '../../../src/core/ralph/sourceFiles';
import {
  projectDirProblem as sourceDirProblem,
  readProjectConfig,
} from '../../../src/core/artifacts/projectConfig';

describe('which workspace Ralph files are read', () => {
  it('searches a sourceDir only when it is a plain relative folder (no glob syntax, no ..)', () => {
    for (const dir of ['contracts', 'src/contracts', 'ralph_v2/contracts-1.0', '.hidden/ral'])
      assert.equal(sourceDirProblem(dir), undefined, dir);
    const refused: [string, RegExp][] = [
      ['contracts,../../..', /characters other than/],
      ['{a,b}', /characters other than/],
      ['**', /characters other than/],
      ['src/[ab]', /characters other than/],
      ['!(x)', /characters other than/],
      ['../outside', /leaves or repeats/],
      ['a//b', /leaves or repeats/],
      ['/etc', /absolute/],
      ['a\\b', /characters other than/],
      ['', /empty/],
      ['a'.repeat(201), /longer than 200/],
    ];
    for (const [dir, why] of refused) assert.match(sourceDirProblem(dir) ?? 'accepted', why, dir);
    // What a config says reaches the check as written (a `{` in it is refused, not searched).
    const config = readProjectConfig("export default { sourceDir: 'contracts/{a,b}' }");
    assert.equal(config.sourceDir, 'contracts');
    assert.match(config.problems.join('\n'), /sourceDir "contracts\/\{a,b\}" is not used: .*characters/);
    assert.equal(ralphSourcesGlob(['contracts', 'src/ral']), '**/{contracts,src/ral}/**/*.ral');
  });

  it('skips files over 2 MB with a line that says which and why', () => {
    assert.equal(oversizedSourceFile('/ws/contracts/a.ral', MAX_RALPH_FILE_BYTES), undefined);
    assert.equal(oversizedSourceFile('/ws/contracts/a.ral', 60_000), undefined);
    assert.equal(
      oversizedSourceFile('/ws/contracts/huge.ral', 50 * 1024 * 1024),
      'Skipped /ws/contracts/huge.ral: it is 50.0 MB, over the 2.0 MB read for Ralph sources and configs; its lenses, hovers and problems are not shown.',
    );
  });
});
