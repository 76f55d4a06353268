import { strict as assert } from 'node:assert';
import { ArtifactRegistry } from '../../../src/core/artifacts';
import { buildMethodCallScript } from '../../../src/core/bytecode/callScript';
import {
  approvedAtto,
  callerOf,
  callLine,
  explainScriptCalls,
  reproductionRequest,
  stateBeforeBlock,
} from '../../../src/core/debugging/scriptReproduction';
import { addressFromPublicKey } from '../../../src/core/protocol';
import { sandboxArtifactFiles } from '../artifacts/helpers';

const registry = ArtifactRegistry.fromFiles(sandboxArtifactFiles());
const counter = registry.byName('Counter')!;
const COUNTER = '22fnZLkZJUSyhXgboirmJktWkEBRk1pV8L6gfpc53hvVM';
const PUBLIC_KEY = '0381818e63bd9e35a5489b52a430accefc608fd60aa2c7c0d1b393b5239aedf6b2';
const SIGNER = addressFromPublicKey(PUBLIC_KEY);
const TX = 'c'.repeat(64);

function incrementByScript(step: bigint, atto: bigint): string {
  const index = counter.functions.findIndex((f) => f.name === 'incrementBy');
  const fn = counter.functions[index]!;
  return buildMethodCallScript({
    contractId: COUNTER,
    methodIndex: index,
    paramTypes: fn.paramTypes,
    args: [step],
    returnTypes: fn.returnTypes,
    ...(atto > 0n ? { approve: { from: SIGNER, attoAlphAmount: atto, tokens: [] } } : {}),
  });
}

describe('a script’s calls and its reproduction (core/debugging/scriptReproduction)', () => {
  it("names a script's calls, their arguments and approvals from the workspace's artifacts", () => {
    const script = incrementByScript(5n, 10n ** 18n);
    const calls = explainScriptCalls(script, (a) => (a === COUNTER ? counter : undefined));
    assert.equal(calls.length, 1);
    assert.deepEqual(calls[0], {
      address: COUNTER,
      contract: 'Counter',
      methodIndex: counter.functions.findIndex((f) => f.name === 'incrementBy'),
      method: 'incrementBy',
      args: [{ name: 'step', type: 'U256', text: '5' }],
      approvals: [`1 ALPH from ${SIGNER}`],
    });
    assert.equal(
      callLine(calls[0]),
      `Counter.incrementBy(step: U256 = 5) at ${COUNTER}, approving 1 ALPH from ${SIGNER}`,
    );
    assert.equal(approvedAtto(script), 10n ** 18n);
  });

  it('lists a call to a contract the workspace does not describe by index, with its raw values', () => {
    const calls = explainScriptCalls(incrementByScript(7n, 0n), () => undefined);
    assert.equal(calls[0]?.contract, undefined);
    assert.match(callLine(calls[0]!), /^a contract\.method #\d+\(7\) at 22fn/);
  });

  it('finds the state just before a block: its parent on its own chain', () => {
    const deps = Array.from({ length: 7 }, (_, i) => String(i).repeat(64));
    assert.equal(stateBeforeBlock({ deps, chainFrom: 2 }), '5'.repeat(64));
    assert.equal(stateBeforeBlock({ deps, chainFrom: 0 }), '3'.repeat(64));
    assert.equal(stateBeforeBlock({ deps: deps.slice(1), chainFrom: 0 }), undefined, 'not 2G - 1 hashes');
    assert.equal(stateBeforeBlock({ deps, chainFrom: 4 }), undefined, 'no such group');
  });

  it('reproduces as the signer, with the tx id, the approved ALPH plus the fee, and the called contracts', () => {
    const script = incrementByScript(5n, 10n ** 18n);
    const calls = explainScriptCalls(script, () => counter);
    const inputs = [{ unlockScript: `00${PUBLIC_KEY}` }];
    assert.equal(callerOf(inputs), SIGNER);
    assert.deepEqual(
      reproductionRequest({
        txId: TX,
        group: 0,
        scriptHex: script,
        inputs,
        gasAmount: 20_000,
        gasPrice: '100000000000',
        stateBlockHash: 'd'.repeat(64),
        calls,
        approvedAtto: approvedAtto(script),
      }),
      {
        group: 0,
        bytecode: script,
        callerAddress: SIGNER,
        worldStateBlockHash: 'd'.repeat(64),
        txId: TX,
        interestedContracts: [COUNTER],
        inputAssets: [
          { address: SIGNER, asset: { attoAlphAmount: (10n ** 18n + 2n * 10n ** 15n).toString() } },
        ],
      },
    );
  });
});
