/**
 * Plain data shapes of "Simulate", "Execute" and "Deploy": the argument objects the commands
 * `alephium.simulateContractMethod`, `alephium.executeContractMethod` and `alephium.deployContract`
 * take, and the results they return. Shared by the core workflows, the command glue, the contract panel
 * host and its webview page, so it imports nothing (no vscode, no DOM, no Node).
 */

/** One token amount, as typed by the user (integer atto units of the token, decimal string). */
export interface TokenAmountInput {
  readonly id: string;
  readonly amount: string;
}

/** What the user asks to run: a public method of a watched contract with typed arguments. */
export interface MethodCallRequest {
  /** The contract's base58 address. */
  readonly address: string;
  /** Method name or index in the artifact's `functions`. */
  readonly method: string | number;
  /**
   * Arguments, one per parameter, as the user typed them: integers as decimal strings, `true`/`false`,
   * ByteVec as hex, Address as base58, contract ids as hex, arrays and structs as JSON.
   */
  readonly args?: readonly string[];
  /** ALPH to approve for the call, in ALPH (e.g. "1.5"); empty or absent means none. */
  readonly alph?: string;
  /** Tokens to approve for the call. */
  readonly tokens?: readonly TokenAmountInput[];
  /** Gas to use; absent means the node's estimate. */
  readonly gasAmount?: number;
  /** Execute a view-only method (a getter) as a transaction anyway: a deliberate choice, it costs a fee. */
  readonly viewOnlyAsTransaction?: boolean;
}

export interface ExecuteRequest extends MethodCallRequest {
  /** false skips the confirmation (only where the settings allow it, never on mainnet). */
  readonly confirm?: boolean;
}

export interface NamedValue {
  readonly name: string;
  readonly type: string;
  readonly value: string;
}

export interface EventView {
  readonly contractAddress: string;
  readonly name: string;
  readonly fields: readonly NamedValue[];
  readonly warning?: string;
}

export interface BalanceChangeView {
  readonly address: string;
  /** Signed change in ALPH, e.g. "-1.002" or "+0.5". */
  readonly alph: string;
  readonly tokens: readonly { readonly id: string; readonly name?: string; readonly amount: string }[];
}

/** A dry run: nothing signed, nothing sent, the chain unchanged. */
export interface SimulationView {
  readonly ok: boolean;
  readonly contract: string;
  readonly method: string;
  readonly methodIndex: number;
  /** How the method was invoked: 'artifact script <Name>' or 'generated single-call script'. */
  readonly scriptSource: string;
  /** The failure the node reported, when ok is false. */
  readonly error?: string;
  readonly returns: readonly NamedValue[];
  readonly gasUsed?: number;
  readonly events: readonly EventView[];
  readonly debugMessages: readonly { readonly contractAddress: string; readonly message: string }[];
  readonly balanceChanges: readonly BalanceChangeView[];
}

export type ExecutionStatus = 'cancelled' | 'submitted' | 'confirmed' | 'failed';

export interface ExecutionView {
  readonly status: ExecutionStatus;
  readonly simulation: SimulationView;
  readonly txId?: string;
  /** Gas and fee of the verified transaction. */
  readonly gasAmount?: number;
  readonly feeAlph?: string;
  /** What verification proved, line by line (shown in the confirmation). */
  readonly verified?: readonly string[];
  /** Events the confirmed transaction emitted, decoded. */
  readonly events?: readonly EventView[];
  readonly error?: string;
}

export interface DeployRequest {
  /** Contract artifact by name (as in the workspace's artifacts) or by workspace-relative path. */
  readonly artifact: string;
  /** Initial fields by name, typed as for MethodCallRequest.args; absent ones take the artifact's defaults. */
  readonly fields?: Readonly<Record<string, string>>;
  /** Initial ALPH deposit, in ALPH; absent means the minimal contract deposit. */
  readonly alph?: string;
  /** Tokens to deposit into the new contract. */
  readonly tokens?: readonly TokenAmountInput[];
  /** Issue this many of the contract's own token (integer atto units). */
  readonly issueTokenAmount?: string;
  /** Where issued tokens go (base58); absent means they stay with the contract. */
  readonly issueTokenTo?: string;
  readonly gasAmount?: number;
  readonly confirm?: boolean;
}

export interface DeployView {
  readonly status: ExecutionStatus;
  readonly contract: string;
  readonly address?: string;
  readonly contractId?: string;
  readonly txId?: string;
  readonly verified?: readonly string[];
  /** The deployments file written or updated, workspace-relative. */
  readonly deploymentsFile?: string;
  readonly error?: string;
}
