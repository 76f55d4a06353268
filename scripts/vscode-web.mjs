// Runs the extension in a real VS Code 1.100.3 (server + web workbench in Chromium), offline.
//   node scripts/vscode-web.mjs test    extension-host suite (mocha inside the host) then the UI suite
//   node scripts/vscode-web.mjs start   opens the extension against the sandbox gateway; runs until Ctrl+C
//   node scripts/vscode-web.mjs start --smoke   the same, but stops once the workbench and the sandbox answer
// Only node: builtins and dependency-free local modules are imported statically: a fresh clone has no
// node_modules until ensureNpmDependencies() has run, so anything from npm is imported after it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { format } from 'node:util';
import path from 'node:path';
import { startServer, VSCODE_VERSION } from './vscodeServer.mjs';
import { launchBrowser, makeTestWorkspace, workbenchUrl } from './browser.mjs';
import { buildExtension, ensurePrerequisites, root } from './setup.mjs';

const outputDir = path.join(root, '.test-output');
// Each suite's bound. The UI suite, the longer, takes about 13 minutes on 2 cores; the bound is there to end a
// suite that hangs, not to race a slow one.
const OVERALL_TIMEOUT_MS = Number(process.env.ALEPHIUM_TEST_TIMEOUT_MS ?? 20 * 60_000);

/** Runs the mocha suite inside the extension host; resolves with its exit code (0 passed, 1 failed). */
async function runHostSuite() {
  const { buildHostTests } = await import('./buildTests.mjs');
  const testsPath = await buildHostTests();
  const workspace = makeTestWorkspace();
  const resultsFile = path.join(outputDir, 'host-results.json');
  fs.rmSync(resultsFile, { force: true });
  // The extension host inherits the server's environment: that is how the suite learns where to write.
  process.env.ALEPHIUM_TEST_RESULTS = resultsFile;
  const server = await startServer({ logFile: path.join(outputDir, 'vscode-server-host.log') });
  let browser;
  try {
    browser = await launchBrowser();
    const page = await browser.newPage();
    let resolveExit;
    const exited = new Promise((resolve) => (resolveExit = resolve));
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      // The host forwards console calls with their format string first (mocha's reporter uses %s and %d).
      const list = Array.isArray(args) ? args : [args];
      const text = format(...list);
      // The extension host's console: mocha's report and anything the tests print.
      if (type === 'error') process.stderr.write(`${text}\n`);
      else process.stdout.write(`${text}\n`);
    });
    await page.exposeFunction('codeAutomationExit', (code) => resolveExit(code));
    console.log(`[integration] VS Code ${VSCODE_VERSION} extension host at ${server.url}`);
    await page.goto(workbenchUrl(server, { folder: workspace, testsPath }));
    let timer;
    const timeout = new Promise((resolve) => {
      timer = setTimeout(() => {
        console.error(
          `[integration] the extension-host suite did not finish within ${OVERALL_TIMEOUT_MS / 1000} s`,
        );
        resolve(124);
      }, OVERALL_TIMEOUT_MS);
    });
    const code = await Promise.race([exited, timeout]);
    clearTimeout(timer);
    return code;
  } finally {
    await browser?.close().catch(() => undefined);
    server.stop();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

/** Runs the UI suite (mocha under Node driving the workbench with playwright-core). */
function runUiSuite() {
  const mocha = path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
  const result = spawnSync(
    process.execPath,
    [
      mocha,
      '--config',
      path.join(root, 'test', 'integration', 'ui', '.mocharc.json'),
      ...(process.env.ALEPHIUM_TEST_GREP ? ['--grep', process.env.ALEPHIUM_TEST_GREP] : []),
    ],
    {
      cwd: root,
      stdio: 'inherit',
      timeout: OVERALL_TIMEOUT_MS,
      env: { ...process.env, ALEPHIUM_TEST_RESULTS: path.join(outputDir, 'ui-results.json') },
    },
  );
  if (result.error) console.error(`[ui] ${result.error.message}`);
  return result.status ?? 1;
}

async function test() {
  fs.mkdirSync(outputDir, { recursive: true });
  ensurePrerequisites();
  buildExtension();
  // ALEPHIUM_TEST_TIERS=host or =ui runs one of the two (a developer's loop; CI runs both).
  const tiers = (process.env.ALEPHIUM_TEST_TIERS ?? 'host,ui').split(',');
  const hostCode = tiers.includes('host') ? await runHostSuite() : 0;
  console.log(`[integration] extension-host suite exit code ${hostCode}`);
  const uiCode = tiers.includes('ui') ? runUiSuite() : 0;
  console.log(`[integration] UI suite exit code ${uiCode}`);
  return hostCode === 0 && uiCode === 0 ? 0 : 1;
}

async function start() {
  const smoke = process.argv.includes('--smoke');
  ensurePrerequisites();
  buildExtension();
  const { startSandboxForStart } = await import('./startSandbox.mjs');
  const sandbox = await startSandboxForStart();
  process.env.ALEPHIUM_GATEWAY_DEV_SECRETS_FILE = sandbox.secretsFile;
  let server;
  const stop = () => {
    server?.stop();
    sandbox.stop();
  };
  try {
    server = await startServer({});
  } catch (error) {
    stop();
    throw error;
  }
  const url = workbenchUrl(server, { folder: sandbox.workspace });
  printStartBanner(sandbox, url);
  if (smoke) {
    try {
      await expectOk(url, 'the workbench');
      await expectOk(`${sandbox.baseUrl}/__sandbox/info`, 'the sandbox gateway');
      console.log('[smoke] the workbench and the sandbox gateway answer; stopping.');
      return 0;
    } finally {
      stop();
    }
  }
  const onSignal = () => {
    stop();
    process.exit(0);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  await new Promise(() => undefined);
}

/** What a person needs to use the sandbox by hand: where it is and its keys, all marked as test-only. */
function printStartBanner(sandbox, url) {
  const lines = [
    '',
    `Sandbox gateway: ${sandbox.baseUrl}/${sandbox.slug}  (network id 4, devnet; a contract call with events every ${sandbox.eventsEveryMs / 1000} s)`,
    'TEST-ONLY keys (published in the code; never send real funds to these accounts):',
    `  API keys: free ${sandbox.apiKeys.free} · starter ${sandbox.apiKeys.starter} · pro ${sandbox.apiKeys.pro}`,
    ...sandbox.accounts
      .slice(0, 4)
      .map((a, i) => `  account ${i} (group ${a.group}): ${a.address}  private key ${a.privateKey}`),
    `Workspace: ${sandbox.workspace} (profile "Sandbox" with the free key and account 0 as signer; contracts in deployments/.deployments.devnet.json)`,
    '',
    `VS Code ${VSCODE_VERSION} with Alephium Gateway: ${url}`,
    'Open the URL in a browser on this machine. Press Ctrl+C to stop.',
  ];
  console.log(lines.join('\n'));
}

/** One GET that must answer 200 within 30 s. */
async function expectOk(url, what) {
  const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (response.status !== 200) throw new Error(`${what} answered ${response.status} at ${url}`);
  await response.arrayBuffer();
}

const mode = process.argv[2];
const main = mode === 'test' ? test : mode === 'start' ? start : undefined;
if (!main) {
  console.error('usage: node scripts/vscode-web.mjs test|start');
  process.exit(2);
}
main().then(
  (code) => {
    if (typeof code === 'number') process.exit(code);
  },
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
