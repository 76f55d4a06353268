// The "Get started" walkthrough as a newcomer meets it: opened from the palette ("Welcome: Open
// Walkthrough..."), every step open in a fresh workbench, then its buttons: the devnet preset, the CLI's
// devnet test key, Counter from the deployments file; each of those steps shows as done by itself.
// Named 01-… so it runs right after the foundation spec, before other specs add profiles, keys or
// contracts (a walkthrough step stays done once done). The workspace is left as found.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { ui } from './hooks';
import { mergeWorkspaceSettings, uiSandbox, writeSandboxProject } from './sandbox';
import { answerInput, clickModalButton, unwatchFromPalette, watchUntil } from './journeyHelpers';
import { OUTPUT_DIR, runCommandByTitle } from './workbench';

const PROFILE = 'Walkthrough devnet';
const STEPS = ['connect', 'signer', 'watch', 'simulate', 'deploy'] as const;
type Step = (typeof STEPS)[number];

/** Whether the walkthrough shows a step as done: its checkbox, as VS Code renders and announces it. */
async function stepsDone(page: Page): Promise<Record<Step, boolean>> {
  const done = {} as Record<Step, boolean>;
  for (const step of STEPS) {
    const box = page.locator(`[data-done-step-id$="#${step}"]`).first();
    done[step] = (await box.getAttribute('aria-checked', { timeout: 5_000 })) === 'true';
  }
  return done;
}

/**
 * "Welcome: Open Walkthrough...", the walkthrough typed into its picker and its row clicked, as a person would.
 *
 * Under load the Welcome editor sometimes opens VS Code's own first walkthrough ("Setup VS Code Web") instead
 * of the one picked (CI run 6, and once in three runs beside a heavy job here, with Enter and with a click):
 * VS Code's page, built in a first session before it lists the walkthrough asked for, falls back to its first
 * one (`gettingStarted.ts`, `buildCategoriesSlide`, "openToFirstCategory"). A retry must close the editors
 * first: openWalkthrough does nothing while the active Welcome editor is inside another walkthrough
 * (`gettingStarted.contribution.ts`, "currently in a walkthrough"), which is why the earlier retries failed.
 */
async function openWalkthrough(page: Page): Promise<void> {
  const firstStep = page.locator('h3.step-title', { hasText: 'Connect to a node' }).first();
  for (let attempt = 1; ; attempt++) {
    await runCommandByTitle(page, 'Welcome: Open Walkthrough...');
    const widget = page.locator('.quick-input-widget');
    await widget.locator('input').first().fill('Get started with Alephium Gateway');
    const row = widget.locator('.monaco-list-row', { hasText: 'Get started with Alephium Gateway' }).first();
    // The pointer left where the palette's row was: resting on the picker's rows it raises a hover over them,
    // which takes the click.
    await page.mouse.move(0, 0);
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    await row.click();
    try {
      await firstStep.waitFor({ state: 'visible', timeout: 20_000 });
      return;
    } catch (error) {
      await page.screenshot({ path: path.join(OUTPUT_DIR, `walkthrough-open-${attempt}.png`) });
      console.log(
        `[ui] the walkthrough did not show after attempt ${attempt}; closing the editors, opening it again`,
      );
      await page.keyboard.press('Escape');
      if (attempt >= 3) throw error;
      await runCommandByTitle(page, 'View: Close All Editors');
    }
  }
}

/** Opens a step (its title) and clicks the button its description offers. */
async function clickStepButton(page: Page, title: string, button: string): Promise<void> {
  await page.locator('h3.step-title', { hasText: title }).first().click();
  const link = page.locator('.gettingStartedContainer .monaco-button', { hasText: button }).first();
  await link.waitFor({ state: 'visible', timeout: 30_000 });
  await link.click();
}

async function untilDone(page: Page, step: Step): Promise<void> {
  await watchUntil(
    page,
    `the walkthrough shows the ${step} step done`,
    async () => JSON.stringify(await stepsDone(page)),
    (t) => (JSON.parse(t) as Record<Step, boolean>)[step],
    60_000,
  );
}

