import { strict as assert } from 'node:assert';
import * as web3 from '@alephium/web3';
import { codec } from '@alephium/web3';
import {
  DEPLOY_DUST_ATTO,
  type DeployScriptParams,
  buildDeployScript,
  buildMethodCallScript,
  encodeScript,
  decodeScript,
  parseDeployScript,
} from '../../../src/core/bytecode';
import { assertProtocolError } from '../protocol/helpers';
import { hexOf, sdkLockup, sdkScriptHex } from './sdk';
import { Rng, randomSigner, valuesFor } from './values';

function bytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

function randomParams(rng: Rng): DeployScriptParams {
  // Fields encoded by the SDK: the deploy script carries them as opaque byte strings.
  const sig = {
    names: ['a', 'b', 'c'],
    types: ['U256', 'Address', '[ByteVec;2]'],
    isMutable: [false, true, rng.bool()],
  };
  const { encodedImmFields, encodedMutFields } = web3.encodeContractFields(
    valuesFor(sig.names, sig.types, [], rng) as web3.Fields,
    sig,
    [],
  );
  const issue = rng.int(0, 2);
  return {
    sender: randomSigner(rng),
    bytecode: rng.hex(rng.int(1, 400)),
    encodedImmFields: hexOf(encodedImmFields),
    encodedMutFields: hexOf(encodedMutFields),
    initialAttoAlphAmount: rng.pick([10n ** 17n, 10n ** 18n, rng.bigint(100), 3n]),
    initialTokens: Array.from({ length: rng.int(0, 3) }, () => ({ id: rng.hex(32), amount: rng.bigint(90) })),
    ...(issue > 0 ? { issueTokenAmount: rng.bigint(120) } : {}),
    ...(issue > 1 ? { issueTokenTo: randomSigner(rng) } : {}),
  };
}

/**
 * The compiled form of the node's deploy Ralph (ServerUtils.buildDeployContractScriptRawWithParsedState),
 * written with the SDK's instruction constructors and encoded by its scriptCodec:
 *   createContract[WithToken]!{@sender -> ALPH: a, #t: n...}(#code, #imm, #mut[, issue[, @to]])
 *   [transferToken!(@sender, @to, ALPH, dust)]
 */
function sdkDeployScript(p: DeployScriptParams): string {
  const lockup = (a: string): codec.Instr => codec.AddressConst(sdkLockup.decode(web3.bs58.decode(a)));
  const instrs: codec.Instr[] = [
    lockup(p.sender),
    ...p.initialTokens.map(() => codec.Dup),
    codec.toU256(p.initialAttoAlphAmount),
    codec.ApproveAlph,
    ...p.initialTokens.flatMap((t) => [
      codec.BytesConst(bytes(t.id)),
      codec.toU256(t.amount),
      codec.ApproveToken,
    ]),
    codec.BytesConst(bytes(p.bytecode)),
    codec.BytesConst(bytes(p.encodedImmFields)),
    codec.BytesConst(bytes(p.encodedMutFields)),
  ];
  if (p.issueTokenAmount === undefined) instrs.push(codec.CreateContract, codec.Pop);
  else if (p.issueTokenTo === undefined) {
    instrs.push(codec.toU256(p.issueTokenAmount), codec.CreateContractWithToken, codec.Pop);
  } else {
    instrs.push(
      codec.toU256(p.issueTokenAmount),
      lockup(p.issueTokenTo),
      codec.CreateContractAndTransferToken,
      codec.Pop,
      lockup(p.sender),
      lockup(p.issueTokenTo),
      codec.toU256(10n ** 15n),
      codec.TransferAlph,
    );
  }
  return sdkScriptHex([
    {
      isPublic: true,
      usePreapprovedAssets: true,
      useContractAssets: false,
      usePayToContractOnly: false,
      argsLength: 0,
      localsLength: 0,
      returnLength: 0,
      instrs,
    },
  ]);
}

