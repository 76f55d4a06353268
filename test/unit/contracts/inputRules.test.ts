// One rule per input of Simulate, Execute and Deploy (src/core/contracts/inputRules.ts): each rule alone,
// and the same words from the palette's rule, the panel's form check and the argument object's path.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseContractArtifact, type ContractArtifact } from '../../../src/core/artifacts';
import {
  ONE_ALPH,
  addressFromContractId,
  blake2b256,
  bytesToHex,
  groupOfAddress,
} from '../../../src/core/protocol';
import {
  LEAST_FEE_ALPH,
  approvedAlphProblem,
  callerGroupProblem,
  depositProblem,
  unusedAssetsProblem,
  viewOnlyExecuteProblem,
} from '../../../src/core/contracts/inputRules';
import {
  approvalText,
  executionWords,
  simulationWords,
  methodTraits,
  prepareDeploy,
  prepareMethodCall,
} from '../../../src/core/contracts/actions';
import { buildPanelModel, checkMethodForm } from '../../../src/core/contracts/panelModel';
import { SENDER } from '../signing/verifyFixtures';

const ARTIFACTS = join(import.meta.dirname, '../../../sandbox/project/artifacts');
function sandboxArtifact(name: string): ContractArtifact {
  const file = `${name}.ral.json`;
  return parseContractArtifact(JSON.parse(readFileSync(join(ARTIFACTS, file), 'utf8')), file);
}
const counter = sandboxArtifact('Counter');
const faucet = sandboxArtifact('TokenFaucet');

/** A contract address in `group` (a contract id's last byte picks its group). */
function contractIn(group: number): string {
  for (let last = 0; last < 256; last++) {
    const id = bytesToHex(blake2b256(new TextEncoder().encode('a counter'))).slice(0, 62);
    const address = addressFromContractId(id + last.toString(16).padStart(2, '0'));
    if (groupOfAddress(address) === group) return address;
  }
  throw new Error(`no contract address in group ${group}`);
}
const signerGroup = groupOfAddress(SENDER.address);
const sameGroup = contractIn(signerGroup);
const otherGroup = contractIn((signerGroup + 1) % 4);

/** The traits of a method of an artifact by name: Counter's methods may grow at the end. */
function traitsOf(artifact: ContractArtifact, name: string) {
  const index = artifact.functions.findIndex((f) => f.name === name);
  return methodTraits(artifact.bytecode)?.[index];
}

