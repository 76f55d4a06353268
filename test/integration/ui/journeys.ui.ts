// Journeys: a person drives the workbench (palette, quick inputs, modal) and then only watches. Each
// assertion reads the rendered DOM over time, polling with a bound; none asks the extension's API.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import type { Sandbox } from '../../sandbox/server';
import { ui } from './hooks';
import { sandboxControl, sandboxProfile } from './sandbox';
import { OUTPUT_DIR, runCommandByTitle } from './workbench';

/** Polls `read` until `done` holds (bounded); on timeout, a screenshot and the last text in the error. */
async function watchUntil(
  page: Page,
  what: string,
  read: () => Promise<string>,
  done: (text: string) => boolean,
  timeoutMs: number,
  tick?: () => void,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  while (Date.now() < deadline) {
    text = await read().catch(() => '');
    if (done(text)) return text;
    tick?.();
    await page.waitForTimeout(500);
  }
  const shot = path.join(OUTPUT_DIR, `journey-${what.replace(/\W+/g, '-')}.png`);
  await page.screenshot({ path: shot });
  throw new Error(`${what}: not seen within ${timeoutMs / 1000} s; last text: ${JSON.stringify(text)}`);
}

/** The text of the first tree row of the Alephium container that matches (label and description). */
function rowText(page: Page, row: RegExp): () => Promise<string> {
  return () =>
    page.locator('.part.sidebar .monaco-list-row', { hasText: row }).first().innerText({ timeout: 2_000 });
}

async function answerInput(page: Page, title: string, value: string): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  await widget
    .locator('.quick-input-title', { hasText: title })
    .waitFor({ state: 'visible', timeout: 30_000 });
  const input = widget.locator('input').first();
  await input.fill(value);
  await input.press('Enter');
}

describe('UI journeys: the views follow the chain with no interaction', () => {
  let sandbox: Sandbox;

  before(async function () {
    this.timeout(120_000);
    sandbox = await sandboxProfile(ui.page);
    await runCommandByTitle(ui.page, 'View: Show Alephium');
  });

  it('Send Transfer from the palette: the Transactions row turns Confirmed by itself', async function () {
    this.timeout(180_000);
    const page = ui.page;
    const from = sandbox.accounts[2]!;
    const to = sandbox.accounts[3]!;
    await runCommandByTitle(page, 'Alephium: Import Signer Key');
    await answerInput(page, 'Import Signer Key', from.privateKey);
    await page
      .locator('.notifications-toasts', { hasText: from.address })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });

    await runCommandByTitle(page, 'Alephium: Send Transfer');
    await answerInput(page, 'recipient', to.address);
    await answerInput(page, 'amount in ALPH', '0.25');
    await answerInput(page, 'tokens', '');
    await answerInput(page, 'gas', '');
    const sign = page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Sign and Send' });
    await sign.waitFor({ state: 'visible', timeout: 60_000 });
    await sign.click();

    // From here on nobody touches the workbench: blocks are mined, the row must follow.
    await runCommandByTitle(page, 'View: Show Alephium');
    const text = await watchUntil(
      page,
      'the Transactions row shows Confirmed',
      rowText(page, /Send 0\.25 ALPH/),
      (t) => /Confirmed/.test(t),
      120_000,
      () => sandbox.mine(),
    );
    assert.doesNotMatch(text, /MemPooled/, 'the row shows the outcome, not a stale pending state');
  });

  it('503 from the node: the Node view shows syncing, then synced again once the node is, by itself', async function () {
    this.timeout(180_000);
    const page = ui.page;
    const sync = rowText(page, /^Sync/);
    await watchUntil(page, 'the Node view shows synced', sync, (t) => /Sync\s*synced/.test(t), 60_000);
    // The node starts syncing: every /infos/* answers 503 (and self-clique reports unsynced) until cleared.
    await sandboxControl('/faults', { path: '/infos/*', kind: '503' });
    // The view re-checks at its own pace: at the latest at its next minute tick.
    await watchUntil(page, 'the Node view shows syncing', sync, (t) => /Sync\s*syncing/.test(t), 90_000);
    await fetch(`${sandbox.baseUrl}/__sandbox/faults`, { method: 'DELETE' });
    await watchUntil(page, 'the Node view is back to synced', sync, (t) => /Sync\s*synced/.test(t), 30_000);
  });
});
