// The Alephium language-model tools, invoked as a chat assistant would (vscode.lm.invokeTool, without a
// chat session) against the sandbox gateway: each answer, and what it cost in requests on the gateway.
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { Sandbox } from '../../../sandbox';
import { CommandIds } from '../../../src/constants';
import { encodeUnsignedTx } from '../../../src/core/protocol';
import { TOOL_NAMES } from '../../../src/core/assistant/toolNames';
import { extensionApi, removeProfile, startSandboxProfile, writeSandboxProject } from './sandboxFixture';
import { until } from '../../helpers/until';

const PROFILE = 'Language-model tools test';

async function invoke(name: string, input: object): Promise<string> {
  const source = new vscode.CancellationTokenSource();
  try {
    const result = await vscode.lm.invokeTool(name, { toolInvocationToken: undefined, input }, source.token);
    return result.content
      .map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : ''))
      .join('');
  } finally {
    source.dispose();
  }
}

describe('Language-model tools against the sandbox gateway', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let counter: string;

  /** The requests the gateway received after `mark` (its log's sequence number) whose path matches. */
  const requestsSince = (mark: number, path: RegExp) =>
    sandbox.requests
      .filter((r) => r.seq > mark && path.test(r.path))
      .map((r) => r.path.split('?')[0]!.replace(`/${sandbox.slug}/`, '/'));
  const lastSeq = () => sandbox.requests.at(-1)?.seq ?? 0;

  before(async () => {
    await extensionApi();
    sandbox = await startSandboxProfile({ name: PROFILE, plan: 'pro' });
    await vscode.commands.executeCommand(CommandIds.setApiKey, { key: sandbox.apiKeys.pro });
    const counterEntry = sandbox.contracts.find((c) => c.name === 'Counter')!;
    counter = counterEntry.address;
    // The workspace holds the sandbox project's Counter artifact and a deployments file naming it.
    await writeSandboxProject(sandbox, ['Counter']);
  });

  after(async () => {
    await removeProfile(PROFILE);
    await sandbox?.close();
  });

  it('the workbench lists the four read-only tools', () => {
    const names = vscode.lm.tools.map((t) => t.name);
    for (const name of Object.values(TOOL_NAMES))
      assert.ok(names.includes(name), `${name} is not in ${names.join(', ')}`);
  });

  it('contract state by deployment name: fields and getter named from the artifact, 2 requests', async () => {
    // The deployments file just written is picked up by the file watcher: retry (bounded) until it is.
    let mark = lastSeq();
    const text = await until('the deployments file and artifact to describe Counter', async () => {
      mark = lastSeq();
      const answer = await invoke(TOOL_NAMES.contractState, { contract: 'Counter' });
      return answer.includes('Artifact: Counter (the code hash') ? answer : undefined;
    });
    assert.match(
      text,
      new RegExp(`^Contract Counter at ${counter} \\(group \\d\\), read from the gateway just now\\.`),
    );
    assert.match(text, /Artifact: Counter \(the code hash of its debug build matches the chain\)\./);
    const count = /- count: U256 \(mutable\) = (\d+)/.exec(text)?.[1];
    assert.ok(count !== undefined, text);
    assert.match(text, new RegExp(`- get\\(\\): U256 = ${count}\\b`));
    assert.match(text, /it cannot sign, send or change anything\.$/);
    // The cost said before it ran (1 state read + 1 multicall for its one getter) is what it sent.
    assert.deepEqual(requestsSince(mark, /\/contracts\//), [
      `/contracts/${counter}/state`,
      '/contracts/multicall-contract',
    ]);
  });

  it('recent events by address: decoded by eventIndex, newest first, the count and its pages', async () => {
    const res = await fetch(`${sandbox.baseUrl}/__sandbox/events/trigger`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 2 }),
    });
    assert.ok(res.ok, await res.text());
    const mark = lastSeq();
    const text = await invoke(TOOL_NAMES.recentEvents, { contract: counter, count: 2 });
    const lines = text.split('\n');
    assert.match(
      lines[0]!,
      new RegExp(
        `^The latest 2 events of contract Counter at ${counter} \\(asked for 2; its event counter is \\d+\\), newest first:$`,
      ),
    );
    const newCounts = lines
      .slice(1, 3)
      .map((l) =>
        Number(
          /^- Incremented \(eventIndex 0\)\(by: \w+, newCount: (\d+)\) · tx [0-9a-f]{64} · block [0-9a-f]{64}$/.exec(
            l,
          )?.[1],
        ),
      );
    assert.ok(
      newCounts.every((n) => Number.isInteger(n)),
      lines.slice(0, 3).join('\n'),
    );
    assert.equal(newCounts[0], newCounts[1]! + 1, 'newest first');
    // The count, then the window of the last 2 offsets; each increment also takes a hidden Debug slot,
    // so that window holds one event and is read again twice as wide: the cost said, 2 requests, "more
    // if the contract has hidden Debug slots".
    assert.deepEqual(requestsSince(mark, /\/events\//), [
      `/events/contract/${counter}/current-count`,
      `/events/contract/${counter}`,
      `/events/contract/${counter}`,
    ]);
  });

  it('decode: local, 0 requests', async () => {
    const account = sandbox.accounts[0]!;
    const hex = encodeUnsignedTx({
      version: 0,
      networkId: 4,
      gasAmount: 20000,
      gasPrice: '100000000000',
      inputs: [{ outputRef: { hint: 1, key: '44'.repeat(32) }, unlockScript: `00${account.publicKey}` }],
      fixedOutputs: [
        {
          attoAlphAmount: '2500000000000000000',
          address: account.address,
          tokens: [],
          lockTime: 0,
          message: '',
        },
      ],
    });
    const mark = lastSeq();
    const text = await invoke(TOOL_NAMES.decodeUnsignedTx, { unsignedTx: `0x${hex}` });
    assert.match(text, /decoded locally: no request was sent, nothing was signed\./);
    assert.match(text, new RegExp(`- 1\\. ${account.address}: 2\\.5 ALPH`));
    assert.deepEqual(requestsSince(mark, /\/(contracts|events|transactions|unsigned-tx)/), []);
  });

  it('explain: a confirmed script transaction, its event and debug message named; the cost said, less again', async () => {
    const res = await fetch(`${sandbox.baseUrl}/__sandbox/events/trigger`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 1 }),
    });
    assert.ok(res.ok);
    const txId = ((await res.json()) as { txIds: string[] }).txIds[0]!;
    const chainReads = /\/(transactions|events|blockflow|contracts)\//;
    let mark = lastSeq();
    const text = await invoke(TOOL_NAMES.explainTransaction, { txId: txId.toUpperCase() });
    assert.match(text, new RegExp(`^Transaction ${txId}\nStatus: `));
    assert.match(text, /\nThe script succeeded\.\n/);
    assert.match(text, /\nEvents:\n {2}Counter: Incremented\(by=\w+, newCount=\d+\)\n/);
    // Placed at its emit Debug line: the workspace carries .project.json, so the chain runs the debug build.
    assert.match(text, /\nDebug messages:\n {2}count is now \d+ \(\S*contracts\/counter\.ral:\d+\)\n/);
    assert.match(text, /it cannot sign, send or change anything\.$/);
    const first = requestsSince(mark, chainReads);
    // Within the 1 to 7 requests its invocation message says.
    assert.ok(first.length >= 1 && first.length <= 7, first.join(', '));
    mark = lastSeq();
    await invoke(TOOL_NAMES.explainTransaction, { txId });
    const again = requestsSince(mark, chainReads);
    assert.ok(again.length < first.length, `${again.join(', ')} after ${first.join(', ')}`);
    console.log(`      explain: ${first.length} requests the first time, ${again.length} again`);
  });

  it('bad input: a specific error and no request', async () => {
    const mark = lastSeq();
    await assert.rejects(
      invoke(TOOL_NAMES.contractState, { contract: 'NoSuchContract' }),
      /"NoSuchContract" is neither a contract address nor the name of a watched contract or deployment/,
    );
    await assert.rejects(
      invoke(TOOL_NAMES.recentEvents, { contract: counter, count: 0 }),
      /count must be a whole number from 1 to 1000, got 0/,
    );
    await assert.rejects(invoke(TOOL_NAMES.decodeUnsignedTx, { unsignedTx: 'xyz' }), /hex digits only/);
    await assert.rejects(
      invoke(TOOL_NAMES.explainTransaction, { txId: 'abc' }),
      /txId must be a transaction id of 64 hex digits, got "abc"/,
    );
    assert.deepEqual(requestsSince(mark, /\/(contracts|events|transactions|blockflow)\//), []);
  });
});
