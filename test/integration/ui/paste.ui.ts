// Journey: a person pastes a contract id into the Watch Contract picker. The picker offers it as a row
// "Watch <address>" (it used to filter the rows to nothing: a dead end), and Enter watches it.
import { strict as assert } from 'node:assert';
import { contractIdFromAddress } from '../../../src/core/protocol';
import { ui } from './hooks';
import { sandboxProfile, writeSandboxProject } from './sandbox';
import { unwatchFromPalette, watchUntil } from './journeyHelpers';
import { runCommandByTitle } from './workbench';

describe('UI journey: an address pasted into Watch Contract is offered as "Watch <address>"', () => {
  const cleanups: (() => void)[] = [];

  after(async () => {
    const sandbox = await sandboxProfile();
    const counter = sandbox.contracts.find((c) => c.name === 'Counter');
    if (counter) await unwatchFromPalette(ui.page, counter.address);
    for (const cleanup of cleanups.reverse()) cleanup();
  });

  it('a pasted contract id becomes a "Watch <address>" row, and Enter watches the contract', async function () {
    this.timeout(180_000);
    const page = ui.page;
    const sandbox = await sandboxProfile();
    cleanups.push(writeSandboxProject(ui.workspace, sandbox));
    const counter = sandbox.contracts.find((c) => c.name === 'Counter')!;
    await runCommandByTitle(page, 'View: Show Alephium');

    await runCommandByTitle(page, 'Alephium: Watch Contract');
    const widget = page.locator('.quick-input-widget');
    await widget
      .locator('.quick-input-title', { hasText: 'Watch Contract' })
      .waitFor({ state: 'visible', timeout: 30_000 });
    await widget.locator('input').first().fill(contractIdFromAddress(counter.address));
    const row = widget.locator('.quick-input-list .monaco-list-row', {
      hasText: `Watch ${counter.address}`,
    });
    await row.first().waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await row.count(), 1);
    await widget.locator('input').first().press('Enter');

    const watched = await watchUntil(
      page,
      'the pasted contract in the Watched Contracts view',
      () =>
        page
          .locator('.part.sidebar .monaco-list-row')
          .evaluateAll((rows): string => rows.map((r) => r.getAttribute('aria-label') ?? '').join('\n')),
      (t) => /Contract Counter/.test(t),
      60_000,
    );
    assert.match(watched, /Contract Counter/);
  });
});
