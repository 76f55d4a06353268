import { strict as assert } from 'node:assert';
import * as web3 from '@alephium/web3';
import { ArgumentError, ArtifactError } from '../../../src/core/artifacts/errors';
import type { StructSig } from '../../../src/core/artifacts/vals';
import { buildContractBytecode, buildScriptBytecode, encodeContractFields } from '../../../src/core/bytecode';
import { addressFromContractId, grouplessAddressFromPublicKey } from '../../../src/core/protocol';
import { hexOf } from './sdk';
import { Rng, randomAddress, valuesFor } from './values';

// Our own fixture, shaped like real artifacts: every primitive, contract-typed fields, nested fixed
// arrays, tuples, structs with mutable members, arrays of structs and structs holding arrays and structs.
const STRUCTS: StructSig[] = [
  { name: 'Amounts', fieldNames: ['a', 'b'], fieldTypes: ['U256', 'I256'], isMutable: [true, false] },
  {
    name: 'Pair',
    fieldNames: ['owner', 'reserves', 'flags', 'amounts', 'pool'],
    fieldTypes: ['Address', '[U256;2]', '[Bool;3]', 'Amounts', 'Pool'],
    isMutable: [false, true, true, true, false],
  },
  {
    name: 'Book',
    fieldNames: ['pairs', 'memo'],
    fieldTypes: ['[Pair;2]', 'ByteVec'],
    isMutable: [true, false],
  },
];
const SIG = {
  names: [
    'u',
    'i',
    'b',
    'bv',
    'addr',
    'token',
    'grid',
    'tup',
    'pair',
    'mutPair',
    'mutAmounts',
    'book',
    'counter',
    'mutGrid',
  ],
  types: [
    'U256',
    'I256',
    'Bool',
    'ByteVec',
    'Address',
    'Token',
    '[[U256;2];3]',
    '(U256,Bool)',
    'Pair',
    'Pair',
    '[Amounts;2]',
    'Book',
    'U256',
    '[[I256;2];2]',
  ],
  isMutable: [false, false, false, false, false, false, false, false, false, true, true, true, true, true],
};
const sdkStructs = STRUCTS as unknown as web3.Struct[];

/** A template that pushes every flattened field once, between bytes of "code". */
function templateFor(count: number, rng: Rng): string {
  let t = '0101' + rng.hex(3);
  for (let k = count - 1; k >= 0; k--) t += `{${k}}` + rng.hex(rng.int(0, 2));
  return t;
}

function flatCount(): number {
  // The SDK's own count of flattened values.
  return SIG.types.reduce((n, t) => n + web3.typeLength(t, sdkStructs), 0);
}

function assertArgumentError(fn: () => unknown, re: RegExp, param?: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof ArgumentError, `expected an ArgumentError, got ${String(e)}`);
    assert.match(e.message, re);
    if (param !== undefined) assert.equal(e.param, param);
    return true;
  });
}

describe('bytecode fields: agreement with @alephium/web3 (ralph.ts)', () => {
  it('encodeContractFields and buildContractBytecode match the SDK on 300 generated value sets', () => {
    const rng = new Rng(21);
    for (let n = 0; n < 300; n++) {
      const fields = valuesFor(SIG.names, SIG.types, STRUCTS, rng);
      const theirs = web3.encodeContractFields(fields as web3.Fields, SIG, sdkStructs);
      const ours = encodeContractFields(fields, SIG, STRUCTS);
      assert.equal(ours.encodedImmFields, hexOf(theirs.encodedImmFields), `set ${n} imm`);
      assert.equal(ours.encodedMutFields, hexOf(theirs.encodedMutFields), `set ${n} mut`);
      const code = rng.hex(rng.int(1, 40));
      assert.equal(
        buildContractBytecode(code, fields, SIG, new Map(STRUCTS.map((s) => [s.name, s]))),
        web3.buildContractByteCode(code, fields as web3.Fields, SIG, sdkStructs),
      );
    }
  });

  it('buildScriptBytecode fills every {N} placeholder like the SDK on 300 generated value sets', () => {
    const rng = new Rng(22);
    const count = flatCount();
    assert.ok(count >= 50, `the fixture flattens to ${count} values`);
    for (let n = 0; n < 300; n++) {
      const fields = valuesFor(SIG.names, SIG.types, STRUCTS, rng);
      const template = templateFor(count, rng);
      assert.equal(
        buildScriptBytecode(template, fields, SIG, STRUCTS),
        web3.buildScriptByteCode(template, fields as web3.Fields, SIG, sdkStructs),
        `set ${n}`,
      );
    }
  });

  it('splits a struct between immutable and mutable fields by each member’s own mutability', () => {
    const sig = { names: ['p'], types: ['Pair'], isMutable: [true] };
    const fields = valuesFor(sig.names, sig.types, STRUCTS, new Rng(3));
    const ours = encodeContractFields(fields, sig, STRUCTS);
    const theirs = web3.encodeContractFields(fields as web3.Fields, sig, sdkStructs);
    // owner, amounts.b and pool are immutable members; reserves, flags and amounts.a mutable.
    assert.equal(ours.encodedImmFields.slice(0, 2), '03');
    assert.equal(ours.encodedMutFields.slice(0, 2), '06');
    assert.equal(ours.encodedImmFields, hexOf(theirs.encodedImmFields));
    assert.equal(ours.encodedMutFields, hexOf(theirs.encodedMutFields));
  });

  it('accepts integers as bigint, decimal string or safe number, and a contract address for a contract id', () => {
    const sig = { names: ['u', 'i', 't'], types: ['U256', 'I256', 'Token'], isMutable: [false, true, false] };
    const id = new Rng(4).hex(32);
    const a = encodeContractFields({ u: 1234567n, i: -42n, t: id }, sig);
    const b = encodeContractFields({ u: '1234567', i: '-42', t: addressFromContractId(id) }, sig);
    const c = encodeContractFields({ u: 1234567, i: -42, t: id.toUpperCase() }, sig);
    assert.deepEqual(a, b);
    assert.deepEqual(a, c);
    assert.deepEqual(
      a,
      (({ encodedImmFields, encodedMutFields }) => ({
        encodedImmFields: hexOf(encodedImmFields),
        encodedMutFields: hexOf(encodedMutFields),
      }))(web3.encodeContractFields({ u: 1234567n, i: -42n, t: id }, sig, [])),
    );
  });

  it('encodes groupless (P2PK) addresses with their group like the SDK', () => {
    const rng = new Rng(5);
    const sig = { names: ['a'], types: ['Address'], isMutable: [false] };
    for (let n = 0; n < 20; n++) {
      const address = grouplessAddressFromPublicKey('02' + rng.hex(32), rng.int(0, 3));
      assert.equal(
        encodeContractFields({ a: address }, sig).encodedImmFields,
        hexOf(web3.encodeContractFields({ a: address }, sig, []).encodedImmFields),
      );
      assert.equal(
        buildScriptBytecode('{0}', { a: address }, sig),
        web3.buildScriptByteCode('{0}', { a: address }, sig, []),
      );
    }
  });
});