describe('bytecode: the deploy-contract TxScript', () => {
  it('builds the compiled deploy script byte for byte (300 generated deployments, SDK codec as oracle)', () => {
    const rng = new Rng(61);
    const seen = new Set<string>();
    for (let n = 0; n < 300; n++) {
      const p = randomParams(rng);
      seen.add(
        `${p.initialTokens.length}/${p.issueTokenAmount !== undefined}/${p.issueTokenTo !== undefined}`,
      );
      assert.equal(buildDeployScript(p), sdkDeployScript(p), `deployment ${n}`);
    }
    assert.equal(seen.size, 12, 'every mix of initial tokens and token issuance was generated');
  });

  it('parseDeployScript reads back exactly the request (round trip)', () => {
    const rng = new Rng(62);
    for (let n = 0; n < 200; n++) {
      const p = randomParams(rng);
      const parsed = parseDeployScript(sdkDeployScript(p));
      assert.deepEqual(parsed, {
        sender: p.sender,
        code: p.bytecode,
        encodedImmFields: p.encodedImmFields,
        encodedMutFields: p.encodedMutFields,
        initialAttoAlphAmount: p.initialAttoAlphAmount,
        initialTokens: p.initialTokens,
        ...(p.issueTokenAmount === undefined ? {} : { issueTokenAmount: p.issueTokenAmount }),
        ...(p.issueTokenTo === undefined
          ? {}
          : { issueTokenTo: p.issueTokenTo, issueTokenDustAmount: DEPLOY_DUST_ATTO }),
      });
      assert.equal(buildDeployScript({ ...parsed, bytecode: parsed.code }), sdkDeployScript(p));
    }
  });

  it('refuses scripts that are not deploy scripts, saying why', () => {
    const rng = new Rng(63);
    const call = buildMethodCallScript({
      contractId: rng.hex(32),
      methodIndex: 0,
      paramTypes: [],
      args: [],
      returnTypes: [],
    });
    assertProtocolError(
      () => parseDeployScript(call),
      /not a deploy-contract script: its method has usePreapprovedAssets = false/,
    );
    const p = { ...randomParams(rng), initialTokens: [] };
    delete (p as { issueTokenAmount?: bigint }).issueTokenAmount;
    delete (p as { issueTokenTo?: string }).issueTokenTo;
    const [m] = decodeScript(buildDeployScript(p));
    assert.ok(m);
    assertProtocolError(() => parseDeployScript(encodeScript([m, m])), /has 2 methods/);
    assertProtocolError(
      () => parseDeployScript(encodeScript([{ ...m, instrs: [...m.instrs, { name: 'Pop' }] }])),
      /1 instruction\(s\) follow the final Pop/,
    );
    // CopyCreateContract (0xaf) where CreateContract was expected.
    const copy = m.instrs.map((i) =>
      i.name === 'CreateContract' ? { name: 'Other' as const, code: 0xaf, operand: '' } : i,
    );
    assertProtocolError(
      () => parseDeployScript(encodeScript([{ ...m, instrs: copy }])),
      /is Other, expected CreateContract or the issued token amount/,
    );
    assertProtocolError(
      () => parseDeployScript(encodeScript([{ ...m, instrs: m.instrs.slice(1) }])),
      /instruction 0 is U256Const|expected the sender/,
    );
    assertProtocolError(
      () => parseDeployScript(encodeScript([{ ...m, isPublic: false }])),
      /isPublic = false/,
    );
  });

  it('refuses inconsistent requests', () => {
    const p = randomParams(new Rng(64));
    assertProtocolError(
      () => buildDeployScript({ ...p, issueTokenAmount: undefined, issueTokenTo: randomSigner(new Rng(1)) }),
      /issueTokenTo is set but issueTokenAmount is not/,
    );
    assertProtocolError(
      () => buildDeployScript({ ...p, initialAttoAlphAmount: -1n }),
      /initialAttoAlphAmount must be/,
    );
    assertProtocolError(() => buildDeployScript({ ...p, sender: 'x' }), /^sender: /);
    assertProtocolError(() => buildDeployScript({ ...p, bytecode: 'xyz' }), /bytecode/);
  });
});
