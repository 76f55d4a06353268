// For `npm start`: runs the sandbox gateway with contract activity on a schedule, copies its Ralph project
// into a fresh workspace with a deployments file that lists the sandbox's contracts (as the Alephium CLI
// writes it), points the workspace at the sandbox (a profile in the workspace settings) and hands the test
// API key and a funded test signer key to the extension through a secrets file that lives as long as the
// session (imported into SecretStorage on every activation where they are missing).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { root } from './setup.mjs';

/** One contract call (with its events) every this many ms, so live events arrive within a minute. */
const EVENTS_EVERY_MS = 25_000;

export async function startSandboxForStart() {
  const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
  const args = [path.join(root, 'sandbox', 'cli.ts'), '--port', '0'];
  args.push('--events-every-ms', String(EVENTS_EVERY_MS));
  const child = spawn(tsx, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const started = new Promise((resolve, reject) => {
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
  let info;
  try {
    info = await started;
  } catch (error) {
    killGroup(child);
    throw error;
  }
  // Keep draining its stdout so the sandbox never blocks on a full pipe.
  child.stdout.resume();

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'alephium-start-'));
  const { workspace, secretsFile } = prepareStartWorkspace(info, tmp);
  const stop = () => {
    killGroup(child);
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  return { ...info, workspace, secretsFile, stop, eventsEveryMs: EVENTS_EVERY_MS };
}

/** The profile `npm start` points the workspace at: the sandbox as a gateway on devnet. */
export const START_PROFILE = 'Sandbox';

/**
 * Writes, under `dir`, the workspace `npm start` opens (the sandbox's Ralph project, its deployments file
 * and settings with the Sandbox profile active) and the session's secrets file (the free plan's test API
 * key and account 0's test private key, mode 0600). `info` is the sandbox's JSON line.
 */
export function prepareStartWorkspace(info, dir) {
  const workspace = path.join(dir, 'sandbox-project');
  const project = path.join(root, 'sandbox', 'project');
  if (fs.existsSync(project)) fs.cpSync(project, workspace, { recursive: true });
  else fs.mkdirSync(workspace, { recursive: true });
  fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  writeDeployments(workspace, info);
  // The sandbox's chain has network id 4; a devnet profile accepts any id (only mainnet 0 and testnet 1 are
  // enforced before signing), and `devnet` is also the network the deployments file is named after.
  const profile = {
    name: START_PROFILE,
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
        'alephium.activeProfile': START_PROFILE,
        'workbench.startupEditor': 'none',
        'telemetry.telemetryLevel': 'off',
      },
      null,
      2,
    ),
  );
  const secretsFile = path.join(dir, 'dev-secrets.json');
  const secrets = {
    profile: START_PROFILE,
    apiKey: info.apiKeys.free,
    signerPrivateKey: info.accounts[0].privateKey,
  };
  fs.writeFileSync(secretsFile, JSON.stringify(secrets), { mode: 0o600 });
  return { workspace, secretsFile };
}

/** `deployments/.deployments.devnet.json` in the shape the Alephium CLI writes, for the sandbox's contracts. */
function writeDeployments(workspace, info) {
  const contracts = {};
  for (const c of info.contracts) {
    contracts[c.name] = {
      txId: c.deployTxId,
      codeHash: c.codeHash,
      contractInstance: { address: c.address, contractId: c.contractId, groupIndex: c.groupIndex },
    };
  }
  const dir = path.join(workspace, 'deployments');
  fs.mkdirSync(dir, { recursive: true });
  const deployment = { deployerAddress: info.accounts[0].address, contracts, scripts: {}, migrations: {} };
  fs.writeFileSync(path.join(dir, '.deployments.devnet.json'), `${JSON.stringify([deployment], null, 2)}\n`);
}

/** The sandbox runs in its own process group (tsx starts a child node): end the group, by its pid. */
function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
