// The entry point of the VS Code server that `npm start` and the real-VS-Code tests run: VS Code's own
// out/server-main.js, plus the one route its web workbench needs to keep SecretStorage.
//
// Why: the web workbench of this build (code-server 4.100.3) seals SecretStorage into the browser's
// localStorage with an AES key whose other half it fetches by `POST <workbench path>/mint-key`. code-server's
// own HTTP layer (out/node/routes/vscode.js) answers that route; VS Code's bare server-main.js does not
// (405 Method Not Allowed), so every seal failed and secrets lived only in the window's memory: an API key
// set in `npm start` was gone after "Developer: Reload Window". This entry answers the route the way
// code-server does (32 random bytes, kept in the user-data folder so a reload unseals what was sealed) and
// hands every other request to VS Code unchanged.
//
// Started by scripts/vscodeServer.mjs with the working directory at VS Code's folder and the server's
// usual arguments; `--user-data-dir` is read from them.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const KEY_FILE = 'serve-web-key-half';

function argValue(name) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const userDataDir = argValue('user-data-dir');
if (!userDataDir)
  throw new Error('vscodeServerMain: --user-data-dir is required (the key half is kept there)');

/** The server's half of the secret storage key: one per user-data folder, created on first use. */
function keyHalf() {
  const file = path.join(userDataDir, KEY_FILE);
  try {
    const key = fs.readFileSync(file);
    if (key.length === 32) return key;
  } catch {
    // Not created yet.
  }
  const key = crypto.randomBytes(32);
  fs.writeFileSync(file, key, { mode: 0o600 });
  return key;
}

/**
 * True for the workbench's own key request: a POST to `…/mint-key` from a page of this server (a browser
 * sends Origin on a POST; a page of another site must not obtain the key half, even if it cannot read it).
 */
function isMintKey(req) {
  if (req.method !== 'POST') return false;
  const pathname = (req.url ?? '').split('?')[0] ?? '';
  if (!pathname.endsWith('/mint-key')) return false;
  const origin = req.headers.origin;
  return origin === undefined || origin === `http://${req.headers.host}`;
}

const createServer = http.createServer;
http.createServer = function createServerWithMintKey(...args) {
  const at = args.findIndex((a) => typeof a === 'function');
  if (at >= 0) {
    const vscodeListener = args[at];
    args[at] = (req, res) => {
      if (!isMintKey(req)) return vscodeListener(req, res);
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Cache-Control': 'no-store' });
      res.end(keyHalf());
      return undefined;
    };
  }
  return createServer.apply(this, args);
};
// server-main.js imports `http` as an ES module: its namespace reads the patched function only after this.
syncBuiltinESMExports();

await import(pathToFileURL(path.resolve('out', 'server-main.js')).href);
