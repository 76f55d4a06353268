import { strict as assert } from 'node:assert';
import * as path from 'node:path';
// Named 00-… so it runs first: it checks the empty states, before other UI specs add contracts and txs.
import { ui } from './hooks';
import { OUTPUT_DIR, runCommandByTitle } from './workbench';

describe('UI: Alephium: Show Logs', () => {
  it('opens the "Alephium Gateway" output with the activation line, from the command palette', async () => {
    const page = ui.page;
    await runCommandByTitle(page, 'Alephium: Show Logs');
    // The output panel shows the channel picked in its dropdown and the extension's own log line.
    const panel = page.locator('.part.panel');
    await panel.waitFor({ state: 'visible', timeout: 30_000 });
    const line = panel.locator('.view-lines', { hasText: 'Alephium Gateway activated' });
    await line.first().waitFor({ state: 'visible', timeout: 30_000 });
    const selected = await panel
      .locator('select.monaco-select-box, .monaco-select-box')
      .first()
      .textContent()
      .catch(() => '');
    const panelText = await panel.innerText();
    assert.ok(
      (selected ?? '').includes('Alephium Gateway') || panelText.includes('Alephium Gateway'),
      'the output panel does not show the Alephium Gateway channel',
    );
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'show-logs.png') });
  });

  it('shows the Alephium container with its three views in the activity bar', async () => {
    const page = ui.page;
    // "View: Show Alephium" always reveals the container (a click on its icon would toggle it closed).
    await runCommandByTitle(page, 'View: Show Alephium');
    const sidebar = page.locator('.part.sidebar');
    for (const title of ['Node', 'Watched Contracts', 'Transactions']) {
      await sidebar
        .locator('.pane-header', { hasText: title })
        .first()
        .waitFor({ state: 'visible', timeout: 30_000 });
    }
    await sidebar
      .getByText('No contracts are watched yet.')
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'alephium-container.png') });
  });
});
