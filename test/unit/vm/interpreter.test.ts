/**
 * The interpreter loop against alephium/alephium at 63bcf6998508025f9538f3377629fe9e66df6c53:
 * protocol/src/main/scala/org/alephium/protocol/vm/Frame.scala (`execute` lines 189-213: the implicit
 * return at `pc == pcMax`; `offsetPC` lines 54-62; `callLocal` lines 175-181; `Frame.build` lines
 * 833-874: arguments, locals filled with False, the Leman `remainingStack`), VM.scala (`startFrame`
 * lines 90-110, `noReturnTo` line 164), Stack.scala (`push`, `pop(n)`, `reserveForVars`),
 * vm/package.scala (`opStackMaxSize` = `frameStackMaxSize` = 1024) and GasSchedule.scala
 * (`callGas` = 200; the tiers priced in gas.test.ts).
 */
import assert from 'node:assert/strict';
import { VirtualMachine, vBool, vU256 } from '../../../src/core/vm';
import {
  byteOp,
  context,
  expectCompleted,
  expectFailure,
  jumpOp,
  method,
  ops,
  runMethods,
  SUM,
  runOps,
} from './assemble';

describe('VM interpreter', () => {
  it('sums 1..10 in a loop to 55 for exactly 30 + 48 * 10 = 510 gas', () => {
    const { returns, gasUsed } = expectCompleted(runMethods([SUM], { args: [vU256(10n)] }));
    assert.deepEqual(returns, [vU256(55n)]);
    assert.equal(gasUsed, 510);
  });

  it('sums 1..0 to 0 for 30 gas (the loop exits at once)', () => {
    const { returns, gasUsed } = expectCompleted(runMethods([SUM], { args: [vU256(0n)] }));
    assert.deepEqual(returns, [vU256(0n)]);
    assert.equal(gasUsed, 30);
  });

  it('completes with exactly 510 gas and fails with OutOfGas at 509, charging nothing for the failed step', () => {
    expectCompleted(runMethods([SUM], { args: [vU256(10n)], gasLimit: 510 }));
    const failed = expectFailure(runMethods([SUM], { args: [vU256(10n)], gasLimit: 509 }));
    assert.equal(failed.failure, 'OutOfGas');
    // The last LoadLocal (3 gas) is the step that does not fit: 507 were charged before it.
    assert.equal(failed.gasUsed, 507);
  });

  it('fails with StackOverflow when the 1025th value is pushed (opStackMaxSize = 1024)', () => {
    const vm = new VirtualMachine(context());
    const pushForever = method(ops('U256Const0', 'U256Const0', jumpOp('Jump', -2)));
    vm.start({ code: { methods: [pushForever] }, methodIndex: 0, args: [] });
    const outcome = vm.run();
    assert.equal(expectFailure(outcome).failure, 'StackOverflow');
    assert.equal(vm.frameViews()[0]?.opStack.length, 1024);
  });

  it('fails with StackOverflow when the 1025th frame is pushed (frameStackMaxSize = 1024)', () => {
    const vm = new VirtualMachine(context());
    vm.start({ code: { methods: [method(ops(byteOp('CallLocal', 0)))] }, methodIndex: 0, args: [] });
    assert.equal(expectFailure(vm.run()).failure, 'StackOverflow');
    assert.equal(vm.frameViews().length, 1024);
    assert.equal(vm.gasUsed, 1024 * 200, 'each CallLocal charges callGas before the frame is built');
  });

  it('shares the 1024 operand slots between frames: two locals each overflow at the 513th frame', () => {
    const vm = new VirtualMachine(context());
    const recurse = method(ops(byteOp('CallLocal', 0)), { localsLength: 2 });
    vm.start({ code: { methods: [recurse] }, methodIndex: 0, args: [] });
    assert.equal(expectFailure(vm.run()).failure, 'StackOverflow');
    assert.equal(vm.frameViews().length, 512);
  });

  it('calls a local method with its arguments and takes back exactly returnLength values', () => {
    const add = method(
      ops(byteOp('LoadLocal', 0), byteOp('LoadLocal', 1), 'U256Add', 'U256Const0', 'Swap', 'Return'),
      {
        isPublic: false,
        argsLength: 2,
        localsLength: 2,
        returnLength: 1,
      },
    );
    const main = method(ops('U256Const3', 'U256Const4', byteOp('CallLocal', 1)), { returnLength: 1 });
    const { returns, gasUsed } = expectCompleted(runMethods([main, add]));
    assert.deepEqual(returns, [vU256(7n)], 'the 0 left under the result is dropped');
    assert.equal(gasUsed, 2 + 2 + 200 + 3 + 3 + 3 + 2 + 2 + 0);
  });

  it('fails with StackUnderflow when the caller has fewer values than the callee takes', () => {
    const takesTwo = method([], { argsLength: 2, localsLength: 2 });
    const main = method(ops('U256Const3', byteOp('CallLocal', 1)));
    assert.equal(expectFailure(runMethods([main, takesTwo])).failure, 'StackUnderflow');
  });

  it('fails with StackUnderflow when a method returns fewer values than returnLength', () => {
    assert.equal(expectFailure(runOps(ops('U256Const1'), 2)).failure, 'StackUnderflow');
  });

  it('fails with InvalidMethodIndex for a CallLocal past the last method', () => {
    const failed = expectFailure(runOps(ops(byteOp('CallLocal', 3)), 0));
    assert.equal(failed.failure, 'InvalidMethodIndex');
    assert.equal(failed.message, 'Invalid method index 3, method length: 1');
  });

  it('checks the entry: public, the right argument count, and no returns unless they are collected', () => {
    const vm = new VirtualMachine(context());
    const privateEntry = method([], { isPublic: false });
    assert.equal(
      expectFailure(vm.start({ code: { methods: [privateEntry] }, methodIndex: 0, args: [] })).failure,
      'ExternalPrivateMethodCall',
    );

    const argCount = expectFailure(runMethods([SUM], { args: [] }));
    assert.deepEqual(
      [argCount.failure, argCount.message],
      ['InvalidMethodArgLength', 'Invalid number of method arguments, got: 0, expect: 1'],
    );

    const main = new VirtualMachine(context());
    main.start({
      code: { methods: [method(ops('U256Const1'), { returnLength: 1 })] },
      methodIndex: 0,
      args: [],
    });
    assert.equal(expectFailure(main.run()).failure, 'NonEmptyReturnForMainFunction');
  });

  it('refuses a payable entry where no assets can be had (ExpectNonPayableMethod): an asset script, a stateless context', () => {
    // VM.scala StatelessVM.startPayableFrame and StatelessContext.getInitialBalances both fail so.
    const payable = method([], { usePreapprovedAssets: true });
    const asset = new VirtualMachine(context());
    const refused = asset.start({
      code: { methods: [payable] },
      methodIndex: 0,
      args: [],
      assetScript: true,
    });
    assert.equal(expectFailure(refused).failure, 'ExpectNonPayableMethod');
    const stateless = new VirtualMachine(context());
    const alsoRefused = stateless.start({ code: { methods: [payable] }, methodIndex: 0, args: [] });
    assert.equal(expectFailure(alsoRefused).failure, 'ExpectNonPayableMethod');
  });

  it('reads a field of a script frame as an empty field vector (Contract.scala ScriptObj: no fields)', () => {
    const failed = expectFailure(runMethods([method(ops('U256Const1', byteOp('LoadMutField', 0)))]));
    assert.deepEqual(
      [failed.failure, failed.message],
      ['InvalidMutFieldIndex', 'Invalid mutable field index: 0, mutable fields length is: 0'],
    );
  });

  it('fills the locals after the arguments with False, whatever their use', () => {
    const readLocal = method(ops(byteOp('LoadLocal', 1)), { localsLength: 2, returnLength: 1 });
    assert.deepEqual(expectCompleted(runMethods([readLocal])).returns, [vBool(false)]);
  });

  it('fails with InvalidVarIndex in the node words for a local out of range', () => {
    const failed = expectFailure(runMethods([method(ops(byteOp('LoadLocal', 5)), { localsLength: 2 })]));
    assert.deepEqual(
      [failed.failure, failed.message],
      ['InvalidVarIndex', 'Invalid var index: 5, max index is: 1'],
    );
  });

  it('jumps relative to the jump, then advances: a jump to the last instruction ends at the implicit return', () => {
    const { returns } = expectCompleted(runOps(ops(jumpOp('Jump', 1), 'U256Const1', 'U256Const2'), 1));
    assert.deepEqual(returns, [vU256(2n)]);
    assert.equal(
      expectFailure(runOps(ops(jumpOp('Jump', 2), 'U256Const1'), 0)).failure,
      'InvalidInstrOffset',
    );
    assert.equal(
      expectFailure(runOps(ops('U256Const1', jumpOp('Jump', -2)), 0)).failure,
      'InvalidInstrOffset',
    );
  });

  it('lets a callee without locals pop its caller values before Leman, and not since', () => {
    const returnsOne = method([], { isPublic: false, returnLength: 1 });
    const main = method(ops('U256Const5', byteOp('CallLocal', 1)), { returnLength: 1 });
    assert.deepEqual(expectCompleted(runMethods([main, returnsOne], { fork: 'Genesis' })).returns, [
      vU256(5n),
    ]);
    assert.equal(expectFailure(runMethods([main, returnsOne], { fork: 'Leman' })).failure, 'StackUnderflow');
  });

  it('fails with InactiveInstr before the fork of an instruction, charging nothing for it', () => {
    const failed = expectFailure(runOps(ops('U256Const1', 'Dup'), 2, { fork: 'Genesis' }));
    assert.deepEqual([failed.failure, failed.gasUsed], ['InactiveInstr', 2]);
    expectCompleted(runOps(ops('U256Const1', 'Dup'), 2, { fork: 'Leman' }));
  });
});

