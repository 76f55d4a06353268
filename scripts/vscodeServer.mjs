// Installs and starts the VS Code 1.100.3 server (the official server and web workbench shipped inside the
// npm package code-server@4.100.3), offline apart from the npm registry. Shared by `npm test`, `npm start`
// and `.ci/run`. The install is cached outside the repository, keyed by version, and reused.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const CODE_SERVER_VERSION = '4.100.3';
export const VSCODE_VERSION = '1.100.3';
const DEBIAN_PACKAGES = ['libkrb5-dev', 'ripgrep', 'chromium'];
const NATIVE_MODULES = [
  '@parcel/watcher',
  '@vscode/spdlog',
  'native-watchdog',
  'node-pty',
  '@vscode/deviceid',
  'kerberos',
];

const cacheRoot =
  process.env.ALEPHIUM_VSCODE_CACHE ??
  path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'alephium-gateway');
export const serverRoot = path.join(cacheRoot, `code-server-${CODE_SERVER_VERSION}`);
export const vscodeDir = path.join(serverRoot, 'node_modules', 'code-server', 'lib', 'vscode');
const stampFile = path.join(serverRoot, '.installed');
const serverMain = path.join(path.dirname(new URL(import.meta.url).pathname), 'vscodeServerMain.mjs');

function log(message) {
  process.stderr.write(`[vscode-server] ${message}\n`);
}

function run(command, args, cwd, extraEnv = {}) {
  const result = spawnSync(command, args, {
    cwd,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, ...extraEnv },
  });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd} (exit ${result.status})`);
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

function missingDebianPackages() {
  return DEBIAN_PACKAGES.filter((pkg) => spawnSync('dpkg', ['-s', pkg], { stdio: 'ignore' }).status !== 0);
}

/** Installs the Debian packages the server and the browser need: as root directly, otherwise says how. */
export function ensureDebianPackages() {
  if (!hasCommand('dpkg')) {
    if (!hasCommand('rg') || !findChromium())
      throw new Error('Install ripgrep and Chromium with your package manager, then retry.');
    return;
  }
  const missing = missingDebianPackages();
  if (missing.length === 0) return;
  const install = `apt-get install -y ${missing.join(' ')}`;
  if (typeof process.getuid === 'function' && process.getuid() === 0) {
    log(`installing Debian packages: ${missing.join(' ')}`);
    run('sh', ['-c', `apt-get update && ${install}`], process.cwd(), { DEBIAN_FRONTEND: 'noninteractive' });
    return;
  }
  throw new Error(
    `Missing Debian packages: ${missing.join(', ')}. Install them with:\n  sudo apt-get update && sudo ${install}`,
  );
}

export function findChromium() {
  for (const candidate of [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (candidate && fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Installs the server once into the cache (about a minute); later calls return at once. */
export function ensureServerInstalled() {
  // Checked every time (a few dpkg queries): the cache may outlive a package that was removed.
  ensureDebianPackages();
  if (fs.existsSync(stampFile)) return;
  log(`installing VS Code ${VSCODE_VERSION} server (code-server@${CODE_SERVER_VERSION}) into ${serverRoot}`);
  fs.rmSync(serverRoot, { recursive: true, force: true });
  fs.mkdirSync(serverRoot, { recursive: true });
  fs.writeFileSync(
    path.join(serverRoot, 'package.json'),
    JSON.stringify({ name: 'vscode-server-cache', private: true }),
  );
  const quiet = ['--no-audit', '--no-fund', '--loglevel=error'];
  // code-server's own postinstall needs the internet and root flags; the steps below replace it.
  run('npm', ['install', `code-server@${CODE_SERVER_VERSION}`, '--ignore-scripts', ...quiet], serverRoot);
  run('npm', ['install', '--omit=dev', '--ignore-scripts', ...quiet], vscodeDir);
  // @vscode/ripgrep downloads its binary at install time; Debian's ripgrep stands in for it.
  const rgBin = path.join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
  fs.mkdirSync(rgBin, { recursive: true });
  const systemRg = execFileSync('sh', ['-c', 'command -v rg']).toString().trim();
  fs.copyFileSync(systemRg, path.join(rgBin, 'rg'));
  fs.chmodSync(path.join(rgBin, 'rg'), 0o755);
  run('npm', ['rebuild', ...NATIVE_MODULES, ...quiet], vscodeDir, { npm_config_yes: 'true' });
  const asar = path.join(vscodeDir, 'node_modules.asar');
  fs.rmSync(asar, { force: true });
  fs.symlinkSync('node_modules', asar);
  fs.writeFileSync(stampFile, `${new Date().toISOString()}\n`);
  log('installed');
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the server on a free loopback port with fresh data folders. Returns its URL, the folders and a
 * `stop()` that kills the whole process group by pid and removes the folders.
 */
export async function startServer({ extensionsDir, logFile } = {}) {
  ensureServerInstalled();
  const port = await freePort();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'alephium-vscode-'));
  const dirs = {
    serverData: path.join(tmp, 'server-data'),
    userData: path.join(tmp, 'user-data'),
    extensions: extensionsDir ?? path.join(tmp, 'extensions'),
  };
  for (const dir of Object.values(dirs)) fs.mkdirSync(dir, { recursive: true });
  const out = fs.openSync(logFile ?? path.join(tmp, 'server.log'), 'a');
  const child = spawn(
    process.execPath,
    [
      // VS Code's server-main.js with the secret storage key route of its web workbench (see that file).
      serverMain,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--without-connection-token',
      '--accept-server-license-terms',
      '--disable-workspace-trust',
      '--disable-telemetry',
      '--server-data-dir',
      dirs.serverData,
      '--user-data-dir',
      dirs.userData,
      '--extensions-dir',
      dirs.extensions,
    ],
    { cwd: vscodeDir, stdio: ['ignore', out, out], detached: true },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(url, 60_000, child);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  return { url, port, pid: child.pid, dirs, tmp, stop, logFile: logFile ?? path.join(tmp, 'server.log') };
}

async function waitForHttp(url, timeoutMs, child) {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.once('exit', () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error('The VS Code server exited during start-up; see its log.');
    try {
      const response = await fetch(`${url}/version`, { signal: AbortSignal.timeout(2000) });
      if (response.status < 500) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The VS Code server did not answer at ${url} within ${timeoutMs} ms.`);
}

// `node scripts/vscodeServer.mjs install` installs (used by .ci/run); nothing else runs on import.
if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === 'install') {
  try {
    ensureServerInstalled();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
