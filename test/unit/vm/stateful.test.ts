/**
 * Contract calls on the stateful VM, through emulateTxScript with existing contracts given in the
 * node's JSON shape: loads, external calls and their checks, fields and state updates, contract
 * assets, events, selectors, sub-contract ids and destruction. Expected gas is summed from the
 * node's charges (`Frame.scala`, `ContractPool.scala`, `CostStrategy.scala`, `GasSchedule.scala`).
 */
import { strict as assert } from 'node:assert';
import {
  addressFromContractId,
  bytesToHex,
  groupOfLockupScript,
  hexToBytes,
  subContractId,
} from '../../../src/core/protocol';
import {
  Balances,
  MemoryWorldState,
  StatefulContext,
  VirtualMachine,
  emulateTxScript,
  valToNode,
  vU256,
  type Instr,
  type Method,
  type NodeContractState,
  type Val,
} from '../../../src/core/vm';
import { byteOp, bytesOp, instr, method, ops, u256Op } from './assemble';
import { SIGNER_ADDRESS, SIGNER_LOCKUP, encodeContract, encodeScript, unsignedTxOf } from './bytecode';

const ONE_ALPH = 10n ** 18n;
const ID = '11'.repeat(31) + '00';
const ADDRESS = addressFromContractId(ID);

/** A contract state as a gateway returns it. */
function stateOf(
  code: Uint8Array,
  imm: readonly Val[],
  mut: readonly Val[],
  alph = ONE_ALPH,
): NodeContractState {
  return {
    address: ADDRESS,
    bytecode: bytesToHex(code),
    codeHash: '',
    immFields: imm.map(valToNode),
    mutFields: mut.map(valToNode),
    asset: { attoAlphAmount: alph.toString(), tokens: [] },
  };
}

const wordLength = (n: number): number => Math.floor((n + 7) / 8);

/** `inc(by) -> U256`: counter += by, returns it. `hidden()` is private. */
const INC = method(
  ops(byteOp('LoadMutField', 0), byteOp('LoadLocal', 0), 'U256Add', 'Dup', byteOp('StoreMutField', 0)),
  {
    argsLength: 1,
    localsLength: 1,
    returnLength: 1,
  },
);
const HIDDEN = method([], { isPublic: false });
const COUNTER = encodeContract(1, [INC, HIDDEN]);
const COUNTER_METHODS_BYTES = COUNTER.length - 4; // fieldLength, index count and two end offsets: 1 byte each

function call(index: number, args: readonly Instr[], argsLength: number, returnLength: number): Instr[] {
  return [
    ...args,
    u256Op(BigInt(argsLength)),
    u256Op(BigInt(returnLength)),
    bytesOp(hexToBytes(ID)),
    byteOp('CallExternal', index),
  ];
}

function run(body: readonly Instr[], state: NodeContractState, shape: Partial<Omit<Method, 'instrs'>> = {}) {
  const script = encodeScript([method(body, shape)]);
  const result = emulateTxScript({
    unsignedTx: unsignedTxOf(script),
    contractState: (a) => (a === ADDRESS ? state : undefined),
  });
  return { script, result };
}

