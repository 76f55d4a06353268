// Debugging in the editor, read from what the workbench renders: the CodeLenses over counter.ral (the
// contract's deployment, its events' counts as the chain moves, Simulate on its public functions), the
// debug message after its `emit`, and the Problem at the asserting line of a failing call.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import type { Sandbox } from '../../../sandbox';
import { ui } from './hooks';
import {
  expandRows,
  openFile,
  rowAt,
  runFromContextMenu,
  unwatchFromPalette,
  watchUntil,
} from './journeyHelpers';
import {
  COUNTER_RAL,
  mergeWorkspaceSettings,
  sandboxControl,
  sandboxProfile,
  writeCounterProject,
} from './sandbox';
import { OUTPUT_DIR, runCommandByTitle, hidePanel } from './workbench';

const source = fs.readFileSync(COUNTER_RAL, 'utf8');
/** 1-based line of the first line containing `needle`, as the Problems view prints it. */
const lineNo = (needle: string): number => source.split('\n').findIndex((l) => l.includes(needle)) + 1;

/** The CodeLens rows of the visible editor, top to bottom, each as its rendered text. */
async function lensRows(page: Page): Promise<string[]> {
  const rows = page.locator('.editor-instance .monaco-editor .codelens-decoration');
  const out: { y: number; text: string }[] = [];
  for (const r of await rows.all()) {
    const box = await r.boundingBox();
    if (box) out.push({ y: box.y, text: (await r.innerText()).replace(/\s+/g, ' ').trim() });
  }
  return out.sort((a, b) => a.y - b.y).map((r) => r.text);
}

/** Text the editor renders after lines (decorations' injected text lives in ::after/::before content). */
async function injectedText(page: Page): Promise<string> {
  // A string, as textOfAllFrames does: the suite is compiled without DOM types.
  return page.evaluate<string>(`(() => {
    const parts = [];
    for (const el of document.querySelectorAll('.editor-instance .monaco-editor .view-lines span')) {
      for (const pseudo of ['::after', '::before']) {
        const c = getComputedStyle(el, pseudo).content;
        if (c && c !== 'none' && c !== 'normal') parts.push(c);
      }
      if (el.children.length === 0 && el.textContent) parts.push(el.textContent);
    }
    return parts.join('\\n');
  })()`);
}

/** Clicks the lens titled `title` in the `nth` lens row (top to bottom) that has one. */
async function clickLens(page: Page, title: string, nth: number): Promise<void> {
  const rows = page.locator('.editor-instance .monaco-editor .codelens-decoration');
  const withTitle: { y: number; index: number }[] = [];
  const all = await rows.all();
  for (let i = 0; i < all.length; i++) {
    const text = await all[i]!.innerText();
    const box = await all[i]!.boundingBox();
    if (box && text.split('|').some((t) => t.trim() === title)) withTitle.push({ y: box.y, index: i });
  }
  withTitle.sort((a, b) => a.y - b.y);
  const target = withTitle[nth];
  if (!target)
    throw new Error(`no lens row #${nth} with ${title}; rows: ${JSON.stringify(await lensRows(page))}`);
  await all[target.index]!.locator('a', { hasText: new RegExp(`^${title}$`) })
    .first()
    .click();
}

