/**
 * The launch of a deployed contract's method (issue 31's Debug button): the configuration built from the
 * state a gateway returns, checked by `launchStateOf`, runs on the VM with that state's fields and assets
 * rather than the artifact's defaults; a state whose code is not the artifact's is refused.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  addressFromContractId,
  contractIdFromTx,
  groupOfAddress,
  isValidAddress,
  lockupScriptFromAddress,
} from '../../../src/core/protocol';
import { parseContractArtifact } from '../../../src/core/artifacts';
import { debuggableContract, methodDebugConfigurations } from '../../../src/core/ralphDebug/dynamicConfigs';
import { OWN_FACTS_KEY, debugContractMethodOf, withOwnFacts } from '../../../src/core/ralphDebug/configKeys';
import {
  deployedLaunchConfiguration,
  placeholderCaller,
  RALPH_DEBUG_TYPE,
  type DeployedLaunchInput,
} from '../../../src/core/ralphDebug/deployedLaunch';
import { launchStateOf, methodLaunchOf } from '../../../src/core/ralphDebug/launchConfig';
import { RalphDebugSession } from '../../../src/core/ralphDebug/session';

const PROJECT = join(import.meta.dirname, '..', '..', '..', 'sandbox', 'project');
const ARTIFACT_PATH = join(PROJECT, 'artifacts', 'Counter.ral.json');
const SOURCE_PATH = join(PROJECT, 'contracts', 'counter.ral');
const artifactJson = JSON.parse(readFileSync(ARTIFACT_PATH, 'utf8')) as {
  bytecode: string;
  codeHash: string;
  codeHashDebug?: string;
};
const files = { readText: (path: string) => Promise.resolve(readFileSync(path, 'utf8')) };
const OWNER = placeholderCaller(0);
const manifest = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8'),
) as { contributes: { debuggers: unknown } };

function input(overrides: Partial<DeployedLaunchInput> = {}): DeployedLaunchInput {
  const address = addressFromContractId(contractIdFromTx('00'.repeat(32), 0, 0));
  return {
    contractName: 'Counter',
    address,
    method: 'incrementBy',
    args: ['5'],
    artifactPath: ARTIFACT_PATH,
    sourcePath: SOURCE_PATH,
    state: {
      bytecode: artifactJson.bytecode,
      codeHash: artifactJson.codeHash,
      immFields: [{ type: 'Address', value: OWNER }],
      mutFields: [
        { type: 'U256', value: '40' },
        { type: 'Bool', value: false },
      ],
      asset: { attoAlphAmount: '1000000000000000000' },
    },
    codeHashes: [artifactJson.codeHash],
    approvedAttoAlph: 0n,
    profile: 'sandbox',
    ...overrides,
  };
}

describe('deployed launch: the Debug button configuration', () => {
  it('names a placeholder caller of each group, a valid address no key holds', () => {
    for (let group = 0; group < 4; group++) {
      const address = placeholderCaller(group);
      assert.equal(groupOfAddress(address), group);
      assert.ok(isValidAddress(address));
      const decoded = lockupScriptFromAddress(address);
      assert.equal(decoded[0], 0, 'a P2PKH address');
      assert.ok(decoded.slice(1, 32).every((b) => b === 0));
    }
  });

  it("the manifest's snippet caller is the group-0 placeholder, not someone's address", () => {
    const text = JSON.stringify(manifest.contributes.debuggers);
    const callers = [...text.matchAll(/"caller":"(?:\$\{\d+:)?(\w+)/g)].map((m) => m[1]);
    assert.ok(callers.length > 0);
    assert.deepEqual([...new Set(callers)], [placeholderCaller(0)]);
  });

  it('runs the method on the state read from the gateway: count 40 + 5 = 45, not the default 0', async () => {
    const config = deployedLaunchConfiguration(input());
    assert.equal(config.type, RALPH_DEBUG_TYPE);
    assert.equal(config.name, 'Debug Counter.incrementBy(5)');
    assert.equal(config.callerAttoAlph, '1000000000000000000');
    assert.match(
      String(config.stateFrom),
      /read from profile "sandbox" \(1 request\); caller: a placeholder/,
    );
    const launch = await methodLaunchOf(config, files);
    const output: string[] = [];
    const session = new RalphDebugSession(launch, { output: (t) => output.push(t) });
    const end = session.start(false);
    assert.equal(end.kind, 'ended');
    assert.equal(session.result?.ok, true);
    assert.ok(
      output.some((t) => t.startsWith('event Incremented @ ') && t.includes('45')),
      output.join(''),
    );
  });

  it('adds the approved ALPH to what the caller brings, and keeps the signer as the caller', () => {
    const signer = placeholderCaller(0);
    const config = deployedLaunchConfiguration(input({ signerAddress: signer, approvedAttoAlph: 5n }));
    assert.equal(config.caller, signer);
    assert.equal(config.callerAttoAlph, '1000000000000000005');
    assert.doesNotMatch(String(config.stateFrom), /placeholder/);
  });

  it('refuses a state whose code is not the artifact, naming the hash', () => {
    const other = 'ab'.repeat(32);
    assert.throws(
      () => deployedLaunchConfiguration(input({ state: { ...input().state, codeHash: other } })),
      new RegExp(`hash ${other}\\) is not Counter's artifact`),
    );
  });
});

describe('launchStateOf: a launch state is checked before anything runs', () => {
  const good = input().state;
  it('accepts the state as the node returns it', () => {
    const state = launchStateOf(good);
    assert.equal(state.bytecode, good.bytecode);
    assert.deepEqual(state.mutFields, good.mutFields);
    assert.equal(state.asset.tokens, undefined);
  });

  it('names what is wrong: code, amount, tokens, a value and its position', () => {
    assert.throws(() => launchStateOf({ ...good, bytecode: 'xyz' }), /state\.bytecode must be/);
    assert.throws(() => launchStateOf({ ...good, bytecode: '' }), /state\.bytecode must be/);
    assert.throws(
      () => launchStateOf({ ...good, asset: { attoAlphAmount: '-1' } }),
      /state\.asset\.attoAlphAmount must be atto ALPH/,
    );
    assert.throws(
      () => launchStateOf({ ...good, asset: { attoAlphAmount: '1', tokens: [{ id: '00', amount: '1' }] } }),
      /state\.asset\.tokens must be/,
    );
    assert.throws(
      () =>
        launchStateOf({
          ...good,
          mutFields: [
            { type: 'U256', value: '1' },
            { type: 'Bool', value: 'maybe' },
          ],
        }),
      /^Error: state\.mutFields\[1\]: /,
    );
    assert.throws(() => launchStateOf({ ...good, immFields: 'owner' }), /state\.immFields must be a list/);
  });
});

describe("Run and Debug's list: one entry per public method of each watched contract", () => {
  const counter = parseContractArtifact(artifactJson, ARTIFACT_PATH);
  const address = addressFromContractId(contractIdFromTx('00'.repeat(32), 0, 0));

  it("lists Counter's six public methods by the watched name, each naming its method only", () => {
    const configs = methodDebugConfigurations([debuggableContract(address, 'Counter:main', counter)]);
    assert.deepEqual(
      configs.map((c) => c.name),
      ['get', 'increment', 'incrementBy', 'reset', 'pause', 'unpause'].map(
        (m) => `Debug Counter:main.${m} (${address.slice(0, 6)}…${address.slice(-4)})`,
      ),
    );
    assert.deepEqual(debugContractMethodOf(configs[2]!), { address, method: 'incrementBy' });
    assert.equal(debugContractMethodOf({ type: 'ralph', debugContractMethod: { address: 1 } }), undefined);
  });

  it('lists nothing for code that does not decode, and caps a long list', () => {
    const hidden = debuggableContract(address, 'X', { ...counter, bytecode: '00' });
    assert.deepEqual(hidden.methods, []);
    const many = methodDebugConfigurations(
      Array.from({ length: 20 }, () => debuggableContract(address, 'C', counter)),
    );
    assert.equal(many.length, 50, 'capped so a long watch list does not bury the list');
  });
});

describe("withOwnFacts: only the extension's own commands say where a run's state came from", () => {
  it("drops a launch.json's claims (stateFrom, node) and puts back the command's facts", () => {
    const claimed = {
      type: 'ralph',
      method: 'get',
      stateFrom: 'the state read from profile "mainnet"',
      node: { ok: true, gasUsed: 1 },
      [OWN_FACTS_KEY]: 'guessed',
    };
    assert.deepEqual(withOwnFacts(claimed, undefined), { type: 'ralph', method: 'get' });
    assert.deepEqual(
      withOwnFacts(claimed, { stateFrom: 'read from profile "sandbox"', node: { ok: false } }),
      {
        type: 'ralph',
        method: 'get',
        stateFrom: 'read from profile "sandbox"',
        node: { ok: false },
      },
    );
  });
});
