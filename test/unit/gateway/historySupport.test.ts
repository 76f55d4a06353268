/**
 * Whether a gateway honours `worldStateBlockHash`: one probe per origin with a block that cannot exist,
 * remembered for the session; errors that say nothing about history are thrown and asked again.
 */
import assert from 'node:assert/strict';
import {
  forgetHistorySupport,
  historyOrigin,
  historyProbeCost,
  historySupport,
  historyUnavailableReason,
  knownHistorySupport,
} from '../../../src/core/gateway/history';
import { CONTRACT, PROFILE, harness, json } from './helpers';

const TARGET = { address: CONTRACT, methodIndex: 0 };
const SUCCEEDED = {
  type: 'CallContractSucceeded',
  returns: [],
  gasUsed: 1000,
  contracts: [],
  txInputs: [],
  txOutputs: [],
  events: [],
  debugMessages: [],
};
const FAILED = { type: 'CallContractFailed', error: 'Block not found' };

describe('gateway: does it honour historic state', () => {
  beforeEach(forgetHistorySupport);

  it('calls an honest gateway honoured when it refuses a block that does not exist', async () => {
    const { clock, transport, client } = harness();
    transport.on('/contracts/call-contract', json(200, FAILED));
    assert.equal(historyProbeCost(client), 1);
    assert.equal(await clock.run(historySupport(client, TARGET)), 'honoured');
    const body = JSON.parse(transport.requests[0]?.body ?? '{}') as Record<string, unknown>;
    assert.match(String(body.worldStateBlockHash), /^[0-9a-f]{64}$/);
    assert.equal(body.address, CONTRACT);
    assert.equal(historyOrigin(client.profile), `${PROFILE.baseUrl} ${(PROFILE as { slug: string }).slug}`);
  });

  it('calls a gateway that answers a non-existent block with today\u2019s state ignored, and says so', async () => {
    const { clock, transport, client } = harness();
    transport.on('/contracts/call-contract', json(200, SUCCEEDED));
    assert.equal(await clock.run(historySupport(client, TARGET)), 'ignored');
    assert.match(historyUnavailableReason('ignored') ?? '', /does not honour historic state/);
    assert.equal(historyUnavailableReason('honoured'), undefined);
  });

  it('calls a gateway that answers 400 refused', async () => {
    const { clock, transport, client } = harness();
    transport.on('/contracts/call-contract', json(400, { detail: 'unknown field worldStateBlockHash' }));
    assert.equal(await clock.run(historySupport(client, TARGET)), 'refused');
  });

  it('asks once per origin: the second question and concurrent ones cost nothing more', async () => {
    const { clock, transport, client } = harness();
    transport.on('/contracts/call-contract', json(200, FAILED));
    const both = Promise.all([historySupport(client, TARGET), historySupport(client, TARGET)]);
    assert.deepEqual(await clock.run(both), ['honoured', 'honoured']);
    assert.equal(await clock.run(historySupport(client, TARGET)), 'honoured');
    assert.equal(transport.requests.length, 1);
    assert.equal(historyProbeCost(client), 0);
    assert.equal(knownHistorySupport(client), 'honoured');
  });

  it('asks another gateway (another slug) again', async () => {
    const first = harness();
    first.transport.on('/contracts/call-contract', json(200, FAILED));
    await first.clock.run(historySupport(first.client, TARGET));
    let asked = 0;
    const other = {
      profile: { ...PROFILE, slug: 'other-slug' } as typeof PROFILE,
      callContract: () => {
        asked++;
        return Promise.resolve({ ...SUCCEEDED, type: 'CallContractSucceeded' as const });
      },
    };
    assert.equal(historyProbeCost(other), 1);
    assert.equal(await historySupport(other as never, TARGET), 'ignored');
    assert.equal(asked, 1);
    assert.equal(knownHistorySupport(first.client), 'honoured');
  });

  it('remembers nothing from an error that says nothing about history, and asks again next time', async () => {
    const { clock, transport, client } = harness({ retry: { maxServerRetries: 0, maxSyncWaitMs: 0 } });
    transport.on('/contracts/call-contract', json(503, { detail: 'down' }), json(200, FAILED));
    await assert.rejects(clock.run(historySupport(client, TARGET)));
    assert.equal(knownHistorySupport(client), undefined);
    assert.equal(await clock.run(historySupport(client, TARGET)), 'honoured');
  });
});