describe('VM stepping for a debugger', () => {
  it('runs one instruction per step and shows the frames, pc, stack, locals and gas between steps', () => {
    const vm = new VirtualMachine(context());
    vm.start({ code: { methods: [SUM] }, methodIndex: 0, args: [vU256(2n)], collectReturns: true });
    const first = vm.frameViews()[0];
    assert.equal(first?.pc, 0);
    assert.equal(first?.nextInstr?.name, 'U256Const0');
    assert.deepEqual(first?.locals, [vU256(2n), vBool(false), vBool(false)]);
    vm.step();
    vm.step();
    const third = vm.frameViews()[0];
    assert.equal(third?.pc, 2);
    // The position a hook reads at every step says the same as the frame views, without copying them.
    assert.deepEqual(vm.position(), { depth: 1, methodIndex: third?.methodIndex, pc: 2 });
    assert.deepEqual(third?.opStack, []);
    assert.deepEqual(third?.locals, [vU256(2n), vBool(false), vU256(0n)]);
    assert.equal(vm.gasUsed, 5);
    let steps = 2;
    while (vm.status === 'running') {
      vm.step();
      steps += 1;
    }
    // 4 set-up steps, 13 per iteration for 2 iterations, 4 for the exit test, LoadLocal and Return.
    assert.equal(steps, 4 + 13 * 2 + 4 + 2);
    assert.equal(vm.gasUsed, 30 + 48 * 2);
  });

  it('pauses run() where the beforeInstruction hook asks, without taking that step, and resumes from there', () => {
    const seen: number[] = [];
    const vm = new VirtualMachine(context(), {
      beforeInstruction: (machine) => {
        const pc = machine.frameViews().at(-1)?.pc ?? -1;
        seen.push(pc);
        return pc === 10 && !seen.slice(0, -1).includes(10) ? 'pause' : 'continue';
      },
    });
    vm.start({ code: { methods: [SUM] }, methodIndex: 0, args: [vU256(3n)], collectReturns: true });
    const paused = vm.run();
    assert.equal(paused.status, 'paused');
    assert.equal(vm.frameViews()[0]?.nextInstr?.name, 'U256Add');
    assert.deepEqual(vm.frameViews()[0]?.opStack, [vU256(0n), vU256(1n)]);
    const done = expectCompleted(vm.run());
    assert.deepEqual(done.returns, [vU256(6n)]);
    assert.equal(done.gasUsed, 30 + 48 * 3);
    // Three iterations reach pc 10; the resumed step is not offered to the hook a second time.
    assert.equal(seen.filter((pc) => pc === 10).length, 3);
  });

  it('aborts a paused run: no further step runs and the frames stay readable', () => {
    const vm = new VirtualMachine(context(), { beforeInstruction: () => 'pause' });
    vm.start({ code: { methods: [SUM] }, methodIndex: 0, args: [vU256(3n)], collectReturns: true });
    assert.equal(vm.run().status, 'paused');
    assert.equal(vm.abort().status, 'aborted');
    assert.equal(vm.step().status, 'aborted');
    assert.equal(vm.gasUsed, 0);
    assert.equal(vm.frameViews()[0]?.nextInstr?.name, 'U256Const0');
  });
});