describe('bytecode fields: errors name the field', () => {
  const rng = new Rng(31);
  const good = (): Record<string, unknown> => valuesFor(SIG.names, SIG.types, STRUCTS, rng);

  it('names every missing field, and refuses fields the signature does not declare', () => {
    const f = good();
    delete f.u;
    delete f.book;
    assertArgumentError(
      () => encodeContractFields(f, SIG, STRUCTS),
      /fields: missing u: U256, book: Book/,
      'fields.u',
    );
    assertArgumentError(
      () => encodeContractFields({ ...good(), extra: 1n }, SIG, STRUCTS),
      /fields.extra: .*declares no extra/,
    );
  });

  it('gives the path inside arrays and structs', () => {
    const f = good();
    (f.pair as { reserves: unknown[] }).reserves[1] = -5n;
    assertArgumentError(
      () => encodeContractFields(f, SIG, STRUCTS),
      /^fields\.pair\.reserves\[1\]: -5 is out of the U256 range/,
      'fields.pair.reserves[1]',
    );
    const g = good();
    (
      (g.book as { pairs: { amounts: Record<string, unknown> }[] }).pairs[1] as {
        amounts: Record<string, unknown>;
      }
    ).amounts = { a: 1n };
    assertArgumentError(
      () => buildScriptBytecode('{0}', g, SIG, STRUCTS),
      /^fields\.book\.pairs\[1\]\.amounts: Amounts is missing b/,
    );
    const h = good();
    (h.grid as unknown[][])[2] = [1n];
    assertArgumentError(
      () => encodeContractFields(h, SIG, STRUCTS),
      /^fields\.grid\[2\]: expected an array of exactly 2 elements/,
    );
  });

  it('rejects values of the wrong kind or range', () => {
    const cases: [string, unknown, RegExp][] = [
      ['u', 1n << 256n, /out of the U256 range/],
      ['u', '0x10', /not a decimal integer/],
      ['u', 1.5, /not an exact integer/],
      ['i', 1n << 255n, /out of the I256 range/],
      ['b', 'true', /expected true or false/],
      ['bv', 'abc', /even-length hex/],
      ['bv', 'zz', /even-length hex/],
      ['addr', 'not-an-address', /fields\.addr: /],
      ['token', randomAddress(rng, 0), /expected a contract id/],
      ['token', 'ab', /expected a contract id/],
      ['tup', [1n], /expected an array of 2 values/],
      ['pair', 'x', /expected an object with owner, reserves/],
    ];
    for (const [name, value, re] of cases) {
      const f = { ...good(), [name]: value };
      assertArgumentError(() => encodeContractFields(f, SIG, STRUCTS), re, undefined);
    }
  });

  it('refuses a template that refers to a field that does not exist', () => {
    const sig = { names: ['a'], types: ['U256'], isMutable: [false] };
    assert.throws(() => buildScriptBytecode('00{1}', { a: 1n }, sig), ArtifactError);
    assert.throws(() => buildScriptBytecode('0g{0}', { a: 1n }, sig), /not hex/);
  });
});
