/**
 * The sandbox's `POST /contracts/test-contract` runs the method on the project's VM, and @alephium/web3's
 * own `testMethod` (what a Ralph project's unit tests call against a devnet node) works against it: the
 * SDK builds the request from the artifact and decodes the answer, so both shapes are the node's.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Contract, NodeProvider, testMethod, web3, type ContractFactory } from '@alephium/web3';
import { ARTIFACTS_DIR } from './projectContracts';
import { newSandbox, type Api } from '../testing/helpers';
import type { Sandbox } from '../http/server';

const OWNER = '1DrDyTr9RpRsQnDnXo2YRiPzPW4ooHX5LLoqXrqfMrpQH';

describe('sandbox gateway: test-contract on the VM', () => {
  let sb: Sandbox;
  let api: Api;
  let counter: Contract;
  // testMethod reads nothing of the factory but its contract.
  const factory = () => ({ contract: counter }) as unknown as ContractFactory<never>;

  before(async () => {
    let key: string;
    ({ sb, api, key } = await newSandbox());
    const bearerFetch: typeof fetch = (input, init) =>
      fetch(input, {
        ...init,
        headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${key}` },
      });
    web3.setCurrentNodeProvider(new NodeProvider(sb.apiUrl, undefined, bearerFetch));
    counter = Contract.fromJson(JSON.parse(readFileSync(join(ARTIFACTS_DIR, 'Counter.ral.json'), 'utf8')));
  });
  after(() => sb.close());

  it("the SDK's testMethod runs Counter.incrementBy: new count, its event, the VM's gas", async () => {
    const result = await testMethod(
      factory(),
      'incrementBy',
      {
        initialFields: { owner: OWNER, count: 10n, paused: false },
        args: { step: 5n },
        inputAssets: [{ address: OWNER, asset: { alphAmount: 10n ** 18n } }],
      },
      () => counter,
    );
    const self = result.contracts.find((c) => c.address === result.contractAddress);
    assert.deepEqual(self?.fields, { owner: OWNER, count: 15n, paused: false });
    assert.equal(result.events.length, 1);
    assert.equal(result.events[0]?.name, 'Incremented');
    assert.deepEqual(result.events[0]?.fields, { by: OWNER, newCount: 15n });
    // The VM counts it (the node's own figure for this method is not at hand offline).
    assert.ok(result.gasUsed > 1_000 && result.gasUsed < 20_000, String(result.gasUsed));
  });

  it("a failing assert! is the node's 400 with the VM's words, and the SDK throws it", async () => {
    await assert.rejects(
      testMethod(
        factory(),
        'incrementBy',
        { initialFields: { owner: OWNER, count: 0n, paused: false }, args: { step: 101n } },
        () => counter,
      ),
      /Assertion Failed in Contract @ \w+, Error Code: 1/,
    );
  });

  it('a request without bytecode is refused before anything runs', async () => {
    const r = await api.post('/contracts/test-contract', { methodIndex: 0 });
    assert.equal(r.status, 400);
    assert.match(String(((await r.json()) as { detail?: unknown }).detail), /missing bytecode/);
  });
});
