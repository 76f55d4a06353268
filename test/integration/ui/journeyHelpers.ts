// What every journey does: watch the rendered workbench until it shows something (bounded, with a
// screenshot on timeout), read a tree row, and answer a quick input by its title.
import * as path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { OUTPUT_DIR, runCommandByTitle } from './workbench';

/** How {@link watchUntil} polls: its interval, and the prefix of the screenshot it takes on timeout. */
export interface WatchOptions {
  intervalMs?: number;
  shotPrefix?: string;
}

/**
 * Polls `read` until `done` holds (bounded); `tick` runs between reads. On timeout, a screenshot and the last
 * text in the error.
 */
export async function watchUntil(
  page: Page,
  what: string,
  read: () => Promise<string>,
  done: (text: string) => boolean,
  timeoutMs: number,
  tick?: () => void,
  { intervalMs = 500, shotPrefix = 'journey' }: WatchOptions = {},
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  while (Date.now() < deadline) {
    text = await read().catch(() => '');
    if (done(text)) return text;
    tick?.();
    await page.waitForTimeout(intervalMs);
  }
  const shot = path.join(OUTPUT_DIR, `${shotPrefix}-${what.replace(/\W+/g, '-')}.png`);
  await page.screenshot({ path: shot });
  throw new Error(`${what}: not seen within ${timeoutMs / 1000} s; last text: ${JSON.stringify(text)}`);
}

/** The text of the first tree row of the Alephium container that matches (label and description). */
export function rowText(page: Page, row: RegExp): () => Promise<string> {
  return () =>
    page.locator('.part.sidebar .monaco-list-row', { hasText: row }).first().innerText({ timeout: 2_000 });
}

/**
 * Fills a webview form field and checks it holds exactly `value` (bounded retries): the panel re-renders
 * its forms when results or a new model arrive, and a fill racing a re-render is retried as a person
 * would retype, not taken on trust.
 */
export async function fillField(field: Locator, value: string): Promise<void> {
  let held = '';
  for (let attempt = 1; attempt <= 3; attempt++) {
    await field.fill(value);
    held = await field.inputValue();
    if (held === value) return;
  }
  throw new Error(`the field holds '${held}' after typing '${value}' three times`);
}

/** Types `value` into the quick input whose title contains `title`, and accepts it. */
export async function answerInput(page: Page, title: string, value: string): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  await widget
    .locator('.quick-input-title', { hasText: title })
    .waitFor({ state: 'visible', timeout: 30_000 });
  const input = widget.locator('input').first();
  await input.fill(value);
  await input.press('Enter');
}

/** Clicks the button of the modal dialog (the signing confirmation) once it shows. */
export async function clickModalButton(page: Page, label: string): Promise<string> {
  const dialog = page.locator('.monaco-dialog-box');
  const button = dialog.locator('.monaco-button', { hasText: label });
  await button.waitFor({ state: 'visible', timeout: 60_000 });
  const text = await dialog.innerText();
  await button.click();
  return text;
}

/** The webview frame that shows the contract panel's form of `method` (webviews are nested iframes). */
export async function panelFrame(page: Page, method: string, timeoutMs: number): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const f of page.frames()) {
      const n = await f
        .locator(`section[data-method="${method}"]`)
        .count()
        .catch(() => 0);
      if (n > 0) return f;
    }
    await page.waitForTimeout(250);
  }
  await page.screenshot({ path: path.join(OUTPUT_DIR, 'contract-panel-failure.png') });
  throw new Error(`No webview shows the form of ${method} within ${timeoutMs / 1000} s`);
}

/** Polls the text of a method's section in the contract panel until `done` holds (bounded). */
export function sectionText(frame: Frame, method: string): () => Promise<string> {
  return () => frame.locator(`section[data-method="${method}"]`).innerText({ timeout: 2_000 });
}

/** A rendered tree row: its position in its list, its depth, whether it is open, and its text. */
interface RowShape {
  index: number;
  level: number;
  expanded: boolean;
  text: string;
}

/** The rows each pane of the sidebar renders now, in list order. */
async function paneRows(page: Page): Promise<{ pane: Locator; rows: RowShape[] }[]> {
  const panes = page.locator('.part.sidebar .pane');
  const out: { pane: Locator; rows: RowShape[] }[] = [];
  for (let i = 0; i < (await panes.count()); i++) {
    const pane = panes.nth(i);
    const rows = await pane.locator('.monaco-list-row').evaluateAll((elements) =>
      elements.map((e) => ({
        index: Number(e.getAttribute('data-index')),
        level: Number(e.getAttribute('aria-level') ?? '1'),
        expanded: e.getAttribute('aria-expanded') === 'true',
        text: (e.textContent ?? '').replace(/\s+/g, ' ').trim(),
      })),
    );
    out.push({ pane, rows: rows.sort((a, b) => a.index - b.index) });
  }
  return out;
}

