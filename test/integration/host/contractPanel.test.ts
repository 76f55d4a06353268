import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { Sandbox } from '../../../sandbox';
import type { AlephiumGatewayApi } from '../../../src/extension';
import type { WatchedContract } from '../../../src/core/contracts/watching/watchList';
import type { HostToWebviewMessage, MethodResultView } from '../../../src/core/contracts/panelProtocol';
import { PANEL_LIMITS } from '../../../src/core/contracts/panelProtocol';
import { CommandIds } from '../../../src/constants';
import { extensionApi, removeProfile, startSandboxProfile, writeSandboxProject } from './sandboxFixture';
import { until } from '../../helpers/until';

const PROFILE = 'Contract panel test';

async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace
    .getConfiguration('alephium')
    .update(key, value, vscode.ConfigurationTarget.Workspace);
}

describe('Contract panel against the sandbox gateway', function () {
  this.timeout(60_000);
  let api: AlephiumGatewayApi;
  let sandbox: Sandbox;
  let counter: string;

  const posted = (): HostToWebviewMessage[] =>
    (api.contractPanelSnapshot(counter)?.posted ?? []).map((p) => JSON.parse(p) as HostToWebviewMessage);
  const lastResult = (method: number): MethodResultView | undefined =>
    posted()
      .filter((m): m is Extract<HostToWebviewMessage, { type: 'result' }> => m.type === 'result')
      .filter((m) => m.method === method)
      .at(-1)?.result;
  const form = (method: number, args: string[], extra: Record<string, unknown> = {}) => ({
    method,
    args,
    alph: '',
    tokens: [{ id: '', amount: '' }],
    gas: '',
    ...extra,
  });

  before(async () => {
    api = await extensionApi();
    await setSetting('watch.whenUnfocused', 'continue');
    sandbox = await startSandboxProfile({ name: PROFILE, plan: 'pro' });
    await vscode.commands.executeCommand(CommandIds.setApiKey, { key: sandbox.apiKeys.pro });
    // Execute signs with the sandbox's funded test account (the key goes where keys go: SecretStorage).
    await vscode.commands.executeCommand(CommandIds.importSignerKey, {
      privateKey: sandbox.accounts[0]?.privateKey,
    });
    const def = sandbox.contracts.find((c) => c.name === 'Counter')!;
    counter = def.address;
    await writeSandboxProject(
      sandbox,
      sandbox.contracts.map((c) => c.name),
    );
    await until('the deployments file to be discovered', async () =>
      vscode.commands.executeCommand<WatchedContract>(CommandIds.watchContract, { deployment: 'Counter' }),
    );
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand(CommandIds.unwatchContract, { address: counter }).then(
      () => undefined,
      () => undefined,
    );
    await vscode.commands.executeCommand(CommandIds.forgetSignerKey, { confirm: true });
    await removeProfile(PROFILE);
    await setSetting('watch.whenUnfocused', undefined);
    await sandbox?.close();
  });

  it("opens one panel per contract with the artifact's public methods, rendered by the page as text", async () => {
    const opened = await vscode.commands.executeCommand<{ address: string; methods: string[] }>(
      CommandIds.openContractPanel,
      counter,
    );
    assert.deepEqual(opened, {
      address: counter,
      methods: ['get', 'increment', 'incrementBy', 'reset', 'pause', 'unpause'],
    });
    const shown = await until('the page to render the methods', () => {
      const s = api.contractPanelSnapshot(counter);
      return s?.text?.includes('incrementBy(step: U256) → ()') ? s : undefined;
    });
    assert.equal(shown.model?.title, 'Counter');
    assert.ok(shown.text?.includes(counter), 'the page shows the address');
    assert.ok(shown.text?.includes('Simulate') && shown.text.includes('Execute'));
    // The HTML is a shell with a strict CSP and no data; everything arrives by message.
    assert.match(shown.html, /default-src 'none'/);
    assert.match(shown.html, /script-src 'nonce-[A-Za-z0-9+/=]+'/);
    assert.doesNotMatch(shown.html, /unsafe-inline|unsafe-eval|onclick|onerror/);
    assert.ok(!shown.html.includes(counter) && !shown.html.includes('incrementBy'), 'no data in the HTML');

    // A tree element (what the context menu passes) opens the same panel instead of a second one.
    const again = await vscode.commands.executeCommand<{ address: string }>(CommandIds.openContractPanel, {
      kind: 'contract',
      id: `contract:${counter}`,
      address: counter,
    });
    assert.equal(again.address, counter);
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter(
        (t) =>
          t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('alephium.contractPanel'),
      );
    assert.equal(tabs.length, 1, 'one panel per contract address');
  });

  it('ignores messages that are not the protocol and runs nothing for a form that fails the host checks', async () => {
    const before = api.contractPanelSnapshot(counter)!.posted.length;
    for (const junk of [
      { type: 'eval', code: 'alert(1)' },
      { type: 'simulate', form: form(2, ['x'.repeat(PANEL_LIMITS.argChars + 1)]) },
      { type: 'simulate', form: { ...form(2, ['1']), method: '2' } },
      'simulate',
      null,
    ])
      await api.contractPanelMessage(counter, junk);
    assert.equal(api.contractPanelSnapshot(counter)!.posted.length, before, 'nothing answered junk');

    await api.contractPanelMessage(counter, {
      type: 'simulate',
      form: form(2, ['-1'], { gas: '12', alph: '1' }),
    });
    const errors = posted()
      .filter((m) => m.type === 'fieldErrors')
      .at(-1);
    assert.ok(errors?.type === 'fieldErrors');
    assert.equal(errors.method, 2);
    assert.ok(errors.errors['arg:0'], 'the step is refused as Call refuses it');
    assert.match(errors.errors.gas ?? '', /Gas amount must be an integer/);
    assert.match(errors.errors.assets ?? '', /does not use approved assets/);
    // A private or unknown method index is refused too.
    await api.contractPanelMessage(counter, { type: 'execute', form: form(9, []) });
    const unknown = posted()
      .filter((m) => m.type === 'fieldErrors')
      .at(-1);
    assert.ok(
      unknown?.type === 'fieldErrors' && /no public method with index 9/.test(unknown.errors.form ?? ''),
    );
    assert.deepEqual(api.contractPanelSnapshot(counter)!.requests, [], 'no command was called');
  });

  it('sends a checked form to the Simulate command and renders its result under the method', async () => {
    await api.contractPanelMessage(counter, { type: 'simulate', form: form(2, [' 5 ']) });
    const snapshot = api.contractPanelSnapshot(counter)!;
    assert.deepEqual(snapshot.requests, [
      { action: 'simulate', request: { address: counter, method: 'incrementBy', args: ['5'] } },
    ]);
    assert.equal(snapshot.busy, false, 'the run has ended');
    const kinds = posted().map((m) => m.type);
    assert.ok(kinds.lastIndexOf('busy') < kinds.lastIndexOf('result'), 'busy is posted before the result');
    const result = lastResult(2);
    assert.equal(result?.kind, 'simulation');
    assert.equal(result.outcome, 'ok', result.headline);
    assert.ok(
      result.events.some((e) => e.name === 'Incremented'),
      'the event by name',
    );
    assert.ok(result.facts.some((f) => f.label === 'Gas used' && Number(f.value) > 0));
    assert.ok(
      result.facts.some((f) => f.label === 'Method' && f.value === 'Counter.incrementBy (methodIndex 2)'),
    );
    const event = result.events.find((e) => e.name === 'Incremented');
    assert.ok(
      event?.fields.some((f) => f.name === 'newCount'),
      'the event fields by name',
    );
    const text = await until('the page to render the result', () => {
      const t = api.contractPanelSnapshot(counter)?.text;
      return t?.includes('Simulation succeeded') ? t : undefined;
    });
    assert.match(text, /Incremented/);
    assert.match(text, /Gas used\s+\d+/);
  });

  it('shows what the Execute command answered and follows the tx to Confirmed', async () => {
    // A step above Counter's MaxStep fails in simulation: the command builds and signs nothing, and the
    // panel says why under the method.
    await api.contractPanelMessage(counter, { type: 'execute', form: form(2, ['101']) });
    const refused = lastResult(2);
    assert.equal(refused?.kind, 'execution');
    assert.equal(refused.outcome, 'failed');
    assert.match(
      refused.headline,
      /^Execution failed: .*fails in simulation, so nothing was built or signed/,
    );
    assert.equal(refused.txId, undefined);

    // The command asks before signing; on this devnet profile the user setting may turn that off (the UI
    // journey answers the modal itself).
    const config = vscode.workspace.getConfiguration('alephium');
    await config.update('transactions.confirmBeforeSigning', false, vscode.ConfigurationTarget.Global);
    try {
      const run = api.contractPanelMessage(counter, { type: 'execute', form: form(2, ['3']) });
      let ended = false;
      void run.finally(() => (ended = true));
      // The command waits for a block: mine until it returns (bounded).
      await until('the execute run to end', () => {
        if (!ended) sandbox.mine();
        return ended ? true : undefined;
      });
      await run;
      const result = await until('the panel to show the tx confirmed', () => {
        const r = lastResult(2);
        if (r?.outcome === 'pending') sandbox.mine();
        return r?.kind === 'execution' && r.outcome !== 'pending' ? r : undefined;
      });
      assert.equal(result.outcome, 'confirmed', result.headline);
      assert.match(result.txId ?? '', /^[0-9a-f]{64}$/);
      assert.ok(result.verified.length > 0, 'what verification proved is shown');
      assert.ok(result.events.some((e) => e.name === 'Incremented'));
      const text = await until('the page to render the confirmed tx', () => {
        const t = api.contractPanelSnapshot(counter)?.text;
        return t?.includes('Transaction confirmed') && t.includes(result.txId!) ? t : undefined;
      });
      assert.match(text, /Verified before signing/);
    } finally {
      await config.update('transactions.confirmBeforeSigning', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