describe('UI journey: the Get started walkthrough, from a fresh profile to a watched contract', () => {
  const cleanups: (() => void)[] = [];

  after(async () => {
    // The signer imported here is the public devnet test key: forget it, so no later spec signs with it.
    await runCommandByTitle(ui.page, 'Alephium: Forget Signer Key').catch(() => undefined);
    await clickModalButton(ui.page, 'Forget').catch(() => undefined);
    await runCommandByTitle(ui.page, 'View: Close All Editors').catch(() => undefined);
    // The Counter watched through the walkthrough: unwatched, so later specs' views list only their own
    // (left watched, its rows pushed theirs out of a short Watched Contracts pane).
    const counter = (await uiSandbox()).contracts.find((c) => c.name === 'Counter')!;
    await unwatchFromPalette(ui.page, counter.address);
    for (const cleanup of cleanups.reverse()) cleanup();
  });

  it('opens from the palette, and its steps complete by themselves as the buttons are used', async function () {
    this.timeout(300_000);
    const page = ui.page;
    const sandbox = await uiSandbox();
    // No profile yet, in the workspace's settings (the one added here is written there, by choice, and removed).
    cleanups.push(
      mergeWorkspaceSettings(ui.workspace, { 'alephium.profiles': [], 'alephium.activeProfile': '' }),
    );
    cleanups.push(writeSandboxProject(ui.workspace, sandbox));

    await openWalkthrough(page);
    assert.deepEqual(
      await stepsDone(page),
      { connect: false, signer: false, watch: false, simulate: false, deploy: false },
      'a fresh workbench has every step open',
    );

    // 1. Connect: Add Profile with the local devnet preset (the project's devnet node is the sandbox).
    await clickStepButton(page, 'Connect to a node', 'Add Profile');
    await answerInput(page, 'Add Profile (1/7)', PROFILE);
    await answerInput(page, 'Add Profile (2/7)', 'Local devnet');
    await answerInput(page, 'Add Profile (3/3): where to keep it', 'Workspace settings');
    await untilDone(page, 'connect');

    // 2. The signer: the box offers the CLI's devnet test key on this devnet profile, labelled as public.
    await clickStepButton(page, 'Import a signer key', 'Import Signer Key');
    const box = page.locator('.quick-input-widget');
    await box.locator('.quick-input-title', { hasText: 'Import Signer Key' }).waitFor({ timeout: 30_000 });
    const prompt = await box.innerText();
    assert.match(prompt, /type "devnet" for @alephium\/cli's default devnet test key/);
    assert.match(prompt, /public test key — anyone can spend from it; devnet only/);
    await answerInput(page, 'Import Signer Key', 'devnet');
    await page
      .locator('.notifications-toasts', { hasText: "@alephium/cli's default devnet test key stored" })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    await untilDone(page, 'signer');

    // 3. Watch Counter from the project's deployments file.
    await clickStepButton(page, 'Watch a contract', 'Watch Contract');
    await box.locator('.quick-input-title', { hasText: 'Watch Contract' }).waitFor({ timeout: 30_000 });
    await box.locator('input').first().fill('Counter');
    await box.locator('.monaco-list-row', { hasText: 'Counter' }).first().waitFor({ timeout: 30_000 });
    await box.locator('input').first().press('Enter');
    await untilDone(page, 'watch');

    const done = await stepsDone(page);
    assert.deepEqual(done, { connect: true, signer: true, watch: true, simulate: false, deploy: false });

    // What a screen reader says for rows whose state is an icon: the watched contract and the Sync row.
    // From the activity bar, as a person would: the walkthrough page moves focus to its next step as one
    // completes, which closed a palette opened at that moment.
    const alephium = page
      .locator('.activitybar .action-item', { has: page.locator('a[aria-label^="Alephium"]') })
      .first();
    if (!((await alephium.getAttribute('class')) ?? '').includes('checked'))
      await alephium.locator('a').first().click();
    const spoken = (label: RegExp) =>
      watchUntil(
        page,
        `a row announced as ${label.source}`,
        () =>
          page
            .locator('.part.sidebar .monaco-list-row')
            .evaluateAll((rows): string => rows.map((r) => r.getAttribute('aria-label') ?? '').join('\n')),
        (t) => label.test(t),
        60_000,
      );
    assert.match(await spoken(/^Contract Counter, .+, group \d, .+$/m), /Contract Counter/);
    assert.match(await spoken(/^Node sync state: .+$/m), /Node sync state/);
  });

  // Runs on the first journey's profile, key and watched Counter, with the walkthrough still open.
  it('Simulate from its step: the method and its argument are typed with the keyboard alone', async function () {
    this.timeout(120_000);
    const page = ui.page;
    await openWalkthrough(page);
    // A person clicks the step; VS Code's walkthrough page focuses it once its slide ends (250 ms, a timer
    // in gettingStarted.ts), and the person presses the button after that. The page's own focus() call
    // on the step is what is waited for: the click's native focus comes first and would not say it.
    await page.evaluate(`(() => {
      window.__stepFocused = [];
      const focus = HTMLElement.prototype.focus;
      window.__focusBeforeJourney = focus;
      HTMLElement.prototype.focus = function (...args) {
        const step = this.getAttribute && this.getAttribute('data-step-id');
        if (step) window.__stepFocused.push(step);
        return focus.apply(this, args);
      };
    })()`);
    await page.locator('h3.step-title', { hasText: 'Simulate a method' }).first().click();
    await watchUntil(
      page,
      'the walkthrough focusing the Simulate step',
      () => page.evaluate<string>('window.__stepFocused.join(" ")'),
      (ids) => ids.includes('#simulate'),
      30_000,
    );
    // The later journeys get the workbench's own focus() back.
    await page.evaluate('HTMLElement.prototype.focus = window.__focusBeforeJourney');
    await page
      .locator('.gettingStartedContainer .monaco-button', { hasText: 'Simulate Contract Method' })
      .first()
      .click();

    // Keyboard only from here: whatever does not have the focus does not get the keys.
    const widget = page.locator('.quick-input-widget');
    const box = widget.locator('input').first();
    /** Waits for the prompt titled `text` (whatever else the quick input's DOM holds). */
    const promptTitled = (text: string) =>
      page
        .locator('.quick-input-widget .quick-input-title', { hasText: text })
        .first()
        .waitFor({ state: 'visible', timeout: 30_000 });
    // With more than one contract watched a contract pick comes first; it takes the keyboard too.
    await promptTitled('Simulate');
    const methodPick = page.locator('.quick-input-widget .quick-input-title', {
      hasText: 'a method of Counter',
    });
    if (!(await methodPick.first().isVisible())) {
      await page.keyboard.type('Counter');
      await widget.locator('.monaco-list-row', { hasText: 'Counter' }).first().waitFor({ timeout: 30_000 });
      await page.keyboard.press('Enter');
    }
    await promptTitled('a method of Counter');
    await page.keyboard.type('incrementBy');
    await watchUntil(
      page,
      'the typed method',
      () => box.inputValue(),
      (v) => v === 'incrementBy',
      10_000,
    );
    await page.keyboard.press('Enter');
    await promptTitled('Counter.incrementBy: step');
    await page.keyboard.type('7');
    assert.equal(
      await watchUntil(
        page,
        'the typed argument',
        () => box.inputValue(),
        (v) => v === '7',
        10_000,
      ),
      '7',
    );
    await page.keyboard.press('Escape');
  });
});