/**
 * Where the rows `path` names are now: a row matching `path[0]` in any pane, then each next one among the
 * rows under the one before it (deeper, before the next row at its depth); every candidate is tried, and
 * only a whole path counts. Two watched contracts both have an "Events" row and both may have a
 * "newCount=2" event: a path keeps to one.
 */
async function locateRows(
  page: Page,
  path: readonly RegExp[],
): Promise<{ pane: Locator; rows: RowShape[] } | undefined> {
  const under = (rows: RowShape[], step: number, from: number, end: number): RowShape[] | undefined => {
    if (step === path.length) return [];
    for (let i = from; i < end; i++) {
      const row = rows[i]!;
      if (!path[step]!.test(row.text)) continue;
      const next = rows.slice(i + 1).findIndex((r) => r.level <= row.level);
      const rest = under(rows, step + 1, i + 1, next < 0 ? rows.length : i + 1 + next);
      if (rest) return [row, ...rest];
    }
    return undefined;
  };
  for (const { pane, rows } of await paneRows(page)) {
    const found = under(rows, 0, 0, rows.length);
    if (found) return { pane, rows: found };
  }
  return undefined;
}

/**
 * The tree row that `path` leads to (see {@link locateRows}), as it is now: pinned to its place in its list
 * and to its text, so a row that moved is not mistaken for its neighbour (look it up again instead). Waits
 * (bounded) for it to render.
 */
export async function rowAt(page: Page, path: readonly RegExp[], timeoutMs = 30_000): Promise<Locator> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const located = await locateRows(page, path);
    if (located)
      return located.pane.locator(`.monaco-list-row[data-index="${located.rows.at(-1)!.index}"]`, {
        hasText: path.at(-1)!,
      });
    if (Date.now() > deadline)
      throw new Error(`no tree row at ${path.map(String).join(' › ')} within ${timeoutMs / 1000} s`);
    await page.waitForTimeout(250);
  }
}

/**
 * Opens tree rows of the Alephium container in order, as a person would: each `[parent, child]` clicks
 * the parent open (if it is not) until the child shows under it (bounded: a click during a re-render can
 * be lost). Every parent after the first is looked for under the first, so one contract's rows are not
 * mistaken for another's.
 */
export async function expandRows(page: Page, path: readonly (readonly [RegExp, RegExp])[]): Promise<void> {
  const root = path[0]?.[0];
  for (const [parent, child] of path) {
    const parentPath = parent === root ? [parent] : [root!, parent];
    for (let attempt = 1; ; attempt++) {
      const r = await rowAt(page, parentPath);
      if ((await r.getAttribute('aria-expanded')) !== 'true') await r.click();
      try {
        await rowAt(page, [...parentPath, child], 5_000);
        break;
      } catch (error) {
        if (attempt === 6) throw error;
      }
    }
  }
}

/**
 * Runs `item` from the context menu of a tree `row`, as a person would. A row's tooltip can cover the menu
 * and a click during a re-render of the tree can be lost, so it moves away, dismisses any hover and tries
 * again (bounded); hovering focuses the item and Enter runs it (a click while the menu settles can be lost).
 */
export async function runFromContextMenu(
  page: Page,
  row: Locator | (() => Promise<Locator>),
  item: string,
): Promise<void> {
  const menuItem = page.locator('.context-view .action-label', { hasText: item }).first();
  for (let attempt = 1; ; attempt++) {
    await page.mouse.move(700, 850);
    await page.keyboard.press('Escape');
    await page
      .locator('.monaco-hover, .context-view .hover-contents')
      .first()
      .waitFor({ state: 'hidden', timeout: 5_000 })
      .catch(() => undefined);
    // A row found by its path is looked up again on each try: the tree may have moved under it.
    await (typeof row === 'function' ? await row() : row).click({ button: 'right' });
    try {
      await menuItem.waitFor({ state: 'visible', timeout: 5_000 });
      await menuItem.hover({ timeout: 5_000 });
      await page.keyboard.press('Enter');
      await menuItem.waitFor({ state: 'hidden', timeout: 5_000 });
      return;
    } catch (error) {
      if (attempt === 5) {
        await page.screenshot({
          path: path.join(OUTPUT_DIR, `context-menu-${item.replace(/\W+/g, '-')}.png`),
        });
        throw error;
      }
    }
  }
}

