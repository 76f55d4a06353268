// One module runtime (esbuild.js): the production build of the extension host, read from its metafile. No source
// is in two shipped files, activation loads less than 400 KB, and what loads on first use stays out of it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  activationFiles,
  lazyEntries,
  readHostMeta,
  sourcesInTwoFiles,
  type HostOutputs,
} from '../../../scripts/bundleMeta.mjs';

const ROOT = path.join(__dirname, '..', '..', '..');

describe('the extension host build: one module runtime (esbuild.js)', function () {
  this.timeout(120_000);
  let outDir: string;
  let outputs: HostOutputs;

  before(() => {
    outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bundles-test-'));
    const built = spawnSync(process.execPath, ['esbuild.js', '--production', `--outdir=${outDir}`], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(built.status, 0, built.stderr);
    outputs = readHostMeta(outDir);
  });

  after(() => fs.rmSync(outDir, { recursive: true, force: true }));

  it('bundles no source into two files', () => {
    assert.deepEqual(sourcesInTwoFiles(outputs), []);
    assert.ok(Object.keys(outputs).length > 3, 'the build is split into chunks');
  });

  it('activation loads less than 400 KB', () => {
    const { bytes, files } = activationFiles(outputs);
    assert.ok(files.includes('extension.mjs'));
    assert.ok(
      bytes < 400 * 1024,
      `activation loads ${(bytes / 1024).toFixed(1)} KB in ${files.length} files`,
    );
  });

  it('keeps what loads on first use out of activation', () => {
    const activation = new Set(activationFiles(outputs).files.flatMap((f) => outputs[f]?.inputs ?? []));
    const lazy = lazyEntries(outputs).map((e) => e.entryPoint);
    for (const entry of [
      'src/platform/actionsEngine.ts',
      'src/debugging/engine.ts',
      'src/assistant/lmTools.ts',
    ])
      assert.ok(lazy.includes(entry), `${entry} is loaded on first use`);
    // The curve, the token lists, the Ralph scanner and the signing path: each large, none needed to activate.
    for (const heavy of [
      'node_modules/@noble/secp256k1/index.js',
      'node_modules/@alephium/token-list/dist/tokens/mainnet.json',
      'src/core/ralph/scanner.ts',
      'src/core/signing/signingPath.ts',
    ])
      assert.ok(!activation.has(heavy), `${heavy} is loaded at activation`);
  });

  it('keeps undici in one CommonJS file that the host imports on the first request', () => {
    assert.ok(fs.existsSync(path.join(outDir, 'undici.cjs')));
    for (const [file, output] of Object.entries(outputs))
      assert.ok(
        !output.inputs.some((i) => i.startsWith('node_modules/undici/')),
        `undici is bundled into ${file}`,
      );
  });
});
