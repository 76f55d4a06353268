/**
 * Execute and deploy end to end against the real sandbox gateway (in-process HTTP server): prepare,
 * simulate, build, verify, sign, submit, mine, and read the chain back; every script tampering mode is
 * refused before a signature exists; and the requests each action costs are counted.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArtifactRegistry } from '../../../src/core/artifacts';
import type { GatewayClient } from '../../../src/core/gateway/client';
import { publicKeyFromPrivateKey } from '../../../src/core/protocol/keys';
import {
  buildAndVerifyDeploy,
  buildAndVerifyExecute,
  prepareDeploy,
  prepareMethodCall,
  simulateMethodCall,
  type BuiltScriptTx,
} from '../../../src/core/contracts/actions';
import {
  TransferVerificationError,
  signVerifiedTransfer,
  verifyScriptTx,
} from '../../../src/core/signing/verify';

const VERIFIER = { verifyScriptTx, TransferVerificationError };
import { SCRIPT_TAMPER_MODES, type Sandbox } from '../../../sandbox';
import { connectedSandbox } from '../fixtures/connectedSandbox';

const ARTIFACTS = join(import.meta.dirname, '../../../sandbox/project/artifacts');

describe('execute and deploy against the sandbox gateway', function () {
  let sb: Sandbox;
  let client: GatewayClient;
  let stop: () => Promise<void>;
  let registry: ArtifactRegistry;
  let counter: string;
  let signer: { privateKey: string; publicKey: string; address: string };
  const noLookup = () => undefined;

  before(async () => {
    ({ sb, client, stop } = await connectedSandbox());
    // With .project.json, as the workspace has it: the sandbox runs the debug builds it records.
    registry = ArtifactRegistry.fromFiles(
      [
        'Counter.ral.json',
        'TokenFaucet.ral.json',
        'Increment.ral.json',
        'IncrementBy.ral.json',
        '.project.json',
      ].map((n) => ({ path: `artifacts/${n}`, text: readFileSync(join(ARTIFACTS, n), 'utf8') })),
    );
    const c = sb.contracts.find((x) => x.name === 'Counter')!;
    counter = c.address;
    const account = sb.accounts[c.groupIndex]!;
    signer = {
      privateKey: account.privateKey,
      publicKey: publicKeyFromPrivateKey(account.privateKey),
      address: account.address,
    };
  });
  after(async () => {
    sb.chain.tamper = 'none';
    await stop();
  });

  const count = async (address: string): Promise<bigint> => {
    const state = await client.getContractState(address, { fresh: true });
    return BigInt(String(state.mutFields[0]?.value));
  };
  const submit = async (built: BuiltScriptTx) => {
    const signed = signVerifiedTransfer(built.verified, signer.privateKey);
    await client.submitTransaction(signed);
    sb.mine();
    return signed.txId;
  };
  const apiRequests = () => sb.requests.filter((r) => !r.path.includes('__sandbox')).length;

  it('executes Counter.incrementBy through the workspace script in 3 requests: simulate, build, submit', async () => {
    const before = await count(counter);
    const sent = apiRequests();
    const call = prepareMethodCall(
      { address: counter, method: 'incrementBy', args: ['4'] },
      { artifact: registry.byName('Counter')!, registry, signerAddress: signer.address },
    );
    assert.equal(call.scriptSource, 'artifact script IncrementBy');
    const sim = await simulateMethodCall({ client, artifactOf: noLookup, registry }, call);
    assert.equal(sim.ok, true, sim.error);
    const built = await buildAndVerifyExecute(client, call, signer.publicKey, sim.gasUsed, {}, VERIFIER);
    const txId = await submit(built);
    assert.equal(apiRequests() - sent, 3, 'simulate + build + submit');
    assert.equal(await count(counter), before + 4n);
    const events = await client.getEventsByTxId(txId);
    assert.ok(events.some((e) => e.eventIndex === 0 && e.contractAddress === counter));
  });

  it("refuses in the dry run a contract whose code is not the artifact's, though no view checked its code hash", async () => {
    // Counter's artifact pointed at the faucet: get's index runs the faucet's getSymbol, which succeeds.
    const faucet = sb.contracts.find((x) => x.name === 'TokenFaucet')!;
    const call = prepareMethodCall(
      { address: faucet.address, method: 'get' },
      { artifact: registry.byName('Counter')!, registry },
    );
    const sent = apiRequests();
    const sim = await simulateMethodCall({ client, artifactOf: noLookup, registry }, call);
    assert.equal(sim.ok, false);
    assert.match(sim.error ?? '', /is not Counter's .*could run another method, so nothing is built/);
    assert.equal(apiRequests() - sent, 1, 'the dry run only');
  });

  it('refuses approved ALPH for a method that takes none before any request, as the node would refuse it', () => {
    // No sandbox contract has a method with @using(preapprovedAssets = true); the approval path itself is
    // covered on a payable copy of Counter in the unit tier (actions.test.ts).
    const sent = apiRequests();
    assert.throws(
      () =>
        prepareMethodCall(
          { address: counter, method: 'increment', alph: '0.5' },
          { artifact: registry.byName('Counter')!, registry, signerAddress: signer.address },
        ),
      /increment does not use approved assets/,
    );
    assert.equal(apiRequests() - sent, 0);
  });

  it('deploys a Counter with its fields in 2 requests (build, submit); the new instance answers and executes', async () => {
    const sent = apiRequests();
    const deploy = prepareDeploy(
      { artifact: 'Counter', fields: { owner: signer.address, count: '41', paused: 'false' } },
      registry.byName('Counter')!,
      signer.address,
      registry,
    );
    const built = await buildAndVerifyDeploy(client, deploy, signer.publicKey, {}, VERIFIER);
    const txId = await submit(built);
    assert.equal(apiRequests() - sent, 2, 'build + submit');
    const status = await client.getTxStatus(txId, {
      fromGroup: built.verified.fromGroup,
      toGroup: built.verified.toGroup,
    });
    assert.equal(status.type, 'Confirmed', 'the tracker sees the deploy in a block');
    assert.equal(await count(built.contractAddress), 41n);
    const call = prepareMethodCall(
      { address: built.contractAddress, method: 'increment' },
      { artifact: registry.byName('Counter')!, registry, signerAddress: signer.address },
    );
    await submit(await buildAndVerifyExecute(client, call, signer.publicKey, undefined, {}, VERIFIER));
    assert.equal(await count(built.contractAddress), 42n);
  });

  for (const mode of SCRIPT_TAMPER_MODES) {
    it(`refuses the sandbox's ${mode} tampering before anything is signed`, async () => {
      sb.chain.tamper = mode;
      try {
        const build = mode.startsWith('deploy')
          ? buildAndVerifyDeploy(
              client,
              prepareDeploy(
                { artifact: 'Counter', fields: { owner: signer.address, count: '0', paused: 'false' } },
                registry.byName('Counter')!,
                signer.address,
                registry,
              ),
              signer.publicKey,
              {},
              VERIFIER,
            )
          : buildAndVerifyExecute(
              client,
              prepareMethodCall(
                // No approval: incrementBy takes none (script-approve tampering adds its own).
                { address: counter, method: 'incrementBy', args: ['2'] },
                { artifact: registry.byName('Counter')!, registry, signerAddress: signer.address },
              ),
              signer.publicKey,
              undefined,
              {},
              VERIFIER,
            );
        await assert.rejects(
          build,
          (e: unknown) => e instanceof TransferVerificationError && /Refusing to sign/.test(e.message),
        );
      } finally {
        sb.chain.tamper = 'none';
      }
    });
  }
});
