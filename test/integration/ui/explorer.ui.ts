import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { shortTxId, signTxId, txIdFromUnsignedTx } from '../../../src/core/protocol';
import type { Sandbox } from '../../../sandbox';
import { ui } from './hooks';
import { answerInput, runCommandRetried, runFromContextMenu, watchUntil } from './journeyHelpers';
import { mergeWorkspaceSettings, sandboxApi, sandboxProfile, UI_PROFILE } from './sandbox';
import { runCommandByTitle } from './workbench';

/** A stand-in explorer on 127.0.0.1 that records the paths it was asked for (nothing goes to the internet). */
async function startExplorer(): Promise<{ url: string; paths: string[]; close(): Promise<void> }> {
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>explorer</title>explorer');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    paths,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A plain transfer from account 0 to account 1, built by the gateway, signed with the test key. */
async function submitTransfer(sandbox: Sandbox): Promise<string> {
  const [from, to] = sandbox.accounts;
  if (!from || !to) throw new Error('the sandbox has no test accounts');
  const built = await sandboxApi(sandbox, '/transactions/build', {
    fromPublicKey: from.publicKey,
    destinations: [{ address: to.address, attoCoinAmount: '1000000000000000000' }],
  });
  const txId = txIdFromUnsignedTx(built.unsignedTx as string);
  await sandboxApi(sandbox, '/transactions/submit', {
    unsignedTx: built.unsignedTx,
    signature: signTxId(txId, from.privateKey),
  });
  sandbox.mine();
  return txId;
}

/** The extension's status-bar item. */
function statusItem() {
  return ui.page.locator('.statusbar .statusbar-item', { hasText: 'Alephium' }).first();
}

describe('UI: the network and the explorer', () => {
  let sandbox: Sandbox;
  let explorer: Awaited<ReturnType<typeof startExplorer>>;
  let restore: (() => void) | undefined;

  before(async function () {
    this.timeout(120_000);
    sandbox = await sandboxProfile(ui.page);
    explorer = await startExplorer();
  });

  after(async () => {
    restore?.();
    await explorer.close();
  });

  it('Open in Explorer on a Transactions row opens the explorer URL of that tx', async function () {
    this.timeout(240_000);
    const page = ui.page;
    // The UI profile (a devnet: no public explorer) with an explorer of its own, on this machine.
    restore = mergeWorkspaceSettings(ui.workspace, {
      'alephium.profiles': [
        {
          name: UI_PROFILE,
          kind: 'gateway',
          baseUrl: sandbox.baseUrl,
          slug: sandbox.slug,
          network: 'devnet',
          plan: 'pro',
          explorerUrl: explorer.url,
        },
      ],
      'alephium.activeProfile': UI_PROFILE,
    });
    const txId = await submitTransfer(sandbox);
    await runCommandByTitle(page, 'Alephium: Track Transaction');
    await answerInput(page, 'Track Transaction', txId);
    const widget = page.locator('.quick-input-widget');
    await watchUntil(
      page,
      'Track Transaction asking for the groups',
      () => widget.innerText({ timeout: 2_000 }),
      (t) => t.includes('Groups from,to'),
      30_000,
    );
    await widget.locator('input').first().press('Enter');
    await runCommandRetried(page, 'View: Show Alephium');
    const row = page.locator('.part.sidebar .monaco-list-row', { hasText: shortTxId(txId) }).first();
    await row.waitFor({ state: 'visible', timeout: 60_000 });

    // In the browser workbench openExternal opens a new page: its URL is read (and it may reach the server).
    const opened: string[] = [];
    const onPage = (p: { url(): string }) => opened.push(p.url());
    page.context().on('page', onPage);
    await runFromContextMenu(page, row, 'Open in Explorer');
    // VS Code may ask before it opens a website: the dialog names the URL, and "Open" goes on.
    const dialog = page.locator('.monaco-dialog-box');
    const wanted = `/transactions/${txId}`;
    await watchUntil(
      page,
      'the explorer to be asked for the transaction',
      async () => {
        if (await dialog.isVisible().catch(() => false)) {
          const text = await dialog.innerText();
          assert.ok(text.includes(`${explorer.url}${wanted}`), text);
          await dialog.getByRole('button', { name: 'Open', exact: true }).click();
        }
        const live = page
          .context()
          .pages()
          .map((p) => p.url());
        return [...explorer.paths, ...opened, ...live].join('\n');
      },
      (urls) => urls.split('\n').some((u) => u.endsWith(wanted)),
      60_000,
    );
    page.context().off('page', onPage);
    const seen = [
      ...explorer.paths,
      ...opened,
      ...page
        .context()
        .pages()
        .map((p) => p.url()),
    ];
    // The page opened is the profile's explorer at the transaction's path (the server may see it too).
    assert.ok(
      seen.some((u) => u === `${explorer.url}${wanted}` || u.endsWith(wanted)),
      `opened: ${seen.join(', ')}`,
    );
    for (const p of page.context().pages()) if (p !== page) await p.close();
  });

  it('a mainnet profile shows "mainnet" in the status bar in its own colour', async function () {
    this.timeout(120_000);
    const page = ui.page;
    const devnetText = await watchUntil(
      page,
      'the devnet profile in the status bar',
      () => statusItem().innerText({ timeout: 2_000 }),
      (t) => t.includes(`${UI_PROFILE} · devnet`),
      60_000,
    );
    assert.doesNotMatch(devnetText, /mainnet/);
    assert.doesNotMatch((await statusItem().getAttribute('class')) ?? '', /warning-kind/);

    restore?.();
    // A node profile on mainnet (no key needed for what the status bar says; nothing is sent to it).
    restore = mergeWorkspaceSettings(ui.workspace, {
      'alephium.profiles': [
        { name: 'UI Mainnet', kind: 'node', baseUrl: 'http://127.0.0.1:9', network: 'mainnet' },
      ],
      'alephium.activeProfile': 'UI Mainnet',
    });
    const text = await watchUntil(
      page,
      'the mainnet profile in the status bar',
      () => statusItem().innerText({ timeout: 2_000 }),
      (t) => t.includes('UI Mainnet · mainnet'),
      60_000,
    );
    assert.match(text, /UI Mainnet · mainnet · node 127\.0\.0\.1:9/);
    await watchUntil(
      page,
      "the status bar item in mainnet's colour",
      async () => (await statusItem().getAttribute('class')) ?? '',
      (c) => c.includes('warning-kind'),
      30_000,
    );
  });
});
