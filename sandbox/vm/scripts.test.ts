/**
 * Script transactions in the sandbox: execute-script, deploy-contract, call-tx-script and call-contract with
 * inputAssets, checked with @alephium/web3 as the independent oracle (its codec decodes the built bytes, its
 * builders make the request bytecode, its signer flow signs and submits), and the tamper modes a lying
 * gateway would use against them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DappTransactionBuilder,
  NodeProvider,
  binToHex,
  buildContractByteCode,
  buildScriptByteCode,
  codec,
  hexToBinUnsafe,
  transactionSign,
} from '@alephium/web3';
import { blake2b } from '@noble/hashes/blake2.js';
import { parseArtifactText } from '../../src/core/artifacts/artifact';
import { addressFromContractId, contractIdFromTx } from '../../src/core/protocol';
import { systemEventAddress } from '../ledger/types';
import { ARTIFACTS_DIR } from './projectContracts';
import { control, newSandbox, type Api } from '../testing/helpers';
import { TestWallet } from '../testing/testWallet';
import type { Sandbox } from '../http/server';

type Val = { type: string; value: string | boolean };
interface BuildScript {
  type: string;
  fromGroup: number;
  toGroup: number;
  unsignedTx: string;
  gasAmount: number;
  gasPrice: string;
  txId: string;
  simulationResult: {
    contractInputs: { address: string; attoAlphAmount: string; tokens?: unknown[] }[];
    generatedOutputs: {
      address: string;
      attoAlphAmount: string;
      tokens?: { id: string; amount: string }[];
    }[];
  };
}
interface BuildDeploy {
  type: string;
  fromGroup: number;
  toGroup: number;
  unsignedTx: string;
  gasAmount: number;
  gasPrice: string;
  txId: string;
  contractAddress: string;
}
interface State {
  immFields: Val[];
  mutFields: Val[];
  asset: { attoAlphAmount: string };
  bytecode: string;
}

const scriptArtifact = (name: string) =>
  JSON.parse(readFileSync(join(ARTIFACTS_DIR, `${name}.ral.json`), 'utf8')) as {
    bytecodeTemplate: string;
    fieldsSig: { names: string[]; types: string[]; isMutable: boolean[] };
  };
const counterArtifact = JSON.parse(readFileSync(join(ARTIFACTS_DIR, 'Counter.ral.json'), 'utf8')) as {
  bytecode: string;
  fieldsSig: { names: string[]; types: string[]; isMutable: boolean[] };
};

/** The SDK's decoding of the built bytes (txId recomputed by the SDK from the bytes). */
const sdkDecode = (hex: string) => codec.unsignedTxCodec.decodeApiUnsignedTx(hexToBinUnsafe(hex));
const sdkScript = (hex: string) => {
  const u = codec.unsignedTxCodec.decode(hexToBinUnsafe(hex));
  assert.equal(u.statefulScript.kind, 'Some');
  return (u.statefulScript as { value: codec.script.Script }).value;
};
const instrNames = (s: codec.script.Script) => s.methods[0]!.instrs.map((i) => i.name);
const json = (v: unknown) =>
  JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));

