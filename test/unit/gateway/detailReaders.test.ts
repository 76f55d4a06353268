// The spec says a gateway error's `detail` is "for logs, not branching"; docs/ARCHITECTURE.md names the three
// readers that look into it anyway and why. This keeps the list and the code the same: a new reader of an
// error's detail fails here until it is named, and a named one that no longer reads it fails too.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tsFiles } from '../../helpers/tsFiles';

const ROOT = path.join(import.meta.dirname, '..', '..', '..');
const SRC = path.join(ROOT, 'src');

/** Each named reader: the file that reads an error's detail, and the function that branches on it. */
const READERS = [
  { file: 'src/core/gateway/pipeline.ts', calls: 'monthlyQuotaEnd(error.detail' },
  { file: 'src/core/gateway/quotaLock.ts', reader: 'monthlyQuotaEnd' },
  { file: 'src/platform/signing.ts', reader: 'shortOfAlphWords', calls: "'detail' in error" },
  {
    file: 'src/core/debugging/transactionExplanation.ts',
    reader: 'explainFailure',
    calls: 'isVmFailureText(answer.detail)',
  },
] as const;

/**
 * Reads of a `detail` property that are not an error's: a modal's words, a task's or a pick item's own detail
 * line, the error body while the pipeline builds the error, and the class itself.
 */
const NOT_AN_ERRORS_DETAIL = /^(words|task|item|body|data|this)$/;

/** Files of src/ that read an error's `detail` (`x.detail` or `'detail' in x`), comments left out. */
function filesReadingDetail(): string[] {
  return tsFiles(SRC)
    .filter((file) => {
      const code = fs
        .readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '');
      if (/'detail'\s+in\s/.test(code)) return true;
      return [...code.matchAll(/(\w+)\??\.detail\b/g)].some((m) => !NOT_AN_ERRORS_DETAIL.test(m[1] ?? ''));
    })
    .map((file) => path.relative(ROOT, file).split(path.sep).join('/'))
    .sort();
}

/** docs/ARCHITECTURE.md's decision on the detail, from its title to the next decision. */
function detailDecision(): string {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8');
  const start = doc.indexOf('**The status decides, not the detail.**');
  assert.ok(start >= 0, 'docs/ARCHITECTURE.md states the rule on the detail');
  const end = doc.indexOf('\n- **', start);
  return doc.slice(start, end < 0 ? undefined : end);
}

describe("a gateway error's detail: the readers the docs name are the readers in the code", () => {
  it('finds an error’s detail read only in the files of the three named readers', () => {
    const named = [...new Set(READERS.filter((r) => 'calls' in r).map((r) => r.file))].sort();
    assert.deepEqual(filesReadingDetail(), named);
  });

  it('each named reader still reads it where the docs say', () => {
    for (const r of READERS) {
      const code = fs.readFileSync(path.join(ROOT, r.file), 'utf8');
      if ('reader' in r)
        assert.match(code, new RegExp(`function ${r.reader}\\(`), `${r.reader} in ${r.file}`);
      if ('calls' in r) assert.ok(code.includes(r.calls), `${r.file} reads the detail: ${r.calls}`);
    }
  });

  it('docs/ARCHITECTURE.md names each reader with its file and why, and the error class points there', () => {
    const decision = detailDecision();
    for (const r of READERS) {
      assert.ok(decision.includes(`\`${r.file.replace(/^src\//, '')}\``), `the docs name ${r.file}`);
      if ('reader' in r) assert.ok(decision.includes(`\`${r.reader}\``), `the docs name ${r.reader}`);
    }
    assert.match(decision, /spec gives no other signal/);
    const errors = fs.readFileSync(path.join(SRC, 'core', 'gateway', 'errors.ts'), 'utf8');
    for (const reader of ['monthlyQuotaEnd', 'shortOfAlphWords', 'explainFailure'])
      assert.ok(errors.includes(`\`${reader}\``), `GatewayHttpError.detail names ${reader}`);
    assert.ok(!/never branch on it/.test(errors), 'errors.ts no longer says nothing branches on it');
  });
});
