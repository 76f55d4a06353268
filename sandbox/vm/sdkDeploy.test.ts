/**
 * A Ralph project's own artifacts deploy to the sandbox and run there, through @alephium/web3's own calls
 * (`ContractFactory.deploy` and `ExecutableScript.execute`, what a project's generated code calls, over a
 * wallet that builds with the sandbox, signs and submits as against a devnet node): Counter deployed from
 * its artifact (the debug code, as on a devnet), then the project's IncrementBy script against it, on the
 * project's VM. A step over MaxStep is refused with the contract's error code before anything is signed.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Contract,
  ContractFactory,
  ContractInstance,
  ExecutableScript,
  NodeProvider,
  Script,
  web3,
} from '@alephium/web3';
import { ARTIFACTS_DIR } from './projectContracts';
import { control, newSandbox } from '../testing/helpers';
import { TestWallet } from '../testing/testWallet';
import type { Sandbox } from '../http/server';

const artifact = (name: string): unknown =>
  JSON.parse(readFileSync(join(ARTIFACTS_DIR, `${name}.ral.json`), 'utf8'));
/** What @alephium/cli records of a contract's debug build (`.project.json`), which a devnet deploy uses. */
const debugBuild = (name: string) => {
  const project = JSON.parse(readFileSync(join(ARTIFACTS_DIR, '.project.json'), 'utf8')) as {
    infos: Record<string, { bytecodeDebugPatch: string; codeHashDebug: string }>;
  };
  const info = project.infos[name]!;
  return [info.bytecodeDebugPatch, info.codeHashDebug] as const;
};

/** What the SDK's codegen writes for a contract: a factory over its artifact, an instance per address. */
class CounterInstance extends ContractInstance {}
class CounterFactory extends ContractFactory<
  CounterInstance,
  { owner: string; count: bigint; paused: boolean }
> {
  at(address: string): CounterInstance {
    return new CounterInstance(address);
  }
}

describe("sandbox gateway: a project's artifacts deploy and run on the VM (@alephium/web3)", () => {
  let sb: Sandbox;
  let provider: NodeProvider;
  let wallet: TestWallet;

  before(async () => {
    let key: string;
    ({ sb, key } = await newSandbox());
    const bearerFetch: typeof fetch = (input, init) =>
      fetch(input, {
        ...init,
        headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${key}` },
      });
    provider = new NodeProvider(sb.apiUrl, undefined, bearerFetch);
    wallet = new TestWallet(provider, sb.accounts[0]!);
  });
  after(() => sb.close());

  it("Counter.deploy and IncrementBy.execute, as a project's codegen calls them: state and event are the VM's", async () => {
    web3.setCurrentNodeProvider(provider);
    const counter = Contract.fromJson(artifact('Counter'), ...debugBuild('Counter'));
    const owner = sb.accounts[0]!.address;
    const deployed = await new CounterFactory(counter).deploy(wallet, {
      initialFields: { owner, count: 40n, paused: false },
      initialAttoAlphAmount: 10n ** 17n,
    });
    await control(sb, 'POST', '/mine');
    const address = deployed.contractInstance.address;
    const state = await provider.contracts.getContractsAddressState(address);
    // On a devnet (the sandbox's network id is 4) the SDK deploys the debug code, as the CLI does.
    assert.equal(state.codeHash, counter.codeHashDebug);
    assert.deepEqual(state.mutFields, [
      { type: 'U256', value: '40' },
      { type: 'Bool', value: false },
    ]);

    const incrementBy = new ExecutableScript<{ counter: string; step: bigint }>(
      Script.fromJson(artifact('IncrementBy')),
      () => counter,
    );
    const contractId = deployed.contractInstance.contractId;
    const run = await incrementBy.execute({
      signer: wallet,
      initialFields: { counter: contractId, step: 2n },
    });
    await control(sb, 'POST', '/mine');
    const after = await provider.contracts.getContractsAddressState(address);
    assert.deepEqual(after.mutFields[0], { type: 'U256', value: '42' });
    const events = await provider.events.getEventsTxIdTxid(run.txId);
    assert.deepEqual(
      events.events.map((e) => [e.contractAddress, e.eventIndex, e.fields]),
      [
        [
          address,
          0,
          [
            { type: 'Address', value: owner },
            { type: 'U256', value: '42' },
          ],
        ],
      ],
    );
    // The build's gas is the VM's script gas on top of the transfer's: more than a bare transfer's 20,000.
    assert.ok(run.gasAmount > 20_000, String(run.gasAmount));

    await assert.rejects(
      incrementBy.execute({ signer: wallet, initialFields: { counter: contractId, step: 101n } }),
      new RegExp(`Assertion Failed in Contract @ ${address}, Error Code: 1`),
    );
  });
});
