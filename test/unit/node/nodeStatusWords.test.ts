/** What the Node view rows say, from a status alone (no gateway): the component tier has the status read. */
import { strict as assert } from 'node:assert';
import {
  chainsDescription,
  nodeStatusChangesAt,
  syncDescription,
  type NodeStatus,
} from '../../../src/core/node/nodeStatus';

describe('node status in words: what the Node view rows say, with their age', () => {
  const heights = (from: number): NodeStatus['heights'] =>
    Array.from({ length: 16 }, (_, i) => ({
      fromGroup: Math.floor(i / 4),
      toGroup: i % 4,
      height: from + (i % 4),
    }));
  const status: NodeStatus = { sync: 'synced', heights: heights(75), fetchedAt: 0, heightsAt: 0 };

  it('says how old the chain heights are once they are not fresh, and the age moves', () => {
    assert.equal(chainsDescription(status, 30_000), '16 chains, heights 75–78');
    // The Chains row kept "heights 75–78" for 17 minutes while the chain was at 1,093.
    assert.equal(
      chainsDescription(status, 17 * 60_000 + 5_000),
      '16 chains, heights 75–78, as of 17 min ago',
    );
    assert.equal(chainsDescription(status, 18 * 60_000), '16 chains, heights 75–78, as of 18 min ago');
  });

  it('tells the view when to render again for the ages to move', () => {
    assert.equal(nodeStatusChangesAt(status, 30_000), 60_000, 'the moment it stops being fresh');
    assert.equal(nodeStatusChangesAt(status, 17 * 60_000 + 5_000), 18 * 60_000);
    const read = { ...status, fetchedAt: 17 * 60_000 };
    assert.equal(nodeStatusChangesAt(read, 17 * 60_000 + 5_000), 18 * 60_000, 'the earliest of the two');
    assert.equal(nodeStatusChangesAt(undefined, 0), undefined);
  });

  it('says the age of the sync state it saw once that is not fresh', () => {
    assert.equal(syncDescription(status, 10_000), 'synced');
    assert.equal(syncDescription(status, 5 * 60_000), 'synced, as of 5 min ago');
  });

  it('names every state it can see', () => {
    const words = (sync: NodeStatus['sync'], extra: Partial<NodeStatus> = {}) =>
      syncDescription({ ...status, sync, ...extra }, 0);
    assert.equal(words('unreachable'), 'unreachable');
    assert.match(words('unauthorized'), /^unauthorized: the API key was rejected/);
    assert.match(words('noKey'), /^no API key/);
    assert.equal(words('quota', { quotaUntil: Date.UTC(2026, 11, 1) }), 'quota used up until 2026-12-01');
    assert.match(words('rateLimited'), /^rate limited/);
    assert.equal(chainsDescription({ ...status, heights: [] }, 0), '16 chains: open to read their heights');
    const allRefused = status.heights.map((h) => ({ ...h, height: undefined, problem: 'quota' as const }));
    assert.equal(chainsDescription({ ...status, heights: allRefused }, 0), '16 chains: none read (quota)');
  });
});
