import { strict as assert } from 'node:assert';
import * as web3 from '@alephium/web3';
import { codec } from '@alephium/web3';
import { ArgumentError } from '../../../src/core/artifacts/errors';
import type { StructSig } from '../../../src/core/artifacts/vals';
import {
  type MethodCallScriptOptions,
  buildMethodCallScript,
  decodeScriptCalls,
  describeScriptDifference,
} from '../../../src/core/bytecode';
import { addressFromContractId } from '../../../src/core/protocol';
import { sdkLockup, sdkScriptHex } from './sdk';
import { Rng, randomSigner, valueFor } from './values';
import { parseType } from '../../../src/core/artifacts/vals';

const STRUCTS: StructSig[] = [
  { name: 'Leg', fieldNames: ['amount', 'up'], fieldTypes: ['U256', 'Bool'], isMutable: [false, true] },
  {
    name: 'Order',
    fieldNames: ['legs', 'who', 'pool'],
    fieldTypes: ['[Leg;2]', 'Address', 'Pool'],
    isMutable: [false, false, false],
  },
];
const TYPES = [
  'U256',
  'I256',
  'Bool',
  'ByteVec',
  'Address',
  'Pool',
  '[U256;3]',
  '[[Bool;2];2]',
  'Leg',
  'Order',
  '[Order;2]',
  '(U256,ByteVec)',
];
const sdkStructs = STRUCTS as unknown as web3.Struct[];

function bytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

function randomOptions(rng: Rng, approve: boolean): MethodCallScriptOptions {
  const paramTypes = Array.from({ length: rng.int(0, 5) }, () => rng.pick(TYPES));
  const args = paramTypes.map((t) => valueFor(parseType(t, STRUCTS), rng));
  return {
    contractId: rng.hex(32),
    methodIndex: rng.int(0, 255),
    paramTypes,
    args,
    structs: STRUCTS,
    returnTypes: Array.from({ length: rng.int(0, 3) }, () => rng.pick(TYPES)),
    ...(approve
      ? {
          approve: {
            from: randomSigner(rng),
            attoAlphAmount: rng.pick([0n, 1n, 5n, 6n, 10n ** 18n, rng.bigint(90)]),
            tokens: Array.from({ length: rng.int(0, 3) }, () => ({
              id: rng.hex(32),
              amount: rng.bigint(100),
            })),
          },
        }
      : {}),
  };
}

/**
 * The same script, built from the Ralph layout with the SDK's own pieces: `encodeScriptField` per
 * flattened argument (flattened by the SDK's `flattenFields`), `toU256`, the SDK's instruction
 * constructors and `scriptCodec`.
 */
function sdkCallScript(o: MethodCallScriptOptions): string {
  const names = o.paramTypes.map((_, i) => `p${i}`);
  const fields: web3.Fields = {};
  o.args.forEach((a, i) => (fields[`p${i}`] = a as web3.Val));
  const flat = web3.flattenFields(
    fields,
    names,
    [...o.paramTypes],
    names.map(() => false),
    sdkStructs,
  );
  const argInstrs = flat.map((f) => codec.instrCodec.decode(web3.encodeScriptField(f.type, f.value)));
  const ret = o.returnTypes.reduce((n, t) => n + web3.typeLength(t, sdkStructs), 0);
  const approvals: codec.Instr[] = [];
  const a = o.approve;
  if (a) {
    const assets: codec.Instr[][] = [];
    if (a.attoAlphAmount > 0n) assets.push([codec.toU256(a.attoAlphAmount), codec.ApproveAlph]);
    for (const t of a.tokens)
      assets.push([codec.BytesConst(bytes(t.id)), codec.toU256(t.amount), codec.ApproveToken]);
    if (assets.length > 0) {
      approvals.push(codec.AddressConst(sdkLockup.decode(web3.bs58.decode(a.from))));
      for (let k = 1; k < assets.length; k++) approvals.push(codec.Dup);
      approvals.push(...assets.flat());
    }
  }
  return sdkScriptHex([
    {
      isPublic: true,
      usePreapprovedAssets: approvals.length > 0,
      useContractAssets: false,
      usePayToContractOnly: false,
      argsLength: 0,
      localsLength: 0,
      returnLength: 0,
      instrs: [
        ...approvals,
        ...argInstrs,
        codec.toU256(BigInt(argInstrs.length)),
        codec.toU256(BigInt(ret)),
        codec.BytesConst(bytes(o.contractId)),
        codec.CallExternal(o.methodIndex),
        ...Array.from({ length: ret }, () => codec.Pop),
      ],
    },
  ]);
}