describe('stateful VM: external calls', () => {
  it('loads the callee once (800 + words of its size), calls it (200) and charges the state update (5000 + fields)', () => {
    const { script, result } = run(
      [...call(0, [u256Op(3n)], 1, 1), 'Pop'].map((i) => (typeof i === 'string' ? instr(i) : i)),
      stateOf(COUNTER, [], [vU256(5n)]),
    );
    assert.equal(result.ok, true, result.error);
    const load = 800 + wordLength(32 + COUNTER_METHODS_BYTES);
    const pushes = 4 * 2;
    const callee = 3 + 3 + 3 + 2 + 3;
    const update = 5000 + 32;
    assert.equal(result.gasUsed, script.length + 200 + pushes + 200 + load + callee + 2 + update);
    assert.deepEqual(result.contracts[0]?.mutFields, [{ type: 'U256', value: '8' }]);
    assert.equal(result.contracts[0]?.created, false);
  });

  it('checks the counts the caller expects (Frame.scala checkLength) and that the method is public', () => {
    const state = stateOf(COUNTER, [], [vU256(5n)]);
    const args = run(call(0, [u256Op(3n)], 2, 1), state).result;
    assert.equal(
      args.error,
      'InvalidExternalMethodArgLength: Invalid number of external method arguments, got: 2, expect: 1',
    );
    const returns = run(call(0, [u256Op(3n)], 1, 0), state).result;
    assert.equal(
      returns.error,
      'InvalidExternalMethodReturnLength: Invalid number of external method return values, got: 0, expect: 1',
    );
    assert.equal(run(call(1, [], 0, 0), state).result.error, 'ExternalPrivateMethodCall');
  });

  it('fails with NonExistContract for an id the world does not hold, and InvalidMutFieldType on a type change', () => {
    const missing = emulateTxScript({
      unsignedTx: unsignedTxOf(encodeScript([method(call(0, [u256Op(1n)], 1, 1))])),
    });
    assert.equal(missing.error, `NonExistContract: Contract ${ADDRESS} does not exist`);
    const setBool = method(ops('ConstTrue', byteOp('StoreMutField', 0)));
    const state = stateOf(encodeContract(1, [setBool]), [], [vU256(5n)]);
    assert.equal(run(call(0, [], 0, 0), state).result.error, 'InvalidMutFieldType');
  });

  it('logs a contract event by its I256 index, drops one without, and drops the script own logs (MutableLog.putLog)', () => {
    const emit = method(ops('I256Const0', 'U256Const5', 'Log2', 'U256Const0', 'U256Const5', 'Log2'));
    const state = stateOf(encodeContract(0, [emit]), [], []);
    const { result } = run([...call(0, [], 0, 0), instr('U256Const1'), instr('Log1')], state);
    assert.deepEqual(result.events, [
      { contractAddress: ADDRESS, eventIndex: 0, fields: [{ type: 'U256', value: '5' }] },
    ]);
  });

  it('pays from the contract assets it loads (2000 as a contract input) and regenerates its output (4500)', () => {
    const pay = method(ops(byteOp('LoadLocal', 0), u256Op(ONE_ALPH), 'TransferAlphFromSelf'), {
      argsLength: 1,
      localsLength: 1,
      useContractAssets: true,
    });
    const state = stateOf(encodeContract(0, [pay]), [], [], 2n * ONE_ALPH);
    const to = instr('AddressConst', { kind: 'address', value: SIGNER_LOCKUP });
    const { script, result } = run(call(0, [to], 1, 0), state);
    assert.equal(result.ok, true, result.error);
    const load = 800 + wordLength(encodeContract(0, [pay]).length - 3);
    assert.equal(result.gasUsed, script.length + 200 + 4 * 2 + 200 + load + 2000 + 3 + 2 + 30 + 2 * 4500);
    assert.deepEqual(
      result.generatedOutputs.map((o) => [o.address, o.attoAlphAmount]),
      [
        [SIGNER_ADDRESS, ONE_ALPH.toString()],
        [ADDRESS, ONE_ALPH.toString()],
      ],
    );
    assert.equal(result.contracts[0]?.attoAlphAmount, ONE_ALPH.toString());
  });

  it('refuses to pay a contract that is not on the call stack (PayToContractAddressNotInCallerTrace)', () => {
    const pay = method(ops(byteOp('LoadLocal', 0), u256Op(ONE_ALPH), 'TransferAlphFromSelf'), {
      argsLength: 1,
      localsLength: 1,
      useContractAssets: true,
    });
    const other = instr('AddressConst', { kind: 'address', value: hexToBytes(`03${'22'.repeat(32)}`) });
    const { result } = run(call(0, [other], 1, 0), stateOf(encodeContract(0, [pay]), [], [], 2n * ONE_ALPH));
    assert.match(result.error ?? '', /^PayToContractAddressNotInCallerTrace: Pay to contract address /);
  });

  it('finds a method by selector, charging 8 per method probed (Contract.scala getMethodBySelector)', () => {
    const selected = (selector: number): Method =>
      method([instr('MethodSelector', { kind: 'selector', value: selector })]);
    const code = encodeContract(0, [selected(0x0a0b0c0d), selected(0x01020304)]);
    const state = stateOf(code, [], []);
    const bySelector = (selector: number): Instr[] => [
      u256Op(0n),
      u256Op(0n),
      bytesOp(hexToBytes(ID)),
      instr('CallExternalBySelector', { kind: 'selector', value: selector }),
    ];
    const second = run(bySelector(0x01020304), state);
    const first = run(bySelector(0x0a0b0c0d), state);
    assert.equal(second.result.gasUsed - first.result.gasUsed, 8, 'two probes against one');
    assert.match(
      run(bySelector(7), state).result.error ?? '',
      /^InvalidMethodSelector: Invalid method selector: 00000007\./,
    );
  });

  it('derives sub-contract ids as the double Blake2b of parent ‖ path with the chain group byte (SubContractIdBase)', () => {
    const sub = method(ops(bytesOp(Uint8Array.of(1, 2)), 'SubContractId'), { returnLength: 1 });
    const code = encodeContract(1, [sub, method(ops(byteOp('CallLocal', 0), byteOp('StoreMutField', 0)))]);
    const state = stateOf(code, [], [{ type: 'ByteVec', value: new Uint8Array() }]);
    const { result } = run(call(1, [], 0, 0), state);
    assert.equal(result.ok, true, result.error);
    const expected = subContractId(ID, '0102', groupOfLockupScript(SIGNER_LOCKUP));
    assert.deepEqual(result.contracts[0]?.mutFields, [{ type: 'ByteVec', value: expected }]);
  });

  it('destroys a contract from a script call: its assets go to the refund address, it logs ContractDestroyed (-2)', () => {
    const destroy = method(ops(byteOp('LoadLocal', 0), 'DestroySelf'), {
      argsLength: 1,
      localsLength: 1,
      useContractAssets: true,
    });
    const to = instr('AddressConst', { kind: 'address', value: SIGNER_LOCKUP });
    const { result } = run(call(0, [to], 1, 0), stateOf(encodeContract(0, [destroy]), [], [], 2n * ONE_ALPH));
    assert.equal(result.ok, true, result.error);
    assert.deepEqual(result.contracts, []);
    assert.deepEqual(
      result.events.map((e) => [e.eventIndex, e.fields[0]?.value]),
      [[-2, ADDRESS]],
    );
    assert.deepEqual(
      result.generatedOutputs.map((o) => [o.address, o.attoAlphAmount]),
      [[SIGNER_ADDRESS, (2n * ONE_ALPH).toString()]],
    );
  });
});

