import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as web3 from '@alephium/web3';
import {
  ArtifactRegistry,
  parseContractArtifact,
  parseDeploymentsText,
  type ContractArtifact,
} from '../../../src/core/artifacts';
import { decodeScriptCalls } from '../../../src/core/bytecode';
import {
  ONE_ALPH,
  addressFromContractId,
  contractIdFromAddress,
  contractIdFromTx,
  bytesToHex,
  blake2b256,
  hexToBytes,
  Reader,
  type UnsignedTxInput,
} from '../../../src/core/protocol';
import {
  MINIMAL_CONTRACT_DEPOSIT,
  addDeployment,
  balanceChanges,
  buildAndVerifyDeploy,
  buildAndVerifyExecute,
  cliDeploymentCodeHash,
  deploymentRecord,
  methodIsPublic,
  prepareDeploy,
  prepareMethodCall,
} from '../../../src/core/contracts/actions';
import { findMethod } from '../../../src/core/contracts/call';
import {
  TransferVerificationError,
  signVerifiedTransfer,
  verifyScriptTx,
} from '../../../src/core/signing/verify';

const VERIFIER = { verifyScriptTx, TransferVerificationError };
import { ATTACKER, SENDER, TOKEN_ID, honestTx, out, responseFor } from '../signing/verifyFixtures';

const COUNTER_JSON = readFileSync(
  join(import.meta.dirname, '../../../sandbox/project/artifacts/Counter.ral.json'),
  'utf8',
);
const counter: ContractArtifact = parseContractArtifact(JSON.parse(COUNTER_JSON), 'Counter.ral.json');
const contractId = bytesToHex(blake2b256(new TextEncoder().encode('a counter instance'))).replace(
  /..$/,
  '00',
);
const address = addressFromContractId(contractId);

/**
 * The Counter with every method marked `@using(preapprovedAssets = true)` (asset modifier 3 in each
 * method's header): approvals are refused for a method that does not take them, so the approval rules
 * are exercised on methods that do.
 */
function payableArtifact(artifact: ContractArtifact): ContractArtifact {
  const bytes = hexToBytes(artifact.bytecode);
  const r = new Reader(bytes);
  r.i32('fieldLength');
  const count = r.length('methods');
  const ends: number[] = [];
  for (let i = 0; i < count; i++) ends.push(r.i32('end'));
  let start = 0;
  for (const end of ends) {
    bytes[r.offset + start + 1] = 3;
    start = end;
  }
  return { ...artifact, bytecode: bytesToHex(bytes) };
}
const payableCounter = payableArtifact(counter);

/** A script artifact in the workspace for `incrementBy`: field `counter: Counter` and the method's `step`. */
function registryWithScript(template: string): ArtifactRegistry {
  return ArtifactRegistry.fromFiles([
    { path: 'artifacts/Counter.ral.json', text: COUNTER_JSON },
    {
      path: 'artifacts/scripts/IncrementBy.ral.json',
      text: JSON.stringify({
        version: 'v4.6.0',
        name: 'IncrementBy',
        bytecodeTemplate: template,
        fieldsSig: { names: ['counter', 'step'], types: ['Counter', 'U256'], isMutable: [false, false] },
        functions: [{ name: 'main', paramNames: [], paramTypes: [], paramIsMutable: [], returnTypes: [] }],
      }),
    },
  ]);
}

/** The tx an honest gateway builds around `script`: the signer's input, change back, that script. */
function scriptTx(script: string, extra: Partial<UnsignedTxInput> = {}): UnsignedTxInput {
  return {
    ...honestTx([out(SENDER.address, 5n * ONE_ALPH)]),
    scriptOpt: script,
    gasAmount: 30_000,
    ...extra,
  };
}

const client = (tx: UnsignedTxInput, claims: Record<string, unknown> = {}) => ({
  buildExecuteScript: () => Promise.resolve({ ...responseFor(tx), ...claims }),
});

