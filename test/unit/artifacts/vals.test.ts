import assert from 'node:assert/strict';
import {
  ArgumentError,
  decodeFields,
  decodeState,
  encodeArgs,
  flattenedSize,
  formatValue,
  parseContractArtifact,
  parseStructs,
  parseType,
  type ApiVal,
  type DecodedStruct,
  type InputVal,
} from '../../../src/core/artifacts';
import { ADDR_G1, ADDR_G2, TOKEN, TOKEN_ID, fixtureJson } from './helpers';

const structs = parseStructs(fixtureJson('artifacts/structs.ral.json')).structs;
const vault = parseContractArtifact(fixtureJson('artifacts/vault/Vault.ral.json'));

const u = (v: number | string): InputVal => ({ type: 'U256', value: String(v) });
const i = (v: number | string): InputVal => ({ type: 'I256', value: String(v) });
const b = (v: boolean): InputVal => ({ type: 'Bool', value: v });
const bv = (v: string): InputVal => ({ type: 'ByteVec', value: v });
const ad = (v: string): InputVal => ({ type: 'Address', value: v });

function expectArgError(fn: () => unknown, param: string, pattern: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof ArgumentError, String(e));
    assert.equal(e.param, param);
    assert.match(e.message, pattern);
    return true;
  });
}

describe('artifacts: flattened Vals re-nested by signature', () => {
  it('sizes types: arrays multiply, structs add their fields, contracts are one ByteVec', () => {
    assert.equal(flattenedSize(parseType('[[Bool;2];3]')), 6);
    assert.equal(flattenedSize(parseType('Account', structs)), 5);
    assert.equal(flattenedSize(parseType('[Account;2]', structs)), 10);
    assert.deepEqual(parseType('SimpleToken', structs), { kind: 'contract', name: 'SimpleToken' });
  });

  it('decodes event-style fields of primitive types in order', () => {
    const r = decodeFields(['dx', 'up', 'note'], ['I256', 'Bool', 'ByteVec'], [i(-5), b(true), bv('CAFE')]);
    assert.ok(r.ok);
    assert.deepEqual(r.fields, [
      { name: 'dx', type: 'I256', value: '-5' },
      { name: 'up', type: 'Bool', value: true },
      { name: 'note', type: 'ByteVec', value: 'cafe' },
    ]);
  });

  it('re-nests arrays, nested arrays and a struct return', () => {
    const r = decodeFields(
      ['limits', 'grid'],
      ['[U256;2]', '[[Bool;2];2]'],
      [u(1), u(2), b(true), b(false), b(false), b(true)],
    );
    assert.ok(r.ok);
    assert.deepEqual(r.fields[0]?.value, ['1', '2']);
    assert.deepEqual(r.fields[1]?.value, [
      [true, false],
      [false, true],
    ]);
    const ret = decodeFields(['#0'], ['Account'], [ad(ADDR_G1), u(10), u(20), u(3), i(-4)], structs);
    assert.ok(ret.ok);
    const acc = ret.fields[0]?.value as DecodedStruct;
    assert.equal(acc.struct, 'Account');
    assert.deepEqual(
      acc.fields.map((f) => [f.name, f.type]),
      [
        ['owner', 'Address'],
        ['balances', '[U256;2]'],
        ['pos', 'Position'],
      ],
    );
    assert.deepEqual(acc.fields[1]?.value, ['10', '20']);
    assert.deepEqual(
      (acc.fields[2]?.value as DecodedStruct).fields.map((f) => f.value),
      ['3', '-4'],
    );
    assert.equal(
      formatValue(ret.fields[0]!.value, 12),
      `Account{owner: 13U1z…SAf8G, balances: [10, 20], pos: Position{x: 3, y: -4}}`,
    );
  });

  it('falls back to raw values with an error when the count does not add up (never shifts silently)', () => {
    const r = decodeFields(['limits'], ['[U256;2]'], [u(1), u(2), u(3)]);
    assert.ok(!r.ok);
    assert.match(r.error, /flattens to 2 values, got 3/);
    assert.deepEqual(
      r.raw.map((f) => [f.name, f.value]),
      [
        ['#0', '1'],
        ['#1', '2'],
        ['#2', '3'],
      ],
    );
  });

  it('falls back when a value has the wrong primitive type, naming the position', () => {
    const r = decodeFields(['a', 'limits'], ['Address', '[U256;2]'], [ad(ADDR_G1), u(1), bv('00')]);
    assert.ok(!r.ok);
    assert.match(r.error, /limits\[1\]: expected U256, got ByteVec/);
  });

  it('without structs.ral.json a struct-typed field cannot be decoded and says so', () => {
    const r = decodeFields(['acc'], ['Account'], [ad(ADDR_G1), u(10), u(20), u(3), i(-4)]);
    assert.ok(!r.ok);
    assert.match(r.error, /flattens to 1 value, got 5/);
  });

  it('decodes a contract-typed value as its ByteVec contract id', () => {
    const r = decodeFields(['token'], ['SimpleToken'], [bv(TOKEN_ID)]);
    assert.ok(r.ok);
    assert.equal(r.fields[0]?.value, TOKEN_ID);
  });

  it('splits state into immFields and mutFields by isMutable, structs by their own isMutable', () => {
    // Vault: admin, limits[2], account.owner, account.pos.x, token, __stdInterfaceId are immutable;
    // total, grid[4], account.balances[2], account.pos.y are mutable.
    const imm = [ad(ADDR_G1), u(100), u(200), ad(ADDR_G2), u(7), bv(TOKEN_ID), bv('414c50480001')];
    const mut = [u(42), b(true), b(false), b(false), b(true), u(5), u(6), i(-8)];
    const r = decodeState(vault.fieldsSig, imm, mut, structs);
    assert.ok(r.ok, r.ok ? '' : r.error);
    const byName = Object.fromEntries(r.fields.map((f) => [f.name, f.value]));
    assert.equal(byName.admin, ADDR_G1);
    assert.equal(byName.total, '42');
    assert.deepEqual(byName.limits, ['100', '200']);
    assert.deepEqual(byName.grid, [
      [true, false],
      [false, true],
    ]);
    const acc = byName.account as DecodedStruct;
    assert.equal(acc.fields[0]?.value, ADDR_G2);
    assert.deepEqual(acc.fields[1]?.value, ['5', '6']);
    assert.deepEqual(
      (acc.fields[2]?.value as DecodedStruct).fields.map((f) => f.value),
      ['7', '-8'],
    );
    assert.equal(byName.token, TOKEN_ID);
    assert.equal(byName.__stdInterfaceId, '414c50480001');
  });

  it('state with the wrong imm/mut split is shown raw with counts in the message', () => {
    const r = decodeState(vault.fieldsSig, [ad(ADDR_G1)], [u(1)], structs);
    assert.ok(!r.ok);
    assert.match(r.error, /7 values immutable and 8 values mutable, the contract has 1 and 1/);
    assert.deepEqual(
      r.raw.map((f) => f.name),
      ['imm#0', 'mut#0'],
    );
  });
});

