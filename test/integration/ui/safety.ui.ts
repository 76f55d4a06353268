// Nothing a gateway or a workspace says can act for the user, read where a person sees it:
// - a gateway's error detail that carries Markdown link syntax to a command (the attack that once sent
//   funds with one click) shows in the error toast as text, with no link in the rendered notification;
// - a cloned workspace's task that runs Send Transfer with `confirm: false` still meets the confirmation
//   (the workbench runs the extension as a user's VS Code does: arguments never skip it there).
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ui } from './hooks';
import { answerInput, runTask } from './journeyHelpers';
import { sandboxControl, sandboxProfile } from './sandbox';
import { OUTPUT_DIR, runCommandByTitle, hidePanel } from './workbench';

describe('UI: nothing a gateway or a workspace says acts for the user', () => {
  after(async () => {
    const sandbox = await sandboxProfile();
    await fetch(`${sandbox.baseUrl}/__sandbox/faults`, { method: 'DELETE' }).catch(() => undefined);
  });

  it("shows a gateway's [label](command:…) detail in the error toast as text, not as a link", async function () {
    this.timeout(180_000);
    const page = ui.page;
    const sandbox = await sandboxProfile(page);
    const attacker = sandbox.accounts[3]!.address;
    const send = encodeURIComponent(JSON.stringify({ to: attacker, amount: '7', confirm: false }));
    const detail =
      `Session expired. [Retry now](command:alephium.sendTransfer?${send}) ` +
      `[Open settings](command:workbench.action.openSettings?%22alephium%22) [Docs](https://evil.example/x)`;
    await sandboxControl('/faults', { path: '/addresses/*', kind: 'status', status: 400, detail, count: 1 });
    const submitsBefore = sandbox.requests.filter((r) => r.path.endsWith('/transactions/submit')).length;

    await runCommandByTitle(page, 'Alephium: Address Info');
    await answerInput(page, 'Address Info', sandbox.accounts[1]!.address);

    const toast = page
      .locator('.notifications-toasts .notification-list-item', { hasText: 'Session expired' })
      .first();
    await toast.waitFor({ state: 'visible', timeout: 60_000 });
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'inert-error-toast.png') });
    const message = toast.locator('.notification-list-item-message');
    const text = await message.innerText();
    // What the gateway said is there to read, as text...
    assert.match(text, /Session expired\. \[Retry now\] \(command:alephium\.sendTransfer/);
    assert.match(text, /\[Docs\] \(https:\/\/evil\.example\/x\)/);
    // ...and nothing in it is a link: VS Code renders a notification's links as anchors.
    assert.equal(await message.locator('a').count(), 0, `links rendered in: ${text}`);
    assert.equal(
      sandbox.requests.filter((r) => r.path.endsWith('/transactions/submit')).length,
      submitsBefore,
      'nothing was sent',
    );
    await toast
      .locator('.codicon-notifications-clear, .codicon-close')
      .first()
      .click()
      .catch(() => undefined);
  });

  it('a workspace task that runs Send Transfer with confirm: false meets the confirmation, and Cancel sends nothing', async function () {
    this.timeout(180_000);
    const page = ui.page;
    const sandbox = await sandboxProfile(page);
    const signer = sandbox.accounts[2]!;
    const attacker = sandbox.accounts[3]!.address;
    await runCommandByTitle(page, 'Alephium: Import Signer Key');
    await answerInput(page, 'Import Signer Key', signer.privateKey);
    await page
      .locator('.notifications-toasts', { hasText: signer.address })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    // A cloned repository's tasks.json: an innocent-looking task whose input runs a command with arguments.
    const tasksFile = path.join(ui.workspace, '.vscode', 'tasks.json');
    fs.writeFileSync(
      tasksFile,
      JSON.stringify({
        version: '2.0.0',
        tasks: [{ label: 'format sources', type: 'shell', command: 'echo ${input:go}', problemMatcher: [] }],
        inputs: [
          {
            id: 'go',
            type: 'command',
            command: 'alephium.sendTransfer',
            args: { to: attacker, amount: '7', confirm: false },
          },
        ],
      }),
    );
    const submitsBefore = sandbox.requests.filter((r) => r.path.endsWith('/transactions/submit')).length;
    try {
      await runTask(page, 'format sources');
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor({ state: 'visible', timeout: 60_000 });
      const text = await dialog.innerText();
      await page.screenshot({ path: path.join(OUTPUT_DIR, 'task-confirm-false-modal.png') });
      assert.match(text, new RegExp(`Send 7 ALPH to ${attacker}`));
      await dialog.locator('.monaco-button', { hasText: 'Cancel' }).first().click();
      await dialog.waitFor({ state: 'hidden', timeout: 30_000 });
      assert.equal(
        sandbox.requests.filter((r) => r.path.endsWith('/transactions/submit')).length,
        submitsBefore,
        'nothing was signed or sent',
      );
    } finally {
      fs.rmSync(tasksFile, { force: true });
      await page.keyboard.press('Escape').catch(() => undefined);
      // Running a task opens a terminal that takes the focus a moment later: leave the workbench as found,
      // or the next spec's palette opens under it.
      await runCommandByTitle(page, 'Terminal: Kill All Terminals').catch(() => undefined);
      await hidePanel(page);
    }
  });
});
