/**
 * The Alephium VM in TypeScript, milestone 1: the stateless VM.
 *
 * Built:
 * - values (`values.ts`, `numeric.ts`): Bool, I256, U256, ByteVec, Address with the node's exact
 *   256-bit rules, serde and debug text; failures by the node's `ExeFailure` names (`failure.ts`);
 * - decoding (`decode.ts`, `opcodes.ts`) of all 201 instructions with their operands and the fork
 *   that introduced each, of methods (modifiers, args/locals/returns lengths), scripts and contracts;
 * - gas (`gas.ts`): every fixed tier and every size formula, with the pre-Leman ByteVecEq and
 *   ByteVecConcat prices; the fork of a block from its time and network (`forks.ts`);
 * - the interpreter (`machine.ts`, `frame.ts`, `stack.ts`, `instructions/`): one shared operand
 *   stack of 1024 values, 1024 frames, locals, jumps, CallLocal and Return with the node's length
 *   checks, and every stateless instruction (hashes and signatures through @noble, the block and tx
 *   environment through `context.ts`, logs, `debug!`, the Ralph unit-test instructions), charged as
 *   the node charges; a `step()` per instruction, `run()`, `abort()`, and a `beforeInstruction` hook
 *   with a view of every frame, so that a debugger can stop between any two instructions.
 *
 * Not built yet (the stateful milestone): contracts and their fields, CallExternal and
 * CallExternalBySelector, assets and approvals, create/copy-create/destroy/migrate, maps, contract
 * events and the world state, and the transaction layer (script base gas is in `gas.ts`, but nothing
 * charges it yet). Stateful instructions decode, and running one throws `UnsupportedByVmError`; so
 * do WebAuthn signatures (`VerifySignature` with key type 3, `GetSegregatedWebAuthnSignature`).
 *
 * Where the texts differ from the node's (names, gas and outcomes do not): a failure that quotes a
 * ByteVec or an Address prints it in hex or base58 where the node prints pekko's `ByteString(1, 2)` or
 * the lockup script's case class; `ArithmeticError` and `InactiveInstr` name the instruction where the
 * node prints the JVM identity of its non-case objects (`I256Add$@1b2c3d`).
 *
 * Where the facts come from: alephium/alephium at commit 63bcf6998508025f9538f3377629fe9e66df6c53,
 * `protocol/src/main/scala/org/alephium/protocol/vm/` (`Instr.scala`, `Frame.scala`, `VM.scala`,
 * `Stack.scala`, `VarVector.scala`, `GasSchedule.scala`, `CostStrategy.scala`, `ExeFailure.scala`,
 * `Val.scala`, `Context.scala`, `Contract.scala`), `model/HardFork.scala`, `config/NetworkConfig.scala`
 * with `flow/src/main/resources/network_*.conf.tmpl`, and
 * `util/src/main/scala/org/alephium/util/{U256,I256}.scala`; the tests in `test/unit/vm/` cite the
 * node's `InstrSpec.scala` lines they transcribe. Read, not copied.
 */
export { ExecutionContext, MAINNET_NETWORK_ID, TESTNET_NETWORK_ID } from './context';
export type { BlockEnv, DebugMessage, ExecutionContextOptions, LogEntry, TxEnv, TxInput } from './context';
export { decodeContract, decodeMethod, decodeScript, isValidMethod, readInstr, readMethod } from './decode';
export type { CodeContext, Contract, Instr, Method, Operand } from './decode';
export { FAILURE_NAMES, VmFailure } from './failure';
export type { FailureCodes, FailureName } from './failure';
export {
  DEVNET_FORKS,
  HARD_FORKS,
  MAINNET_FORKS,
  TESTNET_FORKS,
  forkActivationsOf,
  hardForkAt,
  isForkEnabled,
} from './forks';
export type { ForkActivations } from './forks';
export type { HardFork } from './forks';
export type { CodeObject } from './frame';
export * from './gas';
export { UnsupportedByVmError, VirtualMachine, isExecutable } from './machine';
export type { BalanceView, EntryCall, FrameView, Outcome, VmOptions, VmStatus } from './machine';
export { OPCODES, opcodeByCode, opcodeByName } from './opcodes';
export type { OpcodeInfo, OperandKind } from './opcodes';
export { FRAME_STACK_MAX_SIZE, OP_STACK_MAX_SIZE } from './stack';
export * from './values';
export { I256_MAX, I256_MIN, U256_MAX } from './numeric';
export { emulateTxScript } from './txScript';
export { testContract, testCodeOf } from './testContract';
export type { TestContractRequest, TestContractResult } from './testContract';
export type { EmulateTxScriptRequest, EmulateTxScriptResult, InputAsset } from './txScript';
export type { EmulatedContract } from './txScriptResult';
export { valFromNode, valToNode } from './nodeJson';
export type { NodeContractState, NodeToken, NodeVal } from './nodeJson';
export { MemoryWorldState, recordFromNode } from './worldState';
export type { ContractAsset, ContractRecord, WorldState } from './worldState';
export { StatefulContext } from './statefulContext';
export type { GeneratedOutput, StatefulContextOptions } from './statefulContext';
export { ContractObject } from './contractObject';
export { Balances, BalanceState, BalancesPerLockup } from './balances';
