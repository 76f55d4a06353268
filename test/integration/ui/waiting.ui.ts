// Journey: a person runs Simulate Contract Call against a node that drops the first answer and is slow
// with the second. The wait shows as progress with a Cancel button that says the request is retried,
// and Cancel ends it (it once left 30 s with nothing on screen, then retried silently).
import { strict as assert } from 'node:assert';
import { ui } from './hooks';
import { sandboxProfile, writeSandboxProject } from './sandbox';
import { unwatchFromPalette, watchDeployment, watchUntil } from './journeyHelpers';
import { runCommandByTitle } from './workbench';

describe('UI journey: a slow request shows progress with Cancel and says when it retries', () => {
  const cleanups: (() => void)[] = [];

  after(async () => {
    const sandbox = await sandboxProfile();
    sandbox.faults.clear();
    const counter = sandbox.contracts.find((c) => c.name === 'Counter');
    if (counter) await unwatchFromPalette(ui.page, counter.address);
    for (const cleanup of cleanups.reverse()) cleanup();
  });

  it('Simulate Contract Call: a dropped then slow call-contract shows the retry and can be cancelled', async function () {
    this.timeout(240_000);
    const page = ui.page;
    const sandbox = await sandboxProfile();
    cleanups.push(writeSandboxProject(ui.workspace, sandbox));
    await watchDeployment(page, 'Counter', runCommandByTitle);

    // The first call-contract loses its connection, the retry takes a minute: far longer than the test.
    sandbox.faults.add({ path: '/contracts/call-contract', kind: 'drop', count: 1 });
    sandbox.faults.add({ path: '/contracts/call-contract', kind: 'delay', delayMs: 60_000, count: 1 });

    await runCommandByTitle(page, 'Alephium: Simulate Contract Call');
    const widget = page.locator('.quick-input-widget');
    const title = await watchUntil(
      page,
      'the contract or method pick',
      async () => ((await widget.isVisible()) ? await widget.locator('.quick-input-title').innerText() : ''),
      (t) => /Simulate Contract Call/.test(t),
      30_000,
    );
    const input = widget.locator('input').first();
    if (!/a method of Counter/.test(title)) {
      await input.fill('Counter');
      await widget.locator('.monaco-list-row', { hasText: 'Counter' }).first().waitFor({ timeout: 30_000 });
      await input.press('Enter');
    }
    await widget
      .locator('.quick-input-title', { hasText: 'a method of Counter' })
      .waitFor({ state: 'visible', timeout: 30_000 });
    await input.fill('get');
    await widget.locator('.monaco-list-row', { hasText: 'get()' }).first().waitFor({ timeout: 30_000 });
    await input.press('Enter');

    const toast = page.locator('.notification-toast', { hasText: 'Calling Counter.get' }).first();
    const text = await watchUntil(
      page,
      'the progress of the call, with its retry',
      async () => ((await toast.isVisible()) ? await toast.innerText() : ''),
      (t) => /retry 1 of POST \/contracts\/call-contract/.test(t),
      30_000,
    );
    assert.match(text, /no answer; retry 1 of POST \/contracts\/call-contract in \d+ s/);
    const cancel = toast.locator('.monaco-button', { hasText: 'Cancel' });
    await cancel.click();
    await toast.waitFor({ state: 'hidden', timeout: 30_000 });
  });
});
