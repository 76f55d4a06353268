/**
 * A Ralph project's own artifacts deploy to the sandbox and run there, through @alephium/web3's own flow
 * (the wallet builds with the sandbox, signs and submits, as against a devnet node): Counter deployed from
 * its artifact, then the IncrementBy script of the project run against it, on the project's VM. A failing
 * call (a step over MaxStep) is refused with the contract's error code before anything is signed.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Contract, NodeProvider, Script, binToHex, contractIdFromAddress } from '@alephium/web3';
import { ARTIFACTS_DIR } from './projectContracts';
import { control, newSandbox } from '../testing/helpers';
import { TestWallet } from '../testing/testWallet';
import type { Sandbox } from '../http/server';

const artifact = (name: string): unknown =>
  JSON.parse(readFileSync(join(ARTIFACTS_DIR, `${name}.ral.json`), 'utf8'));

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

  it('deploys Counter from its artifact, runs IncrementBy on it, and the state and event are the VM’s', async () => {
    const counter = Contract.fromJson(artifact('Counter'));
    const owner = sb.accounts[0]!.address;
    const deploy = await wallet.signAndSubmitDeployContractTx({
      signerAddress: owner,
      bytecode: counter.buildByteCodeToDeploy({ owner, count: 40n, paused: false }, false),
      initialAttoAlphAmount: 10n ** 17n,
    });
    await control(sb, 'POST', '/mine');
    const address = deploy.contractAddress;
    const deployed = await provider.contracts.getContractsAddressState(address);
    assert.equal(deployed.codeHash, counter.codeHash);
    assert.deepEqual(deployed.mutFields, [
      { type: 'U256', value: '40' },
      { type: 'Bool', value: false },
    ]);

    const incrementBy = Script.fromJson(artifact('IncrementBy'));
    const bytecode = incrementBy.buildByteCodeToDeploy({
      counter: binToHex(contractIdFromAddress(address)),
      step: 2n,
    });
    const run = await wallet.signAndSubmitExecuteScriptTx({ signerAddress: owner, bytecode });
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

    const tooLarge = incrementBy.buildByteCodeToDeploy({
      counter: binToHex(contractIdFromAddress(address)),
      step: 101n,
    });
    await assert.rejects(
      wallet.signAndSubmitExecuteScriptTx({ signerAddress: owner, bytecode: tooLarge }),
      new RegExp(`Assertion Failed in Contract @ ${address}, Error Code: 1`),
    );
  });
});