describe('artifacts: call arguments from user input', () => {
  const configure = vault.functions.find((f) => f.name === 'configure')!;
  const opts = { paramNames: configure.paramNames, structs };
  const good = ['-12', 'true', '0xCAFE', ADDR_G1, TOKEN, '[["1","2"],[3,4]]'];

  it('encodes every type into the node Val JSON shape', () => {
    const vals = encodeArgs(configure.paramTypes, good, opts);
    const expected: ApiVal[] = [
      { type: 'I256', value: '-12' },
      { type: 'Bool', value: true },
      { type: 'ByteVec', value: 'cafe' },
      { type: 'Address', value: ADDR_G1 },
      { type: 'ByteVec', value: TOKEN_ID },
      {
        type: 'Array',
        value: [
          {
            type: 'Array',
            value: [
              { type: 'U256', value: '1' },
              { type: 'U256', value: '2' },
            ],
          },
          {
            type: 'Array',
            value: [
              { type: 'U256', value: '3' },
              { type: 'U256', value: '4' },
            ],
          },
        ],
      },
    ];
    assert.deepEqual(vals, expected);
  });

  it('accepts typed JSON values too, and flattens a struct argument into its fields', () => {
    assert.deepEqual(encodeArgs(['U256', 'Bool', '[U256;2]'], [7, false, [1n, '2']]), [
      { type: 'U256', value: '7' },
      { type: 'Bool', value: false },
      {
        type: 'Array',
        value: [
          { type: 'U256', value: '1' },
          { type: 'U256', value: '2' },
        ],
      },
    ]);
    assert.deepEqual(encodeArgs(['Position'], ['{"x":"1","y":"-2"}'], { structs }), [
      { type: 'U256', value: '1' },
      { type: 'I256', value: '-2' },
    ]);
  });

  it('U256: non-negative integers below 2^256 only', () => {
    const max = (2n ** 256n - 1n).toString();
    assert.deepEqual(encodeArgs(['U256'], [max]), [{ type: 'U256', value: max }]);
    expectArgError(
      () => encodeArgs(['U256'], [(2n ** 256n).toString()], { paramNames: ['amount'] }),
      'amount',
      /below 2\^256/,
    );
    expectArgError(
      () => encodeArgs(['U256'], ['-1'], { paramNames: ['amount'] }),
      'amount',
      /not a non-negative integer/,
    );
    expectArgError(
      () => encodeArgs(['U256'], ['1.5'], { paramNames: ['amount'] }),
      'amount',
      /not a non-negative integer/,
    );
    expectArgError(
      () => encodeArgs(['U256'], [2 ** 60], { paramNames: ['amount'] }),
      'amount',
      /pass large numbers as strings/,
    );
  });

  it('I256: signed, within -2^255 .. 2^255-1', () => {
    const min = (-(2n ** 255n)).toString();
    assert.deepEqual(encodeArgs(['I256'], [min]), [{ type: 'I256', value: min }]);
    expectArgError(
      () => encodeArgs(['I256'], [(2n ** 255n).toString()], { paramNames: ['d'] }),
      'd',
      /-2\^255/,
    );
    expectArgError(() => encodeArgs(['I256'], ['ten'], { paramNames: ['d'] }), 'd', /not an integer/);
  });

  it('Bool, ByteVec and Address: messages name the parameter', () => {
    expectArgError(
      () => encodeArgs(configure.paramTypes, ['1', 'yes', ...good.slice(2)], opts),
      'enabled',
      /true or false/,
    );
    expectArgError(
      () => encodeArgs(configure.paramTypes, ['1', 'true', 'abc', ...good.slice(3)], opts),
      'memo',
      /even number/,
    );
    expectArgError(
      () => encodeArgs(configure.paramTypes, ['1', 'true', 'zz', ...good.slice(3)], opts),
      'memo',
      /not hex/,
    );
    expectArgError(
      () => encodeArgs(configure.paramTypes, [...good.slice(0, 3), '0OIl', ...good.slice(4)], opts),
      'beneficiary',
      /Address.*base58/,
    );
    expectArgError(
      () => encodeArgs(configure.paramTypes, [...good.slice(0, 4), ADDR_G1, good[5]], opts),
      'asset',
      /contract address or a 32-byte contract id/,
    );
  });

  it('arrays: JSON text of exactly N elements, element errors carry the index', () => {
    expectArgError(
      () => encodeArgs(['[U256;2]'], ['[1,2,3]'], { paramNames: ['xs'] }),
      'xs',
      /exactly 2 U256 values, got 3 element/,
    );
    expectArgError(() => encodeArgs(['[U256;2]'], ['1,2'], { paramNames: ['xs'] }), 'xs', /JSON array/);
    expectArgError(
      () => encodeArgs(['[[U256;2];2]'], ['[[1,2],[3,"x"]]'], { paramNames: ['m'] }),
      'm[1][1]',
      /not a non-negative integer/,
    );
  });

  it('rejects a wrong number of arguments and bad struct shapes', () => {
    expectArgError(() => encodeArgs(['U256', 'Bool'], ['1']), '(arguments)', /expected 2 argument/);
    expectArgError(
      () => encodeArgs(['Position'], ['{"x":"1"}'], { structs, paramNames: ['to'] }),
      'to',
      /missing field 'y'/,
    );
    expectArgError(
      () => encodeArgs(['Position'], ['{"x":"1","y":"2","z":3}'], { structs, paramNames: ['to'] }),
      'to',
      /unknown field/,
    );
  });
});