/** Imports a signer key through the palette, as a person does, and waits for the toast naming its address. */
export async function importSigner(
  page: Page,
  signer: { readonly privateKey: string; readonly address: string },
  run: (page: Page, title: string) => Promise<void>,
): Promise<void> {
  // VS Code keeps one copy of an identical message: a toast (or a notification) left from an earlier import
  // of the same key would satisfy the wait below before this import happened, or keep its toast from
  // showing again. Clear them first.
  await run(page, 'Notifications: Clear All Notifications');
  await page
    .locator('.notifications-toasts .notification-toast', { hasText: signer.address })
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 });
  await run(page, 'Alephium: Import Signer Key');
  await answerInput(page, 'Import Signer Key', signer.privateKey);
  await page
    .locator('.notifications-toasts', { hasText: signer.address })
    .first()
    .waitFor({ state: 'visible', timeout: 30_000 });
}

/**
 * Watches the deployment `name` of the workspace's deployments file through the palette. The file
 * reaches the extension a moment after it is written, so the pick is offered again (bounded).
 */
export async function watchDeployment(
  page: Page,
  name: string,
  run: (page: Page, title: string) => Promise<void>,
): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  for (let attempt = 1; ; attempt++) {
    await run(page, 'Alephium: Watch Contract');
    await widget
      .locator('.quick-input-title', { hasText: 'Watch Contract' })
      .waitFor({ state: 'visible', timeout: 30_000 });
    await widget.locator('input').first().fill(name);
    const offered = widget.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
    try {
      await offered.waitFor({ state: 'visible', timeout: 5_000 });
      await widget.locator('input').first().press('Enter');
      // The pick closes a moment after Enter; a palette opened before then would type into the closing pick.
      await widget.waitFor({ state: 'hidden', timeout: 10_000 });
      return;
    } catch (error) {
      await page.keyboard.press('Escape');
      if (attempt === 6) throw error;
    }
  }
}

/**
 * Unwatches, from the palette as a person would, the contract whose pick row shows `text`. With `strict`
 * (a journey that needs it gone) it is retried (bounded), waits for the tree to let go of its row when
 * `treeRowGone`, and throws if it cannot; without, one try that never throws and never leaves the pick
 * open (an after hook tidying up).
 */
export async function unwatchFromPalette(
  page: Page,
  text: string,
  {
    run = runCommandByTitle,
    strict = false,
    treeRowGone = false,
  }: { run?: (page: Page, title: string) => Promise<void>; strict?: boolean; treeRowGone?: boolean } = {},
): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  const offered = widget.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();
  const inTree = page.locator('.part.sidebar .monaco-list-row', { hasText: text }).first();
  if (!strict) {
    await run(page, 'Alephium: Unwatch Contract').catch(() => undefined);
    const shown = await offered.waitFor({ state: 'visible', timeout: 10_000 }).then(
      () => true,
      () => false,
    );
    if (shown) await offered.click();
    if (await widget.isVisible()) await page.keyboard.press('Escape');
    return;
  }
  for (let attempt = 1; ; attempt++) {
    try {
      await run(page, 'Alephium: Unwatch Contract');
      await offered.waitFor({ state: 'visible', timeout: 10_000 });
      await offered.click();
      if (treeRowGone) await inTree.waitFor({ state: 'detached', timeout: 10_000 });
      return;
    } catch (error) {
      await page.keyboard.press('Escape');
      if (attempt === 4) throw error;
    }
  }
}

/** Chooses the row of the open quick pick that shows `text` (filtering by it first, as a person types). */
export async function chooseRow(page: Page, title: string, text: string): Promise<string> {
  const widget = page.locator('.quick-input-widget');
  await widget
    .locator('.quick-input-title', { hasText: title })
    .waitFor({ state: 'visible', timeout: 30_000 });
  await widget.locator('input').first().fill(text);
  const row = widget.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();
  await row.waitFor({ state: 'visible', timeout: 10_000 });
  const shown = await row.innerText();
  await row.click();
  return shown;
}

/**
 * Runs a palette command, retried (bounded): a quick pick that is still closing (a prompt just answered,
 * a toast taking focus) can swallow the palette as it opens.
 */
