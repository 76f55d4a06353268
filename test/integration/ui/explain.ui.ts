// Explain Transaction, read from what the workbench renders: a script that failed in its block (the
// sandbox's fail-in-block race: the Counter paused in an earlier block) is explained from its Transactions
// row; the Problem sits at the paused assert of incrementBy and names the block state it ran against, and
// the details panel's "What happened" says the same. A script that succeeded, explained from the palette,
// shows the count before and after its block. The requests each explanation cost are counted.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { shortTxId } from '../../../src/core/protocol';
import type { Sandbox } from '../../../sandbox';
import { ui } from './hooks';
import {
  answerInput,
  runCommandRetried,
  runFromContextMenu,
  trackFromPalette,
  watchUntil,
} from './journeyHelpers';
import { COUNTER_RAL, sandboxControl, sandboxProfile, sendCounterCall, writeCounterProject } from './sandbox';
import { OUTPUT_DIR, runCommandByTitle, textOfAllFrames } from './workbench';

const source = fs.readFileSync(COUNTER_RAL, 'utf8');
/** 1-based line of the first line containing `needle` at or after line `from` (1-based). */
const lineNo = (needle: string, from = 1): number =>
  source.split('\n').findIndex((l, i) => i >= from - 1 && l.includes(needle)) + 1;

/** The requests an explanation of `txId` sent: everything about the tx, its block, and the dry runs. */
function explainRequests(sandbox: Sandbox, sinceSeq: number, txId: string): string[] {
  return sandbox.requests
    .filter((r) => r.seq > sinceSeq && !r.path.includes('__sandbox'))
    .map((r) => r.path.slice(`/${sandbox.slug}`.length))
    .filter(
      (p) =>
        p.includes(txId) ||
        p.startsWith('/blockflow/headers/') ||
        p.startsWith('/contracts/call-tx-script') ||
        p.startsWith('/contracts/call-contract'),
    );
}

const lastSeq = (sandbox: Sandbox): number => sandbox.requests.at(-1)?.seq ?? 0;

describe('UI: Explain Transaction', () => {
  let sandbox: Sandbox;
  let instance: { address: string; txId: string; contractId: string };

  before(async function () {
    this.timeout(180_000);
    sandbox = await sandboxProfile(ui.page);
    instance = (await sandboxControl('/contracts/deploy', { name: 'Counter' })) as typeof instance;
    writeCounterProject(sandbox, instance);
  });

  it('explains a script that failed in its block from its Transactions row: the Problem at the assert, the block state named', async function () {
    this.timeout(240_000);
    const page = ui.page;
    // The race: the owner pauses the Counter in a block before the script's, which then fails in its block.
    await sandboxControl('/scripts/fail-in-block', { count: 1 });
    const txId = await sendCounterCall(sandbox, instance, 'incrementBy', [3n]);
    await trackFromPalette(page, txId);
    await runCommandRetried(page, 'View: Show Alephium');
    const sidebar = page.locator('.part.sidebar');
    const row = sidebar.locator('.monaco-list-row', { hasText: shortTxId(txId) }).first();
    await watchUntil(
      page,
      'the Transactions row to say Failed',
      () => row.innerText({ timeout: 2_000 }),
      (t) => /Failed/.test(t),
      90_000,
      () => sandbox.mine(),
      { intervalMs: 1_000 },
    );

    const since = lastSeq(sandbox);
    await runFromContextMenu(page, row, 'Explain Transaction');

    // The Problems view: the paused assert of incrementBy, the call, its origin, and the block state.
    await runCommandRetried(page, 'View: Focus Problems (Errors, Warnings, Infos)');
    const problems = await watchUntil(
      page,
      'the Problem of the reproduced failure',
      () => page.locator('.markers-panel').first().innerText(),
      (t) => t.includes('ErrorCodes.Paused = 2') && t.includes('(tracked)'),
      60_000,
    );
    assert.match(
      problems,
      /Counter\.incrementBy\(3\) \(tracked\) failed — assertion in Counter failed: ErrorCodes\.Paused = 2/,
    );
    assert.match(
      problems,
      /reproduced against the state just before block [0-9a-f]{64} \(after block [0-9a-f]{64}\)/,
    );
    const assertLine = lineNo('assert!(!paused', lineNo('pub fn incrementBy'));
    assert.match(problems, new RegExp(`\\[Ln ${assertLine}, Col \\d+\\]`));

    // The details panel's "What happened" says the same, with a way to the line.
    const text = await watchUntil(
      page,
      'What happened in the details panel',
      () => textOfAllFrames(page),
      (t) => t.includes('What happened') && t.includes('The script failed in its block'),
      60_000,
    );
    assert.ok(text.includes(`Open contracts/counter.ral:${assertLine}`), 'a button opens the assert line');
    assert.match(text, /Read against the state just before block [0-9a-f]{64}/);
    assert.match(text, /Counter\.incrementBy\(step: U256 = 3\)/);
    const requests = explainRequests(sandbox, since, txId);
    console.log(`      [explain] failed script, as the workbench sent them: ${requests.length} requests`);
    console.log(
      `      [explain] ${requests.map((p) => p.split('?')[0]!.replace(/[0-9a-f]{64}/g, '…')).join(', ')}`,
    );
    assert.equal(requests.filter((p) => p.startsWith('/contracts/call-tx-script')).length, 1);
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'explain-failed.png') });
  });

  it('explains a succeeded script from the palette (a bad id refused first): the count before and after', async function () {
    this.timeout(180_000);
    const page = ui.page;
    const txId = await sendCounterCall(sandbox, instance, 'incrementBy', [4n]);
    sandbox.mine();
    const since = lastSeq(sandbox);
    await runCommandByTitle(page, 'Alephium: Explain Transaction');
    const widget = page.locator('.quick-input-widget');
    await widget
      .locator('.quick-input-title', { hasText: 'Explain Transaction' })
      .waitFor({ timeout: 30_000 });
    const prompt = await widget.innerText();
    assert.match(prompt, /Explain Transaction costs 1 to 7 requests/);
    await widget.locator('input').first().fill('not-a-tx-id');
    await watchUntil(
      page,
      'the tx id refused as typed',
      () => widget.innerText(),
      (t) => t.includes('A transaction id is 64 hex digits.'),
      10_000,
    );
    assert.equal(explainRequests(sandbox, since, txId).length, 0, 'nothing sent for a bad id');
    await answerInput(page, 'Explain Transaction', txId);
    const text = await watchUntil(
      page,
      'the state change in What happened',
      () => textOfAllFrames(page),
      (t) => t.includes(shortTxId(txId).slice(0, 10)) && /count: U256 = \d+ → \d+/.test(t),
      60_000,
    );
    const [, before, after] = /count: U256 = (\d+) → (\d+)/.exec(text)!;
    assert.equal(BigInt(after!) - BigInt(before!), 4n);
    assert.ok(text.includes('The script succeeded.'));
    // The toast offers the next step: the same transaction in the debugger.
    const toast = page.locator('.notification-toast', { hasText: 'succeeded' }).first();
    await toast.waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(await toast.locator('.monaco-button', { hasText: 'Debug Transaction' }).count(), 1);
    const requests = explainRequests(sandbox, since, txId);
    console.log(`      [explain] succeeded script, as the workbench sent them: ${requests.length} requests`);
    console.log(
      `      [explain] ${requests.map((p) => p.split('?')[0]!.replace(/[0-9a-f]{64}/g, '…')).join(', ')}`,
    );
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'explain-succeeded.png') });
  });
});
