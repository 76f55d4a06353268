// Add Profile's Local devnet preset, as a person meets it: a Ralph project whose alephium.config.ts names
// its devnet node, the palette, a name, the preset picked from the kinds, and the Node view showing the
// new node profile active. The workspace settings are restored afterwards, so the suite's profile is the
// active one again for the specs after this one.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ui } from './hooks';
import { UI_PROFILE, uiSandbox } from './sandbox';
import { answerInput, rowText, watchUntil } from './journeyHelpers';
import { runCommandByTitle } from './workbench';

const PROFILE = 'Devnet preset';

describe('UI journey: Add Profile with the Local devnet preset', () => {
  const settingsFile = () => path.join(ui.workspace, '.vscode', 'settings.json');
  const configFile = () => path.join(ui.workspace, 'alephium.config.ts');
  let settingsBefore: string | undefined;

  before(() => {
    settingsBefore = fs.existsSync(settingsFile()) ? fs.readFileSync(settingsFile(), 'utf8') : undefined;
  });

  after(async function () {
    this.timeout(90_000);
    fs.rmSync(configFile(), { force: true });
    if (settingsBefore === undefined) fs.rmSync(settingsFile(), { force: true });
    else fs.writeFileSync(settingsFile(), settingsBefore);
    // The restored settings reach the extension host a moment later: until the status bar names the
    // suite's profile again, a spec after this one could track a transaction into the devnet profile
    // (where its Transactions row is not shown once the suite's profile is back).
    if (!settingsBefore?.includes(UI_PROFILE)) return;
    await watchUntil(
      ui.page,
      "the suite's profile active again",
      () =>
        ui.page
          .locator('.statusbar .statusbar-item', { hasText: 'Alephium' })
          .first()
          .innerText({ timeout: 2_000 }),
      (t) => t.includes(`${UI_PROFILE} · `),
      60_000,
    );
  });

  it("offers the project's devnet node, and the new profile is the active one in the Node view", async function () {
    this.timeout(180_000);
    const page = ui.page;
    const sandbox = await uiSandbox();
    // A loopback node URL a project could name (the sandbox answers there; its answers are not the point).
    const nodeUrl = `${sandbox.baseUrl}/${sandbox.slug}`;
    fs.writeFileSync(
      configFile(),
      `const configuration = {\n  networks: {\n    devnet: { nodeUrl: '${nodeUrl}', networkId: 4, privateKeys: [] },\n  },\n}\nexport default configuration\n`,
    );

    await runCommandByTitle(page, 'View: Show Alephium');
    await runCommandByTitle(page, 'Alephium: Add Profile');
    await answerInput(page, 'Add Profile (1/7)', PROFILE);
    const kinds = page.locator('.quick-input-widget');
    await kinds
      .locator('.monaco-list-row', { hasText: `Local devnet (${nodeUrl}, network id 4)` })
      .waitFor({ state: 'visible', timeout: 30_000 });
    await answerInput(page, 'Add Profile (2/7)', 'Local devnet');
    // Where to keep it: the user's settings first (the default), the workspace with what it means.
    const places = kinds.locator('.monaco-list-row');
    await kinds
      .locator('.quick-input-title', { hasText: 'Add Profile (3/3): where to keep it' })
      .waitFor({ state: 'visible', timeout: 30_000 });
    const placeTexts = await places.allInnerTexts();
    assert.match(placeTexts[0] ?? '', /User settings/);
    assert.match(placeTexts.join('\n'), /Shared with everyone who opens this folder/);
    assert.match(placeTexts.join('\n'), /ignored until you trust it/);
    // This journey keeps it in the workspace, so that restoring the workspace's file removes it.
    await answerInput(page, 'Add Profile (3/3): where to keep it', 'Workspace settings');
    // Three steps: no URL, network or key is asked for; the toast says what was added.
    await page
      .locator('.notifications-toasts', { hasText: `Profile "${PROFILE}" added and active` })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    const profileRow = await watchUntil(
      page,
      'the Node view shows the devnet profile active',
      rowText(page, new RegExp(`Profile: ${PROFILE}`)),
      (t) => /node · devnet/.test(t),
      60_000,
    );
    assert.match(profileRow, /node · devnet/);
    const urlRow = await rowText(page, /Base URL/)();
    assert.ok(urlRow.includes(nodeUrl), urlRow);
  });
});