describe('input rules: the deploy deposit', () => {
  it('refuses less than the minimal contract deposit where it is typed, with the rule', () => {
    assert.match(
      depositProblem('0.01') ?? '',
      /at least 0\.1 ALPH \(the node's minimal contract deposit\); 0\.01 ALPH is less/,
    );
    assert.equal(depositProblem('0.1'), undefined);
    assert.equal(depositProblem('2.5'), undefined);
    assert.equal(depositProblem(''), undefined, 'empty takes the minimal deposit');
    assert.ok(depositProblem('0,5'), 'not an amount');
  });

  it('the argument object is refused with the same words the input box shows', () => {
    const fields = { owner: SENDER.address, count: '1' };
    assert.throws(
      () => prepareDeploy({ artifact: 'Counter', fields, alph: '0.01' }, counter, SENDER.address),
      (e: Error & { param?: string }) =>
        e.param === 'alph' && e.message === `alph: ${depositProblem('0.01') ?? '?'}`,
    );
  });
});

describe('input rules: ALPH approved by a call', () => {
  it('none, zero or at least the dust minimum', () => {
    assert.equal(approvedAlphProblem(''), undefined);
    assert.equal(approvedAlphProblem('0'), undefined);
    assert.equal(approvedAlphProblem('1.5'), undefined);
    assert.match(approvedAlphProblem('0.0001') ?? '', /below the dust minimum of 0\.001 ALPH/);
    assert.ok(approvedAlphProblem('1,5'));
  });

  it('the panel and the argument object say what the palette says', () => {
    const words = approvedAlphProblem('0.0001');
    const counterModel = buildPanelModel({ address: sameGroup, artifact: counter });
    const increment = counterModel.methods.find((m) => m.name === 'increment')!;
    const checked = checkMethodForm(counterModel, {
      method: increment.index,
      args: [],
      alph: '0.0001',
      tokens: [],
      gas: '',
    });
    assert.equal(checked.ok ? undefined : checked.errors.alph, words);
  });
});

describe('input rules: approvals on a method that takes none', () => {
  it('says to leave ALPH and tokens empty, in the panel and for the argument object alike', () => {
    const words = unusedAssetsProblem('increment', false, true);
    assert.match(words ?? '', /increment does not use approved assets/);
    assert.equal(unusedAssetsProblem('increment', false, false), undefined);
    assert.equal(unusedAssetsProblem('deposit', true, true), undefined);
    assert.throws(
      () =>
        prepareMethodCall(
          { address: sameGroup, method: 'increment', alph: '1' },
          { artifact: counter, signerAddress: SENDER.address },
        ),
      (e: Error) => e.message === words,
    );
    const model = buildPanelModel({ address: sameGroup, artifact: counter });
    const increment = model.methods.find((m) => m.name === 'increment')!;
    const checked = checkMethodForm(model, {
      method: increment.index,
      args: [],
      alph: '1',
      tokens: [],
      gas: '',
    });
    assert.equal(checked.ok ? undefined : checked.errors.assets, words);
  });
});

describe('input rules: the signer group', () => {
  it('names both groups and what to do, and is silent for a signer of the contract group', () => {
    const words = callerGroupProblem('Counter', otherGroup, SENDER.address);
    assert.match(words ?? '', new RegExp(`group ${groupOfAddress(otherGroup)}, but the signer`));
    assert.match(words ?? '', /Simulate still works/);
    assert.equal(callerGroupProblem('Counter', sameGroup, SENDER.address), undefined);
  });

  it('prepareMethodCall refuses with the same words', () => {
    assert.throws(
      () =>
        prepareMethodCall(
          { address: otherGroup, method: 'increment' },
          { artifact: counter, signerAddress: SENDER.address },
        ),
      (e: Error) => e.message === callerGroupProblem('Counter', otherGroup, SENDER.address),
    );
  });
});

describe('method traits from the bytecode: getters are view-only', () => {
  it('Counter.get is view-only; increment, incrementBy and reset change state', () => {
    assert.deepEqual(traitsOf(counter, 'get'), {
      isPublic: true,
      payable: false,
      usesAssets: false,
      changesState: false,
      viewOnly: true,
    });
    for (const name of ['increment', 'incrementBy', 'reset']) {
      const t = traitsOf(counter, name);
      assert.equal(t?.changesState, true, name);
      assert.equal(t?.viewOnly, false, name);
      assert.equal(t?.payable, false, name);
    }
  });

  it('a method using the contract assets is not view-only', () => {
    const traits = methodTraits(faucet.bytecode) ?? [];
    assert.ok(traits.length > 0);
    for (const [i, t] of traits.entries()) {
      if (t.usesAssets) assert.equal(t.viewOnly, false, faucet.functions[i]?.name);
    }
    assert.ok(traits.some((t) => t.usesAssets));
  });

  it('a method calling a local method that writes a field is not view-only', () => {
    // 0 fields, 2 methods: #0 public, no assets, CallLocal 1, Return; #1 private, StoreMutField 0, Return.
    const m0 = [0x01, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01, 0x02];
    const m1 = [0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x0c, 0xa1, 0x00, 0x02];
    const bytecode = bytesToHex(
      Uint8Array.from([0x00, 0x02, m0.length, m0.length + m1.length, ...m0, ...m1]),
    );
    const traits = methodTraits(bytecode);
    assert.equal(traits?.[1]?.changesState, true);
    assert.equal(traits?.[0]?.changesState, true, 'through CallLocal');
    assert.equal(traits?.[0]?.viewOnly, false);
  });

  it('unreadable bytecode proves nothing: no method is called view-only', () => {
    assert.equal(methodTraits('00ff'), undefined);
  });

  it('Execute of a getter needs a deliberate choice that says it costs a fee', () => {
    assert.match(
      viewOnlyExecuteProblem('get', true, false) ?? '',
      new RegExp(`costs ~${LEAST_FEE_ALPH.replace('.', '\\.')} ALPH`),
    );
    assert.equal(viewOnlyExecuteProblem('get', true, true), undefined);
    assert.equal(viewOnlyExecuteProblem('increment', false, false), undefined);
    const model = buildPanelModel({ address: sameGroup, artifact: counter });
    const get = model.methods.find((m) => m.name === 'get');
    assert.equal(get?.viewOnly, true);
    assert.match(get?.executeAnyway ?? '', /Execute anyway as a transaction \(costs ~0\.002 ALPH/);
    assert.equal(model.methods.find((m) => m.name === 'increment')?.viewOnly, false);
  });
});

describe('token names in the Execute and Deploy confirmations', () => {
  const id = 'ab'.repeat(32);
  it('a known token by symbol and decimal amount, beside its raw amount and whole id', () => {
    const names = new Map([
      [id, { symbol: 'USDT', name: 'Tether USD', decimals: 6, source: 'token list' as const }],
    ]);
    assert.equal(
      approvalText(ONE_ALPH, [{ id, amount: 12_500_000n }], names),
      `1 ALPH, 12.5 USDT (12500000 raw) of token ${id}`,
    );
  });

  it('an unknown token by its raw amount and its whole id, never a shortened one', () => {
    const text = approvalText(0n, [{ id, amount: 5n }]);
    assert.ok(text.includes(id), text);
    assert.match(text, /^5 \(raw; unknown token\) of token/);
  });
});

describe('a palette Simulate or Execute says its result', () => {
  const simulation = {
    ok: true,
    contract: 'Counter',
    method: 'get',
    methodIndex: 0,
    scriptSource: 'generated single-call script',
    returns: [{ name: '#0', type: 'U256', value: '8' }],
    gasUsed: 1200,
    events: [],
    debugMessages: [],
    balanceChanges: [],
  };
  it('a simulation: its returns and gas, and that nothing was signed', () => {
    assert.equal(
      simulationWords(simulation),
      'Simulated Counter.get: #0 = 8; gas 1200; 0 event(s). Nothing was signed.',
    );
    assert.equal(simulationWords({ ...simulation, ok: false, error: 'boom' }), undefined);
  });
  it('an execution: in a block or submitted, with the fee; a failure in its block is a warning', () => {
    const txId = 'ab'.repeat(32);
    const view = { status: 'confirmed' as const, simulation, txId, feeAlph: '0.0023', events: [] };
    assert.match(
      executionWords(view).text,
      /^Executed Counter\.get \(tx [^)]+\): in a block; fee 0\.0023 ALPH; 0 event\(s\)\.$/,
    );
    assert.match(
      executionWords({ ...view, status: 'submitted' }).text,
      /submitted; fee 0\.0023 ALPH; not in a block yet/,
    );
    assert.equal(executionWords({ ...view, status: 'failed', error: 'x' }).warning, true);
  });
});