describe('stateful VM: what a debugger reads between two instructions', () => {
  it("shows a contract frame's fields and a payable frame's assets, without copying the world", () => {
    const world = new MemoryWorldState((a) =>
      a === ADDRESS ? stateOf(COUNTER, [], [vU256(5n)]) : undefined,
    );
    const initialBalances = new Balances();
    initialBalances.addAlph(bytesToHex(SIGNER_LOCKUP), 3n * ONE_ALPH);
    const ctx = new StatefulContext({
      blockEnv: { networkId: 4, timeStamp: 1_760_000_000_000n, target: 1n, hardFork: 'Danube' },
      txEnv: {
        txId: new Uint8Array(32),
        prevOutputs: [{ lockupScript: SIGNER_LOCKUP, lockTime: 0n }],
        gasPrice: 1n,
        gasAmount: 1,
        signatures: [],
      },
      gasLimit: 1_000_000,
      worldState: world,
      group: 0,
      fixedOutputsLength: 0,
      initialBalances,
      gasFee: 0n,
    });
    let paused = false;
    const vm = new VirtualMachine(ctx, {
      beforeInstruction: (m) => {
        if (paused || m.frameViews().length !== 2) return 'continue';
        paused = true;
        return 'pause';
      },
    });
    const body = [...call(0, [u256Op(3n)], 1, 1), instr('Pop')];
    vm.start({ code: { methods: [method(body, { usePreapprovedAssets: true })] }, methodIndex: 0, args: [] });
    assert.equal(vm.run().status, 'paused');
    const [script, callee] = vm.frameViews();
    assert.deepEqual(callee?.mutFields, [vU256(5n)]);
    assert.equal(callee?.contractId, ID);
    assert.deepEqual(
      script?.balances?.remaining.map((b) => b.attoAlphAmount),
      [3n * ONE_ALPH],
    );
    assert.equal(vm.run().status, 'completed');
  });
});
