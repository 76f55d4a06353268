/**
 * Debug Transaction against the sandbox gateway (in-process HTTP server, real signatures): a mined
 * `increment()` is replayed on the project's VM from the state before its block, as its signer. Stepping
 * from the entry shows `count` before and after its write, the Debug message and the Incremented event;
 * the fields at the end are the chain's after the block (What Changed's "after"), and the node's dry run
 * of the same script at the same state agrees on the gas.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ArtifactRegistry } from '../../../src/core/artifacts';
import { explainFetchersFrom } from '../../../src/core/debugging/transactionExplanation';
import type { GatewayClient } from '../../../src/core/gateway/client';
import { forgetHistorySupport } from '../../../src/core/gateway/history';
import { debugLaunchOf } from '../../../src/core/ralphDebug/launchConfig';
import { comparisonLines, nodeAnswerOf } from '../../../src/core/ralphDebug/nodeComparison';
import { REPLAY_COST, replayConfiguration } from '../../../src/core/ralphDebug/replayPlan';
import { RalphDebugSession } from '../../../src/core/ralphDebug/session';
import type { Sandbox } from '../../../sandbox';
import { connectedSandbox, sendCounterCall } from '../fixtures/connectedSandbox';

const PROJECT = join(import.meta.dirname, '../../../sandbox/project');
const ARTIFACT = join(PROJECT, 'artifacts/Counter.ral.json');
const SOURCE = join(PROJECT, 'contracts/counter.ral');
const counterRal = readFileSync(SOURCE, 'utf8');
const lineOf = (needle: string, from = 0) =>
  counterRal.split('\n').findIndex((l, i) => i >= from && l.includes(needle));
const files = { readText: (p: string) => readFile(p, 'utf8') };

describe('Debug Transaction: a mined increment() replayed on the VM (sandbox gateway)', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let client: GatewayClient;
  let stop: () => Promise<void>;
  const registry = ArtifactRegistry.fromFiles([
    { path: 'artifacts/Counter.ral.json', text: readFileSync(ARTIFACT, 'utf8') },
  ]);
  const artifact = registry.byName('Counter')!;

  before(async () => {
    forgetHistorySupport();
    ({ sb, client, stop } = await connectedSandbox());
  });
  after(async () => {
    await stop();
  });

  /** Debug Transaction's configuration of `txId`, with the project's Counter artifact and source. */
  const replayOf = (txId: string) => {
    const counter = sb.contracts.find((x) => x.name === 'Counter')!;
    return replayConfiguration({
      txId,
      fetchers: explainFetchersFrom(client),
      fileOf: (a) =>
        Promise.resolve(
          a === counter.address ? { artifact, artifactPath: ARTIFACT, sourcePath: SOURCE } : undefined,
        ),
      profile: 'sandbox',
    });
  };

  const sendIncrement = (method = 'increment', args: bigint[] = []) =>
    sendCounterCall({ sb, client }, artifact, method, args);

  it('steps through Counter.increment: count changes at its write, the Debug message and Incremented appear, the end matches the chain and the node', async () => {
    const counter = sb.contracts.find((x) => x.name === 'Counter')!;
    // The chain's own record of the field (the client caches a contract's state for a while).
    const countOf = () => String(sb.chain.findContract(counter.address)?.fields.count?.value);
    const before = BigInt(countOf());
    const txId = await sendIncrement();
    const after = countOf();
    assert.equal(after, String(before + 1n));

    const sent = sb.requests.length;
    const config = await replayOf(txId);
    const requests = sb.requests.slice(sent).filter((r) => !r.path.includes('__sandbox')).length;
    assert.ok(requests >= REPLAY_COST.min && requests <= REPLAY_COST.max, `${requests} requests`);

    const output: string[] = [];
    const session = new RalphDebugSession(await debugLaunchOf(config, files), {
      output: (t) => output.push(t),
    });
    const entry = session.start(true);
    assert.equal(entry.kind === 'stopped' && entry.reason, 'entry');
    const frames = session.stackFrames();
    assert.deepEqual(
      frames.map((f) => f.name),
      ['Counter.increment', `TxScript of ${txId.slice(0, 8)}… (calls Counter)`],
    );
    assert.equal(frames[0]?.sourcePath, SOURCE);
    const countNow = () =>
      session
        .scopes(session.stackFrames()[0]!.id)
        .find((s) => s.name === 'Fields')
        ?.variables.find((v) => v.name === 'count')?.value;
    const seen: Array<{ line: number | undefined; count: string | undefined; output: number }> = [];
    for (let i = 0; i < 20; i++) {
      seen.push({ line: session.stackFrames()[0]?.line, count: countNow(), output: output.length });
      if (session.next().kind === 'ended') break;
    }
    const fn = lineOf('pub fn increment()');
    const emitIncremented = lineOf('emit Incremented(callerAddress!(), count)', fn);
    // Before the write the field is the state before the block; at the emit after it, one more.
    assert.equal(seen[0]?.line, fn);
    assert.equal(seen[0]?.count, String(before));
    const atEmit = seen.find((s) => s.line === emitIncremented);
    assert.equal(atEmit?.count, after, JSON.stringify(seen));
    // The Debug message was printed before the Incremented event, each as it happened.
    const debugAt = output.findIndex((t) => t.includes(`count is now ${after}`));
    const eventAt = output.findIndex((t) => t.startsWith('event Incremented @ '));
    assert.ok(debugAt >= 0 && eventAt > debugAt, output.join(''));

    const end = session.result;
    assert.equal(end?.ok, true);
    if (!end?.ok) return;
    // The fields at the end are the chain's after the block (What Changed's "after").
    const chainAfter = sb.chain.findContract(counter.address)!.fields;
    const mine = end.contractsAfter.find((c) => c.address === counter.address);
    assert.deepEqual(
      mine?.mutFields.map((v) => String(v.value)),
      [String(chainAfter.count?.value), String(chainAfter.paused?.value)],
    );
    assert.match(end.fieldsAfter[0]?.fields ?? '', new RegExp(`count = ${after}, paused = false`));
    // The node's dry run of the same script at the same state agrees, gas included.
    const node = nodeAnswerOf(config.node);
    assert.equal(node?.gasUsed, end.gasUsed);
    assert.deepEqual(comparisonLines(end, node), [
      `The node's dry run of the same script at the same state agrees: it completed, gas ${end.gasUsed}, with the same fields after and 1 event(s).`,
    ]);
  });

  it('refuses a transaction that is not in a block, before reading any state', async () => {
    await assert.rejects(
      replayConfiguration({
        txId: 'ab'.repeat(32),
        fetchers: explainFetchersFrom(client),
        fileOf: () => Promise.resolve(undefined),
        profile: 'sandbox',
      }),
      /is not in a block \(TxNotFound\)/,
    );
  });

  it('a script that failed in its block stops at its assert with the constant, and the node agrees it failed', async () => {
    // The sandbox's race: the owner pauses the Counter in an earlier block, so the script fails in its own.
    sb.chain.scriptsToFailInBlock = 1;
    const txId = await sendIncrement('incrementBy', [3n]);
    const config = await replayOf(txId);
    assert.equal(config.scriptExecutionOk, false);
    const session = new RalphDebugSession(await debugLaunchOf(config, files), { output: () => undefined });
    const failure = session.start(false);
    assert.equal(failure.kind === 'stopped' && failure.reason, 'exception');
    assert.match(
      failure.kind === 'stopped' ? failure.description : '',
      /^AssertionFailedWithErrorCode \(ErrorCodes\.Paused\)/,
    );
    const incrementBy = lineOf('pub fn incrementBy');
    assert.equal(session.stackFrames()[0]?.line, lineOf('assert!(!paused', incrementBy));
    const end = session.continue();
    assert.equal(end.kind === 'ended' && end.result.ok, false);
    if (end.kind !== 'ended') return;
    const lines = comparisonLines(end.result, nodeAnswerOf(config.node)!);
    assert.equal(lines.length, 1);
    assert.match(
      lines[0] ?? '',
      /^The node's dry run of the same script at the same state agrees: it failed \(the node: .*Error Code: 2/,
    );
  });
});
