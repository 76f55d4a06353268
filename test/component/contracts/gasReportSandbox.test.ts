/**
 * The Gas Report against the real sandbox gateway: remembered runs are simulated again in multicalls of
 * 20, the rows carry the gateway's gas, and the requests it sends are counted (the figure the report's
 * cost notice announces beforehand).
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArtifactRegistry } from '../../../src/core/artifacts';
import type { GatewayClient } from '../../../src/core/gateway/client';
import { callContracts } from '../../../src/core/gateway';
import { GasMemory } from '../../../src/core/debugging/gasMemory';
import { gasReportRows, planGasReport } from '../../../src/core/debugging/gasReport';
import type { Sandbox } from '../../../sandbox';
import { connectedSandbox } from '../fixtures/connectedSandbox';

const ARTIFACTS = join(import.meta.dirname, '../../../sandbox/project/artifacts');

describe('the Gas Report against the sandbox gateway', function () {
  let sb: Sandbox;
  let client: GatewayClient;
  let stop: () => Promise<void>;
  let registry: ArtifactRegistry;

  before(async () => {
    ({ sb, client, stop } = await connectedSandbox());
    registry = ArtifactRegistry.fromFiles([
      { path: 'artifacts/Counter.ral.json', text: readFileSync(join(ARTIFACTS, 'Counter.ral.json'), 'utf8') },
      // The sandbox's Counter runs the debug build .project.json records, as a devnet deployed by the CLI does.
      { path: 'artifacts/.project.json', text: readFileSync(join(ARTIFACTS, '.project.json'), 'utf8') },
    ]);
  });
  after(async () => {
    await stop();
  });

  const apiRequests = () => sb.requests.filter((r) => !r.path.includes('__sandbox')).length;

  async function report(methods: number) {
    const c = sb.contracts.find((x) => x.name === 'Counter')!;
    const counter = registry.byName('Counter')!;
    // One remembered run of `get` on older code, offered `methods` times: a report of that many methods.
    const memory = new GasMemory();
    memory.record({
      contract: 'Counter',
      method: 'get',
      codeHash: 'a'.repeat(64),
      gasUsed: 1,
      args: [],
      via: 'simulate',
      at: 1,
    });
    const runs = Array.from({ length: methods }, () => memory.rerunnable('Counter')[0]!);
    const plan = planGasReport({ rerunnable: () => runs }, counter, {
      address: c.address,
      group: c.groupIndex,
    });
    const before = apiRequests();
    const outcomes = await callContracts(
      client,
      plan.reruns.map((r) => r.call),
      { priority: 'user' },
    );
    const sent = apiRequests() - before;
    return { plan, rows: gasReportRows(plan, outcomes, memory, registry.codeHashesOf(counter)), sent };
  }

  it('costs what it announced: 1 request for 3 methods, 2 for 21, 3 for 41', async () => {
    for (const [methods, requests] of [
      [3, 1],
      [21, 2],
      [41, 3],
    ] as const) {
      const { plan, rows, sent } = await report(methods);
      assert.equal(plan.cost.max, requests, `${methods} methods are announced as ${requests} request(s)`);
      assert.equal(sent, requests, `${methods} methods sent ${requests} request(s)`);
      assert.equal(rows.length, methods);
      for (const row of rows) {
        assert.equal(row.error, undefined, row.error);
        assert.ok((row.gasNow ?? 0) > 0, 'the gateway measured gas');
        assert.equal(row.delta, `+${(row.gasNow! - 1).toLocaleString('en-US')}`, 'against the code before');
      }
    }
  });
});
