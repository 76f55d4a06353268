// Journey: outside text in an input box or a quick pick is text, never a link (issue 27, point 1). VS Code
// renders `[label](command:…)` in an input box's prompt and validation message as an anchor that runs the
// command. A cloned repository's .vscode/settings.json names the active profile with such a link; the
// person opens Send Transfer (whose first prompt names the profile) and Switch Profile (whose items do),
// and reads the name as it was written, with no link element anywhere in the quick input.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { Sandbox } from '../../../sandbox';
import { ui } from './hooks';
import { importSigner, runCommandRetried } from './journeyHelpers';
import { mergeWorkspaceSettings, sandboxProfile } from './sandbox';
import { OUTPUT_DIR } from './workbench';

/** What the workspace's settings call the profile: a link to a command, as an attacker would write it. */
const HOSTILE_NAME = 'Team [Open the type docs](command:workbench.action.openSettings?%22alephium%22)';
/** The same name as the extension shows it: every character there, the `](` that makes a link parted. */
const SHOWN_NAME = 'Team [Open the type docs] (command:workbench.action.openSettings?%22alephium%22)';
/**
 * Whatever VS Code renders as a clickable link in a quick input: the anchors `renderQuickInputDescription`
 * makes of `[label](command:…)` carry an href (the widget's own buttons are `a.action-label` without one).
 */
const LINK_ELEMENTS = 'a[href], .monaco-link, [role="link"]';

/** The link elements inside `scope`, as HTML (empty when there are none). */
async function linksIn(scope: Locator): Promise<string[]> {
  return scope.locator(LINK_ELEMENTS).evaluateAll((elements) => elements.map((e) => e.outerHTML));
}

/** The profiles the workspace's settings hold now (the suite's own, set by sandboxProfile). */
function workspaceProfiles(): unknown[] {
  const file = path.join(ui.workspace, '.vscode', 'settings.json');
  const settings = JSON.parse(fs.readFileSync(file, 'utf8')) as { 'alephium.profiles'?: unknown[] };
  return settings['alephium.profiles'] ?? [];
}

/**
 * Runs `command` until its quick input shows `ready` (the settings reach the extension a moment after they
 * are written, so an early run still names the suite's own profile): bounded, a screenshot on failure.
 */
async function openUntil(page: Page, command: string, ready: Locator): Promise<string> {
  const widget = page.locator('.quick-input-widget');
  let shown = '';
  for (let attempt = 1; attempt <= 8; attempt++) {
    await runCommandRetried(page, command);
    const opened = await ready
      .waitFor({ state: 'visible', timeout: 10_000 })
      .then(() => true)
      .catch(() => false);
    if (opened) return widget.innerText();
    shown = await widget.innerText({ timeout: 2_000 }).catch(() => '');
    await page.keyboard.press('Escape');
  }
  await page.screenshot({ path: path.join(OUTPUT_DIR, 'input-links-not-opened.png') });
  throw new Error(`${command}: the quick input never showed the workspace profile; last: ${shown}`);
}

describe('UI journey: outside text in input boxes and quick picks is text, not a link', () => {
  let sandbox: Sandbox;
  let restore: (() => void) | undefined;

  before(async function () {
    this.timeout(180_000);
    const page = ui.page;
    sandbox = await sandboxProfile(page);
    await importSigner(page, sandbox.accounts[0]!, runCommandRetried);
    // A node profile needs no API key: the journey reaches the prompts without typing one.
    restore = mergeWorkspaceSettings(ui.workspace, {
      'alephium.profiles': [
        ...workspaceProfiles(),
        {
          name: HOSTILE_NAME,
          kind: 'node',
          baseUrl: `${sandbox.baseUrl}/${sandbox.slug}`,
          network: 'devnet',
        },
      ],
      'alephium.activeProfile': HOSTILE_NAME,
    });
  });

  after(async function () {
    this.timeout(60_000);
    await ui.page.keyboard.press('Escape').catch(() => undefined);
    restore?.();
  });

  it("Send Transfer's prompt shows a workspace profile's [label](command:…) name as text, with no link", async function () {
    this.timeout(180_000);
    const page = ui.page;
    const widget = page.locator('.quick-input-widget');
    const message = widget.locator('.quick-input-message');
    await openUntil(page, 'Alephium: Send Transfer', message.filter({ hasText: 'Team' }));
    assert.match(await widget.locator('.quick-input-title').innerText(), /Send Transfer \(1\/4\): recipient/);
    const prompt = await message.innerText({ timeout: 2_000 });
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'input-links-send-transfer.png') });
    // Nothing in the quick input is a link that would run the command...
    assert.deepEqual(await linksIn(widget), [], `link rendered in: ${prompt}`);
    assert.equal(await message.locator('a').count(), 0, 'no anchor of any kind in the prompt');
    // ...and the name is there to read, whole.
    assert.ok(prompt.includes(`("${SHOWN_NAME}")`), prompt);
    assert.match(prompt, new RegExp(`From ${sandbox.accounts[0]!.address} on devnet`));
    await page.keyboard.press('Escape');
    await widget.waitFor({ state: 'hidden', timeout: 10_000 });
  });

  it('Switch Profile lists the workspace profile under its name as text, with no link', async function () {
    this.timeout(120_000);
    const page = ui.page;
    const widget = page.locator('.quick-input-widget');
    const row = widget.locator('.quick-input-list .monaco-list-row', { hasText: 'Team [Open' }).first();
    const shown = await openUntil(page, 'Alephium: Switch Profile', row);
    const text = await row.innerText({ timeout: 10_000 });
    assert.ok(text.includes(SHOWN_NAME), text);
    assert.deepEqual(await linksIn(widget), [], `link rendered in: ${shown}`);
    await page.keyboard.press('Escape');
    await widget.waitFor({ state: 'hidden', timeout: 10_000 });
  });
});
