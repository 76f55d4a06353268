// Journey of issue 27 (point 7): a key a person sets in the workbench `npm start` serves is still there
// after "Developer: Reload Window". The web workbench seals SecretStorage into the browser with a key half
// from the server (scripts/vscodeServerMain.mjs); without it every secret lived only in the window.
import { strict as assert } from 'node:assert';
import { SECRETS_NOT_KEPT } from '../../../src/core/util/secretPersistence';
import type { Sandbox } from '../../../sandbox';
import { ui } from './hooks';
import { mergeWorkspaceSettings, sandboxControl, sandboxProfile, UI_PROFILE } from './sandbox';
import { rowText, runCommandRetried, setApiKey, setSection, watchUntil } from './journeyHelpers';
import { runCommandByTitle, waitForWorkbench } from './workbench';

const SECOND_PROFILE = 'UI Second';

describe('UI journeys: keys set in the web workbench survive a reload', () => {
  let sandbox: Sandbox;
  let restoreSettings: () => void = () => undefined;

  before(async function () {
    this.timeout(180_000);
    sandbox = await sandboxProfile(ui.page);
  });

  after(() => restoreSettings());

  it('an API key set for a second profile is still there after Developer: Reload Window', async function () {
    this.timeout(300_000);
    const page = ui.page;
    // A key of its own (Free plan), so only what was typed below can make the second profile work.
    const { key } = (await sandboxControl('/keys', { plan: 'free' })) as { key: string };
    const profile = (name: string, plan: string) => ({
      name,
      kind: 'gateway',
      baseUrl: sandbox.baseUrl,
      slug: sandbox.slug,
      network: 'devnet',
      plan,
    });
    restoreSettings = mergeWorkspaceSettings(ui.workspace, {
      'alephium.profiles': [profile(UI_PROFILE, 'pro'), profile(SECOND_PROFILE, 'free')],
      'alephium.activeProfile': SECOND_PROFILE,
    });
    await setApiKey(page, SECOND_PROFILE, key);
    await runCommandByTitle(page, 'View: Show Alephium');
    await setSection(page, /^Node/i, true);
    const profileRow = rowText(page, /^Profile/);
    const sync = rowText(page, /^Sync/);
    await watchUntil(
      page,
      'the second profile is active',
      profileRow,
      (t) => t.includes(SECOND_PROFILE),
      30_000,
    );
    await watchUntil(page, 'the key works before the reload', sync, (t) => /Sync\s*synced/.test(t), 60_000);

    // Listened for before the command runs, so a fast reload is not missed; then the new workbench, not
    // the one being torn down, is what is waited for.
    const reloaded = page.waitForEvent('load', { timeout: 90_000 });
    await runCommandByTitle(page, 'Developer: Reload Window');
    await reloaded;
    await waitForWorkbench(page);
    // The palette of a workbench still restoring may close as it opens: retried (bounded).
    await runCommandRetried(page, 'View: Show Alephium');
    await setSection(page, /^Node/i, true);
    await watchUntil(
      page,
      'the second profile is active again',
      profileRow,
      (t) => t.includes(SECOND_PROFILE),
      60_000,
    );
    // "no API key" here is the key lost: SecretStorage came back empty.
    const after = await watchUntil(
      page,
      'the key set before the reload answers after it',
      sync,
      (t) => /Sync\s*(synced|no API key)/.test(t),
      90_000,
    );
    assert.match(after, /Sync\s*synced/, 'the key typed before the reload is still in SecretStorage');
    const notifications = await page
      .locator('.notifications-toasts')
      .innerText()
      .catch(() => '');
    assert.ok(!notifications.includes(SECRETS_NOT_KEPT), 'no "cannot keep secrets" warning after the reload');
  });
});
