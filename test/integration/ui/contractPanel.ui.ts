// Journey: a person opens the contract panel from the Watched Contracts tree, types incrementBy's step,
// simulates, then executes (accepting the confirmation) and watches the tx reach Confirmed in the panel.
// Every assertion reads the rendered webview; none asks the extension's API.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import type { Sandbox } from '../../../sandbox';
import { ui } from './hooks';
import { fillField, panelFrame, runCommandRetried as run, watchUntil } from './journeyHelpers';
import { leaveOwnCounter, watchOwnCounter } from './sandbox';
import { OUTPUT_DIR, runCommandByTitle, hidePanel } from './workbench';

/** Polls the text of a method's section until `done` holds (bounded); `tick` runs between reads. */
function sectionTextUntil(
  page: Page,
  frame: Frame,
  method: string,
  what: string,
  done: (text: string) => boolean,
  timeoutMs: number,
  tick?: () => void,
): Promise<string> {
  const read = () => frame.locator(`section[data-method="${method}"]`).innerText({ timeout: 2_000 });
  return watchUntil(page, what, read, done, timeoutMs, tick, {
    intervalMs: 300,
    shotPrefix: 'contract-panel',
  });
}

/**
 * The deployment this spec drives: a Counter of its own (deployed through the sandbox's control API), so
 * the increments it executes do not move the Counter other specs count events of.
 */
const DEPLOYMENT = 'Counter:panel';

describe('UI: contract panel', () => {
  let sandbox: Sandbox;
  let restore: (() => void) | undefined;

  before(async function () {
    this.timeout(180_000);
    const page = ui.page;
    ({ sandbox, restore } = await watchOwnCounter(page, DEPLOYMENT));
  });

  after(async function () {
    this.timeout(60_000);
    // Leave the workbench as found for the next specs: no panel, Counter not watched, no project files.
    await leaveOwnCounter(ui.page, DEPLOYMENT, restore);
  });

  it('opens from the Watched Contracts tree, simulates incrementBy and executes it to Confirmed', async function () {
    this.timeout(300_000);
    const page = ui.page;
    await run(page, 'View: Show Alephium');
    const sidebar = page.locator('.part.sidebar');
    const contractRow = sidebar.locator('.monaco-list-row', { hasText: DEPLOYMENT }).first();
    await contractRow.waitFor({ state: 'visible', timeout: 30_000 });

    // The row's context menu, as a person opens it (retried: a re-render can swallow the click).
    const menuItem = page.locator('.monaco-menu .action-label', { hasText: 'Open Contract Panel' }).first();
    for (let attempt = 1; ; attempt++) {
      await contractRow.click({ button: 'right' });
      try {
        await menuItem.waitFor({ state: 'visible', timeout: 5_000 });
        // The workbench's menu acts on its highlighted item; a synthetic click on the label is not always
        // taken, so highlight it with the mouse and choose it with Enter, as a keyboard user would.
        await menuItem.hover();
        await page.keyboard.press('Enter');
        await menuItem.waitFor({ state: 'hidden', timeout: 5_000 });
        break;
      } catch (error) {
        await page.keyboard.press('Escape');
        if (attempt === 6) throw error;
      }
    }

    const frame = await panelFrame(page, 'incrementBy', 60_000);
    const section = frame.locator('section[data-method="incrementBy"]');
    assert.match(await section.innerText(), /incrementBy\(step: U256\) → \(\)/);
    // The other public methods are listed too, each with its own form.
    for (const m of ['get', 'increment', 'reset'])
      assert.equal(await frame.locator(`section[data-method="${m}"]`).count(), 1, m);

    // A bad step is refused on the spot with the Call prompt's message, and nothing runs.
    const step = section.locator('input[data-field="arg:0"]');
    await fillField(step, '-3');
    await section.locator('button[data-action="simulate"]').click();
    await sectionTextUntil(
      page,
      frame,
      'incrementBy',
      'the field error',
      (t) => /step/i.test(t) && /U256|negative|integer/i.test(t) && !/Simulation/.test(t),
      20_000,
    );

    await fillField(step, '7');
    await section.locator('button[data-action="simulate"]').click();
    const simulated = await sectionTextUntil(
      page,
      frame,
      'incrementBy',
      'the simulation result',
      (t) => /Simulation (succeeded|failed)/.test(t),
      60_000,
    );
    assert.match(simulated, /Simulation succeeded/);
    assert.match(simulated, /Gas used\s+\d+/);
    assert.match(simulated, /Events \(1\)/);
    assert.match(simulated, /Incremented/);
    assert.match(simulated, /newCount/);

    // Execute: the buttons are disabled while the command runs, and the command asks before signing.
    await section.locator('button[data-action="execute"]').click();
    const sign = page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Sign and Execute' });
    await sign.waitFor({ state: 'visible', timeout: 60_000 });
    assert.equal(await section.locator('button[data-action="execute"]').isDisabled(), true);
    assert.match(await section.innerText(), /Executing…/);
    await sign.click();

    // Hands off: blocks are mined, the panel must follow the tx to Confirmed.
    const executed = await sectionTextUntil(
      page,
      frame,
      'incrementBy',
      'the executed tx confirmed',
      (t) => /Transaction confirmed|Execution failed/.test(t),
      120_000,
      () => sandbox.mine(),
    );
    assert.match(executed, /Transaction confirmed/);
    assert.match(executed, /Tx id\s+[0-9a-f]{64}/);
    assert.match(executed, /Verified before signing/);
    assert.match(executed, /Incremented/);
    assert.equal(await section.locator('button[data-action="execute"]').isDisabled(), false);

    await runCommandByTitle(page, 'Notifications: Clear All Notifications').catch(() =>
      page.keyboard.press('Escape'),
    );
    await hidePanel(page);
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'contract-panel.png') });
  });
});