describe('UI: debugging in the editor (counter.ral)', () => {
  let sandbox: Sandbox;
  let restore: (() => void) | undefined;
  let watchedHere = false;
  /** A Counter of this spec's own, so its events do not change what other specs count. */
  let mine: { address: string; txId: string; contractId: string };

  before(async function () {
    this.timeout(180_000);
    sandbox = await sandboxProfile(ui.page);
    mine = (await sandboxControl('/contracts/deploy', { name: 'Counter' })) as typeof mine;
    // The workspace is a Ralph project: sources, the compiled artifact and the CLI's deployments file.
    writeCounterProject(sandbox, mine);
    // A headless window may not have focus; the default would slow the watcher down.
    // The watcher polls every 16 s here (the floor), so "nothing more is coming" can be waited for.
    restore = mergeWorkspaceSettings(ui.workspace, {
      'alephium.watch.whenUnfocused': 'continue',
      'alephium.watch.intervalSeconds': 16,
    });
  });

  after(async function () {
    this.timeout(60_000);
    const page = ui.page;
    // Leave the workbench as found: no editors, Counter not watched, no project files.
    await runCommandByTitle(page, 'View: Close All Editors').catch(() => undefined);
    await hidePanel(page);
    if (watchedHere) await unwatchFromPalette(page, mine.address);
    const input = page.locator('.quick-input-widget');
    if (await input.isVisible()) await page.keyboard.press('Escape');
    restore?.();
    for (const dir of ['contracts', 'artifacts', 'deployments'])
      fs.rmSync(path.join(ui.workspace, dir), { recursive: true, force: true });
  });

  it('lenses show the deployment, Watch, Simulate on public functions, and event counts that follow the chain', async function () {
    this.timeout(300_000);
    const page = ui.page;
    const short = `${mine.address.slice(0, 6)}…${mine.address.slice(-4)}`;
    // The editor renders only the lenses of lines in view: give it the window's height, as a person
    // reading the whole contract would (an earlier spec may have left the panel open), and a window tall
    // enough for all of counter.ral's six public functions (restored at the end of this spec).
    await hidePanel(page);
    await page.setViewportSize({ width: 1400, height: 1700 });
    await openFile(page, 'counter.ral');
    // The deployments file reaches the extension a moment after it is written: the lens follows.
    let rows = await watchUntil(
      page,
      'the contract lens names the deployment',
      async () => (await lensRows(page)).join('\n'),
      (t) => t.includes(`${short} · devnet`) && t.includes('Simulate'),
      60_000,
    );
    if (rows.includes('Watch')) {
      await clickLens(page, 'Watch', 0);
      watchedHere = true;
    }
    // The Watched Contracts view reads the contract's state when it shows it; the lens follows the model.
    await runCommandByTitle(page, 'View: Show Alephium');
    rows = await watchUntil(
      page,
      'the contract is watched and its code checked',
      async () => (await lensRows(page)).join('\n'),
      (t) => t.includes('code matches') && /(no Incremented seen yet|\d+ Incremented seen)/.test(t),
      60_000,
    );
    const lines = rows.split('\n');
    // Six public functions (get, increment, incrementBy, reset, pause, unpause), each with Simulate (and
    // Execute and Debug when those commands exist).
    assert.equal(lines.filter((l) => /(^|\| )Simulate( \||$)/.test(l)).length, 6, rows);
    // …and Debug beside them, which runs the method in VS Code's debugger.
    assert.equal(lines.filter((l) => /\| Debug$/.test(l)).length, 6, rows);
    assert.ok(
      lines.some((l) => /Reset seen/.test(l)),
      rows,
    );

    // The chain moves. The watcher starts from the count it first sees, so one event at a time until it
    // has seen one (bounded), then two more must add exactly two.
    const seen = (t: string): number | undefined => {
      const m = /(\d+) Incremented seen/.exec(t);
      return m ? Number(m[1]) : /no Incremented seen yet/.test(t) ? 0 : undefined;
    };
    let before = 0;
    for (let attempt = 1; before === 0; attempt++) {
      await sandboxControl('/events/trigger', { count: 1, contract: mine.address });
      const t = await watchUntil(
        page,
        'a first Incremented counted',
        async () => (await lensRows(page)).join('\n'),
        (x) => (seen(x) ?? 0) > 0,
        attempt < 3 ? 45_000 : 90_000,
      ).catch((e: unknown) => {
        if (attempt >= 3) throw e;
        return '';
      });
      before = seen(t) ?? 0;
    }
    // Events triggered while waiting may still be on their way: the count must hold still for more
    // than two polls (16 s each, and a background round may put one poll late) before it is the baseline.
    for (let stable = Date.now(); Date.now() - stable < 36_000;) {
      await page.waitForTimeout(1_000);
      const now = seen((await lensRows(page)).join('\n')) ?? before;
      if (now !== before) {
        before = now;
        stable = Date.now();
      }
    }
    await sandboxControl('/events/trigger', { count: 2, contract: mine.address });
    const after = await watchUntil(
      page,
      'two more Incremented counted',
      async () => (await lensRows(page)).join('\n'),
      (x) => (seen(x) ?? 0) >= before + 2,
      90_000,
    );
    assert.equal(seen(after), before + 2, after);
    assert.match(after, /Incremented seen · last (just now|\d+ min ago)/);
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it('Go to Declaration on an Incremented row of Watched Contracts lands on its event line', async function () {
    this.timeout(120_000);
    const page = ui.page;
    await runCommandByTitle(page, 'View: Show Alephium');
    await expandRows(page, [
      [/^Counter/, /^Events/],
      [/^Events/, /^Incremented/],
    ]);
    await runFromContextMenu(
      page,
      () => rowAt(page, [/^Counter/, /^Events/, /^Incremented/]),
      'Go to Declaration',
    );
    // The event's name is selected, so the cursor stands after it and the status bar counts 11.
    const line = lineNo('event Incremented');
    const col = source.split('\n')[line - 1]!.indexOf('Incremented') + 'Incremented'.length + 1;
    const where = `Ln ${line}, Col ${col} (${'Incremented'.length} selected)`;
    const status = await watchUntil(
      page,
      'the cursor on the event declaration',
      () => page.locator('.statusbar').innerText(),
      (t) => t.includes(where),
      30_000,
    );
    assert.ok(status.includes(where), status);
    await page
      .locator('.tabs-container .tab.active', { hasText: 'counter.ral' })
      .waitFor({ timeout: 10_000 });
  });

  it('a simulated increment shows its debug message after the emit line', async function () {
    this.timeout(120_000);
    const page = ui.page;
    await openFile(page, 'counter.ral');
    // increment() is the second public function: its Simulate runs at once (no parameters).
    await clickLens(page, 'Simulate', 1);
    // The call's result opens as a document; the source is shown again to read the hint.
    await page
      .locator('.tab', { hasText: 'Simulated Counter.increment' })
      .first()
      .waitFor({ timeout: 60_000 });
    // The result document says the gas this simulation measured; the lens on pub fn increment must say it too.
    const result = await watchUntil(
      page,
      'the gas used in the simulated result',
      () => page.locator('.editor-instance .monaco-editor .view-lines').first().innerText(),
      (t) => /gas\sused:\s\d+/.test(t),
      30_000,
    );
    const gasUsed = Number(/gas\sused:\s(\d+)/.exec(result)![1]);
    await openFile(page, 'counter.ral');
    const text = await watchUntil(
      page,
      'the debug message after emit Debug',
      () => injectedText(page),
      (t) => /Debug: count is now \d+/.test(t),
      30_000,
    );
    assert.match(text, /Debug: count is now \d+/);
    // Lens rows with Simulate, top to bottom: get, increment, ... The second is increment's.
    const incrementRow = await watchUntil(
      page,
      'the gas lens on pub fn increment',
      async () => (await lensRows(page)).filter((r) => /(^|\| )Simulate( \||$)/.test(r))[1] ?? '',
      (r) => r.includes(' gas'),
      30_000,
    );
    assert.ok(
      incrementRow.includes(`${gasUsed.toLocaleString('en-US')} gas`),
      `the lens says the simulation's ${gasUsed} gas: ${incrementRow}`,
    );
  });

  it('Counter.incrementBy(101) shows a Problem at the asserting line naming ErrorCodes.StepTooLarge; its quick fix debugs the call to that assert', async function () {
    this.timeout(120_000);
    const page = ui.page;
    await openFile(page, 'counter.ral');
    await clickLens(page, 'Simulate', 2);
    const widget = page.locator('.quick-input-widget');
    await widget
      .locator('.quick-input-title', { hasText: 'Counter.incrementBy' })
      .waitFor({ timeout: 30_000 });
    await widget.locator('input').first().fill('101');
    await widget.locator('input').first().press('Enter');
    // The editor marks the asserting line.
    await page
      .locator('.editor-instance .monaco-editor .squiggly-error')
      .first()
      .waitFor({ timeout: 30_000 });
    // The error toast offers the next step: the same call in the debugger.
    const toast = page.locator('.notification-toast', { hasText: 'ErrorCodes.StepTooLarge' }).first();
    await toast.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(
      await toast.locator('.monaco-button', { hasText: 'Debug this failure' }).count(),
      1,
      await toast.innerText(),
    );
    await runCommandByTitle(page, 'Notifications: Clear All Notifications').catch(() => undefined);
    // The Problems view lists it with the constant's name, the call and the line.
    await runCommandByTitle(page, 'View: Focus Problems (Errors, Warnings, Infos)');
    const problems = await watchUntil(
      page,
      'the Problem naming the error constant',
      () => page.locator('.markers-panel').first().innerText(),
      (t) => t.includes('ErrorCodes.StepTooLarge = 1'),
      30_000,
    );
    assert.match(problems, /counter\.ral/);
    assert.match(
      problems,
      /Counter\.incrementBy\(101\) \(simulate\) failed — assertion in Counter failed: ErrorCodes\.StepTooLarge = 1/,
    );
    assert.match(problems, new RegExp(`\\[Ln ${lineNo('assert!(step <= MaxStep')}, Col \\d+\\]`));
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'debugging.png') });

    // The Problem's quick fix runs the same call in the debugger, which stops at the same assert.
    // A Problem's row takes the cursor to its line, where Quick Fix offers what can be done about it.
    await page
      .locator('.markers-panel .monaco-list-row', { hasText: 'ErrorCodes.StepTooLarge' })
      .first()
      .dblclick();
    await runCommandByTitle(page, 'Quick Fix...');
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'Debug this failure' });
    await fix
      .first()
      .waitFor({ state: 'visible', timeout: 20_000 })
      .catch(async (error: unknown) => {
        await page.screenshot({ path: path.join(OUTPUT_DIR, 'debugging-quick-fix-failure.png') });
        throw error;
      });
    // The widget takes the keyboard (a pointer block covers it): its one action is chosen with Enter.
    await page.keyboard.press('Enter');
    const failure = await watchUntil(
      page,
      'the debugger stopped on StepTooLarge',
      () => page.locator('.exception-widget').first().innerText({ timeout: 2_000 }),
      (t) => t.includes('StepTooLarge'),
      60_000,
    );
    assert.match(failure, /AssertionFailedWithErrorCode \(ErrorCodes\.StepTooLarge\)/);
    await runCommandByTitle(page, 'Debug: Stop');
    await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 30_000 });
  });
});