describe('bytecode: the single-call TxScript', () => {
  it('matches the Ralph layout encoded by the SDK codec, with and without approvals (400 generated calls)', () => {
    const rng = new Rng(41);
    for (let n = 0; n < 400; n++) {
      const o = randomOptions(rng, n % 2 === 0);
      assert.equal(buildMethodCallScript(o), sdkCallScript(o), `call ${n}`);
    }
  });

  it('matches the SDK DappTransactionBuilder for plain arguments and an ALPH approval', () => {
    const rng = new Rng(42);
    for (let n = 0; n < 100; n++) {
      // The builder guesses a type from each JS value, so only unambiguous ones: U256 (bigint), Bool,
      // ByteVec (hex), Address (base58); its approvals put ALPH last, so only ALPH is approved here.
      const paramTypes = Array.from({ length: rng.int(0, 4) }, () =>
        rng.pick(['U256', 'Bool', 'ByteVec', 'Address']),
      );
      const args = paramTypes.map((t) => valueFor(parseType(t), rng));
      const contractId = rng.hex(32);
      const from = randomSigner(rng);
      const alph = n % 3 === 0 ? 0n : 10n ** 17n + rng.bigint(60);
      const retLength = rng.int(0, 2);
      const builder = new web3.DappTransactionBuilder(from);
      builder.callContract({
        contractAddress: addressFromContractId(contractId),
        methodIndex: rng.int(0, 40),
        args: args as web3.Val[],
        attoAlphAmount: alph,
        retLength,
      });
      const sdk = builder.getResult();
      const methodIndex = decodeScriptCalls(sdk.bytecode)[0]?.calls[0]?.methodIndex as number;
      const ours = buildMethodCallScript({
        contractId,
        methodIndex,
        paramTypes,
        args,
        returnTypes: Array.from({ length: retLength }, () => 'U256'),
        ...(alph > 0n ? { approve: { from, attoAlphAmount: alph, tokens: [] } } : {}),
      });
      assert.equal(ours, sdk.bytecode, `call ${n}`);
    }
  });

  it('accepts a contract address for the contract id', () => {
    const id = new Rng(43).hex(32);
    const o = { methodIndex: 2, paramTypes: ['U256'], args: [7n], returnTypes: [] };
    assert.equal(
      buildMethodCallScript({ ...o, contractId: addressFromContractId(id) }),
      buildMethodCallScript({ ...o, contractId: id }),
    );
  });

  it('refuses bad input with an ArgumentError that names it', () => {
    const rng = new Rng(44);
    const base = {
      contractId: rng.hex(32),
      methodIndex: 1,
      paramTypes: ['U256', 'Leg'],
      args: [1n, { amount: 2n, up: true }],
      structs: STRUCTS,
      returnTypes: [],
    };
    const bad: [Partial<MethodCallScriptOptions>, RegExp][] = [
      [{ args: [1n] }, /expected 2 argument/],
      [{ args: [-1n, { amount: 2n, up: true }] }, /^args\[0\]: -1 is out of the U256 range/],
      [{ args: [1n, { amount: 2n, up: 'yes' }] }, /^args\[1\]\.up: expected true or false/],
      [{ contractId: 'abcd' }, /^contractId: /],
      [{ methodIndex: 256 }, /^methodIndex: /],
      [{ approve: { from: 'nope', attoAlphAmount: 1n, tokens: [] } }, /^approve\.from: /],
      [
        { approve: { from: randomSigner(rng), attoAlphAmount: -1n, tokens: [] } },
        /^approve\.attoAlphAmount: /,
      ],
      [
        {
          approve: {
            from: randomSigner(rng),
            attoAlphAmount: 1n,
            tokens: [
              { id: 'aa'.repeat(32), amount: 1n },
              { id: 'AA'.repeat(32), amount: 2n },
            ],
          },
        },
        /approved twice/,
      ],
    ];
    for (const [patch, re] of bad) {
      assert.throws(
        () => buildMethodCallScript({ ...base, ...patch }),
        (e: unknown) => e instanceof ArgumentError && re.test(e.message),
      );
    }
  });
});

