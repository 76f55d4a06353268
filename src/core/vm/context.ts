/**
 * What an execution sees of the world besides its code: the block and transaction environment
 * (`BlockEnv`, `TxEnv` in `Context.scala`), the gas meter (`CostStrategy.scala`) and where logs go.
 * Everything is an interface or a plain record so that a replay, a dry run or a test builds its own;
 * the stateful context (world state, balances, contract pool, generated outputs) will extend
 * `ExecutionContext` in the next milestone without changing what stateless instructions use.
 */
import type { HardFork } from './forks';
import { fail, type VmFailure } from './failure';
import type { Val } from './values';

/** `NetworkId.AlephiumMainNet` and `AlephiumTestNet`: DEBUG and the dev instructions refuse them. */
export const MAINNET_NETWORK_ID = 0;
export const TESTNET_NETWORK_ID = 1;

export interface BlockEnv {
  readonly networkId: number;
  /** Milliseconds since the epoch (`BlockTimeStamp`, lock-time checks). */
  readonly timeStamp: bigint;
  /** The block's difficulty target as an integer (`BlockTarget`). */
  readonly target: bigint;
  /** Absent in a mempool dry run, where `BlockHash` fails with `NoBlockHashAvailable`. */
  readonly blockHash?: Uint8Array;
  readonly hardFork: HardFork;
}

export interface TxInput {
  /** The spent output's lockup script (what `txInputAddress!` returns). */
  readonly lockupScript: Uint8Array;
  /** The spent output's lock time in ms; zero means the UTXO is not persisted yet. */
  readonly lockTime: bigint;
}

export interface TxEnv {
  readonly txId: Uint8Array;
  /** The inputs' previous outputs, in input order. */
  readonly prevOutputs: readonly TxInput[];
  readonly gasPrice: bigint;
  readonly gasAmount: number;
  /**
   * The tx's script signatures (64 bytes each) in tx order. The node wraps them in
   * `Stack.popOnly(tx.scriptSignatures)` (Context.scala line 941), so the script consumes the last one
   * first.
   */
  readonly signatures: readonly Uint8Array[];
}

/** A log the node would write (`writeLog`); the stateless context of the node drops them. */
export interface LogEntry {
  /** Hex contract id; absent when written from a TxScript. */
  readonly contractId?: string;
  readonly fields: readonly Val[];
}

/** A `debug!` message as the node prints it, with the contract that emitted it (absent: a script). */
export interface DebugMessage {
  readonly contractId?: string;
  readonly message: string;
}

/** State for Ralph unit tests (`TestContext`): the frame under test and the first failure seen. */
export interface TestEnv {
  readonly sourcePosIndex: number;
  readonly expectedErrorCode?: number;
  /** The frame that started the test (compared by identity, as the node does). */
  readonly testFrame: object;
  failure?: VmFailure;
}

export interface ExecutionContextOptions {
  readonly blockEnv: BlockEnv;
  readonly txEnv: TxEnv;
  readonly gasLimit: number;
  /** Random source for the dev instructions `randomU256!` and friends (default: crypto random). */
  readonly randomBytes?: (length: number) => Uint8Array;
}

/**
 * The gas meter and the per-run state every instruction may touch. Gas is a plain number: the node's
 * `GasBox` is an Int, and a transaction holds at most 5,000,000 gas.
 */
export class ExecutionContext {
  readonly blockEnv: BlockEnv;
  readonly txEnv: TxEnv;
  readonly gasLimit: number;
  gasRemaining: number;
  readonly logs: LogEntry[] = [];
  readonly debugMessages: DebugMessage[] = [];
  testEnv: TestEnv | undefined;
  private signaturesLeft: number;
  readonly randomBytes: (length: number) => Uint8Array;

  constructor(options: ExecutionContextOptions) {
    this.blockEnv = options.blockEnv;
    this.txEnv = options.txEnv;
    this.gasLimit = options.gasLimit;
    this.gasRemaining = options.gasLimit;
    this.signaturesLeft = options.txEnv.signatures.length;
    this.randomBytes = options.randomBytes ?? ((n) => crypto.getRandomValues(new Uint8Array(n)));
  }

  get hardFork(): HardFork {
    return this.blockEnv.hardFork;
  }

  get gasUsed(): number {
    return this.gasLimit - this.gasRemaining;
  }

  /** `GasBox.use`: fails with `OutOfGas` when less than `amount` remains, and then charges nothing. */
  chargeGas(amount: number): void {
    if (this.gasRemaining < amount) fail('OutOfGas');
    this.gasRemaining -= amount;
  }

  /** The next script signature (`signatures.pop()`, from the end); none left is a `StackUnderflow`. */
  popSignature(): Uint8Array {
    const signature = this.txEnv.signatures[this.signaturesLeft - 1];
    if (signature === undefined) fail('StackUnderflow');
    this.signaturesLeft -= 1;
    return signature;
  }

  /** Signatures not consumed yet (the tx layer fails with `TooManySignatures` when any remain). */
  get unusedSignatures(): number {
    return this.signaturesLeft;
  }

  writeLog(contractId: string | undefined, fields: readonly Val[]): void {
    this.logs.push(contractId === undefined ? { fields } : { contractId, fields });
  }
}
