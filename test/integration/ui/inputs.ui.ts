// Journey: bad input is caught where it is typed, and the palette agrees with the panel. A person deploys
// a Counter and types a deposit below the minimum (the box marks it with the rule; the values typed reach
// the confirmation); executes with a signer of another group (refused at once, before any method is
// asked); executes increment from the palette (no "ALPH to approve", and the result is said); picks the
// getter get() for Execute (marked view-only, Simulate offered, the fee said); and sees the panel offer
// get() as Simulate with a worded "Execute anyway". Every assertion reads the rendered workbench.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import type { Sandbox } from '../../../sandbox';
import { ui } from './hooks';
import {
  answerInput,
  chooseRow,
  clickModalButton,
  importSigner,
  panelFrame,
  runCommandRetried,
  unwatchFromPalette,
  watchUntil,
} from './journeyHelpers';
import { removeProject, watchOwnCounter } from './sandbox';
import { OUTPUT_DIR } from './workbench';

/** A Counter of this spec's own, so its increments move no Counter other specs count events of. */
const DEPLOYMENT = 'Counter:inputs';
const EXECUTE = 'Alephium: Execute Contract Method (sign and send)';

/** The text of the notification toasts (bounded read). */
function toasts(page: Page): () => Promise<string> {
  return () => page.locator('.notifications-toasts').innerText({ timeout: 2_000 });
}

