// Entry point of the extension-host suite: the `run()` contract shared by the VS Code server runner
// (scripts/vscode-web.mjs) and @vscode/test-electron (scripts/test-electron.mjs), so there is one suite.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  // ALEPHIUM_TEST_GREP runs only the tests whose title matches (a developer's loop; CI runs them all).
  const grep = process.env.ALEPHIUM_TEST_GREP;
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    timeout: 60_000,
    reporter: 'spec',
    ...(grep ? { grep } : {}),
  });
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .sort();
  for (const file of files) mocha.addFile(path.join(__dirname, file));
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const stats = runner.stats ?? { passes: 0, failures, pending: 0 };
      const resultsFile = process.env.ALEPHIUM_TEST_RESULTS;
      if (resultsFile) {
        fs.writeFileSync(
          resultsFile,
          JSON.stringify({
            tier: 'integration (extension host)',
            vscode: process.env.VSCODE_VERSION_OVERRIDE ?? '',
            passed: stats.passes,
            failed: stats.failures,
            pending: stats.pending,
          }),
        );
      }
      if (failures > 0) reject(new Error(`${failures} extension-host test(s) failed`));
      else if (stats.passes === 0) reject(new Error('no extension-host test ran'));
      else resolve();
    });
  });
}
