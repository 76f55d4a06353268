// The same extension-host suite under @vscode/test-electron, for machines that can download VS Code
// desktop (this project's CI cannot; it uses scripts/vscode-web.mjs instead). One suite, one run() entry.
// Only node: builtins and dependency-free local modules are imported statically: on a fresh clone
// node_modules exists only after ensureNpmDependencies().
import path from 'node:path';
import { buildExtension, ensureNpmDependencies, root } from './setup.mjs';
import { makeTestWorkspace } from './browser.mjs';

ensureNpmDependencies();
buildExtension();
const { runTests } = await import('@vscode/test-electron');
const { buildHostTests } = await import('./buildTests.mjs');
const extensionTestsPath = await buildHostTests();
try {
  await runTests({
    version: process.env.VSCODE_TEST_VERSION ?? '1.100.3',
    extensionDevelopmentPath: root,
    extensionTestsPath,
    launchArgs: [makeTestWorkspace(), '--disable-extensions', '--disable-workspace-trust'],
    extensionTestsEnv: { ALEPHIUM_TEST_RESULTS: path.join(root, '.test-output', 'electron-results.json') },
  });
} catch (error) {
  console.error(
    `Extension tests under @vscode/test-electron failed: ${error instanceof Error ? error.message : error}`,
  );
  process.exit(1);
}
