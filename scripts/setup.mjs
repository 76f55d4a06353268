// What `npm test` and `npm start` need before anything else, installed on first use: npm dependencies,
// Debian packages (as root; otherwise the exact apt-get line is printed) and the cached VS Code server.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureDebianPackages, ensureServerInstalled } from './vscodeServer.mjs';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/**
 * True when every package the lockfile names is installed at its version. A fresh clone or worktree whose
 * node_modules is shared has a newer lockfile by date but the same packages: reinstalling there would empty
 * the shared install under whoever is using it.
 */
function installMatchesLock(lockPath, installedPath) {
  const wanted = JSON.parse(fs.readFileSync(lockPath, 'utf8')).packages ?? {};
  const have = JSON.parse(fs.readFileSync(installedPath, 'utf8')).packages ?? {};
  for (const [where, entry] of Object.entries(wanted)) {
    if (where === '') continue;
    const installed = have[where];
    // Optional packages for other platforms are never installed.
    if (!installed) {
      if (entry.optional) continue;
      return false;
    }
    if (installed.version !== entry.version) return false;
  }
  return true;
}

export function ensureNpmDependencies() {
  const lock = path.join(root, 'package-lock.json');
  const installed = path.join(root, 'node_modules', '.package-lock.json');
  // Reinstall when missing or when the lockfile names packages the install does not have (a pull brought
  // new dependencies); the date is only the fast path.
  if (fs.existsSync(installed)) {
    if (fs.statSync(installed).mtimeMs >= fs.statSync(lock).mtimeMs) return;
    if (installMatchesLock(lock, installed)) return;
  }
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
