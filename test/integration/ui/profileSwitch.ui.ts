// A profile switch keeps what it can: a watched Counter, opened with its Events and one "Load more…",
// is switched away from and back to from the palette, as a person does, and reads the same afterwards
// without a click or a reload: its artifact's name (matched by code hash), its node open, its Events open
// with as many events as before. Read from the rendered workbench only.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { ui } from './hooks';
import { answerInput, expandRows, rowAt, unwatchFromPalette, watchUntil } from './journeyHelpers';
import {
  mergeWorkspaceSettings,
  removeProject,
  sandboxControl,
  sandboxProfile,
  UI_PROFILE,
  writeArtifacts,
} from './sandbox';
import { OUTPUT_DIR, runCommandByTitle } from './workbench';

/** A second profile of the same gateway, without a key: it watches nothing, so the view empties. */
const ELSEWHERE = 'UI elsewhere';

/** Chooses `name` in Switch Profile's pick, from the palette. */
async function switchProfile(page: Page, name: string): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  for (let attempt = 1; ; attempt++) {
    await runCommandByTitle(page, 'Alephium: Switch Profile');
    const row = widget.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
    try {
      await row.waitFor({ state: 'visible', timeout: 10_000 });
      await widget.locator('input').first().fill(name);
      await row.click();
      await widget.waitFor({ state: 'hidden', timeout: 10_000 });
      return;
    } catch (error) {
      await page.keyboard.press('Escape');
      if (attempt === 4) throw error;
    }
  }
}

/** The header of a sidebar pane (Node, Transactions), by its title. */
function paneHeader(page: Page, title: RegExp) {
  return page
    .locator('.part.sidebar .pane-header', { has: page.locator('h3.title', { hasText: title }) })
    .first();
}

/** The workspace's current `alephium.profiles` (the sandbox profile is there already). */
function workspaceProfiles(): unknown[] {
  const file = path.join(ui.workspace, '.vscode', 'settings.json');
  const settings = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  return Array.isArray(settings['alephium.profiles']) ? (settings['alephium.profiles'] as unknown[]) : [];
}

describe('UI: a profile switch away and back keeps the watched contracts', () => {
  let restore: (() => void) | undefined;
  let mine: { address: string } | undefined;
  // Set while the other profile is active: only then has the after hook a switch to undo.
  let away = false;
  const folded: RegExp[] = [];
  const short = () => `${mine!.address.slice(0, 6)}…${mine!.address.slice(-6)}`;

  after(async function () {
    this.timeout(90_000);
    const page = ui.page;
    // A failure half way must not leave the other profile active for the specs that follow.
    if (away) await switchProfile(page, UI_PROFILE).catch(() => undefined);
    if (mine) await unwatchFromPalette(page, mine.address);
    restore?.();
    removeProject();
    // Unfold what this journey folded, for the specs that follow.
    for (const title of folded)
      await paneHeader(page, title)
        .click()
        .catch(() => undefined);
  });

  it('switching away and back shows the artifact, the open Events and every loaded event again', async function () {
    this.timeout(300_000);
    const page = ui.page;
    const sandbox = await sandboxProfile(page);
    mine = (await sandboxControl('/contracts/deploy', { name: 'Counter' })) as { address: string };
    writeArtifacts(sandbox, { only: ['Counter'] });
    const profiles = workspaceProfiles();
    const ours = profiles.find((p) => (p as { name?: string }).name === UI_PROFILE) as object;
    restore = mergeWorkspaceSettings(ui.workspace, {
      'alephium.watch.whenUnfocused': 'continue',
      // Few offsets a page, so "Load more…" adds events the latest page alone would not show.
      'alephium.events.pageSize': 4,
      'alephium.profiles': [...profiles, { ...ours, name: ELSEWHERE }],
    });
    // Six increments, each with its event (and a hidden Debug event that takes an offset).
    await sandboxControl('/events/trigger', { count: 6, contract: mine.address });

    // Watched by its address, its artifact matched by its code hash: the name comes from the state read.
    await runCommandByTitle(page, 'Alephium: Watch Contract');
    await answerInput(page, 'Watch Contract', 'Enter a contract address');
    await page
      .locator('.quick-input-widget .monaco-list-row', { hasText: 'Enter a contract address' })
      .waitFor({ state: 'hidden', timeout: 30_000 });
    await answerInput(page, 'Watch Contract', mine.address);
    await answerInput(page, 'Artifact that describes this contract', 'Match by on-chain code hash');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 30_000 });
    await runCommandByTitle(page, 'View: Show Alephium');
    // Room for this contract's rows: fold the other panes, as a person would.
    for (const title of [/^Node$/i, /^Transactions$/i]) {
      const header = paneHeader(page, title);
      if ((await header.getAttribute('aria-expanded').catch(() => null)) !== 'true') continue;
      await header.click();
      folded.push(title);
    }
    const contract = new RegExp(short());
    await expandRows(page, [
      [contract, /^Events/],
      [/^Events/, /newCount=6\b/],
    ]);
    const loadMore = await rowAt(page, [contract, /^Events/, /^Load more/]);
    await loadMore.click();
    await rowAt(page, [contract, /^Events/, /newCount=4\b/]);
    const shownBefore = await watchUntil(
      page,
      'the Events row counts what it lists',
      async () => (await rowAt(page, [contract, /^Events/], 5_000)).innerText(),
      (t) => /\d+ shown/.test(t),
      30_000,
      undefined,
      { shotPrefix: 'profile-switch' },
    );
    const shown = Number(/(\d+) shown/.exec(shownBefore)![1]);
    const named = (t: string) => /Counter/.test(t) && !/no artifact/.test(t);
    await watchUntil(
      page,
      'the contract is named by its artifact',
      async () => (await rowAt(page, [contract], 5_000)).innerText(),
      named,
      30_000,
      undefined,
      { shotPrefix: 'profile-switch' },
    );

    away = true;
    await switchProfile(page, ELSEWHERE);
    await page
      .locator('.part.sidebar .monaco-list-row', { hasText: short() })
      .first()
      .waitFor({ state: 'detached', timeout: 30_000 });
    await switchProfile(page, UI_PROFILE);
    away = false;

    // Hands off: no click, no reload. The rows come back as they were left.
    const rowTexts = async () => {
      const contractRow = await rowAt(page, [contract], 5_000);
      const eventsRow = await rowAt(page, [contract, /^Events/], 5_000);
      const newest = await rowAt(page, [contract, /^Events/, /newCount=6\b/], 5_000);
      return [
        await contractRow.innerText(),
        `contract open: ${await contractRow.getAttribute('aria-expanded')}`,
        await eventsRow.innerText(),
        `events open: ${await eventsRow.getAttribute('aria-expanded')}`,
        await newest.innerText(),
      ].join('\n');
    };
    const after = await watchUntil(
      page,
      'the contract, its open Events and its events are back',
      rowTexts,
      (t) =>
        named(t) &&
        t.includes('contract open: true') &&
        t.includes('events open: true') &&
        new RegExp(`(?<!\\d)${shown} shown`).test(t),
      30_000,
      undefined,
      { shotPrefix: 'profile-switch' },
    );
    assert.doesNotMatch(after, /no artifact/);
    assert.match(after, new RegExp(`(?<!\\d)${shown} shown`), 'as many events as before the switch');
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'profile-switch.png') });
  });
});
