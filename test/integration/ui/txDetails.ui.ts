import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { decodeUnsignedTx, encodeUnsignedTx, txIdFromUnsignedTx } from '../../../src/core/protocol';
import { signTxId } from '../../../src/core/protocol/keys';
import type { Sandbox } from '../../../sandbox';
import { ui } from './hooks';
import { sandboxApi, sandboxProfile } from './sandbox';
import { OUTPUT_DIR, runCommandByTitle, textOfAllFrames, hidePanel } from './workbench';

// Markup in a field that comes from the chain: it must show as text and never run.
const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';

/**
 * A transfer whose recipient output carries HOSTILE as its message, built by the gateway, then
 * re-encoded with the message, signed with the sandbox's test key and submitted, as any wallet could.
 */
async function submitHostileTransfer(sandbox: Sandbox): Promise<string> {
  const from = sandbox.accounts[0];
  const to = sandbox.accounts[1];
  if (!from || !to) throw new Error('the sandbox has no test accounts');
  const api = (route: string, body: unknown) => sandboxApi(sandbox, route, body);
  const built = await api('/transactions/build', {
    fromPublicKey: from.publicKey,
    destinations: [{ address: to.address, attoCoinAmount: '1250000000000000000' }],
  });
  const tx = decodeUnsignedTx(built.unsignedTx as string);
  (tx.fixedOutputs[0] as { message: string }).message = Buffer.from(HOSTILE, 'utf8').toString('hex');
  const unsignedTx = encodeUnsignedTx(tx);
  const txId = txIdFromUnsignedTx(unsignedTx);
  await api('/transactions/submit', { unsignedTx, signature: signTxId(txId, from.privateKey) });
  sandbox.mine();
  return txId;
}

async function pwnedFlags(frames: Frame[]): Promise<unknown[]> {
  const flags = await Promise.all(frames.map((f) => f.evaluate('window.__pwned').catch(() => undefined)));
  return flags.filter((v) => v !== undefined);
}

describe('UI: transaction details webview', () => {
  let sandbox: Sandbox;
  let txId: string;

  before(async function () {
    this.timeout(120_000);
    sandbox = await sandboxProfile(ui.page);
    txId = await submitHostileTransfer(sandbox);
  });

  it('opens from the palette with a typed txId and shows txId, status, amounts and the hostile message as text', async function () {
    this.timeout(120_000);
    const page = ui.page;
    await runCommandByTitle(page, 'Alephium: Show Transaction');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 30_000 });
    await input.fill(txId);
    await input.press('Enter');

    let text = '';
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      text = await textOfAllFrames(page);
      if (text.includes(txId) && text.includes('Confirmed') && text.includes(HOSTILE)) break;
      await page.waitForTimeout(250);
    }
    assert.ok(text.includes(txId), 'the webview shows the txId');
    assert.match(text, /Confirmed \(\d+ confirmations?\)/);
    assert.ok(
      text.includes('1.25 ALPH') && text.includes('1250000000000000000 atto'),
      'amounts in ALPH and atto',
    );
    assert.ok(text.includes(sandbox.accounts[1]?.address as string), 'the recipient');
    assert.ok(text.includes(`message (text): ${HOSTILE}`), 'the markup appears literally, as text');
    assert.deepEqual(await pwnedFlags(page.frames()), [], 'nothing in the message ran');

    // The page must not have turned the message into elements either.
    const injected = await Promise.all(
      page
        .frames()
        .map((f) => f.evaluate('document.querySelectorAll("img[src=x], main script").length').catch(() => 0)),
    );
    assert.ok(
      injected.every((n) => n === 0),
      `injected elements found: ${injected.join(',')}`,
    );

    // For the README: the details without the output panel and toasts in front of them (cosmetic only).
    await runCommandByTitle(page, 'Notifications: Clear All Notifications').catch(() =>
      page.keyboard.press('Escape'),
    );
    await hidePanel(page);
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'tx-details.png') });
  });

  it('toggles the raw JSON and keeps rendering text only', async function () {
    this.timeout(60_000);
    const page = ui.page;
    let frame: Frame | undefined;
    for (const f of page.frames()) {
      if (
        (await f
          .locator('button', { hasText: 'Show raw JSON' })
          .count()
          .catch(() => 0)) > 0
      )
        frame = f;
    }
    assert.ok(frame, 'the raw JSON toggle is in the webview');
    await frame.locator('button', { hasText: 'Show raw JSON' }).click();
    await frame.locator('pre.raw').waitFor({ state: 'visible', timeout: 10_000 });
    const raw = await frame.locator('pre.raw').innerText();
    assert.ok(raw.includes('"inputSignatures"'), 'the gateway details are in the raw JSON');
    assert.deepEqual(await pwnedFlags(page.frames()), []);
  });
});
