// `npm test`: both tiers, unit (plain Node) then integration (a real VS Code 1.100.3 extension host plus
// UI checks in the workbench), then one closing line with the counts of the whole run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensurePrerequisites, root } from './setup.mjs';

const outputDir = path.join(root, '.test-output');

function runTier(name, command, args, resultFiles) {
  for (const file of resultFiles) fs.rmSync(file, { force: true });
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ALEPHIUM_TEST_RESULTS: resultFiles[0] },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
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
  const ok = result.status === 0 && complete && counts.failed === 0 && counts.passed > 0;
  return { name, ok, exit: result.status, seconds, complete, ...counts };
}

function main() {
  try {
    ensurePrerequisites();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  fs.mkdirSync(outputDir, { recursive: true });
  // The unit tier's files are named here (and in `npm run test:unit`), not in .mocharc.json, so that
  // `npx mocha <file>` runs just that file.
  const mocha = path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
  const tiers = [
    runTier(
      'unit (plain Node)',
      process.execPath,
      [mocha, 'test/unit/**/*.test.ts', 'sandbox/**/*.test.ts'],
      [path.join(outputDir, 'unit-results.json')],
    ),
    runTier(
      'integration (real VS Code)',
      process.execPath,
      [path.join(root, 'scripts', 'vscode-web.mjs'), 'test'],
      [path.join(outputDir, 'host-results.json'), path.join(outputDir, 'ui-results.json')],
    ),
  ];
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

main();