describe('contract actions: execute', () => {
  it('generates a single-call script that calls the chosen method with the chosen arguments', () => {
    const prepared = prepareMethodCall(
      { address, method: 'incrementBy', args: ['7'] },
      { artifact: counter, signerAddress: SENDER.address },
    );
    assert.equal(prepared.scriptSource, 'generated single-call script');
    assert.equal(prepared.methodIndex, 2);
    const [main] = decodeScriptCalls(prepared.script);
    assert.ok(main);
    assert.equal(main.calls.length, 1);
    assert.equal(main.calls[0]?.methodIndex, 2);
    assert.deepEqual(main.calls[0]?.contractId, { kind: 'ByteVec', value: contractId });
    assert.deepEqual(main.calls[0]?.args, [{ kind: 'U256', value: 7n }]);
  });

  it('uses a workspace TxScript artifact when one matches the method, with its fields substituted', () => {
    // A template in the compiler's form: the step field {1}, argument and return counts, the counter
    // field {0}, then CallExternal of incrementBy.
    const { methodIndex } = findMethod(counter, 'incrementBy');
    const template = `01010000000005{1}0d0c{0}01${methodIndex.toString(16).padStart(2, '0')}`;
    const prepared = prepareMethodCall(
      { address, method: 'incrementBy', args: ['5'] },
      { artifact: counter, registry: registryWithScript(template), signerAddress: SENDER.address },
    );
    assert.equal(prepared.scriptSource, 'artifact script IncrementBy');
    assert.ok(prepared.script.includes(contractId), 'the contract id is in the script');
    assert.ok(!prepared.script.includes('{'), 'no placeholder is left');
    // Not byte-equal to the generated script (its asset flags are the compiler's), but the same call.
    const [call] = decodeScriptCalls(prepared.script)[0]?.calls ?? [];
    assert.equal(call?.methodIndex, methodIndex);
    assert.deepEqual(call?.args, [{ kind: 'U256', value: 5n }]);
  });

  // A workspace script is chosen by name and field types; its body must be exactly the one call.
  const hex = (n: number): string => n.toString(16).padStart(2, '0');
  const lookalikes: [string, (m: number) => string, RegExp][] = [
    ['calls another method', (m) => `01010000000005{1}0d0c{0}01${hex(m + 1)}`, /calls method/],
    [
      'calls the method twice',
      (m) => `0101000000000a{1}0d0c{0}01${hex(m)}{1}0d0c{0}01${hex(m)}`,
      /makes 2 calls, not one/,
    ],
    ['passes a constant instead of the step', (m) => `01010000000005100d0c{0}01${hex(m)}`, /argument 0 is/],
    // TransferAlph (0xa7) of the caller's assets before the call.
    [
      'moves assets besides the call',
      (m) => `01010000000009b4b40da7{1}0d0c{0}01${hex(m)}`,
      /instruction 0 is CallerAddress, not part of a single call/,
    ],
  ];
  for (const [what, template, why] of lookalikes) {
    it(`falls back to the generated script when the workspace script ${what}`, () => {
      const { methodIndex } = findMethod(counter, 'incrementBy');
      const prepared = prepareMethodCall(
        { address, method: 'incrementBy', args: ['5'] },
        {
          artifact: counter,
          registry: registryWithScript(template(methodIndex)),
          signerAddress: SENDER.address,
        },
      );
      assert.match(
        prepared.scriptSource,
        /^generated single-call script \(workspace script IncrementBy is not just this call: /,
      );
      assert.match(prepared.scriptSource, why);
      const generated = prepareMethodCall(
        { address, method: 'incrementBy', args: ['5'] },
        { artifact: counter, signerAddress: SENDER.address },
      );
      assert.equal(prepared.script, generated.script);
    });
  }

  it('does not use a workspace script when assets are approved: its approvals could not be matched', () => {
    const prepared = prepareMethodCall(
      { address, method: 'incrementBy', args: ['5'], alph: '1' },
      {
        artifact: payableCounter,
        registry: registryWithScript('01010000000005{1}0d0c{0}0102'),
        signerAddress: SENDER.address,
      },
    );
    assert.equal(prepared.scriptSource, 'generated single-call script');
    const [main] = decodeScriptCalls(prepared.script);
    const approval = main?.calls[0]?.approvals[0];
    assert.deepEqual(approval?.from, { kind: 'Address', value: SENDER.address });
    assert.equal(approval?.tokenId, undefined);
    assert.deepEqual(approval?.amount, { kind: 'U256', value: ONE_ALPH });
  });

  it('passes fixed arrays and booleans typed as JSON and text through to the generated script', () => {
    const setter = parseContractArtifact(
      {
        version: 'v4.6.0',
        name: 'Setter',
        // 0 fields, 1 method (public) ending at byte 4.
        bytecode: '0001' + '04' + '01000000',
        codeHash: 'ee'.repeat(32),
        fieldsSig: { names: [], types: [], isMutable: [] },
        eventsSig: [],
        functions: [
          {
            name: 'setAll',
            paramNames: ['values', 'flag'],
            paramTypes: ['[U256;2]', 'Bool'],
            paramIsMutable: [false, false],
            returnTypes: [],
          },
        ],
        constants: [],
        enums: [],
      },
      'Setter.ral.json',
    );
    const prepared = prepareMethodCall(
      { address, method: 'setAll', args: ['["3", "4"]', 'true'] },
      { artifact: setter, signerAddress: SENDER.address },
    );
    const [main] = decodeScriptCalls(prepared.script);
    assert.deepEqual(main?.calls[0]?.args, [
      { kind: 'U256', value: 3n },
      { kind: 'U256', value: 4n },
      { kind: 'Bool', value: true },
    ]);
  });

  it('refuses bad input before anything is built: arguments, approvals, gas, unknown methods', () => {
    const ctx = { artifact: payableCounter, signerAddress: SENDER.address };
    assert.throws(() => prepareMethodCall({ address, method: 'incrementBy', args: ['-1'] }, ctx), /step/);
    assert.throws(
      () => prepareMethodCall({ address, method: 'incrementBy', args: [] }, ctx),
      /expected 1 argument/,
    );
    assert.throws(
      () => prepareMethodCall({ address, method: 'nope', args: [] }, ctx),
      /has no method "nope"/,
    );
    assert.throws(
      () => prepareMethodCall({ address, method: 'increment', alph: '0.0001' }, ctx),
      /below the dust minimum/,
    );
    assert.throws(
      () => prepareMethodCall({ address, method: 'increment', tokens: [{ id: TOKEN_ID, amount: '5' }] }, ctx),
      /needs some ALPH/,
    );
    assert.throws(
      () =>
        prepareMethodCall(
          { address, method: 'increment', alph: '1', tokens: [{ id: 'xyz', amount: '5' }] },
          ctx,
        ),
      /32-byte token id/,
    );
    assert.throws(() => prepareMethodCall({ address, method: 'increment', gasAmount: 0 }, ctx), /gasAmount/);
    assert.throws(
      () => prepareMethodCall({ address, method: 'increment', alph: '1' }, { artifact: payableCounter }),
      /needs a signer key/,
    );
  });

  it('reads from the bytecode whether a method is public (artifacts do not say)', () => {
    assert.equal(methodIsPublic(counter.bytecode, 0), true);
    // 0 fields, 2 methods ending at 4 and 8: the second starts with isPublic = 0.
    const twoMethods = '0002' + '0408' + '01000000' + '00000000';
    assert.equal(methodIsPublic(twoMethods, 0), true);
    assert.equal(methodIsPublic(twoMethods, 1), false);
    assert.equal(methodIsPublic(twoMethods, 2), false);
  });

  it('verifies an honest build and signs it', async () => {
    const prepared = prepareMethodCall(
      { address, method: 'incrementBy', args: ['7'] },
      { artifact: counter, signerAddress: SENDER.address },
    );
    const built = await buildAndVerifyExecute(
      client(scriptTx(prepared.script)),
      prepared,
      SENDER.publicKey,
      5_000,
      { expectedNetworkId: 4 },
      VERIFIER,
    );
    assert.equal(built.verified.kind, 'script');
    assert.equal(built.verified.script?.bytecode, prepared.script);
    assert.ok(built.lines.some((l) => l.includes('byte-equal')));
    assert.equal(signVerifiedTransfer(built.verified, SENDER.privateKey).txId, built.verified.txId);
  });

  const refusals: [string, (script: string, other: string) => UnsignedTxInput, RegExp][] = [
    ['a different method', (_s, other) => scriptTx(other), /calls method|method/],
    [
      'an extra output to someone else',
      (s) => scriptTx(s, { fixedOutputs: [out(SENDER.address, ONE_ALPH), out(ATTACKER.address, ONE_ALPH)] }),
      /neither a requested destination nor change/,
    ],
    ['no script at all', () => ({ ...honestTx([out(SENDER.address, ONE_ALPH)]) }), /carries no script/],
    [
      'a fee above the cap',
      (s) => scriptTx(s, { gasAmount: 4_000_000, gasPrice: String(10n ** 12n) }),
      /exceeds the cap/,
    ],
    ['gas far above the dry run', (s) => scriptTx(s, { gasAmount: 900_000 }), /but the dry run used 5000/],
    ['another network', (s) => scriptTx(s, { networkId: 0 }), /network id 0/],
  ];
  for (const [what, tamper, message] of refusals) {
    it(`refuses, before any signature, a build with ${what}`, async () => {
      const prepared = prepareMethodCall(
        { address, method: 'incrementBy', args: ['7'] },
        { artifact: counter, signerAddress: SENDER.address },
      );
      const other = prepareMethodCall(
        { address, method: 'increment' },
        { artifact: counter, signerAddress: SENDER.address },
      );
      await assert.rejects(
        buildAndVerifyExecute(
          client(tamper(prepared.script, other.script)),
          prepared,
          SENDER.publicKey,
          5_000,
          {
            expectedNetworkId: 4,
          },
          VERIFIER,
        ),
        (e: unknown) => e instanceof TransferVerificationError && message.test(e.message),
      );
    });
  }

  it("bounds an execute's gas absolutely, even when the same gateway's dry run claims more", async () => {
    const prepared = prepareMethodCall(
      { address, method: 'incrementBy', args: ['7'] },
      { artifact: counter, signerAddress: SENDER.address },
    );
    // The gateway lies twice: a dry run of 1.6 M gas, then a build of 2 M (fee 0.2 ALPH, under the 1 ALPH cap).
    await assert.rejects(
      buildAndVerifyExecute(
        client(scriptTx(prepared.script, { gasAmount: 2_000_000 })),
        prepared,
        SENDER.publicKey,
        1_600_000,
        { expectedNetworkId: 4 },
        VERIFIER,
      ),
      (e: unknown) =>
        e instanceof TransferVerificationError &&
        /may use at most 500000 \(the dry run claimed 1600000\); pass a gas amount/.test(e.message),
    );
    // Without a dry run figure the ceiling holds too; with an explicit gas amount the user chose it.
    await assert.rejects(
      buildAndVerifyExecute(
        client(scriptTx(prepared.script, { gasAmount: 600_000 })),
        prepared,
        SENDER.publicKey,
        undefined,
        { expectedNetworkId: 4 },
        VERIFIER,
      ),
      /may use at most 500000/,
    );
    const chosen = prepareMethodCall(
      { address, method: 'incrementBy', args: ['7'], gasAmount: 600_000 },
      { artifact: counter, signerAddress: SENDER.address },
    );
    const built = await buildAndVerifyExecute(
      client(scriptTx(chosen.script, { gasAmount: 600_000 })),
      chosen,
      SENDER.publicKey,
      undefined,
      { expectedNetworkId: 4 },
      VERIFIER,
    );
    assert.ok(
      built.lines.some((l) =>
        /⚠ The fee, 0\.06 ALPH \(gas 600000\), is 10 times what a contract call usually costs/.test(l),
      ),
    );
  });

  it('names the argument that differs when the gateway changes one', async () => {
    const asked = prepareMethodCall({ address, method: 'incrementBy', args: ['7'] }, { artifact: counter });
    const swapped = prepareMethodCall(
      { address, method: 'incrementBy', args: ['70'] },
      { artifact: counter },
    );
    await assert.rejects(
      buildAndVerifyExecute(client(scriptTx(swapped.script)), asked, SENDER.publicKey, 5_000, {}, VERIFIER),
      (e: unknown) =>
        e instanceof TransferVerificationError && /argument/.test(e.message) && /70/.test(e.message),
    );
  });

  it('refuses a txId that is not the hash of the bytes', async () => {
    const prepared = prepareMethodCall({ address, method: 'increment' }, { artifact: counter });
    await assert.rejects(
      buildAndVerifyExecute(
        client(scriptTx(prepared.script), { txId: 'ab'.repeat(32) }),
        prepared,
        SENDER.publicKey,
        5_000,
        {},
        VERIFIER,
      ),
      /not blake2b-256/,
    );
  });

  it('computes balance changes per address and leaves unchanged ones out', () => {
    const changes = balanceChanges(
      [
        {
          address: SENDER.address,
          attoAlphAmount: String(2n * ONE_ALPH),
          tokens: [{ id: TOKEN_ID, amount: '10' }],
        },
        { address, attoAlphAmount: String(ONE_ALPH) },
        { address: ATTACKER.address, attoAlphAmount: '5' },
      ],
      [
        {
          address: SENDER.address,
          attoAlphAmount: String(ONE_ALPH),
          tokens: [{ id: TOKEN_ID, amount: '4' }],
        },
        { address, attoAlphAmount: String(2n * ONE_ALPH) },
        { address: ATTACKER.address, attoAlphAmount: '5' },
      ],
    );
    assert.deepEqual(changes, [
      { address: SENDER.address, alph: '-1', tokens: [{ id: TOKEN_ID, amount: '-6' }] },
      { address, alph: '+1', tokens: [] },
    ]);
  });
});

describe('contract actions: deploy', () => {
  const fields = { owner: SENDER.address, count: '3', paused: 'false' };

  describe('as @alephium/web3 and the CLI deploy a standard token (oracle)', () => {
    const FAUCET_JSON = readFileSync(
      join(import.meta.dirname, '../../../sandbox/project/artifacts/TokenFaucet.ral.json'),
      'utf8',
    );
    const faucet = parseContractArtifact(JSON.parse(FAUCET_JSON), 'TokenFaucet.ral.json');
    const given = {
      symbol: '46415543',
      name: '466175636574',
      decimals: '0',
      supply: '1000',
      balance: '1000',
    };

    it('fills __stdInterfaceId from the artifact and builds the bytes the SDK builds', () => {
      const d = prepareDeploy({ artifact: 'TokenFaucet', fields: given }, faucet, SENDER.address);
      const sdk = web3.Contract.fromJson(JSON.parse(FAUCET_JSON) as never);
      const sdkFields = {
        ...given,
        decimals: 0n,
        supply: 1000n,
        balance: 1000n,
        __stdInterfaceId: '414c50480001',
      };
      assert.equal(d.bytecode, sdk.buildByteCodeToDeploy(sdkFields as never, false));
      assert.deepEqual(
        d.fields.find((f) => f.name === '__stdInterfaceId'),
        { name: '__stdInterfaceId', type: 'ByteVec', value: '414c50480001', mutable: false },
      );
    });

    it("records the CLI's codeHash: SHA-256 of the deploy bytecode's hex text, not a hash of its bytes", () => {
      const d = prepareDeploy({ artifact: 'TokenFaucet', fields: given }, faucet, SENDER.address);
      assert.equal(d.cliCodeHash, createHash('sha256').update(d.bytecode, 'utf8').digest('hex'));
      assert.equal(d.cliCodeHash, cliDeploymentCodeHash(d.bytecode.toUpperCase()));
    });

    it("refuses a typed __stdInterfaceId other than the artifact's", () => {
      assert.throws(
        () =>
          prepareDeploy(
            { artifact: 'TokenFaucet', fields: { ...given, __stdInterfaceId: '414c50480002' } },
            faucet,
            SENDER.address,
          ),
        /__stdInterfaceId is set from the artifact's stdInterfaceId \(414c50480001\)/,
      );
    });
  });

  it('prepares the deploy bytecode and the script the node must compile for it', () => {
    const d = prepareDeploy({ artifact: 'Counter', fields }, counter, SENDER.address);
    assert.ok(d.bytecode.startsWith(counter.bytecode.toLowerCase()));
    assert.equal(d.bytecode, counter.bytecode.toLowerCase() + d.encodedImmFields + d.encodedMutFields);
    assert.equal(d.initialAttoAlph, MINIMAL_CONTRACT_DEPOSIT);
    assert.ok(d.expectedScript.includes(counter.bytecode.toLowerCase()), 'the script creates that code');
    assert.deepEqual(
      d.fields.map((f) => [f.name, f.mutable]),
      [
        ['owner', false],
        ['count', true],
        ['paused', true],
      ],
    );
  });

  it('refuses a missing field, an unknown field, a bad value and a deposit below the minimum', () => {
    assert.throws(
      () =>
        prepareDeploy({ artifact: 'Counter', fields: { owner: SENDER.address } }, counter, SENDER.address),
      /'count'/,
    );
    assert.throws(
      () =>
        prepareDeploy({ artifact: 'Counter', fields: { ...fields, extra: '1' } }, counter, SENDER.address),
      /no field 'extra'/,
    );
    assert.throws(
      () =>
        prepareDeploy({ artifact: 'Counter', fields: { ...fields, owner: 'nope' } }, counter, SENDER.address),
      /owner/,
    );
    assert.throws(
      () => prepareDeploy({ artifact: 'Counter', fields, alph: '0.01' }, counter, SENDER.address),
      /at least 0.1 ALPH/,
    );
  });

  const deployClient = (tx: UnsignedTxInput, contractAddress?: string) => ({
    buildDeployContract: () => {
      const r = responseFor(tx);
      const id = contractIdFromTx(r.txId, tx.fixedOutputs.length, r.fromGroup);
      return Promise.resolve({ ...r, contractAddress: contractAddress ?? addressFromContractId(id) });
    },
  });

  it('verifies an honest deploy and the new contract address', async () => {
    const d = prepareDeploy({ artifact: 'Counter', fields }, counter, SENDER.address);
    const built = await buildAndVerifyDeploy(
      deployClient(scriptTx(d.expectedScript)),
      d,
      SENDER.publicKey,
      {},
      VERIFIER,
    );
    assert.equal(contractIdFromAddress(built.contractAddress), built.contractId);
    assert.ok(built.lines.some((l) => l.includes('creates exactly this code')));
  });

  it('records a deploy as the CLI does: attoAlphAmount only when a deposit was asked, no final newline', async () => {
    const sent = { name: 'Counter', signature: 'ab'.repeat(64) };
    const plain = prepareDeploy({ artifact: 'Counter', fields }, counter, SENDER.address);
    const builtPlain = await buildAndVerifyDeploy(
      deployClient(scriptTx(plain.expectedScript)),
      plain,
      SENDER.publicKey,
      {},
      VERIFIER,
    );
    // A CLI deploy script without initialAttoAlphAmount records none; one recorded here would redeploy.
    const record = deploymentRecord(plain, builtPlain, sent);
    assert.equal(plain.initialAttoAlph, MINIMAL_CONTRACT_DEPOSIT);
    assert.equal('attoAlphAmount' in record, false);
    assert.equal(record.codeHash, plain.cliCodeHash);
    const asked = prepareDeploy({ artifact: 'Counter', fields, alph: '0.5' }, counter, SENDER.address);
    const builtAsked = await buildAndVerifyDeploy(
      deployClient(scriptTx(asked.expectedScript)),
      asked,
      SENDER.publicKey,
      {},
      VERIFIER,
    );
    assert.equal(deploymentRecord(asked, builtAsked, sent).attoAlphAmount, '500000000000000000');
    // Deployments.saveToFile writes JSON.stringify(…, null, 2) and nothing after it.
    const { text } = addDeployment(undefined, record);
    assert.equal(text, JSON.stringify(JSON.parse(text), null, 2));
  });

  it('refuses a deploy whose fields differ, and says which', async () => {
    const asked = prepareDeploy({ artifact: 'Counter', fields }, counter, SENDER.address);
    const other = prepareDeploy(
      { artifact: 'Counter', fields: { ...fields, count: '4' } },
      counter,
      SENDER.address,
    );
    await assert.rejects(
      buildAndVerifyDeploy(
        deployClient(scriptTx(other.expectedScript)),
        asked,
        SENDER.publicKey,
        {},
        VERIFIER,
      ),
      (e: unknown) => e instanceof TransferVerificationError && /mutable fields/.test(e.message),
    );
  });

  it("bounds a deploy's gas by its script size: an honest 58,340 passes, a gateway's 4,667,200 is refused", async () => {
    const d = prepareDeploy({ artifact: 'Counter', fields }, counter, SENDER.address);
    const honest = await buildAndVerifyDeploy(
      deployClient(scriptTx(d.expectedScript, { gasAmount: 58_340 })),
      d,
      SENDER.publicKey,
      {},
      VERIFIER,
    );
    assert.equal(honest.verified.gasAmount, 58_340);
    assert.ok(!honest.lines.some((l) => l.startsWith('⚠')), 'no fee warning for an honest deploy');
    await assert.rejects(
      buildAndVerifyDeploy(
        deployClient(scriptTx(d.expectedScript, { gasAmount: 4_667_200 })),
        d,
        SENDER.publicKey,
        {},
        VERIFIER,
      ),
      (e: unknown) =>
        e instanceof TransferVerificationError &&
        /gasAmount is 4667200, but a deploy script of \d+ bytes/.test(e.message),
    );
  });

  it('warns in words in the deploy confirmation when the fee is far above the usual, under the bound', async () => {
    const d = prepareDeploy({ artifact: 'Counter', fields }, counter, SENDER.address);
    const built = await buildAndVerifyDeploy(
      deployClient(scriptTx(d.expectedScript, { gasAmount: 155_000 })),
      d,
      SENDER.publicKey,
      {},
      VERIFIER,
    );
    assert.ok(
      built.lines.some((l) =>
        /⚠ The fee, 0\.0155 ALPH \(gas 155000\), is 2\.\d times what a deploy of this size/.test(l),
      ),
      built.lines.join('\n'),
    );
  });

  it('refuses a deploy announced at another address than the bytes create', async () => {
    const d = prepareDeploy({ artifact: 'Counter', fields }, counter, SENDER.address);
    await assert.rejects(
      buildAndVerifyDeploy(
        deployClient(scriptTx(d.expectedScript), address),
        d,
        SENDER.publicKey,
        {},
        VERIFIER,
      ),
      /announces the new contract/,
    );
  });
});

describe('contract actions: the deployments file', () => {
  const record = (name: string, id: string) => ({
    name,
    deployerAddress: SENDER.address,
    txId: 'aa'.repeat(32),
    unsignedTx: '00',
    signature: 'bb'.repeat(64),
    gasPrice: '100000000000',
    gasAmount: 50_000,
    blockHash: 'cc'.repeat(32),
    codeHash: 'dd'.repeat(32),
    contractAddress: addressFromContractId(id),
    contractId: id,
    groupIndex: 0,
    attoAlphAmount: String(MINIMAL_CONTRACT_DEPOSIT),
  });
  const id1 = '11'.repeat(31) + '00';
  const id2 = '22'.repeat(31) + '00';

  it('writes a file the deployments parser (and so the CLI format) reads back', () => {
    const { text, name } = addDeployment(undefined, record('Counter', id1));
    assert.equal(name, 'Counter');
    const parsed = parseDeploymentsText(text, 'deployments/.deployments.devnet.json');
    assert.equal(parsed.contracts[0]?.address, addressFromContractId(id1));
    assert.equal(parsed.network, 'devnet');
    assert.deepEqual(Object.keys(JSON.parse(text) as object), [
      'deployerAddress',
      'contracts',
      'scripts',
      'migrations',
    ]);
  });

  it('gives a second instance of a name the tag form and keeps everything else as it was', () => {
    const first = addDeployment(undefined, record('Counter', id1)).text;
    const withExtra = JSON.stringify({ ...(JSON.parse(first) as object), custom: 1 });
    const { text, name } = addDeployment(withExtra, record('Counter', id2));
    assert.equal(name, 'Counter:2');
    const json = JSON.parse(text) as { custom: number; contracts: Record<string, unknown> };
    assert.equal(json.custom, 1);
    assert.deepEqual(Object.keys(json.contracts), ['Counter', 'Counter:2']);
    // The same instance again replaces its own entry instead of adding a third.
    assert.equal(addDeployment(text, record('Counter', id2)).name, 'Counter:2');
  });

  it('adds a deployer to an array file and refuses a file it does not understand', () => {
    const other = { ...record('Counter', id1), deployerAddress: ATTACKER.address };
    const arrayText = JSON.stringify([JSON.parse(addDeployment(undefined, other).text)]);
    const { text } = addDeployment(arrayText, record('Counter', id2));
    const list = JSON.parse(text) as { deployerAddress: string }[];
    assert.deepEqual(
      list.map((d) => d.deployerAddress),
      [ATTACKER.address, SENDER.address],
    );
    assert.throws(() => addDeployment('{not json', record('Counter', id1)), /not JSON/);
    assert.throws(() => addDeployment('{"contracts": {}}', record('Counter', id1)), /shape/);
  });
});
