import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { contractMethodHeaders } from '../../../src/core/bytecode/contractMethods';
import { codec } from '@alephium/web3';
import { ArtifactRegistry, type ContractArtifact } from '../../../src/core/artifacts';
import {
  addressFromContractId,
  bytesToHex,
  concatBytes,
  encodeCompactSigned,
  hexToBytes,
} from '../../../src/core/protocol';
import { argumentProblem } from '../../../src/core/contracts/call';
import {
  buildPanelModel,
  checkMethodForm,
  executionResult,
  failureResult,
  isExecutionView,
  isSimulationView,
  parseWebviewMessage,
  simulationResult,
} from '../../../src/core/contracts/panelModel';
import type { ExecutionView, SimulationView } from '../../../src/core/contracts/actionViews';
import { PANEL_LIMITS, type MethodFormInput } from '../../../src/core/contracts/panelProtocol';

const ARTIFACTS = path.join(__dirname, '..', '..', '..', 'sandbox', 'project', 'artifacts');
const COUNTER_ADDRESS = addressFromContractId('0a'.repeat(32));

/**
 * A contract's bytecode built by hand: fieldLength, method end offsets, then each method as
 * isPublic, asset modifier, args/locals/returns lengths and a single Return instruction.
 */
function handmadeBytecode(methods: { isPublic: boolean; modifier: number; args: number }[]): string {
  const bodies = methods.map((m) =>
    Uint8Array.from([m.isPublic ? 1 : 0, m.modifier, m.args, m.args, 0, 1, 0x02]),
  );
  let end = 0;
  const ends = bodies.map((b) => (end += b.length));
  return bytesToHex(
    concatBytes(
      encodeCompactSigned(0),
      encodeCompactSigned(methods.length),
      ...ends.map((e) => encodeCompactSigned(e)),
      ...bodies,
    ),
  );
}

/** A workspace with the sandbox's artifacts, a struct, and a contract with private and payable methods. */
function workspace(): ArtifactRegistry {
  const files = fs
    .readdirSync(ARTIFACTS)
    .map((f) => ({ path: `artifacts/${f}`, text: fs.readFileSync(path.join(ARTIFACTS, f), 'utf8') }));
  const vault = {
    version: 'v4.6.0',
    name: 'Vault',
    bytecode: handmadeBytecode([
      { isPublic: true, modifier: 3, args: 1 }, // deposit: preapproved assets only
      { isPublic: false, modifier: 0, args: 0 }, // check: private
      { isPublic: true, modifier: 2, args: 1 }, // configure: contract assets only
      { isPublic: true, modifier: 1, args: 1 }, // swap: both
    ]),
    codeHash: 'ab'.repeat(32),
    fieldsSig: { names: [], types: [], isMutable: [] },
    eventsSig: [],
    functions: [
      {
        name: 'deposit',
        paramNames: ['to'],
        paramTypes: ['Address'],
        paramIsMutable: [false],
        returnTypes: [],
      },
      { name: 'check', paramNames: [], paramTypes: [], paramIsMutable: [], returnTypes: ['Bool'] },
      {
        name: 'configure',
        paramNames: ['limits'],
        paramTypes: ['Limits'],
        paramIsMutable: [false],
        returnTypes: [],
      },
      {
        name: 'swap',
        paramNames: ['path'],
        paramTypes: ['[U256;2]'],
        paramIsMutable: [false],
        returnTypes: ['U256'],
      },
    ],
  };
  const structs = [
    { name: 'Limits', fieldNames: ['min', 'max'], fieldTypes: ['U256', 'U256'], isMutable: [false, false] },
  ];
  return ArtifactRegistry.fromFiles([
    ...files,
    { path: 'artifacts/Vault.ral.json', text: JSON.stringify(vault) },
    { path: 'artifacts/structs.ral.json', text: JSON.stringify(structs) },
  ]);
}

const registry = workspace();
const counter = registry.byName('Counter')!;
const vault = registry.byName('Vault')!;

function form(partial: Partial<MethodFormInput> & { method: number }): MethodFormInput {
  return { args: [], alph: '', tokens: [], gas: '', ...partial };
}

const simulation: SimulationView = {
  ok: true,
  contract: 'Counter',
  method: 'incrementBy',
  methodIndex: 2,
  scriptSource: 'generated single-call script',
  returns: [{ name: 'result', type: 'U256', value: '7' }],
  gasUsed: 5912,
  events: [
    {
      contractAddress: COUNTER_ADDRESS,
      name: 'Incremented',
      fields: [{ name: 'newCount', type: 'U256', value: '7' }],
    },
  ],
  debugMessages: [{ contractAddress: COUNTER_ADDRESS, message: 'count is now 7' }],
  balanceChanges: [{ address: 'signer', alph: '-0.002', tokens: [] }],
};

