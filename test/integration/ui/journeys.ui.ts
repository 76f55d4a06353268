// Journeys: a person drives the workbench (palette, quick inputs, modal) and then only watches. Each
// assertion reads the rendered DOM over time, polling with a bound; none asks the extension's API.
import { strict as assert } from 'node:assert';
import type { Sandbox } from '../../../sandbox';
import { ui } from './hooks';
import {
  mergeWorkspaceSettings,
  sandboxControl,
  sandboxCounter,
  sandboxProfile,
  writeArtifacts,
  writeDeployments,
} from './sandbox';
import { answerInput, expandRows, rowText, watchDeployment, watchUntil } from './journeyHelpers';
import { runCommandByTitle } from './workbench';

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

  // A 503 showing as syncing within 60 s, and synced again, is a journey of freshness.ui.ts (on a Free key).

  it('events emitted on the chain: the Events rows, their count and the State agree, with no click', async function () {
    this.timeout(240_000);
    const page = ui.page;
    // The workspace is a Ralph project: the sandbox's artifacts and a deployments file, as the CLI writes.
    writeArtifacts(sandbox, { only: ['Counter'] });
    writeDeployments(sandbox, { Counter: sandboxCounter(sandbox) });
    // A headless window may not have focus; the default would slow polling down.
    // Three events per page: every listed row must be on screen to be counted (a tree renders only the
    // rows in view, and earlier specs leave rows in Transactions that take room).
    const restore = mergeWorkspaceSettings(ui.workspace, {
      'alephium.watch.whenUnfocused': 'continue',
      'alephium.events.pageSize': 3,
    });
    try {
      // The deployments file reaches the extension a moment after it is written: offered again (bounded).
      await watchDeployment(page, 'Counter', runCommandByTitle);
      await runCommandByTitle(page, 'View: Show Alephium');
      const sidebar = page.locator('.part.sidebar');
      // The Node and Transactions sections are not part of this journey: fold them to give Watched
      // Contracts the room (a tree renders only the rows in view, and every listed row must be counted).
      for (const section of [/^Node/i, /^Transactions/i]) {
        const header = sidebar.locator('.pane-header', { hasText: section }).first();
        if ((await header.getAttribute('aria-expanded')) === 'true') await header.click();
      }
      // Open Counter, its Events and its State once, as a person would; after that, hands off.
      await expandRows(page, [
        [/^Counter/, /^Events/],
        [/^Events/, /shown|Incremented|no events/i],
        [/^State/, /^count/],
      ]);

      // The chain moves: three increments, each with its event (and a hidden Debug event).
      await sandboxControl('/events/trigger', { count: 3 });
      const agree = (text: string): boolean => {
        const newCounts = [...text.matchAll(/newCount=(\d+)/g)].map((m) => Number(m[1]));
        // A row's label and description come out of innerText glued together ("Incrementedby=…").
        const listed = (text.match(/^(Incremented|Reset)(?=by=|\s|$)/gm) ?? []).length;
        const shown = /Events\s*(\d+) shown/.exec(text);
        const count = /^count\s*(\d+)/m.exec(text);
        const getter = /^get\(\)\s*(\d+)/m.exec(text);
        return (
          newCounts.length >= 3 &&
          shown !== null &&
          Number(shown[1]) === listed &&
          count !== null &&
          Number(count[1]) === Math.max(...newCounts) &&
          getter !== null &&
          Number(getter[1]) === Math.max(...newCounts)
        );
      };
      const text = await watchUntil(
        page,
        'Events rows, their count and State agree',
        () => sidebar.innerText(),
        agree,
        90_000,
      );
      assert.ok(agree(text));
    } finally {
      restore();
      // Unfold what this journey folded, for the specs that follow.
      for (const section of [/^Node/i, /^Transactions/i]) {
        const header = page.locator('.part.sidebar .pane-header', { hasText: section }).first();
        if ((await header.getAttribute('aria-expanded').catch(() => null)) === 'false') await header.click();
      }
    }
  });
});
