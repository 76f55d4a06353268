// Journey: a person deploys a second Counter from the workspace's artifacts through the palette, accepts
// the confirmation, and from then on only watches: the new contract appears in Watched Contracts and in
// the deployments file; its increment runs from the contract panel (simulation, confirmation), the
// Transactions row reaches Confirmed, and the tree shows the new event and the new state. Every
// assertion reads the rendered workbench or the files on disk; none asks the extension's API.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Sandbox } from '../../../sandbox';
import { ui } from './hooks';
import {
  answerInput,
  clickModalButton,
  expandRows,
  panelFrame,
  rowText,
  sectionText,
  unwatchFromPalette,
  watchUntil,
} from './journeyHelpers';
import {
  mergeWorkspaceSettings,
  removeProject,
  sandboxCounter,
  sandboxProfile,
  writeArtifacts,
  writeDeployments,
} from './sandbox';
import { OUTPUT_DIR, runCommandByTitle } from './workbench';

describe('UI journey: deploy a second Counter and drive it from its panel', () => {
  let sandbox: Sandbox;
  let restore: (() => void) | undefined;
  const deploymentsFile = () => path.join(ui.workspace, 'deployments', '.deployments.devnet.json');

  before(async function () {
    this.timeout(180_000);
    const page = ui.page;
    sandbox = await sandboxProfile(page);
    const counter = sandbox.contracts.find((c) => c.name === 'Counter')!;
    // The workspace is a Ralph project: every artifact of the sandbox project (scripts included) and a
    // deployments file with the first Counter, as the CLI writes them.
    writeArtifacts(sandbox);
    writeDeployments(sandbox, { Counter: sandboxCounter(sandbox) });
    restore = mergeWorkspaceSettings(ui.workspace, { 'alephium.watch.whenUnfocused': 'continue' });
    const signer = sandbox.accounts[counter.groupIndex]!;
    await runCommandByTitle(page, 'Alephium: Import Signer Key');
    await answerInput(page, 'Import Signer Key', signer.privateKey);
    await page
      .locator('.notifications-toasts', { hasText: signer.address })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
  });

  after(async function () {
    this.timeout(60_000);
    const page = ui.page;
    await runCommandByTitle(page, 'View: Close All Editors').catch(() => undefined);
    // Leave the workbench as found for the next specs: the deployed Counter no longer watched (checked in
    // the tree, bounded: a contract left watched would stand first in the trees of the specs that follow).
    await runCommandByTitle(page, 'View: Show Alephium').catch(() => undefined);
    await unwatchFromPalette(page, 'Counter:2', { strict: true, treeRowGone: true });
    restore?.();
    removeProject();
  });

  it('Deploy Contract from the palette: the new Counter is watched and written to the deployments file', async function () {
    this.timeout(240_000);
    const page = ui.page;
    const owner = sandbox.accounts[0]!.address;
    // The artifacts reach the extension a moment after they are written: offer again (bounded).
    for (let attempt = 1; ; attempt++) {
      await runCommandByTitle(page, 'Alephium: Deploy Contract from Artifact');
      const widget = page.locator('.quick-input-widget');
      await widget
        .locator('.quick-input-title', { hasText: 'which artifact' })
        .waitFor({ state: 'visible', timeout: 30_000 });
      await widget.locator('input').first().fill('Counter');
      try {
        await widget
          .locator('.quick-input-list .monaco-list-row', { hasText: 'Counter' })
          .first()
          .waitFor({ state: 'visible', timeout: 5_000 });
        await widget.locator('input').first().press('Enter');
        break;
      } catch (error) {
        await page.keyboard.press('Escape');
        if (attempt === 6) throw error;
      }
    }
    await answerInput(page, 'Deploy Counter: owner', owner);
    await answerInput(page, 'Deploy Counter: mut count', '100');
    await answerInput(page, 'Deploy Counter: mut paused', 'false');
    await answerInput(page, 'Deploy Counter: initial ALPH', '0.1');
    const confirmation = await clickModalButton(page, 'Sign and Deploy');
    assert.match(confirmation, /creates exactly this code with exactly these encoded fields/);
    assert.match(confirmation, /count: U256 = 100/);

    // Hands off: blocks are mined; the tree and the file must follow.
    await runCommandByTitle(page, 'View: Show Alephium');
    await watchUntil(
      page,
      'the new Counter in Watched Contracts',
      rowText(page, /^Counter:2/),
      (t) => /Counter:2/.test(t),
      120_000,
      () => sandbox.mine(),
    );
    const file = JSON.parse(fs.readFileSync(deploymentsFile(), 'utf8')) as {
      contracts: Record<string, { contractInstance: { address: string } }>;
    };
    assert.deepEqual(Object.keys(file.contracts), ['Counter', 'Counter:2']);
  });

  it('increment from its panel: simulation, confirmation, Transactions Confirmed, the event and the state', async function () {
    this.timeout(300_000);
    const page = ui.page;
    await runCommandByTitle(page, 'Alephium: Open Contract Panel');
    await answerInput(page, 'Open Contract Panel', 'Counter:2');
    const frame = await panelFrame(page, 'increment', 60_000);
    const section = frame.locator('section[data-method="increment"]');
    await section.locator('button[data-action="simulate"]').click();
    const simulated = await watchUntil(
      page,
      'the simulation of increment',
      sectionText(frame, 'increment'),
      (t) => /Simulation (succeeded|failed)/.test(t),
      60_000,
    );
    assert.match(simulated, /Simulation succeeded/);
    assert.match(simulated, /newCount\b[^\n]*\b101\b/);

    await section.locator('button[data-action="execute"]').click();
    const confirmation = await clickModalButton(page, 'Sign and Execute');
    assert.match(confirmation, /Run Counter\.increment/);
    assert.match(confirmation, /byte-equal to the one built locally/);

    // Hands off again: the panel, the Transactions row and the tree follow the chain by themselves.
    await watchUntil(
      page,
      'the panel shows the tx confirmed',
      sectionText(frame, 'increment'),
      (t) => /Transaction confirmed/.test(t),
      120_000,
      () => sandbox.mine(),
    );
    await runCommandByTitle(page, 'View: Show Alephium');
    await watchUntil(
      page,
      'the Transactions row Confirmed',
      rowText(page, /Execute Counter\.increment/),
      (t) => /Confirmed/.test(t),
      120_000,
      () => sandbox.mine(),
    );
    const sidebar = page.locator('.part.sidebar');
    await expandRows(page, [
      [/^Counter:2/, /^Events/],
      [/^Events/, /Incremented/],
      [/^State/, /^count/],
    ]);
    const text = await watchUntil(
      page,
      'the new event and the new state in the tree',
      () => sidebar.innerText(),
      (t) => /newCount=101/.test(t) && /^count\s*101/m.test(t),
      90_000,
    );
    assert.match(text, /newCount=101/);
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'deploy-journey.png') });
  });
});
