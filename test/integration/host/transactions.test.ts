import { strict as assert } from 'node:assert';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import * as vscode from 'vscode';
import type { Sandbox } from '../../../sandbox';
import type { AlephiumGatewayApi } from '../../../src/extension';
import { CommandIds } from '../../../src/constants';
import { extensionApi, readLogs, removeProfile, startSandboxProfile } from './sandboxFixture';
import { until } from '../../helpers/until';

const PROFILE = 'Transactions test';

interface SendResult {
  txId: string;
  fromGroup: number;
  toGroup: number;
  amountAtto: string;
  feeAtto: string;
  confirmationSkipped: boolean;
}

/** executeCommand returns a Thenable; assert.rejects wants a Promise. */
function run(id: string, args: unknown): Promise<unknown> {
  return Promise.resolve(vscode.commands.executeCommand(id, args));
}

function submits(sandbox: Sandbox): number {
  return sandbox.requests.filter((r) => r.path.includes('/transactions/submit')).length;
}

describe('Transactions: send, verify, track and show against the sandbox gateway', () => {
  let api: AlephiumGatewayApi;
  let sandbox: Sandbox;
  let sentTxId = '';

  before(async () => {
    api = await extensionApi();
    sandbox = await startSandboxProfile({ name: PROFILE, plan: 'pro' });
    await vscode.commands.executeCommand(CommandIds.setApiKey, { key: sandbox.apiKeys.pro });
    await vscode.commands.executeCommand(CommandIds.importSignerKey, {
      privateKey: sandbox.accounts[0]?.privateKey,
    });
  });

  after(async () => {
    if (sandbox) sandbox.chain.tamper = 'none';
    await vscode.commands.executeCommand(CommandIds.forgetSignerKey, { confirm: true });
    await removeProfile(PROFILE);
    await sandbox?.close();
  });

  it('sends 1.5 ALPH, tracks it to Confirmed in the Transactions view, and shows it in the details webview', async function () {
    this.timeout(60_000);
    const to = sandbox.accounts[1]?.address as string;
    const result = await vscode.commands.executeCommand<SendResult>(CommandIds.sendTransfer, {
      to,
      amount: '1.5',
      confirm: false,
    });
    assert.match(result.txId, /^[0-9a-f]{64}$/);
    assert.equal(result.amountAtto, '1500000000000000000');
    assert.equal(result.confirmationSkipped, true, 'confirm: false is honoured on a devnet profile');
    assert.equal(submits(sandbox), 1);
    sentTxId = result.txId;

    const pending = await until('the row of the new transaction', () =>
      api.transactionsSnapshot().find((r) => r.txId === result.txId),
    );
    assert.match(pending.label, /Send 1\.5 ALPH/);
    await until('MemPooled in the view', () =>
      api.transactionsSnapshot().find((r) => r.txId === result.txId && /MemPooled/.test(r.description)),
    );
    sandbox.mine();
    const done = await until('Confirmed in the view', () =>
      api.transactionsSnapshot().find((r) => r.txId === result.txId && /^Confirmed/.test(r.description)),
    );
    assert.equal(done.status.kind, 'confirmed');

    await vscode.commands.executeCommand(CommandIds.showTransaction, { txId: result.txId });
    const shown = await until('the webview to render the confirmed tx', () => {
      const s = api.txDetailsSnapshot();
      return s?.txId === result.txId && s.text?.includes('Confirmed') && s.model?.outputs.length
        ? s
        : undefined;
    });
    const text = shown.text ?? '';
    assert.ok(text.includes(result.txId), 'the page shows the txId');
    assert.ok(text.includes('1.5 ALPH') && text.includes('1500000000000000000 atto'), text);
    assert.ok(text.includes(to), 'the page shows the recipient');
    assert.match(text, /Fee\s+0\.\d+ ALPH \(\d+ atto\) = gas × price/);
    const out = shown.model?.outputs.find((o) => o.address === to);
    assert.equal(out?.amount.atto, '1500000000000000000');
    assert.equal(shown.model?.inputSignatures.length, 1);
    const recipientChange = shown.model?.balanceChanges.find((b) => b.address === to);
    assert.equal(recipientChange?.atto, '+1500000000000000000');
    // The HTML is a shell with a strict CSP; chain data only arrives by message and is set as text.
    assert.match(shown.html, /default-src 'none'/);
    assert.match(shown.html, /script-src 'nonce-[A-Za-z0-9+/=]+'/);
    assert.doesNotMatch(shown.html, /unsafe-inline|unsafe-eval/);
    assert.ok(!shown.html.includes(result.txId), 'no chain data in the HTML');
  });

  it('a finished row and the details page say the same confirmations; the row says how old its count is', async function () {
    this.timeout(60_000);
    const row = await until('the finished row of the sent transaction', () =>
      api.transactionsSnapshot().find((r) => r.txId === sentTxId && /^Confirmed/.test(r.description)),
    );
    const counted = row.status.confirmations ?? 0;
    // The chain moves on; tracking has ended, so the row's count is as of when it ended.
    for (let i = 0; i < 12; i++) sandbox.mine();
    await vscode.commands.executeCommand(CommandIds.showTransaction, { txId: sentTxId });
    const shown = await until('the details page with the newer count', () => {
      const s = api.txDetailsSnapshot();
      return s?.txId === sentTxId && (s.model?.status.confirmations ?? 0) > counted ? s : undefined;
    });
    const onPage = shown.model!.status.confirmations!;
    // The row used to stay at "Confirmed (n confirmations)" while the page said n + 12.
    const agreed = await until('the row to say the count the page read', () =>
      api.transactionsSnapshot().find((r) => r.txId === sentTxId && r.status.confirmations === onPage),
    );
    assert.match(agreed.description, new RegExp(`^Confirmed \\(${onPage} confirmations\\)$`));
  });

  it("a new mainnet profile lists none of the devnet profile's transactions; switching back lists them again", async function () {
    this.timeout(60_000);
    assert.ok(api.transactionsSnapshot().some((r) => r.txId === sentTxId));
    const mainnet = 'Transactions mainnet';
    await vscode.commands.executeCommand(CommandIds.addProfile, {
      name: mainnet,
      kind: 'gateway',
      baseUrl: sandbox.baseUrl,
      slug: sandbox.slug,
      network: 'mainnet',
      plan: 'pro',
    });
    try {
      await until('the mainnet profile to list no devnet transaction', () =>
        api.transactionsSnapshot().every((r) => r.txId !== sentTxId) ? true : undefined,
      );
    } finally {
      await vscode.commands.executeCommand(CommandIds.switchProfile, { name: PROFILE });
      await removeProfile(mainnet);
    }
    await until('the devnet profile to list its transaction again', () =>
      api.transactionsSnapshot().find((r) => r.txId === sentTxId && /^Confirmed/.test(r.description)),
    );
  });

  for (const [mode, expected] of [
    ['recipient', /Refusing to sign.*output 0 pays \S+, but destination 0 is/],
    ['amount', /Refusing to sign.*output 0 carries 2\.5 ALPH.*asked for 1\.5 ALPH/],
    ['extra-output', /Refusing to sign.*neither a requested destination nor change/],
    ['txid', /Refusing to sign.*txId \w+ is not blake2b-256 of the unsigned transaction bytes/],
    ['decode-lies', /Refusing to sign.*(decode endpoint describes a different transaction|output 0 pays)/],
  ] as const) {
    it(`refuses a build tampered by the gateway (${mode}) before any signature, saying what differed`, async () => {
      sandbox.requests.length = 0;
      sandbox.chain.tamper = mode;
      try {
        await assert.rejects(
          run(CommandIds.sendTransfer, {
            to: sandbox.accounts[1]?.address,
            amount: '1.5',
            confirm: false,
          }),
          (error: Error) => {
            assert.match(error.message, expected);
            return true;
          },
        );
      } finally {
        sandbox.chain.tamper = 'none';
      }
      assert.ok(
        sandbox.requests.some((r) => r.path.includes('/transactions/build')),
        'the build was requested',
      );
      assert.equal(submits(sandbox), 0, 'nothing was submitted');
    });
  }

  it('refuses dust and malformed recipients before any request', async () => {
    sandbox.requests.length = 0;
    await assert.rejects(
      run(CommandIds.sendTransfer, {
        to: sandbox.accounts[1]?.address,
        amount: '0.0005',
        confirm: false,
      }),
      /below the dust minimum/,
    );
    await assert.rejects(
      run(CommandIds.sendTransfer, { to: 'nope', amount: '1', confirm: false }),
      /Recipient: Not an Alephium address/,
    );
    // Background polls (node status, tracked transactions) may run meanwhile; none of Send's own requests
    // (the sender's balance and UTXOs, the build) may be sent.
    const sendRequests = sandbox.requests.filter((r) => /\/(addresses|transactions\/build)/.test(r.path));
    assert.deepEqual(
      sendRequests.map((r) => r.path),
      [],
    );
  });

  it('decodes a pasted unsigned tx locally, checks the gateway agrees, and shows txId, outputs and fee', async () => {
    const build = await fetch(`${sandbox.apiUrl}/transactions/build`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.apiKeys.pro}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        fromPublicKey: sandbox.accounts[0]?.publicKey,
        destinations: [{ address: sandbox.accounts[2]?.address, attoCoinAmount: '2000000000000000000' }],
      }),
    });
    const built = (await build.json()) as { unsignedTx: string; txId: string };
    const decoded = await vscode.commands.executeCommand<{
      txId: string;
      feeAtto: string;
      gateway: string;
      outputs: { address: string; alph: string }[];
    }>(CommandIds.decodeUnsignedTx, { unsignedTx: `0x${built.unsignedTx}` });
    assert.equal(decoded.txId, built.txId);
    assert.equal(decoded.gateway, 'agrees');
    assert.deepEqual(decoded.outputs[0], {
      ...decoded.outputs[0],
      address: sandbox.accounts[2]?.address,
      alph: '2',
    });
    assert.ok(BigInt(decoded.feeAtto) > 0n);
    const shown = await until('the decoded tx in the webview', () => {
      const s = api.txDetailsSnapshot();
      return s?.txId === built.txId && s.text?.includes('Unsigned transaction') ? s : undefined;
    });
    assert.ok(shown.text?.includes('re-encodes to exactly these bytes'));
  });

  it('refuses a pasted transaction of megabytes before decoding it or asking the gateway', async () => {
    const before = sandbox.requests.length;
    await assert.rejects(
      Promise.resolve(
        vscode.commands.executeCommand(CommandIds.decodeUnsignedTx, { unsignedTx: '00'.repeat(1_000_000) }),
      ),
      /Unsigned transaction: 1000000 bytes is more than any transaction holds \(at most 65536\)/,
    );
    assert.equal(sandbox.requests.length, before, 'no request');
  });

  it('tracks a txId given by hand and untracks it from the view', async () => {
    const result = await vscode.commands.executeCommand<{ txId: string }>(CommandIds.trackTransaction, {
      txId: sentTxId,
      label: 'by hand',
    });
    assert.equal(result.txId, sentTxId);
    await vscode.commands.executeCommand(CommandIds.untrackTransaction, { kind: 'tx', txId: sentTxId });
    assert.equal(
      api.transactionsSnapshot().some((r) => r.txId === sentTxId),
      false,
    );
  });

  it('sweeps an address with many outputs: every tx verified, one confirmation, each submitted and tracked', async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand(CommandIds.importSignerKey, {
      privateKey: sandbox.accounts[4]?.privateKey,
    });
    sandbox.requests.length = 0;
    const swept = await vscode.commands.executeCommand<{ txIds: string[] }>(CommandIds.sweepAddress, {
      to: sandbox.accounts[0]?.address,
      confirm: false,
    });
    assert.ok(swept.txIds.length > 1, `several transactions, got ${swept.txIds.length}`);
    assert.equal(submits(sandbox), swept.txIds.length);
    sandbox.mine();
    await until(
      'every sweep tx Confirmed',
      () =>
        swept.txIds.every((id) =>
          api.transactionsSnapshot().some((r) => r.txId === id && /^Confirmed/.test(r.description)),
        ) || undefined,
      40_000,
    );
  });

  it('never lets the signer key or mnemonic reach requests, logs, settings or the webview', async function () {
    this.timeout(60_000);
    const mnemonic = generateMnemonic(wordlist);
    await vscode.commands.executeCommand(CommandIds.importSignerKey, { mnemonic });
    // An unfunded key: the build fails, and that failure goes through logs and error messages too.
    await assert.rejects(
      run(CommandIds.sendTransfer, {
        to: sandbox.accounts[1]?.address,
        amount: '1',
        confirm: false,
      }),
    );
    await vscode.commands.executeCommand(CommandIds.importSignerKey, {
      privateKey: sandbox.accounts[0]?.privateKey,
    });
    const keys = [0, 4].map((i) => sandbox.accounts[i]?.privateKey as string);
    const words = mnemonic.split(' ');
    const pairs = words.slice(1).map((w, i) => `${words[i]} ${w}`);
    const check = (where: string, text: string) => {
      const lower = text.toLowerCase();
      for (const k of keys) assert.ok(!lower.includes(k.toLowerCase()), `a private key appears in ${where}`);
      assert.ok(!lower.includes(mnemonic), `the mnemonic appears in ${where}`);
      for (const p of pairs) assert.ok(!lower.includes(p), `mnemonic words "${p}" appear in ${where}`);
    };
    check('the gateway requests', JSON.stringify(sandbox.requests));
    api.log.info('probe: transactions secret scan');
    check('the extension logs', await readLogs(api.logUri));
    check('the settings', JSON.stringify(vscode.workspace.getConfiguration('alephium')));
    const snapshot = api.txDetailsSnapshot();
    assert.ok(snapshot);
    check('the webview', `${snapshot.html}${snapshot.posted.join('')}${snapshot.text ?? ''}`);
  });
});
