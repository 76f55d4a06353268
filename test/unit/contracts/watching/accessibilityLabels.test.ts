/**
 * What a screen reader says for tree rows whose state is otherwise shown only by an icon (and its colour):
 * the words come from the core models that build the rows, so they are read here without VS Code.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ArtifactRegistry } from '../../../../src/core/artifacts';
import { addressFromContractId } from '../../../../src/core/protocol';
import { makeWatched, resolveWatched } from '../../../../src/core/contracts/watching/watchList';
import { contractRow, eventRow } from '../../../../src/core/contracts/watching/rows';
import { trackedTxView } from '../../../../src/core/transactions/txDetailsModel';
import { syncAccessibilityLabel, type NodeStatus } from '../../../../src/core/node/nodeStatus';

const ARTIFACTS = path.join(__dirname, '..', '..', '..', '..', 'sandbox', 'project', 'artifacts');
const registry = ArtifactRegistry.fromFiles(
  fs
    .readdirSync(ARTIFACTS)
    .map((f) => ({ path: `artifacts/${f}`, text: fs.readFileSync(path.join(ARTIFACTS, f), 'utf8') })),
);
const counter = registry.byName('Counter')!;
const faucet = registry.byName('TokenFaucet')!;
const ADDRESS = addressFromContractId('11'.repeat(32));
const USER = '1DrDyTr9RpRsQnDnXo2YRiPzPW4ooHX5LLoqXrqfMrpQH';

describe('accessibility labels of tree rows whose state is an icon', () => {
  it('a contract row says in words whether its code matches, drifted, is unknown or could not be read', () => {
    const watched = makeWatched(ADDRESS, { name: 'Counter' });
    const label = (codeHash: string | undefined, w = watched, error?: string) =>
      contractRow({
        watched: w,
        resolved: resolveWatched(registry, w, codeHash, 'devnet'),
        codeHash,
        ...(error ? { error, errorBadge: '⚠ API key rejected' } : {}),
      }).accessibilityLabel ?? '';
    assert.match(label(counter.codeHash), /^Contract Counter, .*group \d, code matches the artifact$/);
    const chosen = makeWatched(ADDRESS, { artifactName: 'Counter' });
    assert.match(
      label(faucet.codeHash, chosen),
      /code drift: the artifact does not match the code on chain$/,
    );
    assert.match(label(undefined, makeWatched(ADDRESS)), /no artifact$/);
    assert.match(label(counter.codeHash, watched, '401'), /state not read: API key rejected$/);
  });

  it('an event row says whether it is an unknown or a system event, and its warning', () => {
    const fields = [
      { type: 'Address', value: USER },
      { type: 'U256', value: '3' },
    ];
    assert.match(
      eventRow({ eventIndex: 0, fields }, counter).accessibilityLabel ?? '',
      /^Event Incremented, by=1DrDy.*newCount=3$/,
    );
    assert.match(eventRow({ eventIndex: 9, fields }, counter).accessibilityLabel ?? '', /^Unknown event /);
    assert.match(
      eventRow({ eventIndex: -1, fields: [{ type: 'Address', value: ADDRESS }] }, undefined)
        .accessibilityLabel ?? '',
      /^System event ContractCreated/,
    );
  });

  it("a transaction row says its status, which its icon's shape and colour otherwise tell", () => {
    const txId = 'ab'.repeat(32);
    const failed = trackedTxView(
      {
        version: 1,
        txId,
        label: 'Deploy Counter',
        submittedAt: 0,
        requiredConfirmations: 1,
        outcome: { kind: 'failed', reason: 'script failed' },
      },
      0,
    );
    assert.match(failed.accessibilityLabel, /^Transaction Deploy Counter, .*fail/i);
  });

  it('the Sync row says the state its icon shows, checking included', () => {
    const status: NodeStatus = { sync: 'unreachable', heights: [], fetchedAt: 0, heightsAt: 0 };
    assert.equal(syncAccessibilityLabel(status, 0), 'Node sync state: unreachable');
    assert.equal(syncAccessibilityLabel(undefined, 0), 'Node sync state: checking');
  });
});
