// Journey (issue 31): a person sets a breakpoint on counter.ral's `assert!(step <= MaxStep, …)` line, types
// 101 into incrementBy's form in the Contract Panel and presses Debug. VS Code's debugger stops at that
// line: the Call Stack names the frames, Variables show step = 101 and the fields read from the chain;
// Continue stops on the failure, named by its enum constant; Continue again ends the session. Every
// assertion reads the rendered workbench.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { ui } from './hooks';
import {
  editorTab,
  fillField,
  openFile,
  panelFrame,
  runCommandRetried as run,
  runFromContextMenu,
  trackFromPalette,
  watchUntil,
} from './journeyHelpers';
import type { Sandbox } from '../../../sandbox';
import { shortTxId } from '../../../src/core/protocol';
import {
  COUNTER_RAL,
  leaveOwnCounter,
  sendCounterCall,
  watchOwnCounter,
  type DeployedInstance,
} from './sandbox';
import { OUTPUT_DIR, runCommandByTitle } from './workbench';

const DEPLOYMENT = 'Counter:debugger';
const source = fs.readFileSync(COUNTER_RAL, 'utf8');
/** 1-based line of the first line containing `needle` at or after line `from`, as the editor numbers it. */
const lineNo = (needle: string, from = 1): number =>
  source.split('\n').findIndex((l, i) => i >= from - 1 && l.includes(needle)) + 1;
const ASSERT_LINE = lineNo('assert!(step <= MaxStep, ErrorCodes.StepTooLarge)');

const sidebarText = (page: Page) => () => page.locator('.part.sidebar').innerText({ timeout: 2_000 });

/** The breakpoint's dot in the editor's gutter (verified or not yet). */
const breakpointDot = (page: Page) =>
  page
    .locator(
      '.editor-instance .monaco-editor .codicon-debug-breakpoint, .editor-instance .monaco-editor .codicon-debug-breakpoint-unverified',
    )
    .first();

/** The debug toolbar is shown while a session runs. */
const toolbar = (page: Page) => page.locator('.debug-toolbar');

