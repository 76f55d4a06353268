import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { ui } from './hooks';
import { removeProject, sandboxCounter, uiSandbox, writeArtifacts, writeDeployments } from './sandbox';
import { runCommandRetried, setApiKey, watchDeployment } from './journeyHelpers';
import { OUTPUT_DIR } from './workbench';

const PROFILE = 'UI contracts';

/**
 * Merges keys into the workspace settings (read-modify-write: other specs keep theirs) and returns a
 * function that restores the file as it was.
 */
function mergeSettings(values: Record<string, unknown>): () => void {
  const file = path.join(ui.workspace, '.vscode', 'settings.json');
  const before = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(file, JSON.stringify({ ...(JSON.parse(before) as object), ...values }, null, 2));
  return () => fs.writeFileSync(file, before);
}

describe('UI: Watched Contracts', () => {
  let restore: (() => void) | undefined;

  // Restoring the settings removes the profile, so later specs see an empty Watched Contracts view.
  after(async () => {
    // Leave the workbench as found: the next spec opens the Alephium container with a click, which
    // would close it if it were still the active one.
    await runCommandRetried(ui.page, 'View: Show Explorer').catch(() => undefined);
    restore?.();
    removeProject();
  });

  it('shows a watched contract with its events decoded by name in the tree', async function () {
    this.timeout(180_000);
    const page = ui.page;
    const sandbox = await uiSandbox();
    const profile = { name: PROFILE, kind: 'gateway', baseUrl: sandbox.baseUrl, slug: sandbox.slug };
    restore = mergeSettings({
      'alephium.profiles': [{ ...profile, network: 'devnet', plan: 'pro' }],
      'alephium.activeProfile': PROFILE,
      // A headless browser window may not have focus; the default would slow polling down.
      'alephium.watch.whenUnfocused': 'continue',
      'alephium.events.pageSize': 5,
    });
    // The key goes where keys go: typed into "Set API Key", into SecretStorage. The settings file reaches
    // the extension host a moment after it is written, so retry (bounded) until the key check succeeds.
    // Wait until the extension host has read the new settings (the Node view names the profile): before
    // that, Set API Key fails with "No active profile".
    await runCommandRetried(page, 'View: Show Alephium');
    await page
      .locator('.part.sidebar')
      .getByText(`Profile: ${PROFILE}`)
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    await setApiKey(page, PROFILE, sandbox.apiKeys.pro);
    // The workspace is a Ralph project: the sandbox's artifacts and a deployments file, as the CLI writes.
    writeArtifacts(sandbox, { only: sandbox.contracts.map((c) => c.name) });
    writeDeployments(sandbox, { Counter: sandboxCounter(sandbox) });
    const res = await fetch(`${sandbox.baseUrl}/__sandbox/events/trigger`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 3 }),
    });
    assert.equal(res.status, 200);

    await watchDeployment(page, 'Counter', runCommandRetried);

    // Reveal (a click on the icon would toggle the already open container closed).
    await runCommandRetried(page, 'View: Show Alephium');
    const sidebar = page.locator('.part.sidebar');
    const contractRow = sidebar.locator('.monaco-list-row', { hasText: 'Counter' }).first();
    await contractRow.waitFor({ state: 'visible', timeout: 30_000 });
    await sidebar
      .locator('.monaco-list-row', { hasText: '✓' })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    // Expand a row until the child we look for shows (bounded): a click that lands while the tree
    // re-renders (the watcher and the node view refresh it) can be lost.
    const expandUntil = async (row: Locator, child: Locator, what: string): Promise<void> => {
      for (let attempt = 1; ; attempt++) {
        await row.waitFor({ state: 'visible', timeout: 30_000 });
        if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
        try {
          await child.waitFor({ state: 'visible', timeout: 5_000 });
          return;
        } catch (error) {
          if (attempt === 6) {
            await page.screenshot({ path: path.join(OUTPUT_DIR, 'contracts-failure.png') });
            throw new Error(`${what} did not show after expanding: ${String(error)}`);
          }
        }
      }
    };
    const row = (text: string | RegExp) => sidebar.locator('.monaco-list-row', { hasText: text }).first();
    await expandUntil(contractRow, row(/^Events/), 'the Events node');
    await expandUntil(row(/^Events/), row('Incremented'), 'a decoded Incremented event');
    await expandUntil(row(/^State/), row('owner'), 'the owner field of the state');
    const text = await sidebar.innerText();
    assert.match(text, /Incremented/);
    assert.match(text, /newCount=\d+/);
    assert.match(text, /owner/);
    // Only the view in the picture: other specs' editors and toasts are not what it documents.
    await runCommandRetried(page, 'View: Close All Editors');
    await runCommandRetried(page, 'Notifications: Clear All Notifications');
    await page
      .locator('.notifications-toasts .notification-toast')
      .first()
      .waitFor({ state: 'hidden', timeout: 10_000 });
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'contracts.png') });
  });
});