describe('bytecode: reading and comparing scripts', () => {
  it('decodeScriptCalls recovers the contract, method, flattened arguments and approvals of a generated call', () => {
    const rng = new Rng(51);
    for (let n = 0; n < 100; n++) {
      const o = randomOptions(rng, true);
      const [method, ...rest] = decodeScriptCalls(buildMethodCallScript(o));
      assert.ok(method);
      assert.equal(rest.length, 0);
      assert.equal(method.calls.length, 1);
      const call = method.calls[0];
      assert.ok(call);
      assert.deepEqual(call.contractId, { kind: 'ByteVec', value: o.contractId });
      assert.equal(call.methodIndex, o.methodIndex);
      const names = o.paramTypes.map((_, i) => `p${i}`);
      const fields: web3.Fields = {};
      o.args.forEach((a, i) => (fields[`p${i}`] = a as web3.Val));
      const flat = web3.flattenFields(
        fields,
        names,
        [...o.paramTypes],
        names.map(() => false),
        sdkStructs,
      );
      assert.equal(call.args.length, flat.length);
      call.args.forEach((a, k) => {
        const f = flat[k] as { type: string; value: web3.Val };
        assert.equal(a.kind, f.type);
        if (a.kind === 'U256' || a.kind === 'I256') assert.equal(a.value, BigInt(f.value as bigint));
        else if (a.kind === 'ByteVec' || a.kind === 'Address' || a.kind === 'Bool')
          assert.equal(a.value, f.value);
      });
      const a = o.approve;
      assert.ok(a);
      const expected = [
        ...(a.attoAlphAmount > 0n ? [{ tokenId: undefined, amount: a.attoAlphAmount }] : []),
        ...a.tokens.map((t) => ({ tokenId: t.id, amount: t.amount })),
      ];
      assert.deepEqual(
        call.approvals.map((p) => ({
          from: p.from.kind === 'Address' ? p.from.value : '?',
          tokenId: p.tokenId?.kind === 'ByteVec' ? p.tokenId.value : undefined,
          amount: p.amount.kind === 'U256' ? p.amount.value : undefined,
        })),
        expected.map((e) => ({ from: a.from, ...e })),
      );
    }
  });

  it('follows a compiled-style script with locals: the unknown values are marked, the calls still listed', () => {
    const rng = new Rng(52);
    const id = rng.bytes(32);
    const from = randomSigner(rng);
    // price = Contract(#id).getPrice(); Contract(#id).buy{caller -> ALPH: price}(7)
    const hex = sdkScriptHex([
      {
        isPublic: true,
        usePreapprovedAssets: true,
        useContractAssets: false,
        usePayToContractOnly: false,
        argsLength: 0,
        localsLength: 1,
        returnLength: 0,
        instrs: [
          codec.U256Const0,
          codec.U256Const1,
          codec.BytesConst(id),
          codec.CallExternal(4),
          codec.StoreLocal(0),
          codec.AddressConst(sdkLockup.decode(web3.bs58.decode(from))),
          codec.LoadLocal(0),
          codec.ApproveAlph,
          codec.U256Const(7n),
          codec.U256Const1,
          codec.U256Const0,
          codec.BytesConst(id),
          codec.CallExternal(9),
        ],
      },
    ]);
    const [m] = decodeScriptCalls(hex);
    assert.ok(m);
    assert.deepEqual(
      m.calls.map((c) => c.methodIndex),
      [4, 9],
    );
    const buy = m.calls[1];
    assert.ok(buy);
    assert.deepEqual(buy.args, [{ kind: 'U256', value: 7n }]);
    assert.equal(buy.approvals.length, 1);
    assert.deepEqual(buy.approvals[0]?.from, { kind: 'Address', value: from });
    assert.deepEqual(buy.approvals[0]?.amount, { kind: 'unknown', from: 'local 0' });
  });

  it('describeScriptDifference says what differs: method, argument, contract, approvals', () => {
    const rng = new Rng(53);
    const from = randomSigner(rng);
    const token = rng.hex(32);
    const base: MethodCallScriptOptions = {
      contractId: rng.hex(32),
      methodIndex: 1,
      paramTypes: ['U256', 'U256'],
      args: [5n, 5n],
      returnTypes: ['U256'],
      approve: { from, attoAlphAmount: 10n ** 18n, tokens: [{ id: token, amount: 3n }] },
    };
    const expected = buildMethodCallScript(base);
    const diff = (patch: Partial<MethodCallScriptOptions>): string | undefined =>
      describeScriptDifference(expected, buildMethodCallScript({ ...base, ...patch }));
    assert.equal(describeScriptDifference(expected, expected.toUpperCase()), undefined);
    assert.equal(diff({ methodIndex: 3 }), 'calls method 3 instead of 1');
    assert.equal(diff({ args: [5n, 7n] }), 'argument 1 is 7 instead of 5');
    const other = rng.hex(32);
    assert.equal(diff({ contractId: other }), `calls contract #${other} instead of #${base.contractId}`);
    const approve = base.approve as NonNullable<MethodCallScriptOptions['approve']>;
    assert.equal(
      diff({ approve: { ...approve, attoAlphAmount: 2n * 10n ** 18n } }),
      'approves 2 ALPH instead of 1 ALPH',
    );
    const extra = rng.hex(32);
    assert.equal(
      diff({ approve: { ...approve, tokens: [...approve.tokens, { id: extra, amount: 9n }] } }),
      `approves an extra token #${extra} (amount 9)`,
    );
    assert.equal(
      diff({ approve: { ...approve, tokens: [] } }),
      `does not approve token #${token} (amount 3)`,
    );
    assert.equal(
      diff({ approve: { ...approve, tokens: [{ id: token, amount: 4n }] } }),
      `approves 4 of token #${token} instead of 3 of token #${token}`,
    );
    const thief = randomSigner(rng);
    assert.equal(
      diff({ approve: { ...approve, from: thief } }),
      `approves assets of ${thief} instead of ${from}`,
    );
    assert.equal(diff({ returnTypes: [] }), 'declares 0 return value(s) instead of 1');
    assert.match(describeScriptDifference(expected, expected.slice(0, -2)) ?? '', /is not a valid script/);
  });
});
