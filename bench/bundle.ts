/**
 * Production bundle sizes: `node esbuild.js --production`, then the sizes of dist/extension.js, the lazily
 * loaded dist/undici.js and dist/webview/*.js. Deterministic, so one build.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { figure, type Figure } from './lib/stats';

export const root = path.resolve(import.meta.dirname, '..');

export function build(production: boolean): void {
  const result = spawnSync(process.execPath, ['esbuild.js', ...(production ? ['--production'] : [])], {
    cwd: root,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`esbuild failed:\n${result.stdout}\n${result.stderr}`);
}

export function bundleBench(): { figures: Figure[]; raw: Record<string, number> } {
  build(true);
  const raw: Record<string, number> = {};
  raw['dist/extension.js'] = fs.statSync(path.join(root, 'dist', 'extension.js')).size;
  // Loaded on the first request, not at activation (see esbuild.js); reported so the total is visible.
  const undici = path.join(root, 'dist', 'undici.js');
  if (fs.existsSync(undici)) raw['dist/undici.js (lazy)'] = fs.statSync(undici).size;
  // The modules loaded on first use (esbuild.js, LAZY_MODULES): not part of activation.
  const lazyFiles = fs
    .readdirSync(path.join(root, 'dist'))
    .filter((f) => f.endsWith('.js') && f !== 'extension.js' && f !== 'undici.js')
    .sort();
  for (const lazy of lazyFiles) raw[`dist/${lazy} (lazy)`] = fs.statSync(path.join(root, 'dist', lazy)).size;
  const webview = path.join(root, 'dist', 'webview');
  for (const f of fs.existsSync(webview) ? fs.readdirSync(webview).sort() : []) {
    if (f.endsWith('.js')) raw[`dist/webview/${f}`] = fs.statSync(path.join(webview, f)).size;
  }
  const figures = Object.entries(raw).map(([file, bytes]) =>
    figure(
      'bundle (production)',
      file,
      'KB',
      [Math.round((bytes / 1024) * 10) / 10],
      file === 'dist/extension.js'
        ? {
            target: '< 400 KB',
            met: (s) => s.max < 400,
            note: 'activation bundle; undici is a separate file loaded on the first request',
          }
        : {},
    ),
  );
  return { figures, raw };
}
