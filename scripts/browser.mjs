// The browser side of the real-VS-Code runs: the workbench URL (with the extension under development and,
// for the host suite, the tests to run) and a headless Debian Chromium driven by playwright-core.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findChromium } from './vscodeServer.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

// Without the background-networking flags Chromium keeps dialling Google hosts that this closed network refuses.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** The server ignores --extensionDevelopmentPath; the web workbench takes it from the URL's `payload`. */
export function workbenchUrl(server, { folder, testsPath }) {
  const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
  const payload = [['extensionDevelopmentPath', remote(root)]];
  if (testsPath) payload.push(['extensionTestsPath', remote(testsPath)]);
  const query = new URLSearchParams({ folder, payload: JSON.stringify(payload) });
  return `${server.url}/?${query.toString()}`;
}

export async function launchBrowser() {
  const { chromium } = await import('playwright-core');
  const executablePath = findChromium();
  if (!executablePath) throw new Error('Chromium not found; install the Debian package chromium.');
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}

/** A fresh workspace folder whose settings keep the workbench quiet (no walkthrough, no telemetry). */
export function makeTestWorkspace() {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'alephium-ws-'));
  fs.mkdirSync(path.join(workspace, '.vscode'));
  fs.writeFileSync(
    path.join(workspace, '.vscode', 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'telemetry.telemetryLevel': 'off',
        'workbench.tips.enabled': false,
      },
      null,
      2,
    ),
  );
  return workspace;
}
