// Bundles the integration suites for the extension host: one CommonJS file per test file, with `vscode`
// and `mocha` left external (the host provides the first, node_modules the second). Bundling also turns
// ESM-only dependencies (the noble libraries) into CommonJS that the host can require.
import esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const hostTestsOut = path.join(root, 'out', 'test', 'integration', 'host');

function listTs(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? listTs(path.join(dir, e.name))
        : e.name.endsWith('.ts')
          ? [path.join(dir, e.name)]
          : [],
    );
}

export async function buildHostTests() {
  const srcDir = path.join(root, 'test', 'integration', 'host');
  fs.rmSync(hostTestsOut, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: listTs(srcDir),
    outdir: hostTestsOut,
    outbase: srcDir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    // The sandbox's VM (sandbox/vm) finds its Ralph project beside it with import.meta.dirname, which a
    // CommonJS bundle does not have; it is the only module of the bundle that uses it.
    define: { 'import.meta.dirname': JSON.stringify(path.join(root, 'sandbox', 'vm')) },
    logLevel: 'warning',
  });
  return path.join(hostTestsOut, 'index.js');
}
