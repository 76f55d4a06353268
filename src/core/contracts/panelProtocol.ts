/**
 * The contract panel webview's model and messages, shared by the host (src/contracts/panel/host.ts), the
 * page (src/contracts/panel/page.ts) and the core model that builds them (panelModel.ts). Plain data only:
 * the page renders every string as text. Its only import is the type-only actionViews.ts (a leaf that
 * imports nothing), erased at build time, so this file stays one that Node and the DOM page can both use.
 */
import type { EventView, NamedValue, BalanceChangeView } from './actionViews';

export const CONTRACT_PANEL_VIEW_TYPE = 'alephium.contractPanel';

/** Bounds the host holds every message from the page to (the page is not trusted to respect them). */
export const PANEL_LIMITS = {
  /** Characters of one typed argument (a JSON array or struct can be long, not unbounded). */
  argChars: 4_096,
  /** Characters of the ALPH, gas and token amount boxes. */
  amountChars: 100,
  /** Token rows per call. */
  tokens: 16,
  /** Arguments per method (Ralph methods take far fewer; a larger array is not from our form). */
  args: 64,
  /** Characters of the rendered text the page reports back (for tests). */
  renderedChars: 200_000,
} as const;

export interface ParamView {
  readonly name: string;
  readonly type: string;
  /** Placeholder text: what to type for this type. */
  readonly hint: string;
}

export interface MethodView {
  /** methodIndex in the artifact's `functions` (and in the bytecode). */
  readonly index: number;
  readonly name: string;
  /** `incrementBy(step: U256) → ()`. */
  readonly signature: string;
  readonly params: readonly ParamView[];
  readonly returnTypes: readonly string[];
  /** The method takes approved assets (`@using(preapprovedAssets = true)`), read from the bytecode. */
  readonly payable: boolean;
  /**
   * A getter (no asset use, no state change, read from the bytecode): offered as Simulate; Execute needs
   * the deliberate "Execute anyway" that says what it costs.
   */
  readonly viewOnly: boolean;
  /** For a getter: the words of its "Execute anyway" button, with the fee it costs. */
  readonly executeAnyway?: string;
}

export interface ContractPanelModel {
  readonly address: string;
  /** Artifact name, or the address when no artifact describes the contract. */
  readonly title: string;
  readonly artifactName?: string;
  readonly methods: readonly MethodView[];
  /** Private methods of the artifact (not callable from a transaction, so not listed). */
  readonly privateMethods: readonly string[];
  /** Facts worth a line of their own (drift, no artifact, bytecode that could not be read). */
  readonly notes: readonly string[];
}

/** A method's form as the page submits it: everything is text, as typed. */
export interface MethodFormInput {
  readonly method: number;
  readonly args: readonly string[];
  readonly alph: string;
  readonly tokens: readonly { readonly id: string; readonly amount: string }[];
  readonly gas: string;
  /** Set by the page's "Execute anyway" of a getter: the person chose to pay for a transaction. */
  readonly viewOnlyAsTransaction?: boolean;
}

/**
 * Field errors by field key: `arg:<i>`, `alph`, `token:<i>`, `gas`, or `form` for what belongs to no one
 * field. The page shows each under its input.
 */
export type FieldErrors = Readonly<Record<string, string>>;

export interface ResultFact {
  readonly label: string;
  readonly value: string;
}

/** What a run of Simulate or Execute shows under its method, mapped in the core. */
export interface MethodResultView {
  readonly kind: 'simulation' | 'execution';
  /** 'ok' and 'confirmed' read as success, 'pending' while a tx is not final, 'cancelled', 'failed'. */
  readonly outcome: 'ok' | 'pending' | 'confirmed' | 'cancelled' | 'failed';
  /** One line for people: "Simulation succeeded", "Transaction confirmed", "Failed: …". */
  readonly headline: string;
  readonly facts: readonly ResultFact[];
  readonly returns: readonly NamedValue[];
  readonly events: readonly EventView[];
  readonly debugMessages: readonly { readonly contractAddress: string; readonly message: string }[];
  readonly balanceChanges: readonly BalanceChangeView[];
  /** What verification proved before signing (execution only). */
  readonly verified: readonly string[];
  readonly txId?: string;
  readonly error?: string;
}

/** What a method's buttons do. */
export type PanelAction = 'simulate' | 'execute' | 'debug';

export type HostToWebviewMessage =
  | { readonly type: 'model'; readonly model: ContractPanelModel }
  | { readonly type: 'busy'; readonly method: number; readonly action: PanelAction }
  /** The debugger took the method over (or could not): the buttons are free again, with a line saying so. */
  | { readonly type: 'debugged'; readonly method: number; readonly note: string }
  | { readonly type: 'fieldErrors'; readonly method: number; readonly errors: FieldErrors }
  | { readonly type: 'result'; readonly method: number; readonly result: MethodResultView }
  | { readonly type: 'error'; readonly message: string };

export type WebviewToHostMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'simulate'; readonly form: MethodFormInput }
  | { readonly type: 'execute'; readonly form: MethodFormInput }
  | { readonly type: 'debug'; readonly form: MethodFormInput }
  | { readonly type: 'rendered'; readonly text: string };

/** What the page keeps with getState/setState; the serializer revives a panel from it. */
export interface ContractPanelState {
  readonly address: string;
}
