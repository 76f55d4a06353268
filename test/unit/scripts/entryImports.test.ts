import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const SCRIPTS = path.join(import.meta.dirname, '..', '..', '..', 'scripts');

/** Specifiers of the static `import … from '…'`, `export … from '…'` and bare `import '…'` of a module. */
function staticImports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s[^;'"]*?\sfrom\s+['"]([^'"]+)['"]/gm))
    out.push(m[1]!);
  for (const m of text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) out.push(m[1]!);
  return out;
}

/** Every module loaded before the first line runs: the entry and, recursively, its static local imports. */
function staticClosure(entry: string): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    const specs = staticImports(file);
    seen.set(file, specs);
    for (const s of specs) if (s.startsWith('.')) visit(path.resolve(path.dirname(file), s));
  };
  visit(entry);
  return seen;
}

describe('entry scripts load nothing from node_modules before they install it', () => {
  // A fresh clone has no node_modules: `npm start`, `npm test` and `npm run test:electron` must be able to
  // start, install the dependencies, and only then import them (with dynamic import()).
  for (const entry of ['vscode-web.mjs', 'test-all.mjs', 'test-electron.mjs']) {
    it(`scripts/${entry}`, () => {
      const closure = staticClosure(path.join(SCRIPTS, entry));
      assert.ok(closure.size >= 2, 'the entry and at least setup.mjs');
      for (const [file, specs] of closure) {
        const fromNpm = specs.filter((s) => !s.startsWith('node:') && !s.startsWith('.'));
        assert.deepEqual(fromNpm, [], `${path.relative(SCRIPTS, file)} imports from npm at load time`);
      }
    });
  }

  it('recognises a static import of a package (the check can fail)', () => {
    const closure = staticClosure(path.join(SCRIPTS, 'buildTests.mjs'));
    assert.ok(closure.get(path.join(SCRIPTS, 'buildTests.mjs'))?.includes('esbuild'));
  });
});
