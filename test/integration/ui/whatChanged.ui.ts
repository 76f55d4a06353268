// An event row of Watched Contracts leads to what it changed and to its transaction: "What Changed" shows
// the counter's value before and after the event's block in a read-only document (and a second look sends
// no request), "Show Transaction" opens the transaction's details page. Read from what the workbench renders.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import type { Sandbox } from '../../../sandbox';
import { ui } from './hooks';
import {
  answerInput,
  expandRows,
  rowAt,
  runFromContextMenu,
  unwatchFromPalette,
  watchUntil,
} from './journeyHelpers';
import {
  mergeWorkspaceSettings,
  removeProject,
  sandboxControl,
  sandboxProfile,
  writeArtifacts,
} from './sandbox';
import { OUTPUT_DIR, runCommandByTitle, textOfAllFrames } from './workbench';

interface Trigger {
  txIds: string[];
  events: { blockHash: string; fields: { value: string }[] }[];
}

interface LoggedRequest {
  path: string;
  body: string;
}

/** Requests that read the past: block headers and calls pinned to a block (the probe's included). */
async function historyRequests(sandbox: Sandbox, clear: boolean): Promise<LoggedRequest[]> {
  const res = await fetch(`${sandbox.baseUrl}/__sandbox/requests${clear ? '?clear=1' : ''}`);
  const { requests } = (await res.json()) as { requests: LoggedRequest[] };
  return requests.filter(
    (r) => r.path.includes('/blockflow/headers/') || r.body.includes('worldStateBlockHash'),
  );
}

/** The text of the active editor (a results document), spaces as typed. */
function editorText(page: Page): () => Promise<string> {
  return async () =>
    (
      await page.locator('.editor-instance .monaco-editor .view-lines').first().innerText({ timeout: 2_000 })
    ).replace(/\u00a0/g, ' ');
}

describe('UI: an event row leads to what it changed and to its transaction', () => {
  let sandbox: Sandbox;
  let restore: (() => void) | undefined;
  /** A Counter of this spec's own: its count starts at 0, so its events say exactly what they did. */
  let mine: { address: string };
  let second: Trigger;
  const short = () => `${mine.address.slice(0, 6)}…${mine.address.slice(-6)}`;
  /** This spec's event row: another watched Counter may have a "newCount=2" event too. */
  const eventRow = (page: Page) =>
    rowAt(page, [new RegExp(short()), /^Events/, /^Incremented.*newCount=2\b/]);

  before(async function () {
    this.timeout(180_000);
    const page = ui.page;
    sandbox = await sandboxProfile(page);
    mine = (await sandboxControl('/contracts/deploy', { name: 'Counter' })) as typeof mine;
    // The artifact and .project.json: the sandbox deploys the debug build it records, matched by code hash.
    writeArtifacts(sandbox, { only: ['Counter'] });
    restore = mergeWorkspaceSettings(ui.workspace, { 'alephium.watch.whenUnfocused': 'continue' });
    // Two increments in two blocks: count 0 → 1, then 1 → 2.
    await sandboxControl('/events/trigger', { count: 1, contract: mine.address });
    second = (await sandboxControl('/events/trigger', { count: 1, contract: mine.address })) as Trigger;
    // Watched by its address, as a person would paste it, its artifact matched by its code hash.
    await runCommandByTitle(page, 'Alephium: Watch Contract');
    await answerInput(page, 'Watch Contract', 'Enter a contract address');
    // The pick closes before the address box opens under the same title: type only into the box.
    await page
      .locator('.quick-input-widget .monaco-list-row', { hasText: 'Enter a contract address' })
      .waitFor({ state: 'hidden', timeout: 30_000 });
    await answerInput(page, 'Watch Contract', mine.address);
    await answerInput(page, 'Artifact that describes this contract', 'Match by on-chain code hash');
    // The last pick closes as the palette would open: typing then would go into the closing widget.
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 30_000 });
    await runCommandByTitle(page, 'View: Show Alephium');
    // Earlier journeys leave transactions and contracts behind: fold the Transactions pane so the Watched
    // Contracts pane has the room to render this contract's rows, as a person would make room.
    const transactionsHeader = page
      .locator('.part.sidebar .pane-header', {
        has: page.locator('h3.title', { hasText: /^Transactions$/i }),
      })
      .first();
    if ((await transactionsHeader.getAttribute('aria-expanded').catch(() => null)) === 'true')
      await transactionsHeader.click();
    await expandRows(page, [
      [new RegExp(short()), /^Events/],
      [/^Events/, /newCount=2\b/],
    ]).catch(async (error: unknown) => {
      await page.screenshot({ path: path.join(OUTPUT_DIR, 'what-changed-setup.png') });
      throw error;
    });
  });

  after(async function () {
    this.timeout(60_000);
    const page = ui.page;
    await runCommandByTitle(page, 'View: Close All Editors').catch(() => undefined);
    await unwatchFromPalette(page, mine.address);
    restore?.();
    removeProject();
  });

  it("What Changed on an event row shows the counter's value before and after its block; a second look sends nothing", async function () {
    this.timeout(180_000);
    const page = ui.page;
    await historyRequests(sandbox, true);
    await runFromContextMenu(page, () => eventRow(page), 'What Changed');
    const text = await watchUntil(
      page,
      'the state diff document',
      editorText(page),
      (t) => t.includes('count: U256 = 1 → 2'),
      60_000,
      undefined,
      { shotPrefix: 'what-changed' },
    );
    assert.match(text, /What Changed: Incremented of Counter/);
    assert.match(text, /get\(\): U256 = 1 → 2/);
    assert.ok(text.includes(`Block ${second.events[0]!.blockHash}`), text);
    const first = await historyRequests(sandbox, true);
    const probes = first.filter((r) => r.path.includes('/contracts/call-contract'));
    const reads = first.filter((r) => !r.path.includes('/contracts/call-contract'));
    console.log(
      `[what-changed] first diff: ${first.length} request(s): ${first.map((r) => r.path.replace(/^\/[^/]+/, '')).join(', ')}`,
    );
    assert.equal(reads.length, 2, 'one block header and one multicall');
    assert.ok(probes.length <= 1, 'the history probe at most once per gateway');

    await runCommandByTitle(page, 'View: Close All Editors');
    await runFromContextMenu(page, () => eventRow(page), 'What Changed');
    await watchUntil(
      page,
      'the state diff again',
      editorText(page),
      (t) => t.includes('count: U256 = 1 → 2'),
      60_000,
    );
    const again = await historyRequests(sandbox, true);
    console.log(`[what-changed] second diff: ${again.length} request(s)`);
    assert.equal(again.length, 0, 'pinned to blocks, answered from the cache');
  });

  it('Show Transaction on an event row opens the details page of its transaction', async function () {
    this.timeout(120_000);
    const page = ui.page;
    await runCommandByTitle(page, 'View: Close All Editors');
    await runFromContextMenu(page, () => eventRow(page), 'Show Transaction');
    const txId = second.txIds[0]!;
    const text = await watchUntil(
      page,
      'the transaction details page of the event',
      () => textOfAllFrames(page),
      (t) => t.includes(txId) && /Confirmed/.test(t),
      60_000,
    );
    assert.ok(text.includes(txId));
  });
});