describe('UI: Ralph debugger (Contract Panel, Debug Transaction, Run and Debug)', () => {
  let restore: (() => void) | undefined;
  let sandbox: Sandbox;
  let counter: DeployedInstance;

  before(async function () {
    this.timeout(180_000);
    ({ restore, sandbox, counter } = await watchOwnCounter(ui.page, DEPLOYMENT));
    // The source the artifact was compiled from, where the breakpoint goes.
    fs.mkdirSync(path.join(ui.workspace, 'contracts'), { recursive: true });
    fs.copyFileSync(COUNTER_RAL, path.join(ui.workspace, 'contracts', 'counter.ral'));
  });

  after(async function () {
    this.timeout(90_000);
    const page = ui.page;
    if (
      await toolbar(page)
        .isVisible()
        .catch(() => false)
    )
      await runCommandByTitle(page, 'Debug: Stop').catch(() => undefined);
    // Only when the journey stopped before taking its breakpoint off.
    if (
      await breakpointDot(page)
        .isVisible()
        .catch(() => false)
    )
      await runCommandByTitle(page, 'Debug: Remove All Breakpoints').catch(() => undefined);
    await leaveOwnCounter(page, DEPLOYMENT, restore);
    fs.rmSync(path.join(ui.workspace, 'contracts'), { recursive: true, force: true });
  });

  it('stops at the assert! line with step = 101, then on StepTooLarge, then ends', async function () {
    this.timeout(300_000);
    const page = ui.page;

    // The breakpoint, as a person sets it: Go to Line, then Toggle Breakpoint (F9).
    // VS Code reopens a file where it was last left (an earlier spec left counter.ral at line 32), so the
    // editor is known to show it by a word of both the top and that line.
    await openFile(page, 'counter.ral', 'MaxStep');
    await runCommandByTitle(page, 'Go to Line/Column...');
    await page.locator('.quick-input-widget input').fill(`:${ASSERT_LINE}`);
    await page.keyboard.press('Enter');
    await runCommandByTitle(page, 'Debug: Toggle Breakpoint');
    await breakpointDot(page).waitFor({ state: 'visible', timeout: 20_000 });

    // The Contract Panel from the Watched Contracts row's menu; 101 is over MaxStep (100).
    await run(page, 'View: Show Alephium');
    const row = page.locator('.part.sidebar .monaco-list-row', { hasText: DEPLOYMENT }).first();
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    await runFromContextMenu(page, row, 'Open Contract Panel');
    const frame = await panelFrame(page, 'incrementBy', 60_000);
    const section = frame.locator('section[data-method="incrementBy"]');
    await fillField(section.locator('input[data-field="arg:0"]'), '101');
    await section.locator('button[data-action="debug"]').click();

    // Stopped at the breakpoint: VS Code opens Run and Debug; the Call Stack names both frames and the
    // line, Variables the argument.
    const stopped = await watchUntil(
      page,
      'the debugger stopped at the breakpoint',
      sidebarText(page),
      (t) => t.includes('Counter.incrementBy') && t.includes(`${ASSERT_LINE}:`) && /step\s*=?\s*101/.test(t),
      90_000,
    );
    assert.match(stopped, /TxScript \(calls Counter\.incrementBy\)/);
    assert.match(stopped, /breakpoint in Counter\.incrementBy/);
    // The fields, read from the deployed Counter's state (count starts at 0, the owner is its deployer).
    await page
      .locator('.part.sidebar .monaco-list-row', { hasText: /^Fields$/ })
      .first()
      .click();
    const fields = await watchUntil(
      page,
      'the Fields scope expanded',
      sidebarText(page),
      (t) => /count\s*=?\s*\d+/.test(t) && /paused\s*=?\s*false/.test(t),
      20_000,
    );
    assert.match(fields, /owner\s*=?\s*1\w{40,}/);
    // The Debug Console says what ran where, first.
    await runCommandByTitle(page, 'Debug Console: Focus on Debug Console View');
    const consoleText = await watchUntil(
      page,
      'the Debug Console names the local VM',
      () => page.locator('.repl').innerText({ timeout: 2_000 }),
      (t) => t.includes("on the project's VM"),
      20_000,
    );
    assert.match(
      consoleText,
      /Running Counter\.incrementBy on the project's VM \(a local run, not the node's\), from the state of \w+ read from profile/,
    );

    // Continue: the assert fails, and VS Code shows the exception at the same line.
    await runCommandByTitle(page, 'Debug: Continue');
    const failure = await watchUntil(
      page,
      'the exception widget names StepTooLarge',
      () => page.locator('.exception-widget').first().innerText({ timeout: 2_000 }),
      (t) => t.includes('StepTooLarge'),
      30_000,
    );
    assert.match(failure, /AssertionFailedWithErrorCode/);
    // The Call Stack still stands at the assert! line.
    assert.match(await sidebarText(page)(), new RegExp(`counter\\.ral\\s+${ASSERT_LINE}:`));
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'ralph-debugger.png') });

    // Continue again: the run ends, the toolbar goes, and the panel says what it started.
    await runCommandByTitle(page, 'Debug: Continue');
    await toolbar(page).waitFor({ state: 'hidden', timeout: 30_000 });
    const note = await frame
      .locator('section[data-method="incrementBy"] .debug-note')
      .innerText({ timeout: 10_000 });
    assert.match(note, /Debugging incrementBy in VS Code's debugger/);

    // The breakpoint off again, as a person takes it off: a click on its dot in the gutter.
    await editorTab(page, 'counter.ral').click();
    await breakpointDot(page).click();
    await breakpointDot(page).waitFor({ state: 'detached', timeout: 20_000 });
  });

  it('Debug Transaction on a confirmed increment(): into Counter.increment, count changes at its write, the Debug message and Incremented appear, the node agrees', async function () {
    this.timeout(300_000);
    const page = ui.page;
    const fnLine = lineNo('pub fn increment()');
    const countOnChain = () => String(sandbox.chain.findContract(counter.address)?.fields.count?.value);
    const before = countOnChain();
    const txId = await sendCounterCall(sandbox, counter, 'increment', []);
    const after = countOnChain();
    assert.equal(BigInt(after), BigInt(before) + 1n);

    // The tx in the Transactions view, Confirmed, then its row's Debug Transaction.
    await trackFromPalette(page, txId);
    await run(page, 'View: Show Alephium');
    const row = page.locator('.part.sidebar .monaco-list-row', { hasText: shortTxId(txId) }).first();
    await watchUntil(
      page,
      'the Transactions row to say Confirmed',
      () => row.innerText({ timeout: 2_000 }),
      (t) => /Confirmed/.test(t),
      90_000,
      () => sandbox.mine(),
      { intervalMs: 1_000 },
    );
    await runFromContextMenu(page, row, 'Debug Transaction (replay on the local VM)');
    // A stop at the entry leaves the Alephium view in front: open Run and Debug, as a person does.
    await toolbar(page).waitFor({ state: 'visible', timeout: 60_000 });
    await run(page, 'View: Show Run and Debug');

    // Stopped at the entry of Counter.increment, with the count as it was before the block.
    const fieldsRow = page.locator('.part.sidebar .monaco-list-row', { hasText: /^Fields$/ }).first();
    const countShown = (t: string) => new RegExp(`count\\s*=?\\s*${after}\\b`).test(t);
    const entry = await watchUntil(
      page,
      'the replay stopped at Counter.increment',
      sidebarText(page),
      (t) => t.includes('Counter.increment') && t.includes(`counter.ral\n${fnLine}:`),
      90_000,
    );
    assert.match(entry, new RegExp(`TxScript of ${txId.slice(0, 8)}`));
    if ((await fieldsRow.getAttribute('aria-expanded')) !== 'true') await fieldsRow.click();
    const atEntry = await watchUntil(
      page,
      'the Fields scope at the entry',
      sidebarText(page),
      (t) => new RegExp(`count\\s*=?\\s*${before}\\b`).test(t),
      20_000,
    );
    assert.ok(!countShown(atEntry), atEntry);

    // Step over the assert and the write: the count is one more, the Debug message printed once past it.
    const stepTo = async (line: number) => {
      await runCommandByTitle(page, 'Debug: Step Over');
      return watchUntil(
        page,
        `the stop at line ${line}`,
        sidebarText(page),
        (t) => t.includes(`counter.ral\n${line}:`),
        20_000,
      );
    };
    await stepTo(lineNo('assert!(!paused, ErrorCodes.Paused)', fnLine));
    const afterWrite = await stepTo(lineNo('emit Debug(', fnLine));
    if (!countShown(afterWrite) && (await fieldsRow.getAttribute('aria-expanded')) !== 'true')
      await fieldsRow.click();
    await watchUntil(page, 'count after its write', sidebarText(page), countShown, 20_000);
    await stepTo(lineNo('emit Incremented(callerAddress!(), count)', fnLine));
    await runCommandByTitle(page, 'Debug Console: Focus on Debug Console View');
    const repl = () => page.locator('.repl').innerText({ timeout: 2_000 });
    await watchUntil(page, 'the Debug message', repl, (t) => t.includes(`count is now ${after}`), 20_000);

    // Continue to the end: the event, then the node's verdict first and the fields after.
    await runCommandByTitle(page, 'Debug: Continue');
    await toolbar(page).waitFor({ state: 'hidden', timeout: 30_000 });
    const text = await watchUntil(
      page,
      "the node's verdict and the fields after",
      repl,
      (t) => t.includes('Fields after: Counter @'),
      20_000,
    );
    assert.match(text, /event Incremented @ \w+: \w+, 1?\d*/);
    assert.match(
      text,
      /The node's dry run of the same script at the same state agrees: it completed, gas \d+/,
    );
    const gas = /agrees: it completed, gas (\d+)/.exec(text)?.[1];
    assert.match(text, new RegExp(`The run completed, gas ${gas} \\(the project's VM\\)`));
    // The fields at the end are the chain's after the block.
    assert.match(
      text,
      new RegExp(
        `Fields after: Counter @ ${counter.address}: owner = \\w+, count = ${after}, paused = false`,
      ),
    );
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'ralph-debugger-replay.png') });
  });

  it("Run and Debug's Ralph list offers the watched Counter's methods; incrementBy(5) runs to its end", async function () {
    this.timeout(120_000);
    const page = ui.page;
    await runCommandByTitle(page, 'Debug: Select and Start Debugging');
    const widget = page.locator('.quick-input-widget');
    const providerRow = widget.locator('.monaco-list-row', { hasText: 'Ralph (Alephium VM)' }).first();
    await providerRow.waitFor({ state: 'visible', timeout: 20_000 });
    await providerRow.click();
    const entry = widget
      .locator('.monaco-list-row', { hasText: `Debug ${DEPLOYMENT}.incrementBy (` })
      .first();
    await entry.waitFor({ state: 'visible', timeout: 20_000 });
    const listed = await widget.locator('.quick-input-list').innerText();
    for (const m of ['get', 'increment', 'reset', 'pause', 'unpause'])
      assert.ok(listed.includes(`Debug ${DEPLOYMENT}.${m} (`), listed);
    await entry.click();
    // Chosen, it asks for the argument as Debug Contract Method does, then runs (no breakpoint is set).
    await widget.locator('.quick-input-title', { hasText: 'incrementBy' }).waitFor({ timeout: 30_000 });
    await widget.locator('input').first().fill('5');
    await widget.locator('input').first().press('Enter');
    await runCommandByTitle(page, 'Debug Console: Focus on Debug Console View');
    const text = await watchUntil(
      page,
      'the run of incrementBy(5) to its end',
      () => page.locator('.repl').innerText({ timeout: 2_000 }),
      (t) => t.includes('Running Counter.incrementBy') && /The run completed, gas \d+/.test(t),
      60_000,
    );
    assert.match(text, /Fields after: Counter: owner = \w+, count = \d+, paused = false/);
  });
});