describe('artifacts: tuple types (compilers v4.5+)', () => {
  const pair = parseStructs([
    { name: 'Pair', fieldNames: ['a', 'b'], fieldTypes: ['U256', 'Bool'], isMutable: [false, true] },
    {
      name: 'Holder',
      fieldNames: ['x', 'y'],
      fieldTypes: ['((U256,U256),Bool)', '[(I256,ByteVec);2]'],
      isMutable: [false, false],
    },
  ]).structs;

  it('parses nested tuples, tuples of structs and arrays of tuples, and counts their Vals', () => {
    assert.equal(flattenedSize(parseType('(U256,Pair)', pair)), 3);
    assert.equal(flattenedSize(parseType('((U256,U256),Bool)', pair)), 3);
    assert.equal(flattenedSize(parseType('[(I256,ByteVec);2]', pair)), 4);
    assert.equal(flattenedSize(parseType('Holder', pair)), 7);
    assert.throws(() => parseType('(U256,', pair), /malformed|unbalanced/);
    assert.throws(() => parseType('(U256,,Bool)', pair), /malformed tuple/);
  });

  it('re-nests tuple values in order, inside structs too', () => {
    const decoded = decodeFields(
      ['h'],
      ['Holder'],
      [u(1), u(2), b(true), i(-3), bv('aa'), i(4), bv('bb')],
      pair,
    );
    assert.ok(decoded.ok, !decoded.ok ? decoded.error : '');
    const holder = decoded.fields[0]!.value as DecodedStruct;
    assert.deepEqual(holder.fields[0]!.value, [['1', '2'], true]);
    assert.deepEqual(holder.fields[1]!.value, [
      ['-3', 'aa'],
      ['4', 'bb'],
    ]);
    assert.equal(formatValue(decoded.fields[0]!.value), 'Holder{x: [[1, 2], true], y: [[-3, aa], [4, bb]]}');
  });

  it('encodes a tuple argument as its elements, flattened, and names a wrong shape', () => {
    const out = encodeArgs(['(U256,Bool)'], [['7', true]], { paramNames: ['t'] });
    assert.deepEqual(out, [
      { type: 'U256', value: '7' },
      { type: 'Bool', value: true },
    ] satisfies ApiVal[]);
    expectArgError(
      () => encodeArgs(['(U256,Bool)'], [['7']], { paramNames: ['t'] }),
      't',
      /2 values \(U256, Bool\)/,
    );
  });
});
