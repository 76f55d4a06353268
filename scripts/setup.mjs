// What `npm test` and `npm start` need before anything else, installed on first use: npm dependencies,
// Debian packages (as root; otherwise the exact apt-get line is printed) and the cached VS Code server.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureDebianPackages, ensureServerInstalled } from './vscodeServer.mjs';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

export function ensureNpmDependencies() {
  const lock = path.join(root, 'package-lock.json');
  const installed = path.join(root, 'node_modules', '.package-lock.json');
  // Reinstall when missing or when the lockfile changed since the last install (a pull brought new deps).
  if (fs.existsSync(installed) && fs.statSync(installed).mtimeMs >= fs.statSync(lock).mtimeMs) return;
  console.log('[setup] installing npm dependencies (npm ci)');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm ci failed');
}

/**
 * Everything `npm start` and `npm test` need, in the order that fails fastest: the Debian packages (a
 * non-root user gets the apt-get line and a non-zero exit before a long npm ci), the npm dependencies, then
 * the VS Code server. Entry scripts call this before they import anything from node_modules.
 */
export function ensurePrerequisites() {
  ensureDebianPackages();
  ensureNpmDependencies();
  ensureServerInstalled();
}

export function buildExtension() {
  const result = spawnSync(process.execPath, ['esbuild.js'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('The extension build failed.');
}