describe('sandbox gateway: execute scripts and deploy contracts', () => {
  let sb: Sandbox;
  let api: Api;
  let key: string;
  const counter = () => sb.contracts.find((c) => c.name === 'Counter')!;
  const signer = () => sb.accounts[0]!;
  const incrementBy = (contractId: string, step: bigint) =>
    buildScriptByteCode(
      scriptArtifact('IncrementBy').bytecodeTemplate,
      { counter: contractId, step },
      scriptArtifact('IncrementBy').fieldsSig,
      [],
    );
  const increment = (contractId: string) =>
    buildScriptByteCode(
      scriptArtifact('Increment').bytecodeTemplate,
      { counter: contractId },
      scriptArtifact('Increment').fieldsSig,
      [],
    );
  const count = async (address: string) =>
    BigInt(String((await api.json<State>(`/contracts/${address}/state`)).mutFields[0]!.value));
  const balance = async (address: string) =>
    BigInt((await api.json<{ balance: string }>(`/addresses/${address}/balance`)).balance);
  /** The contract's event counter; 0 while it never emitted (the endpoint answers 404 then). */
  const eventCount = async (address: string) => {
    const res = await api.get(`/events/contract/${address}/current-count`);
    if (res.status === 404) return 0;
    return ((await res.json()) as { count: number }).count;
  };
  const signAndSubmit = async (b: { unsignedTx: string; txId: string }) => {
    const signature = transactionSign(b.txId, signer().privateKey);
    return api.json<{ txId: string }>('/transactions/submit', { unsignedTx: b.unsignedTx, signature });
  };
  const post = async (path: string, body: unknown) => {
    const res = await api.post(path, body);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const tamper = (mode: string) => control(sb, 'POST', '/tamper', { mode });

  before(async () => {
    ({ sb, api, key } = await newSandbox());
  });
  afterEach(() => tamper('none'));
  after(() => sb.close());

  it('script artifacts fill in with the SDK to a script calling the Counter method they name', () => {
    const bytecode = incrementBy(counter().contractId, 7n);
    const s = codec.script.scriptCodec.decode(hexToBinUnsafe(bytecode));
    assert.deepEqual(instrNames(s), ['U256Const', 'U256Const1', 'U256Const0', 'BytesConst', 'CallExternal']);
    const call = s.methods[0]!.instrs[4] as { index: number };
    assert.equal(call.index, 2, 'incrementBy is method 2 of Counter');
    const id = s.methods[0]!.instrs[3] as { value: Uint8Array };
    assert.equal(binToHex(id.value), counter().contractId);
    // The SDK's own builder makes the same bytes for the same call.
    const sdk = new DappTransactionBuilder(signer().address)
      .callContract({ contractAddress: counter().address, methodIndex: 2, args: [7n] })
      .getResult();
    assert.equal(
      binToHex(
        codec.script.scriptCodec.encode({ methods: [{ ...s.methods[0]!, usePreapprovedAssets: false }] }),
      ),
      sdk.bytecode,
    );
  });

  it("the extension's artifact reader takes the new files as scripts (what it matches a call against)", () => {
    for (const name of ['Increment', 'IncrementBy']) {
      const file = join(ARTIFACTS_DIR, `${name}.ral.json`);
      const a = parseArtifactText(readFileSync(file, 'utf8'), file);
      assert.equal(a.kind, 'script');
      assert.equal(a.kind === 'script' && a.name, name);
      assert.equal(a.kind === 'script' && a.fieldsSig.types[0], 'Counter');
    }
  });

  it('execute-script: build, sign, submit, mine: state changes, the event is emitted, the signer pays the fee only', async () => {
    const c = counter();
    const bytecode = incrementBy(c.contractId, 7n);
    const before = await count(c.address);
    const eventsBefore = await eventCount(c.address);
    const balBefore = await balance(signer().address);
    const b = await api.json<BuildScript>('/contracts/unsigned-tx/execute-script', {
      fromPublicKey: signer().publicKey,
      bytecode,
    });
    assert.deepEqual(Object.keys(b).sort(), [
      'fromGroup',
      'gasAmount',
      'gasPrice',
      'simulationResult',
      'toGroup',
      'txId',
      'type',
      'unsignedTx',
    ]);
    assert.equal(b.type, 'BuildSimpleExecuteScriptTxResult');
    assert.equal(b.fromGroup, signer().group);
    assert.equal(b.toGroup, signer().group);
    assert.equal(b.gasPrice, '100000000000');
    const d = sdkDecode(b.unsignedTx);
    assert.equal(d.txId, b.txId, 'the txId is the hash of the bytes');
    assert.equal(d.scriptOpt, bytecode, 'the script is the given bytecode, verbatim');
    assert.equal(d.gasAmount, b.gasAmount);
    assert.equal(d.networkId, 4);
    assert.ok(
      d.fixedOutputs.every((o) => o.address === signer().address),
      'fixed outputs are change only',
    );
    assert.ok(b.gasAmount > 20_000 && b.gasAmount < 100_000, String(b.gasAmount));
    // Counter.incrementBy does not use contract assets, and nothing was approved: nothing is generated.
    assert.deepEqual(b.simulationResult, { contractInputs: [], generatedOutputs: [] });
    assert.equal(await count(c.address), before, 'building changes nothing');

    assert.equal((await signAndSubmit(b)).txId, b.txId);
    await control(sb, 'POST', '/mine');
    const status = await api.json<{ type: string }>(`/transactions/status?txId=${b.txId}`);
    assert.equal(status.type, 'Confirmed');
    assert.equal(await count(c.address), before + 7n);
    const details = await api.json<{
      scriptExecutionOk: boolean;
      unsigned: { scriptOpt: string };
      contractInputs: unknown[];
      generatedOutputs: unknown[];
    }>(`/transactions/details/${b.txId}`);
    assert.equal(details.scriptExecutionOk, true);
    // Counter's method does not use the contract's assets: no contract input or output, as on the node.
    assert.deepEqual([details.contractInputs, details.generatedOutputs], [[], []]);
    assert.equal(details.unsigned.scriptOpt, bytecode);
    const after = (await api.json<{ count: number }>(`/events/contract/${c.address}/current-count`)).count;
    assert.equal(after, eventsBefore + 1, 'incrementBy emits one event (no Debug)');
    const evs = await api.json<{ events: { txId: string; eventIndex: number; fields: Val[] }[] }>(
      `/events/contract/${c.address}?start=${eventsBefore}`,
    );
    assert.equal(evs.events.length, 1);
    assert.equal(evs.events[0]!.txId, b.txId);
    assert.equal(evs.events[0]!.eventIndex, 0);
    assert.deepEqual(evs.events[0]!.fields, [
      { type: 'Address', value: signer().address },
      { type: 'U256', value: String(before + 7n) },
    ]);
    assert.equal(balBefore - (await balance(signer().address)), BigInt(b.gasAmount) * BigInt(b.gasPrice));
  });

  it('approved ALPH the contract does not keep comes back to the signer as a generated output', async () => {
    const c = counter();
    // The SDK's builder: approve 1 ALPH from the signer, then call increment.
    const sdk = new DappTransactionBuilder(signer().address)
      .callContract({ contractAddress: c.address, methodIndex: 1, args: [], attoAlphAmount: 10n ** 18n })
      .getResult();
    assert.ok(
      instrNames(codec.script.scriptCodec.decode(hexToBinUnsafe(sdk.bytecode))).includes('ApproveAlph'),
    );
    const balBefore = await balance(signer().address);
    const before = await count(c.address);
    const b = await api.json<BuildScript>('/contracts/unsigned-tx/execute-script', {
      fromPublicKey: signer().publicKey,
      bytecode: sdk.bytecode,
      attoAlphAmount: String(10n ** 18n),
    });
    assert.deepEqual(b.simulationResult.generatedOutputs, [
      { address: signer().address, attoAlphAmount: String(10n ** 18n) },
    ]);
    await signAndSubmit(b);
    await control(sb, 'POST', '/mine');
    assert.equal(await count(c.address), before + 1n);
    const details = await api.json<{ generatedOutputs: { address: string; attoAlphAmount: string }[] }>(
      `/transactions/details/${b.txId}`,
    );
    assert.deepEqual(
      details.generatedOutputs.map((o) => [o.address, o.attoAlphAmount]),
      [[signer().address, String(10n ** 18n)]],
    );
    assert.equal(balBefore - (await balance(signer().address)), BigInt(b.gasAmount) * BigInt(b.gasPrice));
  });

  it("the SDK's own signDeployContractTx and signExecuteScriptTx flows build, sign and submit through the sandbox", async () => {
    const c = counter();
    const bearerFetch: typeof fetch = (input, init) =>
      fetch(input, {
        ...init,
        headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${key}` },
      });
    const s = signer();
    const wallet = new TestWallet(new NodeProvider(sb.apiUrl, undefined, bearerFetch), s);
    const before = await count(c.address);
    // And a deploy through the SDK's signDeployContractTx flow.
    const deployed = await wallet.signAndSubmitDeployContractTx({
      signerAddress: s.address,
      bytecode: buildContractByteCode(
        counterArtifact.bytecode,
        { owner: s.address, count: 40n, paused: false },
        counterArtifact.fieldsSig,
        [],
      ),
    });
    await control(sb, 'POST', '/mine');
    assert.equal(await count(deployed.contractAddress), 40n);
    const r = await wallet.signAndSubmitExecuteScriptTx({
      signerAddress: s.address,
      bytecode: increment(c.contractId),
    });
    assert.equal(sdkDecode(r.unsignedTx).txId, r.txId);
    await control(sb, 'POST', '/mine');
    assert.equal(await count(c.address), before + 1n);
  });

  it('a VM failure answers 400 as the node words it, and builds nothing', async () => {
    const c = counter();
    const r = await post('/contracts/unsigned-tx/execute-script', {
      fromPublicKey: signer().publicKey,
      bytecode: incrementBy(c.contractId, 101n),
    });
    assert.equal(r.status, 400);
    assert.equal(
      r.body.detail,
      `Execution error when estimating gas for tx script or contract: Assertion Failed in Contract @ ${c.address}, Error Code: 1`,
    );
    const approveTooMuch = new DappTransactionBuilder(signer().address)
      .callContract({ contractAddress: c.address, methodIndex: 1, args: [], attoAlphAmount: 5n * 10n ** 18n })
      .getResult();
    const r2 = await post('/contracts/unsigned-tx/execute-script', {
      fromPublicKey: signer().publicKey,
      bytecode: approveTooMuch.bytecode,
      attoAlphAmount: String(10n ** 18n),
    });
    assert.equal(r2.status, 400);
    assert.match(
      String(r2.body.detail),
      /^Execution error when estimating gas for tx script or contract: Not enough approved balance for address \w+, tokenId: ALPH, expected: 5000000000000000000, got: 1000000000000000000$/,
    );
  });

  it('any instruction runs, on the VM: a script that adds 1 and 2 builds; bytes that are no script are refused', async () => {
    const script = codec.script.scriptCodec.encode({
      methods: [
        {
          isPublic: true,
          usePreapprovedAssets: false,
          useContractAssets: false,
          usePayToContractOnly: false,
          argsLength: 0,
          localsLength: 0,
          returnLength: 0,
          instrs: [codec.U256Const1, codec.U256Const2, codec.U256Add, codec.Pop],
        },
      ],
    });
    const r = await post('/contracts/unsigned-tx/execute-script', {
      fromPublicKey: signer().publicKey,
      bytecode: binToHex(script),
    });
    // The old sandbox interpreted a subset and refused U256Add by name; the VM runs every instruction.
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const bad = await post('/contracts/unsigned-tx/execute-script', {
      fromPublicKey: signer().publicKey,
      bytecode: 'zz',
    });
    assert.equal(bad.status, 400);
  });

  it('call-tx-script simulates: returns the effects and changes nothing', async () => {
    const c = counter();
    const before = await count(c.address);
    const eventsBefore = await eventCount(c.address);
    const r = await api.json<Record<string, unknown>>('/contracts/call-tx-script', {
      group: c.groupIndex,
      bytecode: incrementBy(c.contractId, 3n),
      callerAddress: signer().address,
    });
    assert.deepEqual(Object.keys(r).sort(), [
      'contracts',
      'debugMessages',
      'events',
      'gasUsed',
      'returns',
      'txInputs',
      'txOutputs',
    ]);
    assert.deepEqual(r.returns, []);
    assert.ok(typeof r.gasUsed === 'number' && r.gasUsed > 5_000);
    const states = r.contracts as State[] & { address: string }[];
    assert.equal(states.length, 1);
    assert.deepEqual(states[0]!.mutFields, [
      { type: 'U256', value: String(before + 3n) },
      { type: 'Bool', value: false },
    ]);
    const events = r.events as { contractAddress: string; eventIndex: number; fields: Val[] }[];
    assert.equal(events.length, 1);
    assert.equal(events[0]!.contractAddress, c.address);
    assert.deepEqual(events[0]!.fields[1], { type: 'U256', value: String(before + 3n) });
    assert.equal(await count(c.address), before, 'simulation keeps no state');
    assert.equal(
      (await api.json<{ count: number }>(`/events/contract/${c.address}/current-count`)).count,
      eventsBefore,
      'simulation logs no event',
    );
    // Approving someone else's assets is not something the sandbox pretends to run.
    const foreign = new DappTransactionBuilder(sb.accounts[4]!.address)
      .callContract({ contractAddress: c.address, methodIndex: 1, args: [], attoAlphAmount: 1n })
      .getResult();
    const refused = await post('/contracts/call-tx-script', {
      group: c.groupIndex,
      bytecode: foreign.bytecode,
      callerAddress: signer().address,
    });
    assert.equal(refused.status, 400);
    assert.match(String(refused.body.detail), /Not enough approved balance for address \w+, tokenId: ALPH/);
    const fail = await post('/contracts/call-tx-script', {
      group: c.groupIndex,
      bytecode: incrementBy(c.contractId, 500n),
    });
    assert.equal(fail.status, 400);
    assert.match(String(fail.body.detail), /Assertion Failed in Contract @ \w+, Error Code: 1$/);
  });

  it('call-contract with inputAssets approves them and returns them as outputs; without, it works as before', async () => {
    const c = counter();
    const plain = await api.json<{ type: string; returns: Val[]; txInputs: string[] }>(
      '/contracts/call-contract',
      {
        group: c.groupIndex,
        address: c.address,
        methodIndex: 0,
      },
    );
    assert.equal(plain.type, 'CallContractSucceeded');
    assert.deepEqual(plain.txInputs, []);
    const r = await api.json<{
      type: string;
      returns: Val[];
      txInputs: string[];
      txOutputs: { type: string; address: string; attoAlphAmount: string }[];
    }>('/contracts/call-contract', {
      group: c.groupIndex,
      address: c.address,
      methodIndex: 0,
      callerAddress: signer().address,
      inputAssets: [{ address: signer().address, asset: { attoAlphAmount: String(2n * 10n ** 18n) } }],
    });
    assert.equal(r.type, 'CallContractSucceeded');
    assert.deepEqual(r.returns, plain.returns);
    assert.deepEqual(r.txInputs, [signer().address]);
    assert.deepEqual(
      r.txOutputs.map((o) => [o.type, o.address, o.attoAlphAmount]),
      [['AssetOutput', signer().address, String(2n * 10n ** 18n)]],
    );
    const notCaller = await post('/contracts/call-contract', {
      group: c.groupIndex,
      address: c.address,
      methodIndex: 0,
      callerAddress: signer().address,
      inputAssets: [{ address: sb.accounts[4]!.address, asset: { attoAlphAmount: '1' } }],
    });
    assert.equal(notCaller.status, 400);
    assert.match(String(notCaller.body.detail), /input assets of the caller/);
    const failed = await api.json<{ type: string; error: string }>('/contracts/call-contract', {
      group: c.groupIndex,
      address: c.address,
      methodIndex: 2,
      args: [{ type: 'U256', value: '1000' }],
      inputAssets: [{ address: sb.accounts[c.groupIndex]!.address, asset: { attoAlphAmount: '1' } }],
    });
    assert.equal(failed.type, 'CallContractFailed');
    assert.match(failed.error, /Assertion Failed in Contract @ \w+, Error Code: 1/);
  });

  const deployCounter = async (owner: string, count0: bigint) => {
    const bytecode = buildContractByteCode(
      counterArtifact.bytecode,
      { owner, count: count0, paused: false },
      counterArtifact.fieldsSig,
      [],
    );
    return api.json<BuildDeploy>('/contracts/unsigned-tx/deploy-contract', {
      fromPublicKey: signer().publicKey,
      bytecode,
    });
  };

  it('deploy-contract: a Counter deployed from its artifact is live: state, ContractCreated, execute', async () => {
    const s = signer();
    const b = await deployCounter(s.address, 5n);
    assert.deepEqual(Object.keys(b).sort(), [
      'contractAddress',
      'fromGroup',
      'gasAmount',
      'gasPrice',
      'toGroup',
      'txId',
      'type',
      'unsignedTx',
    ]);
    assert.equal(b.type, 'BuildSimpleDeployContractTxResult');
    const d = sdkDecode(b.unsignedTx);
    assert.equal(d.txId, b.txId);
    // The node's deploy script: createContract!{@signer -> ALPH: 0.1}(#code, #imm, #mut), as compiled.
    const script = sdkScript(b.unsignedTx);
    assert.deepEqual(instrNames(script), [
      'AddressConst',
      'U256Const',
      'ApproveAlph',
      'BytesConst',
      'BytesConst',
      'BytesConst',
      'CreateContract',
      'Pop',
    ]);
    const m = script.methods[0]!;
    assert.equal(m.isPublic && m.usePreapprovedAssets && !m.useContractAssets, true);
    assert.equal(json(m.instrs[1]), json(codec.U256Const(10n ** 17n)));
    assert.equal(binToHex((m.instrs[3] as { value: Uint8Array }).value), counterArtifact.bytecode);
    // The contract id as the node derives it (checked independently with the extension's protocol core).
    assert.equal(
      b.contractAddress,
      addressFromContractId(contractIdFromTx(b.txId, d.fixedOutputs.length, s.group)),
    );
    const balBefore = await balance(s.address);
    await signAndSubmit(b);
    await control(sb, 'POST', '/mine');
    const st = await api.json<State>(`/contracts/${b.contractAddress}/state`);
    assert.deepEqual(st.immFields, [{ type: 'Address', value: s.address }]);
    assert.deepEqual(st.mutFields, [
      { type: 'U256', value: '5' },
      { type: 'Bool', value: false },
    ]);
    assert.equal(st.asset.attoAlphAmount, String(10n ** 17n));
    assert.equal(st.bytecode, counterArtifact.bytecode);
    assert.equal(
      balBefore - (await balance(s.address)),
      BigInt(b.gasAmount) * BigInt(b.gasPrice) + 10n ** 17n,
      'the signer pays the fee and the contract deposit',
    );
    const created = await api.json<{
      events: { contractAddress: string; eventIndex: number; fields: Val[] }[];
    }>(`/events/tx-id/${b.txId}`);
    assert.equal(created.events.length, 1);
    assert.equal(created.events[0]!.contractAddress, systemEventAddress(-1, s.group));
    assert.deepEqual(created.events[0]!.fields[0], { type: 'Address', value: b.contractAddress });

    const id = contractIdFromTx(b.txId, d.fixedOutputs.length, s.group);
    const e = await api.json<BuildScript>('/contracts/unsigned-tx/execute-script', {
      fromPublicKey: s.publicKey,
      bytecode: increment(id),
    });
    await signAndSubmit(e);
    await control(sb, 'POST', '/mine');
    assert.equal(await count(b.contractAddress), 6n);
    const call = await api.json<{ returns: Val[] }>('/contracts/call-contract', {
      group: s.group,
      address: b.contractAddress,
      methodIndex: 0,
    });
    assert.deepEqual(call.returns, [{ type: 'U256', value: '6' }]);
  });

  it('a contract that pays its caller ALPH, called through the control API: the payout reaches the caller and output keys follow on', async () => {
    const s = signer();
    const payout = 10n ** 17n;
    // pay(): transferTokenFromSelf!(callerAddress!(), ALPH, 0.1 ALPH), from the contract's own assets.
    const code = binToHex(
      codec.contract.contractCodec.encodeContract({
        fieldLength: 0,
        methods: [
          {
            isPublic: true,
            usePreapprovedAssets: false,
            useContractAssets: true,
            usePayToContractOnly: false,
            argsLength: 0,
            localsLength: 0,
            returnLength: 0,
            instrs: [codec.CallerAddress, codec.toU256(payout), codec.TransferAlphFromSelf, codec.Return],
          },
        ],
      }),
    );
    const b = await api.json<BuildDeploy>('/contracts/unsigned-tx/deploy-contract', {
      fromPublicKey: s.publicKey,
      bytecode: code + '0000',
      initialAttoAlphAmount: String(10n ** 18n),
    });
    await signAndSubmit(b);
    await control(sb, 'POST', '/mine');
    const payee = sb.accounts.find((a) => a.group === s.group && a.address !== s.address) ?? sb.accounts[4]!;
    const balance = async () =>
      BigInt((await api.json<{ balance: string }>(`/addresses/${payee.address}/balance`)).balance);
    const before = await balance();
    const r = await control<{ txId: string }>(sb, 'POST', `/contracts/${b.contractAddress}/call`, {
      method: 0,
      caller: payee.address,
    });
    assert.equal(await balance(), before + payout, 'the 1 ALPH lent for the run is repaid, the payout kept');
    const details = await api.json<{ generatedOutputs: { type: string; key: string }[] }>(
      `/transactions/details/${r.txId}`,
    );
    const keyAt = (i: number) =>
      binToHex(blake2b(new Uint8Array([...hexToBinUnsafe(r.txId), 0, 0, 0, i]), { dkLen: 32 }));
    assert.deepEqual(
      details.generatedOutputs.map((o) => o.key),
      details.generatedOutputs.map((_, i) => keyAt(i)),
    );
  });

  it('call-contract arguments that are not values of their type are refused as a failed call, not a 500', async () => {
    const c = counter();
    for (const [args, methodIndex, why] of [
      [[{ type: 'U256', value: '-1' }], 2, /Invalid argument 0: U256 value must be a decimal string/],
      [[{ type: 'U256', value: 'abc' }], 2, /Invalid argument 0/],
      [[{ type: 'U256', value: (1n << 256n).toString() }], 2, /U256 value out of range/],
      [[], 300, /Invalid method index 300/],
    ] as const) {
      const r = await post('/contracts/call-contract', {
        group: c.groupIndex,
        address: c.address,
        methodIndex,
        args,
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.type, 'CallContractFailed');
      assert.match(String(r.body.error), why);
    }
  });

  it('deploy of bytecode without an artifact is stored and readable, and its methods run on the VM', async () => {
    const s = signer();
    const code = binToHex(
      codec.contract.contractCodec.encodeContract({
        fieldLength: 1,
        methods: [
          {
            isPublic: true,
            usePreapprovedAssets: false,
            useContractAssets: false,
            usePayToContractOnly: false,
            argsLength: 0,
            localsLength: 0,
            returnLength: 1,
            instrs: [codec.LoadImmField(0), codec.Return],
          },
        ],
      }),
    );
    const bytecode = code + binToHex(codec.val.valsCodec.encode([{ kind: 'U256', value: 42n }])) + '00';
    const b = await api.json<BuildDeploy>('/contracts/unsigned-tx/deploy-contract', {
      fromPublicKey: s.publicKey,
      bytecode,
    });
    await signAndSubmit(b);
    await control(sb, 'POST', '/mine');
    const st = await api.json<State>(`/contracts/${b.contractAddress}/state`);
    assert.equal(st.bytecode, code);
    assert.deepEqual(st.immFields, [{ type: 'U256', value: '42' }]);
    const r = await post('/contracts/call-contract', {
      group: s.group,
      address: b.contractAddress,
      methodIndex: 0,
    });
    assert.equal(r.body.type, 'CallContractSucceeded', JSON.stringify(r.body));
    assert.deepEqual(r.body.returns, [{ type: 'U256', value: '42' }]);
    const sdk = new DappTransactionBuilder(s.address)
      .callContract({ contractAddress: b.contractAddress, methodIndex: 0, args: [], retLength: 1 })
      .getResult();
    const r2 = await post('/contracts/unsigned-tx/execute-script', {
      fromPublicKey: s.publicKey,
      bytecode: sdk.bytecode,
    });
    assert.equal(r2.status, 200, JSON.stringify(r2.body));
  });

  it('a script using contract assets: TokenFaucet.withdraw moves the contract output and pays the signer tokens', async () => {
    const f = sb.contracts.find((c) => c.name === 'TokenFaucet')!;
    const s = sb.accounts[f.groupIndex]!;
    const sdk = new DappTransactionBuilder(s.address)
      .callContract({ contractAddress: f.address, methodIndex: 5, args: [2n], attoAlphAmount: 10n ** 15n })
      .getResult();
    const stateBefore = await api.json<State & { asset: { tokens: { id: string; amount: string }[] } }>(
      `/contracts/${f.address}/state`,
    );
    // The token output to the signer holds 0.001 ALPH of dust, which the script must bring and approve (as
    // a dApp does with `attoAlphAmount: DUST_AMOUNT`): a script that approves nothing has none of it.
    const b = await api.json<BuildScript>('/contracts/unsigned-tx/execute-script', {
      fromPublicKey: s.publicKey,
      bytecode: sdk.bytecode,
      attoAlphAmount: String(10n ** 15n),
    });
    assert.deepEqual(
      b.simulationResult.contractInputs.map((x) => x.address),
      [f.address],
    );
    assert.deepEqual(
      b.simulationResult.generatedOutputs.map((o) => [o.address, o.tokens?.[0]?.amount]),
      // The node's order (`Context.scala`): the signer's tokens entered the output balances during the
      // call, the faucet's remaining assets only when the script ended (`outputRemainingContractAssetsForRhone`).
      [
        [s.address, '2'],
        [f.address, String(BigInt(stateBefore.asset.tokens[0]!.amount) - 2n)],
      ],
    );
    const tokensBefore = await api.json<{ tokenBalances?: { id: string; amount: string }[] }>(
      `/addresses/${s.address}/balance`,
    );
    const had = BigInt(tokensBefore.tokenBalances?.find((t) => t.id === f.contractId)?.amount ?? '0');
    const signature = transactionSign(b.txId, s.privateKey);
    await api.json('/transactions/submit', { unsignedTx: b.unsignedTx, signature });
    await control(sb, 'POST', '/mine');
    const details = await api.json<{
      contractInputs: { key: string }[];
      generatedOutputs: { type: string; address: string; key: string }[];
    }>(`/transactions/details/${b.txId}`);
    assert.equal(details.contractInputs.length, 1);
    assert.deepEqual(
      details.generatedOutputs.map((o) => [o.type, o.address]),
      [
        ['AssetOutput', s.address],
        ['ContractOutput', f.address],
      ],
    );
    // Output keys follow the fixed outputs, as the node numbers them.
    const fixed = sdkDecode(b.unsignedTx).fixedOutputs.length;
    const keyAt = (i: number) =>
      binToHex(blake2b(new Uint8Array([...hexToBinUnsafe(b.txId), 0, 0, 0, i]), { dkLen: 32 }));
    assert.deepEqual(
      details.generatedOutputs.map((o) => o.key),
      [keyAt(fixed), keyAt(fixed + 1)],
    );
    // A second withdraw spends the contract output the first one created.
    const b2 = await api.json<BuildScript>('/contracts/unsigned-tx/execute-script', {
      fromPublicKey: s.publicKey,
      bytecode: sdk.bytecode,
      attoAlphAmount: String(10n ** 15n),
    });
    await api.json('/transactions/submit', {
      unsignedTx: b2.unsignedTx,
      signature: transactionSign(b2.txId, s.privateKey),
    });
    await control(sb, 'POST', '/mine');
    const details2 = await api.json<{ contractInputs: { key: string }[] }>(
      `/transactions/details/${b2.txId}`,
    );
    assert.deepEqual(
      details2.contractInputs.map((i) => i.key),
      [details.generatedOutputs[1]!.key],
    );
    const tokensAfter = await api.json<{ tokenBalances?: { id: string; amount: string }[] }>(
      `/addresses/${s.address}/balance`,
    );
    assert.equal(
      BigInt(tokensAfter.tokenBalances?.find((t) => t.id === f.contractId)?.amount ?? '0'),
      had + 4n,
    );
  });

  it('approved tokens come from the signer inputs (token change stays fixed) and return as generated outputs', async () => {
    const f = sb.contracts.find((c) => c.name === 'TokenFaucet')!;
    const s = signer(); // holds the faucet token from genesis
    const sdk = new DappTransactionBuilder(s.address)
      .callContract({
        contractAddress: counter().address,
        methodIndex: 1,
        args: [],
        tokens: [{ id: f.contractId, amount: 5n }],
      })
      .getResult();
    const b = await api.json<BuildScript>('/contracts/unsigned-tx/execute-script', {
      fromPublicKey: s.publicKey,
      bytecode: sdk.bytecode,
      tokens: [{ id: f.contractId, amount: '5' }],
    });
    assert.deepEqual(b.simulationResult.generatedOutputs, [
      { address: s.address, attoAlphAmount: String(10n ** 15n), tokens: [{ id: f.contractId, amount: '5' }] },
    ]);
    const d = sdkDecode(b.unsignedTx);
    assert.ok(d.fixedOutputs.every((o) => o.address === s.address));
    const tokenChange = d.fixedOutputs.flatMap((o) => o.tokens).find((t) => t.id === f.contractId);
    assert.ok(tokenChange, 'the rest of the token comes back as change');
    const balBefore = await balance(s.address);
    await signAndSubmit(b);
    await control(sb, 'POST', '/mine');
    assert.equal(
      balBefore - (await balance(s.address)),
      BigInt(b.gasAmount) * BigInt(b.gasPrice),
      'the dust for the returned token comes back too',
    );
    const small = await post('/contracts/unsigned-tx/deploy-contract', {
      fromPublicKey: s.publicKey,
      bytecode: buildContractByteCode(
        counterArtifact.bytecode,
        { owner: s.address, count: 0n, paused: false },
        counterArtifact.fieldsSig,
        [],
      ),
      initialAttoAlphAmount: '1000',
    });
    assert.deepEqual(
      [small.status, small.body.detail],
      [400, 'Expect 0.1 ALPH deposit to deploy a new contract'],
    );
  });

  it('deploy with issueTokenAmount: the contract holds its own token; with issueTokenTo, the recipient does', async () => {
    const s = signer();
    const bytecode = buildContractByteCode(
      counterArtifact.bytecode,
      { owner: s.address, count: 0n, paused: false },
      counterArtifact.fieldsSig,
      [],
    );
    const held = await api.json<BuildDeploy>('/contracts/unsigned-tx/deploy-contract', {
      fromPublicKey: s.publicKey,
      bytecode,
      issueTokenAmount: '1000',
    });
    assert.ok(instrNames(sdkScript(held.unsignedTx)).includes('CreateContractWithToken'));
    await signAndSubmit(held);
    await control(sb, 'POST', '/mine');
    const st = await api.json<{ asset: { tokens?: { id: string; amount: string }[] } }>(
      `/contracts/${held.contractAddress}/state`,
    );
    const heldId = contractIdFromTx(held.txId, sdkDecode(held.unsignedTx).fixedOutputs.length, s.group);
    assert.deepEqual(st.asset.tokens, [{ id: heldId, amount: '1000' }]);

    const to = sb.accounts[4]!; // group 0, as the signer
    const sent = await api.json<BuildDeploy>('/contracts/unsigned-tx/deploy-contract', {
      fromPublicKey: s.publicKey,
      bytecode,
      issueTokenAmount: '77',
      issueTokenTo: to.address,
    });
    // The node's template: createContractWithToken!{..}(.., 77, @to) then transferToken! of dust to @to.
    assert.deepEqual(instrNames(sdkScript(sent.unsignedTx)).slice(-8), [
      'U256Const',
      'AddressConst',
      'CreateContractAndTransferToken',
      'Pop',
      'AddressConst',
      'AddressConst',
      'U256Const',
      'TransferAlph',
    ]);
    await signAndSubmit(sent);
    await control(sb, 'POST', '/mine');
    const sentId = contractIdFromTx(sent.txId, sdkDecode(sent.unsignedTx).fixedOutputs.length, s.group);
    const bal = await api.json<{ tokenBalances?: { id: string; amount: string }[] }>(
      `/addresses/${to.address}/balance`,
    );
    assert.deepEqual(
      bal.tokenBalances?.filter((t) => t.id === sentId),
      [{ id: sentId, amount: '77' }],
    );
  });

  it('submit refuses a signed script tx whose script fails now, as the node refuses it', async () => {
    const c = counter();
    // A tx re-scripted by the client itself (no gateway estimate): reset by a non-owner fails.
    const resetScript = codec.script.scriptCodec.decode(hexToBinUnsafe(incrementBy(c.contractId, 1n)));
    resetScript.methods[0]!.instrs = [
      codec.U256Const0,
      codec.U256Const0,
      resetScript.methods[0]!.instrs[3]!,
      codec.CallExternal(3),
    ];
    const other = sb.accounts[4]!; // group 0 too, but not the Counter's owner
    const ob = await api.json<BuildScript>('/contracts/unsigned-tx/execute-script', {
      fromPublicKey: other.publicKey,
      bytecode: incrementBy(c.contractId, 1n),
    });
    const ou = codec.unsignedTxCodec.decode(hexToBinUnsafe(ob.unsignedTx));
    ou.statefulScript = { kind: 'Some', value: resetScript };
    const hex = binToHex(codec.unsignedTxCodec.encode(ou));
    const txId = sdkDecode(hex).txId;
    const r = await post('/transactions/submit', {
      unsignedTx: hex,
      signature: transactionSign(txId, other.privateKey),
    });
    assert.equal(r.status, 400);
    assert.equal(
      r.body.detail,
      `TxScriptExeFailed(Assertion Failed in Contract @ ${c.address}, Error Code: 0)`,
    );
  });

  // ------------------------------------------------------------------ tampering

  /** Builds the same request honestly and under `mode`; returns both decodings. */
  const both = async (mode: string, path: string, body: unknown) => {
    await tamper('none');
    const honest = await api.json<BuildScript & BuildDeploy>(path, body);
    await tamper(mode);
    const bad = await api.json<BuildScript & BuildDeploy>(path, body);
    await tamper('none');
    const hd = sdkDecode(honest.unsignedTx);
    const bd = sdkDecode(bad.unsignedTx);
    assert.equal(bd.txId, bad.txId, `${mode}: the txId is recomputed over the tampered bytes`);
    assert.notEqual(bad.txId, honest.txId);
    return { honest, bad, hd, bd, hs: sdkScript(honest.unsignedTx), bs: sdkScript(bad.unsignedTx) };
  };
  const execBody = () => ({
    fromPublicKey: signer().publicKey,
    bytecode: incrementBy(counter().contractId, 4n),
  });
  /** Instructions that differ, as [index, honest, tampered] (lengths must match). */
  const diffInstrs = (a: codec.script.Script, b: codec.script.Script) => {
    const x = a.methods[0]!.instrs;
    const y = b.methods[0]!.instrs;
    assert.equal(x.length, y.length);
    return x.map((v, i) => [i, json(v), json(y[i])] as const).filter(([, p, q]) => p !== q);
  };

  it('script-method: only the called method index changes', async () => {
    const { hs, bs, hd, bd } = await both('script-method', '/contracts/unsigned-tx/execute-script', {
      fromPublicKey: signer().publicKey,
      bytecode: increment(counter().contractId),
    });
    const diff = diffInstrs(hs, bs);
    assert.equal(diff.length, 1);
    assert.equal(diff[0]![0], 3);
    assert.equal((bs.methods[0]!.instrs[3] as { index: number }).index, 3, 'increment (1) became reset (3)');
    assert.deepEqual(
      bd.fixedOutputs,
      hd.fixedOutputs.map((o, i) => ({ ...o, key: bd.fixedOutputs[i]!.key })),
    );
    assert.deepEqual(bd.inputs, hd.inputs);
  });

  it('script-args: only the argument changes', async () => {
    const { hs, bs, hd, bd } = await both('script-args', '/contracts/unsigned-tx/execute-script', execBody());
    const diff = diffInstrs(hs, bs);
    assert.equal(diff.length, 1);
    assert.equal(diff[0]![0], 0);
    assert.equal(diff[0]![2], json(codec.toU256(5n)), 'step 4 became 5');
    assert.deepEqual(bd.inputs, hd.inputs);
    assert.equal(bd.fixedOutputs.length, hd.fixedOutputs.length);
  });

  it('script-approve: the script approves 1 ALPH more, paid from the signer change', async () => {
    const body = {
      fromPublicKey: signer().publicKey,
      bytecode: new DappTransactionBuilder(signer().address)
        .callContract({
          contractAddress: counter().address,
          methodIndex: 1,
          args: [],
          attoAlphAmount: 10n ** 17n,
        })
        .getResult().bytecode,
      attoAlphAmount: String(10n ** 17n),
    };
    const { hs, bs, hd, bd } = await both('script-approve', '/contracts/unsigned-tx/execute-script', body);
    const diff = diffInstrs(hs, bs);
    assert.equal(diff.length, 1);
    assert.equal(diff[0]![2], json(codec.U256Const(10n ** 18n + 10n ** 17n)));
    assert.ok(bd.fixedOutputs.every((o) => o.address === signer().address));
    const sum = (d: typeof hd) => d.fixedOutputs.reduce((a, o) => a + BigInt(o.attoAlphAmount), 0n);
    assert.equal(sum(hd) - sum(bd), 10n ** 18n);
    // With no approval in the script, one is added in front.
    const plain = await both('script-approve', '/contracts/unsigned-tx/execute-script', execBody());
    assert.deepEqual(instrNames(plain.bs).slice(0, 3), ['AddressConst', 'U256Const', 'ApproveAlph']);
    assert.deepEqual(instrNames(plain.bs).slice(3), instrNames(plain.hs));
  });

  it('script-extra-output: the same script with one more fixed output to another address', async () => {
    const { hs, bs, hd, bd } = await both(
      'script-extra-output',
      '/contracts/unsigned-tx/execute-script',
      execBody(),
    );
    assert.deepEqual(diffInstrs(hs, bs), []);
    assert.equal(bd.fixedOutputs.length, hd.fixedOutputs.length + 1);
    const foreign = bd.fixedOutputs.filter((o) => o.address !== signer().address);
    assert.equal(foreign.length, 1);
    assert.equal(foreign[0]!.attoAlphAmount, String(10n ** 18n));
  });

  it('deploy-code and deploy-fields: only the code, or only the fields, differ; the address follows the tx', async () => {
    const bytecode = buildContractByteCode(
      counterArtifact.bytecode,
      { owner: signer().address, count: 0n, paused: false },
      counterArtifact.fieldsSig,
      [],
    );
    const body = { fromPublicKey: signer().publicKey, bytecode };
    const code = await both('deploy-code', '/contracts/unsigned-tx/deploy-contract', body);
    let diff = diffInstrs(code.hs, code.bs);
    assert.deepEqual(
      diff.map((x) => x[0]),
      [3],
    );
    assert.notEqual(
      binToHex((code.bs.methods[0]!.instrs[3] as { value: Uint8Array }).value),
      counterArtifact.bytecode,
    );
    assert.equal(
      code.bad.contractAddress,
      addressFromContractId(contractIdFromTx(code.bad.txId, code.bd.fixedOutputs.length, signer().group)),
    );
    const fields = await both('deploy-fields', '/contracts/unsigned-tx/deploy-contract', body);
    diff = diffInstrs(fields.hs, fields.bs);
    assert.deepEqual(
      diff.map((x) => x[0]),
      [4],
      'the immutable fields (owner) changed',
    );
    const imm = codec.val.valsCodec.decode((fields.bs.methods[0]!.instrs[4] as { value: Uint8Array }).value);
    assert.equal(imm[0]!.kind, 'Address');
    assert.notEqual(
      json(imm[0]),
      json(codec.val.valsCodec.decode((fields.hs.methods[0]!.instrs[4] as { value: Uint8Array }).value)[0]),
    );
  });

  it('every script tamper mode is accepted by the control API', async () => {
    for (const mode of [
      'script-method',
      'script-args',
      'script-approve',
      'script-extra-output',
      'deploy-code',
      'deploy-fields',
    ]) {
      assert.deepEqual(await tamper(mode), { mode });
    }
    const r = await fetch(`${sb.baseUrl}/__sandbox/tamper`, {
      method: 'POST',
      body: JSON.stringify({ mode: 'script-nope' }),
    });
    assert.equal(r.status, 400);
  });
});
