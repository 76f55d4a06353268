/**
 * The Gas Report names the code it measured, the code hash the tree shows for the contract, and says why
 * it is not the artifact's: on a devnet the CLI deploys the debug build (`codeHashDebug`).
 */
import { strict as assert } from 'node:assert';
import { ArtifactRegistry } from '../../../src/core/artifacts';
import { GasMemory } from '../../../src/core/debugging/gasMemory';
import {
  gasReportMarkdown,
  gasReportRows,
  measuredCode,
  planGasReport,
} from '../../../src/core/debugging/gasReport';
import type { CallOutcome } from '../../../src/core/gateway';
import type { CallContractSucceeded } from '../../../src/core/gateway/schemas';
import { sandboxArtifactFiles } from '../artifacts/helpers';

const registry = ArtifactRegistry.fromFiles(sandboxArtifactFiles());
const counter = registry.byName('Counter')!;
const RELEASE = counter.codeHash.toLowerCase();
const DEBUG = registry.codeHashesOf(counter).find((h) => h !== RELEASE)!;
const ADDRESS = 'tgx7VNFoP9DJiFMFgXXtafQZkUvyEdDHT9ryamHJYrjq';

function ranOn(codeHash: string): CallOutcome {
  const result = {
    type: 'CallContractSucceeded',
    returns: [],
    gasUsed: 12_000,
    contracts: [{ address: ADDRESS, codeHash }],
    txInputs: [],
    txOutputs: [],
    events: [],
    debugMessages: [],
  } as unknown as CallContractSucceeded;
  return { ok: true, result };
}

function report(codeHash: string): string {
  const memory = new GasMemory();
  memory.record({
    contract: 'Counter',
    method: 'increment',
    codeHash: RELEASE,
    gasUsed: 11_000,
    via: 'simulate',
    at: 1,
    args: [],
  });
  const plan = planGasReport(memory, counter, { address: ADDRESS, group: 0 }, DEBUG);
  const outcomes = [ranOn(codeHash)];
  const rows = gasReportRows(plan, outcomes, memory, registry.codeHashesOf(counter));
  return gasReportMarkdown(plan, rows, 1, measuredCode(plan, outcomes));
}

describe('the Gas Report names the code hash it measured', () => {
  it('the sandbox Counter has a debug build whose code hash differs from the release build', () => {
    assert.ok(DEBUG && DEBUG !== RELEASE);
  });

  it("a debug build on a devnet: the report shows the tree's code hash and says why it is not the artifact's", () => {
    const text = report(DEBUG);
    assert.match(text, new RegExp(`code measured: \`${DEBUG}\`, the debug build of Counter`));
    assert.match(text, /codeHashDebug in \.project\.json/);
    assert.match(text, new RegExp(`not the release build's \`${RELEASE}\``));
    assert.match(text, /\| increment \| 12,000 gas \|/, 'the debug build is the contract: its figure counts');
  });

  it('a release build: the report says the release build was measured', () => {
    const text = report(RELEASE);
    assert.match(text, new RegExp(`code measured: \`${RELEASE}\`, the release build of Counter`));
    assert.doesNotMatch(text, /debug build/);
  });
});
