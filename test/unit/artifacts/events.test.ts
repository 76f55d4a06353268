import assert from 'node:assert/strict';
import {
  ArtifactRegistry,
  decodeEvent,
  formatEventSummary,
  parseContractArtifact,
  type EventLike,
} from '../../../src/core/artifacts';
import { ADDR_G1, TOKEN, VAULT, fixtureFiles, fixtureJson, sandboxArtifactFiles } from './helpers';

const reg = ArtifactRegistry.fromFiles(fixtureFiles());
const vault = reg.byName('Vault')!;
const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');

describe('artifacts: decoding events', () => {
  it('decodes a declared event by eventIndex, with names and types from eventsSig', () => {
    const ev: EventLike = {
      eventIndex: 0,
      fields: [
        { type: 'Address', value: ADDR_G1 },
        { type: 'U256', value: '42' },
      ],
    };
    const d = decodeEvent(ev, vault, { structs: reg.structs });
    assert.deepEqual(d, {
      name: 'Deposited',
      index: 0,
      kind: 'declared',
      fields: [
        { name: 'from', type: 'Address', value: ADDR_G1 },
        { name: 'amount', type: 'U256', value: '42' },
      ],
    });
    assert.equal(formatEventSummary(d), 'Deposited(from=13U1z3ouF…GKq7SAf8G, amount=42)');
    assert.equal(formatEventSummary(d, { maxValueLength: 100 }), `Deposited(from=${ADDR_G1}, amount=42)`);
  });

  it('decodes an event with no fields and the third event (index 2)', () => {
    assert.equal(formatEventSummary(decodeEvent({ eventIndex: 1, fields: [] }, vault)), 'Paused()');
    const moved = decodeEvent(
      {
        eventIndex: 2,
        fields: [
          { type: 'I256', value: '-3' },
          { type: 'Bool', value: false },
          { type: 'ByteVec', value: 'beef' },
        ],
      },
      vault,
    );
    assert.equal(formatEventSummary(moved), 'Moved(dx=-3, up=false, note=beef)');
  });

  it('decodes the sandbox Counter events with its real artifact', () => {
    const counterFile = sandboxArtifactFiles().find((f) => f.path.endsWith('Counter.ral.json'))!;
    const counter = parseContractArtifact(JSON.parse(counterFile.text));
    const d = decodeEvent(
      {
        eventIndex: 1,
        fields: [
          { type: 'Address', value: ADDR_G1 },
          { type: 'U256', value: '7' },
        ],
      },
      counter,
    );
    assert.equal(formatEventSummary(d, { maxValueLength: 100 }), `Reset(by=${ADDR_G1}, previous=7)`);
  });

  it('system events: ContractCreated (-1), ContractDestroyed (-2), Debug (-3) as UTF-8', () => {
    const created = decodeEvent(
      {
        eventIndex: -1,
        fields: [
          { type: 'Address', value: VAULT },
          { type: 'ByteVec', value: '' },
          { type: 'ByteVec', value: '0001' },
        ],
      },
      undefined,
    );
    assert.equal(created.kind, 'system');
    assert.deepEqual(
      created.fields.map((f) => [f.name, f.value]),
      [
        ['address', VAULT],
        ['parentAddress', ''],
        ['stdInterfaceId', '0001'],
      ],
    );
    assert.equal(created.warning, undefined);
    const destroyed = decodeEvent({ eventIndex: -2, fields: [{ type: 'Address', value: TOKEN }] }, vault);
    assert.deepEqual([destroyed.name, destroyed.fields[0]?.name], ['ContractDestroyed', 'address']);
    const debug = decodeEvent(
      { eventIndex: -3, fields: [{ type: 'ByteVec', value: hex('count is now 3 ✓') }] },
      vault,
    );
    assert.deepEqual(
      [debug.name, debug.kind, debug.fields[0]?.value],
      ['Debug', 'system', 'count is now 3 ✓'],
    );
  });

  it('an unknown index is shown raw with a hint naming the event count', () => {
    const d = decodeEvent({ eventIndex: 5, fields: [{ type: 'U256', value: '1' }] }, vault);
    assert.equal(d.kind, 'unknown');
    assert.equal(d.name, 'Event#5');
    assert.deepEqual(d.fields, [{ name: '#0', type: 'U256', value: '1' }]);
    assert.match(
      d.warning!,
      /artifact Vault has 3 event\(s\); index 5 unknown: recompile or check the address/,
    );
    assert.match(formatEventSummary(d), /^⚠ Event#5\(#0=1\)$/);
    const noArtifact = decodeEvent({ eventIndex: 0, fields: [] }, undefined);
    assert.match(noArtifact.warning!, /no artifact/);
    assert.match(decodeEvent({ eventIndex: -9, fields: [] }, vault).warning!, /not a known system event/);
  });

  it('a field-count mismatch is shown raw, not shifted', () => {
    const d = decodeEvent({ eventIndex: 0, fields: [{ type: 'Address', value: ADDR_G1 }] }, vault);
    assert.equal(d.kind, 'unknown');
    assert.equal(d.name, 'Deposited');
    assert.deepEqual(
      d.fields.map((f) => f.name),
      ['#0'],
    );
    assert.match(d.warning!, /fields do not fit Deposited: .*flattens to 2 values, got 1/);
  });

  it('a drift flag puts a visible warning on every decoded event, system events included', () => {
    const drift = reg.checkDrift(vault, 'ab'.repeat(32));
    const declared = decodeEvent({ eventIndex: 1, fields: [] }, vault, { drift });
    assert.equal(declared.kind, 'declared');
    assert.match(declared.warning!, /^Code drift: the deployed code/);
    assert.match(formatEventSummary(declared), /^⚠ Paused\(\)$/);
    const sys = decodeEvent({ eventIndex: -3, fields: [{ type: 'ByteVec', value: hex('x') }] }, vault, {
      drift,
    });
    assert.match(sys.warning!, /Code drift/);
    const match = reg.checkDrift(vault, vault.codeHash);
    assert.equal(decodeEvent({ eventIndex: 1, fields: [] }, vault, { drift: match }).warning, undefined);
  });

  it('decodes struct/array event fields through the same rules when an artifact declares them', () => {
    const json = fixtureJson('artifacts/vault/Vault.ral.json') as { eventsSig: unknown[] };
    json.eventsSig.push({ name: 'Limits', fieldNames: ['l'], fieldTypes: ['[U256;2]'] });
    const a = parseContractArtifact(json);
    const d = decodeEvent(
      {
        eventIndex: 3,
        fields: [
          { type: 'U256', value: '1' },
          { type: 'U256', value: '2' },
        ],
      },
      a,
    );
    assert.equal(formatEventSummary(d), 'Limits(l=[1, 2])');
  });
});
