import { strict as assert } from 'node:assert';
import { shortTxId, txIdFromUnsignedTx } from '../../../src/core/protocol';
import { signTxId } from '../../../src/core/protocol/keys';
import type { Sandbox } from '../../../sandbox';
import { ui } from './hooks';
import { runCommandRetried, runFromContextMenu, trackFromPalette, watchUntil } from './journeyHelpers';
import { mergeWorkspaceSettings, sandboxApi, sandboxProfile, UI_PROFILE } from './sandbox';

/**
 * A stand-in explorer: the browser's requests to it are answered by the test (Playwright's routing), so
 * nothing leaves the machine and the opened URL is read exactly. (A 127.0.0.1 explorer would not do: the
 * browser workbench of code-server rewrites a loopback URL to its own port-forwarding proxy, path dropped.)
 */
async function startExplorer(): Promise<{ url: string; paths: string[]; close(): Promise<void> }> {
  // Every URL the browser asked of the explorer, whole.
  const url = 'https://explorer.invalid';
  const paths: string[] = [];
  const pattern = /^https:\/\/explorer\.invalid\//;
  await ui.page.context().route(pattern, async (route) => {
    paths.push(route.request().url());
    await route.fulfill({ status: 200, contentType: 'text/html', body: '<title>explorer</title>explorer' });
  });
  return { url, paths, close: () => ui.page.context().unroute(pattern) };
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
    // The UI profile (a devnet: no public explorer) with an explorer of its own.
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
    await trackFromPalette(page, txId);
    await runCommandRetried(page, 'View: Show Alephium');
    const row = page.locator('.part.sidebar .monaco-list-row', { hasText: shortTxId(txId) }).first();
    await row.waitFor({ state: 'visible', timeout: 60_000 });

    await runFromContextMenu(page, row, 'Open in Explorer');
    // VS Code asks before it opens a website it does not trust: the dialog names the URL; "Open" goes on.
    const dialog = page.locator('.monaco-dialog-box');
    const wanted = `/transactions/${txId}`;
    let asked = '';
    await watchUntil(
      page,
      'the explorer to be asked for the transaction',
      async () => {
        if (await dialog.isVisible().catch(() => false)) {
          asked = await dialog.innerText();
          await dialog.getByRole('button', { name: 'Open', exact: true }).click();
        }
        return explorer.paths.join('\n');
      },
      () => explorer.paths.some((u) => u.endsWith(wanted)),
      60_000,
    );
    if (asked) assert.ok(asked.includes(`${explorer.url}${wanted}`), asked);
    // The browser was sent to the explorer's page of that transaction, and to nothing else.
    const pages = explorer.paths.filter((u) => !u.endsWith('/favicon.ico'));
    assert.deepEqual(pages, [`${explorer.url}${wanted}`]);
    const opened = page
      .context()
      .pages()
      .filter((p) => p !== page);
    for (const p of opened) await p.close();
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
