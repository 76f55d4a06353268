// `npm test`: every tier, unit (plain Node) and component (plain Node against the sandbox gateway or another
// HTTP server on 127.0.0.1) side by side, then integration (a real VS Code 1.100.3 extension host plus UI
// checks in the workbench), then one closing line with the counts of the whole run.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensurePrerequisites, root } from './setup.mjs';

const outputDir = path.join(root, '.test-output');

function resultsOf(name, exit, started, ended, resultFiles) {
  const seconds = ((ended - started) / 1000).toFixed(1);
  const counts = { passed: 0, failed: 0, pending: 0 };
  let complete = true;
  for (const file of resultFiles) {
    if (!fs.existsSync(file)) {
      complete = false;
      continue;
    }
    const r = JSON.parse(fs.readFileSync(file, 'utf8'));
    counts.passed += r.passed;
    counts.failed += r.failed;
    counts.pending += r.pending ?? 0;
  }
  const ok = exit === 0 && complete && counts.failed === 0 && counts.passed > 0;
  return { name, ok, exit, seconds, complete, ...counts };
}

/**
 * Starts a tier; the function it returns waits for the tier's end and gives its counts. A quiet tier keeps
 * its output in a file and prints it when it ends, so that tiers run side by side do not interleave their
 * logs (a file, not a pipe, so a full pipe can never stall it). The unit and component tiers share no state
 * (every server listens on a port of its own), so running them side by side keeps `npm test` as short as
 * when they were one tier.
 */
function startTier(name, command, args, resultFiles, { quiet = false } = {}) {
  for (const file of resultFiles) fs.rmSync(file, { force: true });
  if (!quiet) console.log(`\n=== ${name} ===`);
  const logFile = resultFiles[0].replace(/-results\.json$/, '.log');
  const log = quiet ? fs.openSync(logFile, 'w') : undefined;
  const started = Date.now();
  const child = spawn(command, args, {
    cwd: root,
    stdio: log === undefined ? 'inherit' : ['ignore', log, log],
    env: { ...process.env, ALEPHIUM_TEST_RESULTS: resultFiles[0] },
  });
  const done = new Promise((resolve) => child.on('close', (code) => resolve({ code, ended: Date.now() })));
  return async () => {
    const { code, ended } = await done;
    if (log !== undefined) {
      fs.closeSync(log);
      console.log(`\n=== ${name} ===`);
      process.stdout.write(fs.readFileSync(logFile));
    }
    return resultsOf(name, code, started, ended, resultFiles);
  };
}

async function main() {
  try {
    ensurePrerequisites();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  fs.mkdirSync(outputDir, { recursive: true });
  // The tiers' files are named here (and in `npm run test:unit` and `test:component`), not in .mocharc.json,
  // so that `npx mocha <file>` runs just that file.
  const mocha = path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
  const component = startTier(
    'component (plain Node, 127.0.0.1)',
    process.execPath,
    [mocha, 'test/component/**/*.test.ts', 'sandbox/**/*.test.ts'],
    [path.join(outputDir, 'component-results.json')],
    { quiet: true },
  );
  const unit = startTier(
    'unit (plain Node)',
    process.execPath,
    [mocha, 'test/unit/**/*.test.ts'],
    [path.join(outputDir, 'unit-results.json')],
  );
  const tiers = [await unit(), await component()];
  const integration = startTier(
    'integration (real VS Code)',
    process.execPath,
    [path.join(root, 'scripts', 'vscode-web.mjs'), 'test'],
    [path.join(outputDir, 'host-results.json'), path.join(outputDir, 'ui-results.json')],
  );
  tiers.push(await integration());
  console.log('\n=== summary ===');
  for (const t of tiers) {
    const note = t.complete ? '' : ' (results missing: the tier did not finish)';
    console.log(
      `${t.name}: ${t.passed} passed, ${t.failed} failed, ${t.pending} pending in ${t.seconds} s, exit ${t.exit}${note}`,
    );
  }
  const passed = tiers.reduce((n, t) => n + t.passed, 0);
  const failed =
    tiers.reduce((n, t) => n + t.failed, 0) + tiers.filter((t) => !t.ok && t.failed === 0).length;
  console.log(`total: ${passed} passed, ${failed} failed`);
  process.exit(tiers.every((t) => t.ok) ? 0 : 1);
}

await main();
