// For `npm start`: runs the sandbox gateway, copies its Ralph project into a fresh workspace, points the
// workspace at the sandbox (a profile in the workspace settings) and hands the API key and a funded
// signer key to the extension through a one-time secrets file (imported into SecretStorage, then deleted).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { root } from './setup.mjs';

export async function startSandboxForStart() {
  const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
  const child = spawn(tsx, [path.join(root, 'test', 'sandbox', 'main.ts'), '--port', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const info = await new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout });
    const timer = setTimeout(
      () => reject(new Error('The sandbox gateway did not start within 30 s.')),
      30_000,
    );
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(line));
      } catch {
        reject(new Error(`The sandbox gateway printed something other than its JSON line: ${line}`));
      }
    });
    child.once('exit', (code) => reject(new Error(`The sandbox gateway exited (code ${code}).`)));
  });
  // Keep draining its stdout so the sandbox never blocks on a full pipe.
  child.stdout.resume();

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'alephium-start-'));
  const workspace = path.join(tmp, 'sandbox-project');
  const project = path.join(root, 'test', 'sandbox', 'project');
  if (fs.existsSync(project)) fs.cpSync(project, workspace, { recursive: true });
  else fs.mkdirSync(workspace, { recursive: true });
  fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  const profile = {
    name: 'Sandbox',
    kind: 'gateway',
    baseUrl: info.baseUrl,
    slug: info.slug,
    network: 'devnet',
    plan: 'free',
  };
  fs.writeFileSync(
    path.join(workspace, '.vscode', 'settings.json'),
    JSON.stringify(
      {
        'alephium.profiles': [profile],
        'alephium.activeProfile': 'Sandbox',
        'workbench.startupEditor': 'none',
        'telemetry.telemetryLevel': 'off',
      },
      null,
      2,
    ),
  );
  const account = info.accounts[0];
  const secretsFile = path.join(tmp, 'dev-secrets.json');
  fs.writeFileSync(
    secretsFile,
    JSON.stringify({ profile: 'Sandbox', apiKey: info.apiKeys.free, signerPrivateKey: account.privateKey }),
    {
      mode: 0o600,
    },
  );
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  return { ...info, workspace, secretsFile, stop };
}
