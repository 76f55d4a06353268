import { strict as assert } from 'node:assert';
import { ArtifactRegistry } from '../../../src/core/artifacts';
import { GasMemory, type GasRecord } from '../../../src/core/debugging/gasMemory';
import {
  gasReportMarkdown,
  gasReportRecords,
  gasReportRows,
  planGasReport,
} from '../../../src/core/debugging/gasReport';
import { ContractCallFailedError, type CallOutcome } from '../../../src/core/gateway';
import type { CallContractSucceeded } from '../../../src/core/gateway/schemas';
import { sandboxArtifactFiles } from '../artifacts/helpers';

const registry = ArtifactRegistry.fromFiles(sandboxArtifactFiles());
const counter = registry.byName('Counter')!;
const NOW = counter.codeHash;
const OLD = 'a'.repeat(64);
const ADDRESS = 'tgx7VNFoP9DJiFMFgXXtafQZkUvyEdDHT9ryamHJYrjq';
const u256 = (v: string) => ({ type: 'U256', value: v });

const run = (over: Partial<GasRecord>): GasRecord => ({
  contract: 'Counter',
  method: 'increment',
  codeHash: NOW,
  gasUsed: 1000,
  via: 'simulate',
  at: 1,
  args: [],
  ...over,
});

function succeeded(gasUsed: number, codeHash = NOW): CallOutcome {
  const result = {
    type: 'CallContractSucceeded',
    returns: [],
    gasUsed,
    contracts: [{ address: ADDRESS, codeHash }],
    txInputs: [],
    txOutputs: [],
    events: [],
    debugMessages: [],
  } as unknown as CallContractSucceeded;
  return { ok: true, result };
}

describe('the Gas Report (core/debugging/gasReport)', () => {
  it('plans one call per remembered method with arguments, 20 to a multicall, and says the cost', () => {
    const memory = new GasMemory();
    memory.record(run({ method: 'incrementBy', args: [u256('5')], at: 2 }));
    memory.record(run({ method: 'increment', at: 3 }));
    memory.record(run({ method: 'get', at: 4, args: undefined }));
    memory.record(run({ method: 'gone', at: 5 }));
    memory.record(run({ contract: 'TokenFaucet', method: 'withdraw', args: [u256('1')], at: 6 }));
    const plan = planGasReport(memory, counter, { address: ADDRESS, group: 0 });
    assert.deepEqual(
      plan.reruns.map((r) => [r.method, r.methodIndex, r.call.args]),
      [
        ['increment', 1, []],
        ['incrementBy', 2, [u256('5')]],
      ],
      'only methods of this contract with kept arguments, by their index in this artifact',
    );
    assert.deepEqual(plan.skipped, [{ method: 'gone', reason: 'Counter has no such method any more' }]);
    assert.deepEqual(plan.cost, { min: 1, max: 1 });
    assert.equal(plan.reruns[0]!.call.address, ADDRESS);
  });

  it('costs one request per 20 methods', () => {
    const many = {
      rerunnable: () => Array.from({ length: 41 }, (_, i) => run({ method: 'increment', at: i })),
    };
    assert.deepEqual(planGasReport(many, counter, { address: ADDRESS, group: 0 }).cost, { min: 3, max: 3 });
  });

  it('lists gas now, its ALPH and the change from the code before; failures and other code as failures', () => {
    const memory = new GasMemory();
    memory.record(run({ method: 'increment', codeHash: OLD, gasUsed: 11_000, at: 1 }));
    memory.record(run({ method: 'increment', gasUsed: 12_000, at: 2 }));
    memory.record(run({ method: 'incrementBy', args: [u256('5')], gasUsed: 900, at: 3 }));
    memory.record(run({ method: 'reset', gasUsed: 700, at: 4 }));
    const plan = planGasReport(memory, counter, { address: ADDRESS, group: 0 });
    assert.deepEqual(
      plan.reruns.map((r) => r.method),
      ['increment', 'incrementBy', 'reset'],
    );
    const outcomes: CallOutcome[] = [
      succeeded(12_300),
      { ok: false, error: new ContractCallFailedError('x', 'AssertionFailed | bad') },
      succeeded(700, 'c'.repeat(64)),
    ];
    const rows = gasReportRows(plan, outcomes, memory, registry.codeHashesOf(counter));
    assert.deepEqual(rows[0], {
      method: 'increment',
      gasNow: 12_300,
      gas: '12,300 gas',
      alph: '0.00123 ALPH',
      delta: '+1,300',
      previousGas: 11_000,
    });
    assert.equal(rows[1]!.gasNow, undefined);
    assert.match(rows[1]!.error!, /AssertionFailed/);
    assert.match(rows[2]!.error!, /is not Counter's/, 'a figure of other code is not a figure');
    const text = gasReportMarkdown(plan, rows, 1);
    assert.match(text, /\| increment \| 12,300 gas \| 0\.00123 ALPH \| \+1,300 \| 11,000 gas \|/);
    assert.match(
      text,
      /\| incrementBy \| failed: .*AssertionFailed \\\| bad/,
      'outside text cannot open a cell',
    );
    assert.match(text, /in 1 request\(s\)/);

    const records = gasReportRecords(plan, rows, 99);
    assert.deepEqual(
      records.map((r) => [r.method, r.gasUsed, r.codeHash, r.via, r.at]),
      [['increment', 12_300, NOW, 'simulate', 99]],
      'only measured figures of this code are remembered',
    );
  });
});