export async function runCommandRetried(page: Page, title: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await runCommandByTitle(page, title);
      return;
    } catch (error) {
      await page.keyboard.press('Escape');
      if (attempt === 4) throw error;
    }
  }
}

/** Folds or unfolds a section of the Alephium container by its header. */
export async function setSection(page: Page, title: RegExp, expanded: boolean): Promise<void> {
  const header = page.locator('.part.sidebar .pane-header', { hasText: title }).first();
  const now = (await header.getAttribute('aria-expanded').catch(() => null)) === 'true';
  if (now !== expanded) await header.click();
}

/** Sets the API key of the active profile through the palette (retried while the settings arrive). */
export async function setApiKey(page: Page, profile: string, key: string): Promise<void> {
  const saved = page.locator('.notifications-toasts').getByText(`API key saved for "${profile}"`).first();
  for (let attempt = 1; ; attempt++) {
    await runCommandByTitle(page, 'Alephium: Set API Key');
    const input = page.locator('.quick-input-widget input');
    try {
      await input.waitFor({ state: 'visible', timeout: 5_000 });
      const title = await page.locator('.quick-input-widget').innerText();
      // The prompt names the profile: until the new settings arrive it is the previous one.
      if (!title.includes(profile)) throw new Error(`the prompt is for another profile: ${title}`);
      await input.fill(key);
      await input.press('Enter');
      await saved.waitFor({ state: 'visible', timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt >= 8) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

/**
 * Tracks `txId` from the palette as a person would: Track Transaction, the id, then Enter on the groups
 * question (it has the same title, so it is answered only once it asks for the groups).
 */
export async function trackFromPalette(page: Page, txId: string): Promise<void> {
  await runCommandByTitle(page, 'Alephium: Track Transaction');
  await answerInput(page, 'Track Transaction', txId);
  const widget = page.locator('.quick-input-widget');
  await watchUntil(
    page,
    'Track Transaction asking for the groups',
    () => widget.innerText({ timeout: 2_000 }),
    (t) => t.includes('Groups from,to'),
    30_000,
  );
  await widget.locator('input').first().press('Enter');
}

/**
 * Runs the workspace task `label` from "Tasks: Run Task". tasks.json reaches the workbench through its file
 * watcher a moment after it is written, so the list is opened again (bounded) until it offers the task.
 */
export async function runTask(page: Page, label: string): Promise<void> {
  const task = page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
  for (let attempt = 1; ; attempt++) {
    await runCommandByTitle(page, 'Tasks: Run Task');
    try {
      await task.waitFor({ state: 'visible', timeout: 5_000 });
      break;
    } catch (error) {
      if (attempt >= 8) {
        await page.screenshot({ path: path.join(OUTPUT_DIR, 'task-list-failure.png') });
        throw error;
      }
      await page.keyboard.press('Escape');
    }
  }
  await task.click();
}

/** A file name matched whole (Counter.ral.json must not stand in for counter.ral). */
function exactName(name: string): RegExp {
  return new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}

/** The editor tab of the file named exactly `name`. */
export function editorTab(page: Page, name: string): Locator {
  return page
    .locator('.tabs-container .tab')
    .filter({ has: page.locator('.label-name', { hasText: exactName(name) }) })
    .first();
}

/**
 * Opens a workspace file in the editor as a person would (its tab when open, otherwise Go to File) and
 * waits until the editor shows `shownText` (bounded, three tries, a screenshot on the last).
 */
export async function openFile(page: Page, name: string, shownText = 'Contract Counter'): Promise<void> {
  const shown = page.locator('.editor-instance .monaco-editor .view-lines', { hasText: shownText }).first();
  const exact = exactName(name);
  for (let attempt = 1; ; attempt++) {
    const tab = editorTab(page, name);
    if (await tab.isVisible().catch(() => false)) await tab.click();
    else {
      await runCommandByTitle(page, 'Go to File...');
      const input = page.locator('.quick-input-widget input');
      await input.fill(name);
      const row = page
        .locator('.quick-input-list .monaco-list-row')
        .filter({ has: page.locator('.label-name', { hasText: exact }) })
        .first();
      await row.waitFor({ state: 'visible', timeout: 30_000 });
      await row.click();
    }
    try {
      await shown.waitFor({ state: 'visible', timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt === 3) {
        await page.screenshot({
          path: path.join(OUTPUT_DIR, `open-${name.replace(/\W+/g, '-')}-failure.png`),
        });
        throw error;
      }
    }
  }
}
