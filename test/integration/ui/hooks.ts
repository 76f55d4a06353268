// Global fixtures of the UI suite: one VS Code server and one browser page with the extension loaded.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, makeTestWorkspace, workbenchUrl } from '../../../scripts/browser.mjs';
import { startServer, type StartedServer } from '../../../scripts/vscodeServer.mjs';
import { OUTPUT_DIR, waitForWorkbench } from './workbench';

export const ui: { page: Page; browser: Browser; server: StartedServer; workspace: string } = {} as never;

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(180_000);
    fs.mkdirSync(OUTPUT_DIR, { recursive: true });
    ui.workspace = makeTestWorkspace();
    ui.server = await startServer({ logFile: path.join(OUTPUT_DIR, 'vscode-server-ui.log') });
    ui.browser = await launchBrowser();
    ui.page = await ui.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await ui.page.goto(workbenchUrl(ui.server, { folder: ui.workspace }));
    await waitForWorkbench(ui.page);
  },
  async afterAll() {
    await ui.browser?.close().catch(() => undefined);
    ui.server?.stop();
    if (ui.workspace) fs.rmSync(ui.workspace, { recursive: true, force: true });
  },
};
