/**
 * The Alephium VM in TypeScript: the stateless VM (milestone 1) and the stateful VM (milestone 2).
 *
 * Built:
 * - values (`values.ts`, `numeric.ts`): Bool, I256, U256, ByteVec, Address with the node's exact
 *   256-bit rules, serde and debug text; failures by the node's `ExeFailure` names (`failure.ts`);
 * - decoding (`decode.ts`, `opcodes.ts`) of all 201 instructions with their operands and the fork
 *   that introduced each, of methods (modifiers, args/locals/returns lengths), scripts and contracts;
 * - gas (`gas.ts`): every fixed tier and every size formula, with the pre-Leman ByteVecEq and
 *   ByteVecConcat prices; the fork of a block from its time and network (`forks.ts`);
 * - the interpreter (`machine.ts`, `frame.ts`, `stack.ts`, `instructions/`): one shared operand
 *   stack of 1024 values, 1024 frames, locals, jumps, CallLocal, CallExternal,
 *   CallExternalBySelector and Return with the node's checks, and every one of the 201 instructions,
 *   charged as the node charges; a `step()` per instruction, `run()`, `abort()`, and a
 *   `beforeInstruction` hook with a view of every frame (method, pc, stack, locals, fields, assets);
 * - the stateful VM: a world state behind an interface, in memory, reading contracts lazily in the
 *   node's JSON shape (`worldState.ts`, `nodeJson.ts`); loaded contracts with their fields, code
 *   hash, initial state hash and selector cache (`contractObject.ts`); the contract pool, contract
 *   assets in use or flushed, contract inputs, and create / copy-create (every variant, with and
 *   without tokens, sub-contracts, map entries), destroy and migrate (`statefulContext.ts`,
 *   `instructions/lifecycle.ts`, `instructions/mapEntry.ts`); approvals flowing into payable callees
 *   and merging back (`balances.ts`, `calls.ts`), transfers, burns, locked outputs and `payGasFee!`
 *   (`instructions/assets.ts`); the end of a run: gas reimbursement, Danube's dust and deposit
 *   auto-fund, the caller's change and the generated outputs (`settlement.ts`);
 * - `emulateTxScript` (`txScript.ts`): an unsigned tx's script run as the node's gas estimation runs
 *   it (`TxScriptEmulator`: script bytes + 200, mocked signature checks, the maximal gas per tx),
 *   with the contracts, events, debug messages and generated outputs it leaves; and `testContract`
 *   (`testContract.ts`), the node's `test-contract` endpoint.
 *
 * Not built yet: WebAuthn signatures (`VerifySignature` with key type 3 and
 * `GetSegregatedWebAuthnSignature` throw `UnsupportedByVmError`, except mocked in an emulation); the
 * transaction layer's validation (input unlocking and its gas, fixed-output checks, the
 * `TooManySignatures` and contract-deposit checks of a real, non-emulated run); the pre-Rhone
 * contract pool limits are kept but pre-Leman asset rules only in part (`switchBackFramePreLeman`,
 * `toTxOutputDeprecated`); the node's log config (every contract's logs are kept); a block's past
 * states (a replay gives its own `contractState` reader).
 *
 * Where the texts differ from the node's (names, gas and outcomes do not): a failure that quotes a
 * ByteVec or an Address prints it in hex or base58 where the node prints pekko's `ByteString(1, 2)` or
 * the lockup script's case class; `ArithmeticError` and `InactiveInstr` name the instruction where the
 * node prints the JVM identity of its non-case objects (`I256Add$@1b2c3d`).
 *
 * Where the facts come from: alephium/alephium at commit 63bcf6998508025f9538f3377629fe9e66df6c53,
 * `protocol/src/main/scala/org/alephium/protocol/vm/` (`Instr.scala`, `Frame.scala`, `VM.scala`,
 * `Context.scala`, `ContractPool.scala`, `Contract.scala`, `MutBalance*.scala`, `Stack.scala`,
 * `VarVector.scala`, `GasSchedule.scala`, `CostStrategy.scala`, `ExeFailure.scala`, `Val.scala`,
 * `ContractRunner.scala`), `model/` (`HardFork.scala`, `ContractId.scala`, `TxOutput.scala`,
 * `package.scala`), `flow/gasestimation/TxScriptEmulator.scala`, `app/ServerUtils.scala`
 * (`runTestContract`), `config/NetworkConfig.scala` with `flow/src/main/resources/network_*.conf.tmpl`,
 * and `util/src/main/scala/org/alephium/util/{U256,I256}.scala`; the tests in `test/unit/vm/` cite
 * the node's lines they transcribe. Read, not copied.
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
export { DEBUG_EVENT_INDEX } from './instructions/environment';
export { startTestContract, testContract, testCodeOf } from './testContract';
export type { StartedTestContract } from './testContract';
export { runTxScript, startTxScript } from './txRun';
export type { StartedTxRun, TxRunRequest, TxRunResult } from './txRun';
export type { TestContractRequest, TestContractResult } from './testContract';
export type { EmulateTxScriptRequest, EmulateTxScriptResult, InputAsset } from './txScript';
export type { EmulatedContract } from './txScriptResult';
export { valFromNode, valToNode } from './nodeJson';
export type { NodeContractState, NodeToken, NodeVal } from './nodeJson';
export { MemoryWorldState, recordFromNode } from './worldState';
export type { ContractAsset, ContractRecord, WorldState } from './worldState';
export { StatefulContext } from './statefulContext';
export type { GeneratedOutput, StatefulContextOptions } from './statefulContext';
export { ContractObject, initialStateHashOf } from './contractObject';
export { Balances, BalanceState, BalancesPerLockup } from './balances';
