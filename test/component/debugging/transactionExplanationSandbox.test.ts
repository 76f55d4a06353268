/**
 * Explain Transaction end to end against the sandbox gateway (in-process HTTP server): a script that
 * failed in its block (the sandbox's fail-in-block race: the Counter paused in an earlier block) is
 * reproduced against the state before its block and its assert found; a succeeded one shows the count
 * before and after; and the requests each explanation costs are counted, first and again (cached).
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArtifactRegistry } from '../../../src/core/artifacts';
import {
  EXPLAIN_COST,
  explainFetchersFrom,
  explainTransaction,
  type ExplainLookup,
} from '../../../src/core/debugging/transactionExplanation';
import type { GatewayClient } from '../../../src/core/gateway/client';
import { forgetHistorySupport } from '../../../src/core/gateway/history';
import { RalphSourceMap } from '../../../src/core/ralph/sourceMap';
import type { Sandbox } from '../../../sandbox';
import { connectedSandbox, sendCounterCall } from '../fixtures/connectedSandbox';

const PROJECT = join(import.meta.dirname, '../../../sandbox/project');
const counterRal = readFileSync(join(PROJECT, 'contracts/counter.ral'), 'utf8');
const lineOf = (needle: string, from = 0) =>
  counterRal.split('\n').findIndex((l, i) => i >= from && l.includes(needle));

describe('Explain Transaction against the sandbox gateway', function () {
  let sb: Sandbox;
  let client: GatewayClient;
  let stop: () => Promise<void>;
  let lookup: ExplainLookup;
  let counter: { address: string; contractId: string };
  const registry = ArtifactRegistry.fromFiles([
    {
      path: 'artifacts/Counter.ral.json',
      text: readFileSync(join(PROJECT, 'artifacts/Counter.ral.json'), 'utf8'),
    },
  ]);
  const artifact = registry.byName('Counter')!;

  before(async () => {
    forgetHistorySupport();
    ({ sb, client, stop } = await connectedSandbox());
    const c = sb.contracts.find((x) => x.name === 'Counter')!;
    counter = { address: c.address, contractId: c.contractId };
    const sources = RalphSourceMap.build([{ path: 'contracts/counter.ral', text: counterRal }]);
    lookup = {
      artifactOf: (a) => (a === counter.address ? artifact : undefined),
      sources: () => Promise.resolve(sources),
    };
  });
  after(async () => {
    await stop();
  });

  const apiRequests = () => sb.requests.filter((r) => !r.path.includes('__sandbox')).map((r) => r.path);
  const explainCounting = async (txId: string) => {
    const before = apiRequests().length;
    const x = await explainTransaction({ ...explainFetchersFrom(client), ...lookup }, txId);
    return { x, requests: apiRequests().slice(before) };
  };

  it('reproduces a script that failed in its block at the paused assert, against the state before its block', async () => {
    sb.chain.scriptsToFailInBlock = 1;
    const txId = await sendCounterCall({ sb, client }, artifact, 'incrementBy', [3n]);
    const { x, requests } = await explainCounting(txId);
    assert.equal(x.scriptExecutionOk, false);
    assert.equal(x.outcome.kind, 'failed-reproduced', x.notes.join('; '));
    if (x.outcome.kind !== 'failed-reproduced') return;
    const failure = x.outcome.failure;
    assert.equal(failure.errorName, 'ErrorCodes.Paused');
    const incrementBy = lineOf('pub fn incrementBy');
    assert.ok(
      failure.sites.some((s) => s.span.start.line === lineOf('assert!(!paused', incrementBy)),
      JSON.stringify(failure.sites),
    );
    assert.ok(x.stateBlocks, 'the block state is named');
    assert.match(
      failure.message,
      new RegExp(`reproduced against the state just before block ${x.stateBlocks.block}`),
    );
    // status, details (this client never read them), events, header, probe, call-tx-script.
    assert.deepEqual(
      requests.map((p) =>
        p
          .slice(`/${sb.slug}`.length)
          .split('?')[0]!
          .replace(/[0-9a-f]{64}/, '{id}'),
      ),
      [
        '/transactions/status',
        '/transactions/details/{id}',
        '/events/tx-id/{id}',
        '/blockflow/headers/{id}',
        '/contracts/call-contract',
        '/contracts/call-tx-script',
      ],
    );
    assert.ok(requests.length <= EXPLAIN_COST.max);
    console.log(`      failed script: ${requests.length} requests the first time`);
    // Again: the details, header and probe are remembered; a failed reproduction is not cached.
    const again = await explainCounting(txId);
    assert.equal(again.x.outcome.kind, 'failed-reproduced');
    console.log(`      failed script: ${again.requests.length} requests the second time`);
    assert.equal(again.requests.length, 3, again.requests.join(', '));
  });

  it("decodes the sandbox's own contract transactions (control API and event ticker) into the call they made", async () => {
    const res = await fetch(`${sb.baseUrl}/__sandbox/events/trigger`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 1, method: 'incrementBy', args: ['2'] }),
    });
    const { txIds } = (await res.json()) as { txIds: string[] };
    const { x } = await explainCounting(txIds[0]!);
    assert.deepEqual(
      x.calls.map((c) => ({ address: c.address, method: c.method, args: c.args.map((a) => a.text) })),
      [{ address: counter.address, method: 'incrementBy', args: ['2'] }],
      x.notes.join('; '),
    );
    assert.equal(x.outcome.kind, 'succeeded', x.notes.join('; '));
  });

  it('shows the count before and after the block of a script that succeeded', async () => {
    const txId = await sendCounterCall({ sb, client }, artifact, 'incrementBy', [4n]);
    const { x, requests } = await explainCounting(txId);
    assert.equal(x.outcome.kind, 'succeeded', x.notes.join('; '));
    if (x.outcome.kind !== 'succeeded') return;
    const count = x.outcome.stateChanges?.[0]?.diff.fields.find((f) => f.name === 'count');
    assert.ok(count, x.notes.join('; '));
    assert.equal(BigInt(count.after) - BigInt(count.before), 4n);
    assert.deepEqual(
      x.events.map((e) => e.name),
      ['Incremented'],
    );
    console.log(`      succeeded script: ${requests.length} requests the first time`);
    assert.ok(requests.length <= EXPLAIN_COST.max);
    const again = await explainCounting(txId);
    console.log(`      succeeded script: ${again.requests.length} requests the second time`);
    assert.equal(again.requests.length, 2, 'status and events only: the rest is pinned or immutable');
  });
});