describe('UI journey: inputs checked where typed; palette and panel agree', () => {
  let sandbox: Sandbox;
  let restore: (() => void) | undefined;
  let group = 0;

  before(async function () {
    this.timeout(180_000);
    const page = ui.page;
    ({ sandbox, group, restore } = await watchOwnCounter(page, DEPLOYMENT));
  });

  after(async function () {
    this.timeout(60_000);
    const page = ui.page;
    await page.keyboard.press('Escape');
    await runCommandRetried(page, 'View: Close All Editors').catch(() => undefined);
    await unwatchFromPalette(page, DEPLOYMENT, { run: runCommandRetried, strict: true });
    restore?.();
    removeProject();
  });

  it('Deploy: a deposit below the minimum is marked in its box; one the signer cannot fund brings the box back with the balance; what was typed reaches the confirmation', async function () {
    this.timeout(120_000);
    const page = ui.page;
    await runCommandRetried(page, 'Alephium: Deploy Contract from Artifact');
    await chooseRow(page, 'which artifact', 'Counter');
    await answerInput(page, 'Deploy Counter: owner', sandbox.accounts[0]!.address);
    await answerInput(page, 'Deploy Counter: mut count', '7');
    const widget = page.locator('.quick-input-widget');
    // Fields Counter may gain after these two: answered with their type's plain value (bounded). Each
    // step is read once the box before it has gone (its title differs).
    const title = widget.locator('.quick-input-title');
    let answered = 'Deploy Counter: mut count';
    for (let extra = 0; extra < 4; extra++) {
      const next = await watchUntil(
        page,
        'the next deploy step',
        () => title.innerText({ timeout: 2_000 }),
        (t) => t !== '' && !t.startsWith(answered),
        30_000,
      );
      if (/initial ALPH/.test(next)) break;
      const shown = await widget.innerText();
      await widget
        .locator('input')
        .first()
        .fill(/: Bool/.test(shown) ? 'false' : '0');
      await widget.locator('input').first().press('Enter');
      answered = next;
    }
    await widget
      .locator('.quick-input-title', { hasText: 'Deploy Counter: initial ALPH' })
      .waitFor({ state: 'visible', timeout: 30_000 });
    const input = widget.locator('input').first();
    await input.fill('0.01');
    const marked = await watchUntil(
      page,
      'the deposit box marks 0.01',
      () => widget.innerText({ timeout: 2_000 }),
      (t) => /0\.01 ALPH is less/.test(t),
      10_000,
    );
    assert.match(marked, /at least 0\.1 ALPH \(the node's minimal contract deposit\); 0\.01 ALPH is less/);
    // Enter on a marked box does not accept it: the box stays, with the owner and count still to come.
    await input.press('Enter');
    assert.equal(await input.inputValue(), '0.01');
    // A deposit the signer cannot fund passes the box and is refused by the node's build: the flow comes
    // back to this box with the amount kept and the shortfall said beside the balance.
    await input.fill('999999999');
    await input.press('Enter');
    const short = await watchUntil(
      page,
      'the deposit box back with the shortfall',
      () => widget.innerText({ timeout: 2_000 }),
      (t) => /initial ALPH/.test(t) && /Not enough ALPH/.test(t),
      60_000,
    );
    assert.match(short, /the transaction needs 999999999\.\d+ ALPH \(\d+ atto\) with the fee/);
    assert.match(short, new RegExp(`The balance of ${sandbox.accounts[group]!.address} is [\\d.]+ ALPH`));
    assert.equal(await input.inputValue(), '999999999');
    await input.fill('0.2');
    await input.press('Enter');
    const confirmation = await clickModalButton(page, 'Cancel');
    assert.match(confirmation, /count: U256 = 7/);
    assert.match(confirmation, /Deposit: 0\.2 ALPH/);
  });

  it('Execute with a signer of another group is refused as soon as the contract is picked', async function () {
    this.timeout(120_000);
    const page = ui.page;
    const stranger = sandbox.accounts[(group + 1) % 4]!;
    await importSigner(page, stranger, runCommandRetried);
    try {
      await runCommandRetried(page, EXECUTE);
      await chooseRow(page, 'Execute Contract Method', DEPLOYMENT);
      const said = await watchUntil(
        page,
        'the group refusal',
        toasts(page),
        (t) => /but the signer/.test(t),
        30_000,
      );
      assert.match(said, new RegExp(`is in group ${group}, but the signer ${stranger.address}`));
      // Nothing else was asked: no method pick opened.
      const methodPick = page.locator('.quick-input-title', { hasText: 'a method of' });
      assert.equal(await methodPick.isVisible(), false);
    } finally {
      await importSigner(page, sandbox.accounts[group]!, runCommandRetried);
    }
  });

  it('Execute increment from the palette: no ALPH to approve is asked, and the result is said', async function () {
    this.timeout(240_000);
    const page = ui.page;
    await runCommandRetried(page, EXECUTE);
    await chooseRow(page, 'Execute Contract Method', DEPLOYMENT);
    await chooseRow(page, 'a method of Counter', 'increment()');
    // The next thing shown is the confirmation, not an "ALPH to approve" box.
    const confirmation = await clickModalButton(page, 'Sign and Execute');
    assert.match(confirmation, /Run Counter\.increment/);
    assert.match(confirmation, /Approves: nothing/);
    const said = await watchUntil(
      page,
      'the execution said',
      toasts(page),
      (t) => /Executed Counter\.increment/.test(t),
      180_000,
      () => sandbox.mine(),
    );
    assert.match(said, /Executed Counter\.increment \(tx [^)]+\): (in a block|submitted); fee [\d.]+ ALPH/);
  });

  it('Execute offers the getter get() as Simulate, says what executing it costs, and Simulate says its result', async function () {
    this.timeout(120_000);
    const page = ui.page;
    await runCommandRetried(page, EXECUTE);
    await chooseRow(page, 'Execute Contract Method', DEPLOYMENT);
    const row = await chooseRow(page, 'a method of Counter', 'get()');
    assert.match(row, /view-only: Simulate reads it for free/);
    const widget = page.locator('.quick-input-widget');
    await widget
      .locator('.quick-input-title', { hasText: 'is view-only' })
      .waitFor({ state: 'visible', timeout: 30_000 });
    const choices = await widget.locator('.quick-input-list').innerText();
    assert.match(choices, /Simulate get \(free: reads the result, nothing is signed\)/);
    assert.match(choices, /Execute anyway as a transaction \(costs ~0\.002 ALPH, changes nothing\)/);
    await chooseRow(page, 'is view-only', 'Simulate get');
    const said = await watchUntil(
      page,
      'the simulation said',
      toasts(page),
      (t) => /Simulated Counter\.get/.test(t),
      60_000,
    );
    assert.match(said, /Simulated Counter\.get: \S+ = \d+; gas \d+; 0 event\(s\)\. Nothing was signed\./);
  });

  it('Simulate Contract Call is titled for simulation; the panel offers get() as Simulate with a worded Execute anyway', async function () {
    this.timeout(120_000);
    const page = ui.page;
    await runCommandRetried(page, 'Alephium: Simulate Contract Call');
    await chooseRow(page, 'Simulate Contract Call', DEPLOYMENT);
    await page
      .locator('.quick-input-title', { hasText: 'Simulate Contract Call: a method of Counter' })
      .waitFor({ state: 'visible', timeout: 30_000 });
    await page.keyboard.press('Escape');

    await runCommandRetried(page, 'Alephium: Open Contract Panel');
    await answerInput(page, 'Open Contract Panel', DEPLOYMENT);
    const frame = await panelFrame(page, 'get', 60_000);
    const get = frame.locator('section[data-method="get"]');
    assert.equal(await get.locator('button[data-action="execute"]').count(), 0);
    assert.match(
      await get.locator('button[data-action="execute-anyway"]').innerText(),
      /Execute anyway as a transaction \(costs ~0\.002 ALPH, changes nothing\)/,
    );
    assert.match(await get.innerText(), /View-only: Simulate reads it for free/);
    const increment = frame.locator('section[data-method="increment"]');
    assert.equal(await increment.locator('button[data-action="execute"]').count(), 1);
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'inputs-journey.png') });
  });
});