describe('contract panel model', () => {
  describe('contractMethodHeaders', () => {
    it('agrees with the SDK on the sandbox artifacts and a handmade contract with every asset modifier', () => {
      const artifacts: ContractArtifact[] = [...registry.contracts];
      assert.ok(artifacts.length >= 3, 'Counter, TokenFaucet and Vault');
      let methods = 0;
      for (const a of artifacts) {
        const ours = contractMethodHeaders(a.bytecode);
        const sdk = codec.contract.contractCodec.decodeContract(hexToBytes(a.bytecode)).methods;
        assert.equal(ours.length, sdk.length, a.name);
        ours.forEach((h, i) => {
          const m = sdk[i]!;
          assert.deepEqual(
            h,
            {
              isPublic: m.isPublic,
              usePreapprovedAssets: m.usePreapprovedAssets,
              useContractAssets: m.useContractAssets,
              usePayToContractOnly: m.usePayToContractOnly,
            },
            `${a.name} method ${i}`,
          );
          methods++;
        });
      }
      assert.ok(methods >= 4 + 4, `compared ${methods} methods`);
    });

    it('refuses bytes that are not contract bytecode', () => {
      assert.throws(() => contractMethodHeaders('0201ff'), /spans bytes|end of data/);
      assert.throws(() => contractMethodHeaders(`${counter.bytecode}00`), /after the last method/);
      assert.throws(() => contractMethodHeaders('00010702000000000102'), /isPublic byte 2/);
    });
  });

  describe('buildPanelModel', () => {
    it("lists Counter's public methods with typed parameters and hints", () => {
      const model = buildPanelModel({ address: COUNTER_ADDRESS, artifact: counter });
      assert.equal(model.title, 'Counter');
      assert.deepEqual(
        model.methods.map((m) => m.name),
        counter.functions.map((f) => f.name),
      );
      const incrementBy = model.methods.find((m) => m.name === 'incrementBy')!;
      assert.equal(incrementBy.index, 2);
      assert.equal(incrementBy.signature, 'incrementBy(step: U256) → ()');
      assert.deepEqual(incrementBy.params, [
        { name: 'step', type: 'U256', hint: 'a non-negative integer, e.g. 42' },
      ]);
      assert.equal(incrementBy.payable, false);
      assert.deepEqual(model.notes, []);
    });

    it('hides private methods, keeps method indexes and marks payable ones from the bytecode', () => {
      const model = buildPanelModel({ address: COUNTER_ADDRESS, artifact: vault });
      assert.deepEqual(
        model.methods.map((m) => [m.name, m.index, m.payable]),
        [
          ['deposit', 0, true],
          ['configure', 2, false],
          ['swap', 3, true],
        ],
      );
      assert.deepEqual(model.privateMethods, ['check']);
    });

    it('says when there is no artifact, when the code drifted, and when the bytecode is unreadable', () => {
      const none = buildPanelModel({ address: COUNTER_ADDRESS });
      assert.equal(none.methods.length, 0);
      assert.match(none.notes[0]!, /No artifact in the workspace describes/);

      const drifted = buildPanelModel({
        address: COUNTER_ADDRESS,
        artifact: counter,
        drift: { status: 'drift', message: 'the on-chain code hash differs' },
      });
      assert.deepEqual(drifted.notes, ['Code drift: the on-chain code hash differs']);

      const broken = buildPanelModel({
        address: COUNTER_ADDRESS,
        artifact: { ...vault, bytecode: '0201ff' },
      });
      assert.equal(broken.methods.length, 4, 'every method is listed when publicness is unknown');
      assert.ok(broken.methods.every((m) => m.payable));
      assert.match(broken.notes[0]!, /could not be read from the bytecode/);
    });
  });

  describe('parseWebviewMessage', () => {
    const ok = { method: 2, args: ['5'], alph: '', tokens: [], gas: '' };
    it('accepts the page messages with their types', () => {
      assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready' });
      assert.deepEqual(parseWebviewMessage({ type: 'simulate', form: ok }), { type: 'simulate', form: ok });
      assert.deepEqual(parseWebviewMessage({ type: 'debug', form: ok }), { type: 'debug', form: ok });
      assert.deepEqual(parseWebviewMessage({ type: 'execute', form: { method: 0, args: [] } }), {
        type: 'execute',
        form: { method: 0, args: [], alph: '', tokens: [], gas: '' },
      });
      const long = 'x'.repeat(PANEL_LIMITS.renderedChars + 10);
      const rendered = parseWebviewMessage({ type: 'rendered', text: long });
      assert.equal(rendered?.type === 'rendered' && rendered.text.length, PANEL_LIMITS.renderedChars);
    });

    it('ignores unknown types, wrong shapes and unbounded strings', () => {
      const bad: unknown[] = [
        null,
        'simulate',
        [],
        { type: 'eval', code: 'x' },
        { type: 'simulate' },
        { type: 'debug' },
        { type: 'debug', form: { ...ok, args: 'x' } },
        { type: 'simulate', form: { ...ok, method: -1 } },
        { type: 'simulate', form: { ...ok, method: 1.5 } },
        { type: 'simulate', form: { ...ok, method: '2' } },
        { type: 'simulate', form: { ...ok, args: '5' } },
        { type: 'simulate', form: { ...ok, args: [5] } },
        { type: 'simulate', form: { ...ok, args: ['x'.repeat(PANEL_LIMITS.argChars + 1)] } },
        { type: 'simulate', form: { ...ok, args: new Array(PANEL_LIMITS.args + 1).fill('1') } },
        { type: 'execute', form: { ...ok, alph: 1 } },
        { type: 'execute', form: { ...ok, gas: '9'.repeat(PANEL_LIMITS.amountChars + 1) } },
        { type: 'execute', form: { ...ok, tokens: [{ id: 'a' }] } },
        {
          type: 'execute',
          form: { ...ok, tokens: new Array(PANEL_LIMITS.tokens + 1).fill({ id: '', amount: '' }) },
        },
        { type: 'rendered', text: 5 },
      ];
      for (const b of bad) assert.equal(parseWebviewMessage(b), undefined, JSON.stringify(b)?.slice(0, 80));
    });
  });

  describe('checkMethodForm', () => {
    const counterModel = buildPanelModel({ address: COUNTER_ADDRESS, artifact: counter });
    const vaultModel = buildPanelModel({ address: COUNTER_ADDRESS, artifact: vault });
    const token = 'cd'.repeat(32);

    it('turns a valid form into the request the commands take', () => {
      assert.deepEqual(checkMethodForm(counterModel, form({ method: 2, args: [' 5 '] }), registry), {
        ok: true,
        request: { address: COUNTER_ADDRESS, method: 'incrementBy', args: ['5'] },
      });
      assert.deepEqual(
        checkMethodForm(
          vaultModel,
          form({
            method: 3,
            args: ['["1","2"]'],
            alph: '1.50',
            tokens: [
              { id: token.toUpperCase(), amount: '10' },
              { id: '', amount: '' },
            ],
            gas: '30000',
          }),
          registry,
        ),
        {
          ok: true,
          request: {
            address: COUNTER_ADDRESS,
            method: 'swap',
            args: ['["1","2"]'],
            alph: '1.5',
            tokens: [{ id: token, amount: '10' }],
            gasAmount: 30000,
          },
        },
      );
    });

    it('reports every bad field with the messages of the Call prompts', () => {
      const bad = checkMethodForm(counterModel, form({ method: 2, args: ['-1'], gas: '5' }), registry);
      assert.equal(bad.ok, false);
      const errors = !bad.ok ? bad.errors : {};
      // The same sentence the Call command's prompt shows for that input.
      assert.equal(errors['arg:0'], argumentProblem('U256', 'step', '-1', registry));
      assert.ok(errors['arg:0']);
      assert.match(errors.gas!, /Gas amount must be an integer from 20000/);

      const empty = checkMethodForm(counterModel, form({ method: 2, args: [''] }), registry);
      assert.deepEqual(!empty.ok && empty.errors, { 'arg:0': 'step is required (U256).' });

      const struct = checkMethodForm(vaultModel, form({ method: 2, args: ['{"min":"1"}'] }), registry);
      assert.equal(struct.ok, false);
      assert.ok(!struct.ok && struct.errors['arg:0'], 'a struct missing a field is refused');
      const structOk = checkMethodForm(
        vaultModel,
        form({ method: 2, args: ['{"min":"1","max":"9"}'] }),
        registry,
      );
      assert.equal(structOk.ok, true);
    });

    it('checks amounts, tokens, arity, private methods and assets on methods that take none', () => {
      const cases: [MethodFormInput, string, RegExp][] = [
        [form({ method: 0, args: [COUNTER_ADDRESS], alph: '1,5' }), 'alph', /comma/],
        [
          form({ method: 0, args: [COUNTER_ADDRESS], tokens: [{ id: 'zz', amount: '1' }] }),
          'token:0',
          /Token 1: the id/,
        ],
        [
          form({
            method: 0,
            args: [COUNTER_ADDRESS],
            tokens: [
              { id: '', amount: '' },
              { id: token, amount: '0' },
            ],
          }),
          'token:1',
          /Token 2: the amount must be a positive integer/,
        ],
        [
          form({
            method: 0,
            args: [COUNTER_ADDRESS],
            tokens: [
              { id: token, amount: '1' },
              { id: token, amount: '2' },
            ],
          }),
          'tokens',
          /listed twice/,
        ],
        [
          form({ method: 2, args: ['{"min":"1","max":"2"}'], alph: '1' }),
          'assets',
          /does not use approved assets/,
        ],
        [form({ method: 1 }), 'form', /no public method with index 1/],
        [form({ method: 0, args: [] }), 'form', /takes 1 argument\(s\), 0 were given/],
      ];
      for (const [f, key, re] of cases) {
        const r = checkMethodForm(vaultModel, f, registry);
        assert.equal(r.ok, false, JSON.stringify(f));
        assert.match((!r.ok && r.errors[key]) || '', re, `${key} of ${JSON.stringify(f)}`);
      }
      // Zero ALPH is no ALPH: nothing to approve, so a non-payable method accepts it.
      const zero = checkMethodForm(counterModel, form({ method: 1, alph: '0' }), registry);
      assert.deepEqual(zero, {
        ok: true,
        request: { address: COUNTER_ADDRESS, method: 'increment', args: [] },
      });
    });
  });

  describe('results', () => {
    it('maps a simulation with returns, gas, events, debug messages and balance changes', () => {
      const r = simulationResult(simulation);
      assert.equal(r.outcome, 'ok');
      assert.match(r.headline, /Simulation succeeded/);
      assert.deepEqual(r.facts, [
        { label: 'Method', value: 'Counter.incrementBy (methodIndex 2)' },
        { label: 'Script', value: 'generated single-call script' },
        { label: 'Gas used', value: '5912' },
      ]);
      assert.equal(r.events[0]?.name, 'Incremented');
      assert.equal(r.debugMessages[0]?.message, 'count is now 7');
      assert.equal(r.balanceChanges[0]?.alph, '-0.002');

      const failed = simulationResult({
        ...simulation,
        ok: false,
        error: 'AssertionFailed 1',
        gasUsed: undefined,
      });
      assert.equal(failed.outcome, 'failed');
      assert.equal(failed.headline, 'Simulation failed: AssertionFailed 1');
      assert.ok(!failed.facts.some((f) => f.label === 'Gas used'));
    });

    it('maps an execution and follows the tracked status of a submitted tx until it is final', () => {
      const txId = 'ef'.repeat(32);
      const submitted: ExecutionView = {
        status: 'submitted',
        simulation,
        txId,
        gasAmount: 7000,
        feeAlph: '0.0007',
        verified: ['script bytes are exactly the locally built script'],
      };
      const pending = executionResult(submitted);
      assert.equal(pending.outcome, 'pending');
      assert.equal(pending.txId, txId);
      assert.deepEqual(pending.facts.slice(0, 4), [
        { label: 'Tx id', value: txId },
        { label: 'Status', value: 'Submitted' },
        { label: 'Gas amount', value: '7000' },
        { label: 'Fee', value: '0.0007 ALPH' },
      ]);
      assert.ok(pending.facts.some((f) => f.label === 'Simulated gas used' && f.value === '5912'));
      assert.deepEqual(pending.verified, submitted.verified);

      const mempool = executionResult(submitted, { kind: 'mempool', text: 'In the mempool' });
      assert.equal(mempool.outcome, 'pending');
      assert.equal(mempool.headline, 'Transaction submitted: In the mempool');
      const confirmed = executionResult(submitted, { kind: 'confirmed', text: 'Confirmed (1 confirmation)' });
      assert.equal(confirmed.outcome, 'confirmed');
      assert.ok(
        confirmed.facts.some((f) => f.label === 'Status' && f.value === 'Confirmed (1 confirmation)'),
      );
      assert.equal(
        executionResult(submitted, { kind: 'failed', text: 'Failed: not found' }).outcome,
        'failed',
      );

      const events = [{ contractAddress: COUNTER_ADDRESS, name: 'Incremented', fields: [] }];
      const done = executionResult({ ...submitted, status: 'confirmed', events });
      assert.equal(done.outcome, 'confirmed');
      assert.deepEqual(done.events, events, "the confirmed tx's own events replace the simulation's");

      const cancelled = executionResult({ status: 'cancelled', simulation });
      assert.equal(cancelled.outcome, 'cancelled');
      assert.equal(cancelled.headline, 'Not executed: cancelled before signing');
      const refused = executionResult({ status: 'failed', simulation, error: 'script bytes differ' });
      assert.equal(refused.headline, 'Execution failed: script bytes differ');
    });

    it('maps failures and recognises command results by shape', () => {
      const f = failureResult('execution', "command 'alephium.executeContractMethod' not found");
      assert.equal(f.outcome, 'failed');
      assert.match(f.headline, /^Execution failed: command/);
      assert.ok(isSimulationView(simulation));
      assert.ok(!isSimulationView({ ...simulation, events: undefined }));
      assert.ok(isExecutionView({ status: 'submitted', simulation }));
      assert.ok(!isExecutionView({ status: 'done', simulation }));
      assert.ok(!isExecutionView(undefined));
    });
  });
});
