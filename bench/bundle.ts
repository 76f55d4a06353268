/**
 * Production bundle sizes: `node esbuild.js --production`, then, from the host build's metafile, what
 * activation loads (dist/extension.mjs and the chunks it imports), each chunk loaded on first use by the source
 * it stands for, the shared chunks, undici and the webview pages, and how many sources are in two files (none:
 * one module runtime). Deterministic, so one build.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { activationFiles, lazyEntries, readHostMeta, sourcesInTwoFiles } from '../scripts/bundleMeta.mjs';
import { figure, type Figure } from './lib/stats';

export const root = path.resolve(import.meta.dirname, '..');

export function build(production: boolean): void {
  const result = spawnSync(process.execPath, ['esbuild.js', ...(production ? ['--production'] : [])], {
    cwd: root,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`esbuild failed:\n${result.stdout}\n${result.stderr}`);
}

const kb = (bytes: number): number => Math.round((bytes / 1024) * 10) / 10;

export function bundleBench(): { figures: Figure[]; raw: Record<string, number> } {
  build(true);
  const dist = path.join(root, 'dist');
  const outputs = readHostMeta(dist);
  const activation = activationFiles(outputs);
  const lazy = lazyEntries(outputs);
  const raw: Record<string, number> = {};
  raw['activation (dist/extension.mjs and its static chunks)'] = activation.bytes;
  raw['dist/extension.mjs'] = outputs['extension.mjs']?.bytes ?? Number.NaN;
  for (const entry of lazy.sort((a, b) => a.entryPoint.localeCompare(b.entryPoint)))
    raw[`${entry.entryPoint} (lazy)`] = entry.bytes;
  const named = new Set([...activation.files, ...lazy.map((e) => e.file)]);
  raw['shared chunks loaded on first use (lazy)'] = Object.entries(outputs)
    .filter(([file]) => !named.has(file))
    .reduce((sum, [, o]) => sum + o.bytes, 0);
  raw['all host JavaScript but undici'] = Object.values(outputs).reduce((sum, o) => sum + o.bytes, 0);
  // Loaded on the first request, not at activation (see esbuild.js); reported so the total is visible.
  const undici = path.join(dist, 'undici.cjs');
  if (fs.existsSync(undici)) raw['dist/undici.cjs (lazy)'] = fs.statSync(undici).size;
  const webview = path.join(dist, 'webview');
  for (const f of fs.existsSync(webview) ? fs.readdirSync(webview).sort() : []) {
    if (f.endsWith('.js')) raw[`dist/webview/${f}`] = fs.statSync(path.join(webview, f)).size;
  }
  const figures = Object.entries(raw).map(([what, bytes]) =>
    figure(
      'bundle (production)',
      what,
      'KB',
      [kb(bytes)],
      what.startsWith('activation')
        ? {
            target: '< 400 KB',
            met: (s) => s.max < 400,
            note: `${activation.files.length} files; undici is a separate file loaded on the first request`,
          }
        : {},
    ),
  );
  const twice = sourcesInTwoFiles(outputs).length;
  figures.push(
    figure('bundle (production)', 'sources bundled into two files', 'files', [twice], {
      target: '0',
      met: (s) => s.max === 0,
      note: 'one module runtime: ESM with splitting',
    }),
  );
  return { figures, raw: { ...raw, 'sources in two files': twice } };
}
