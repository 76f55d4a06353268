/**
 * The contract panel's logic without VS Code or the DOM: the list of callable methods of an artifact
 * (with their forms), the host-side check of every message the page sends, the check of a submitted
 * form into a MethodCallRequest (the same argument rules as "Call Contract Method"), and the mapping of
 * Simulate and Execute results into what the page shows under the method.
 */
import type { ArtifactRegistry, ContractArtifact, DriftCheck } from '../artifacts';
import { attoToAlph } from '../protocol';
import type { MethodHeader } from '../bytecode/instructions';
import { contractMethodHeaders } from '../bytecode/contractMethods';
import type { ExecutionView, MethodCallRequest, SimulationView, TokenAmountInput } from './actionViews';
import {
  PANEL_LIMITS,
  type ContractPanelModel,
  type FieldErrors,
  type MethodFormInput,
  type MethodResultView,
  type MethodView,
  type ResultFact,
  type WebviewToHostMessage,
} from './panelProtocol';
import { argumentHint, argumentProblem, functionSignature } from './call';
import {
  approvedAlphAtto,
  approvedAlphProblem,
  unusedAssetsProblem,
  viewOnlyExecuteWords,
} from './inputRules';
import { methodTraits } from './actions/methodTraits';
import { parseGasAmount, parseTokens } from '../transactions/transferInput';

export interface PanelModelInput {
  readonly address: string;
  readonly artifact?: ContractArtifact;
  readonly drift?: DriftCheck;
}

/**
 * The panel's model: public methods with a form each. Without an artifact there is nothing to call by
 * name, and the notes say how to fix that. When the bytecode cannot be read (a hand-edited artifact)
 * every method is listed, since hiding a callable one is worse than listing one the node will refuse.
 */
export function buildPanelModel(input: PanelModelInput): ContractPanelModel {
  const { address, artifact, drift } = input;
  if (!artifact) {
    return {
      address,
      title: address,
      methods: [],
      privateMethods: [],
      notes: [
        `No artifact in the workspace describes ${address}: add its .ral.json (or a deployments file that names it) to call its methods.`,
      ],
    };
  }
  const notes: string[] = [];
  if (drift?.status === 'drift') notes.push(`Code drift: ${drift.message}`);
  let headers: MethodHeader[] | undefined;
  try {
    headers = contractMethodHeaders(artifact.bytecode);
    if (headers.length !== artifact.functions.length) {
      notes.push(
        `The bytecode has ${headers.length} methods but the artifact lists ${artifact.functions.length}; all are shown.`,
      );
      headers = undefined;
    }
  } catch (e) {
    notes.push(
      `Which methods are public could not be read from the bytecode (${(e as Error).message}); all are shown.`,
    );
  }
  const traits = headers ? methodTraits(artifact.bytecode) : undefined;
  const methods: MethodView[] = [];
  const privateMethods: string[] = [];
  artifact.functions.forEach((fn, index) => {
    const header = headers?.[index];
    if (header && !header.isPublic) {
      privateMethods.push(fn.name);
      return;
    }
    methods.push({
      index,
      name: fn.name,
      signature: functionSignature(fn),
      params: fn.paramTypes.map((type, i) => ({
        name: fn.paramNames[i] ?? `#${i}`,
        type,
        hint: argumentHint(type),
      })),
      returnTypes: [...fn.returnTypes],
      // Unknown (unreadable bytecode) offers the asset boxes rather than refusing what might be right.
      payable: header ? header.usePreapprovedAssets : true,
      viewOnly: traits?.[index]?.viewOnly === true,
      ...(traits?.[index]?.viewOnly === true
        ? { executeAnyway: viewOnlyExecuteWords(fn.name).executeAnyway }
        : {}),
    });
  });
  if (methods.length === 0) notes.push(`${artifact.name} has no public method.`);
  return {
    address,
    title: artifact.name,
    artifactName: artifact.name,
    methods,
    privateMethods,
    notes,
  };
}

// ---- messages from the page ----------------------------------------------------------------------

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function boundedString(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value.length <= max ? value : undefined;
}

function parseForm(value: unknown): MethodFormInput | undefined {
  const v = record(value);
  if (!v) return undefined;
  const method = v.method;
  if (typeof method !== 'number' || !Number.isInteger(method) || method < 0 || method > 255) return undefined;
  if (!Array.isArray(v.args) || v.args.length > PANEL_LIMITS.args) return undefined;
  const args: string[] = [];
  for (const a of v.args) {
    const s = boundedString(a, PANEL_LIMITS.argChars);
    if (s === undefined) return undefined;
    args.push(s);
  }
  const alph = boundedString(v.alph ?? '', PANEL_LIMITS.amountChars);
  const gas = boundedString(v.gas ?? '', PANEL_LIMITS.amountChars);
  if (alph === undefined || gas === undefined) return undefined;
  const rawTokens = v.tokens ?? [];
  if (!Array.isArray(rawTokens) || rawTokens.length > PANEL_LIMITS.tokens) return undefined;
  const tokens: { id: string; amount: string }[] = [];
  for (const t of rawTokens) {
    const row = record(t);
    const id = boundedString(row?.id, PANEL_LIMITS.amountChars);
    const amount = boundedString(row?.amount, PANEL_LIMITS.amountChars);
    if (id === undefined || amount === undefined) return undefined;
    tokens.push({ id, amount });
  }
  if (v.viewOnlyAsTransaction !== undefined && typeof v.viewOnlyAsTransaction !== 'boolean') return undefined;
  return {
    method,
    args,
    alph,
    tokens,
    gas,
    ...(v.viewOnlyAsTransaction === true ? { viewOnlyAsTransaction: true } : {}),
  };
}

/**
 * The page is not trusted: a message becomes a typed one only when every field has its type and stays
 * within PANEL_LIMITS. Anything else (unknown types, extra nesting, huge strings) is undefined, and the
 * host ignores it.
 */
export function parseWebviewMessage(value: unknown): WebviewToHostMessage | undefined {
  const v = record(value);
  if (!v) return undefined;
  switch (v.type) {
    case 'ready':
      return { type: 'ready' };
    case 'rendered': {
      if (typeof v.text !== 'string') return undefined;
      return { type: 'rendered', text: v.text.slice(0, PANEL_LIMITS.renderedChars) };
    }
    case 'simulate':
    case 'execute':
    case 'debug': {
      const form = parseForm(v.form);
      return form ? { type: v.type, form } : undefined;
    }
    default:
      return undefined;
  }
}

// ---- a submitted form --------------------------------------------------------------------------

export type FormCheck =
  | { readonly ok: true; readonly request: MethodCallRequest }
  | { readonly ok: false; readonly errors: FieldErrors };

/**
 * A submitted form, checked field by field with the rules of the prompts (arguments as "Call Contract
 * Method" checks them, tokens and gas as "Send Transfer" does), into the request the Simulate and Execute
 * commands take. Every problem is reported at once, keyed by field, so the page marks all of them.
 */
export function checkMethodForm(
  model: ContractPanelModel,
  form: MethodFormInput,
  registry?: ArtifactRegistry,
): FormCheck {
  const errors: Record<string, string> = {};
  const method = model.methods.find((m) => m.index === form.method);
  if (!method) {
    return {
      ok: false,
      errors: { form: `${model.title} has no public method with index ${form.method}.` },
    };
  }
  if (form.args.length !== method.params.length) {
    errors.form = `${method.name} takes ${method.params.length} argument(s), ${form.args.length} were given.`;
  }
  method.params.forEach((p, i) => {
    const input = form.args[i];
    if (input === undefined) return;
    const problem =
      input.trim() === ''
        ? `${p.name} is required (${p.type}).`
        : argumentProblem(p.type, p.name, input.trim(), registry);
    if (problem) errors[`arg:${i}`] = problem;
  });

  let alph: string | undefined;
  const alphText = form.alph.trim();
  // The palette's approval prompt and the argument object check it with this same rule.
  const alphProblem = approvedAlphProblem(alphText);
  if (alphProblem !== undefined) errors.alph = alphProblem;
  else {
    const atto = approvedAlphAtto(alphText);
    if (atto !== 0n) alph = attoToAlph(atto);
  }

  const tokens: TokenAmountInput[] = [];
  form.tokens.forEach((t, i) => {
    // A row left empty is no token (the page always offers one row).
    if (t.id.trim() === '' && t.amount.trim() === '') return;
    try {
      const [parsed] = parseTokens([{ id: t.id, amount: t.amount }]);
      tokens.push({ id: parsed!.id, amount: String(parsed!.amount) });
    } catch (e) {
      errors[`token:${i}`] = (e as Error).message.replace(/^Token 1: /, `Token ${i + 1}: `);
    }
  });
  const ids = tokens.map((t) => t.id);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) errors.tokens = `Token ${dup.slice(0, 8)}… is listed twice; give it once with the total amount.`;

  const assetsProblem = unusedAssetsProblem(
    method.name,
    method.payable,
    alph !== undefined || tokens.length > 0,
  );
  if (assetsProblem !== undefined) errors.assets = assetsProblem;

  let gasAmount: number | undefined;
  try {
    gasAmount = parseGasAmount(form.gas.trim());
  } catch (e) {
    errors.gas = (e as Error).message;
  }

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    request: {
      address: model.address,
      method: method.name,
      args: form.args.map((a) => a.trim()),
      ...(alph !== undefined ? { alph } : {}),
      ...(tokens.length > 0 ? { tokens } : {}),
      ...(gasAmount !== undefined ? { gasAmount } : {}),
      ...(form.viewOnlyAsTransaction === true ? { viewOnlyAsTransaction: true } : {}),
    },
  };
}

// ---- results ---------------------------------------------------------------------------------------

function simulationFacts(view: SimulationView): ResultFact[] {
  return [
    { label: 'Method', value: `${view.contract}.${view.method} (methodIndex ${view.methodIndex})` },
    { label: 'Script', value: view.scriptSource },
    ...(view.gasUsed !== undefined ? [{ label: 'Gas used', value: String(view.gasUsed) }] : []),
  ];
}

export function simulationResult(view: SimulationView): MethodResultView {
  return {
    kind: 'simulation',
    outcome: view.ok ? 'ok' : 'failed',
    headline: view.ok
      ? 'Simulation succeeded (nothing was signed or sent)'
      : `Simulation failed: ${view.error ?? 'the node gave no reason'}`,
    facts: simulationFacts(view),
    returns: view.returns,
    events: view.events,
    debugMessages: view.debugMessages,
    balanceChanges: view.balanceChanges,
    verified: [],
    ...(view.error !== undefined ? { error: view.error } : {}),
  };
}

/** The status of the executed tx as the Transactions view tracks it (it goes on after the command). */
export interface TrackedStatus {
  readonly kind: string;
  readonly text: string;
}

function executionOutcome(
  view: ExecutionView,
  tracked: TrackedStatus | undefined,
): MethodResultView['outcome'] {
  if (view.status === 'cancelled') return 'cancelled';
  if (view.status === 'failed') return 'failed';
  if (view.status === 'confirmed') return 'confirmed';
  if (tracked?.kind === 'confirmed') return 'confirmed';
  if (tracked?.kind === 'failed') return 'failed';
  return 'pending';
}

/**
 * An Execute result. A command may return once the tx is submitted; the Transactions view's tracker
 * then tells how it ends, so its status (when given) decides the headline until the tx is final.
 */
export function executionResult(view: ExecutionView, tracked?: TrackedStatus): MethodResultView {
  const outcome = executionOutcome(view, tracked);
  const statusText =
    tracked && view.status === 'submitted'
      ? tracked.text
      : view.status === 'confirmed'
        ? 'Confirmed'
        : view.status === 'submitted'
          ? 'Submitted'
          : view.status === 'cancelled'
            ? 'Cancelled before signing'
            : 'Failed';
  const headline =
    outcome === 'cancelled'
      ? 'Not executed: cancelled before signing'
      : outcome === 'failed'
        ? `Execution failed: ${view.error ?? statusText}`
        : outcome === 'confirmed'
          ? `Transaction confirmed`
          : `Transaction submitted: ${statusText}`;
  const facts: ResultFact[] = [
    ...(view.txId ? [{ label: 'Tx id', value: view.txId }] : []),
    { label: 'Status', value: statusText },
    ...(view.gasAmount !== undefined ? [{ label: 'Gas amount', value: String(view.gasAmount) }] : []),
    ...(view.feeAlph !== undefined ? [{ label: 'Fee', value: `${view.feeAlph} ALPH` }] : []),
    ...simulationFacts(view.simulation).map((f) =>
      f.label === 'Gas used' ? { label: 'Simulated gas used', value: f.value } : f,
    ),
  ];
  return {
    kind: 'execution',
    outcome,
    headline,
    facts,
    returns: view.simulation.returns,
    // The confirmed tx's own events when the command has them; before that, the simulation's.
    events: view.events ?? view.simulation.events,
    debugMessages: view.simulation.debugMessages,
    balanceChanges: view.simulation.balanceChanges,
    verified: view.verified ?? [],
    ...(view.txId ? { txId: view.txId } : {}),
    ...(view.error !== undefined ? { error: view.error } : {}),
  };
}

/** A run that produced no view at all (the command threw, or is not available). */
export function failureResult(kind: 'simulation' | 'execution', message: string): MethodResultView {
  return {
    kind,
    outcome: 'failed',
    headline: `${kind === 'simulation' ? 'Simulation' : 'Execution'} failed: ${message}`,
    facts: [],
    returns: [],
    events: [],
    debugMessages: [],
    balanceChanges: [],
    verified: [],
    error: message,
  };
}

/** Whether a value returned by a command has the shape of a SimulationView (commands are untyped). */
export function isSimulationView(value: unknown): value is SimulationView {
  const v = record(value);
  return (
    !!v &&
    typeof v.ok === 'boolean' &&
    typeof v.method === 'string' &&
    Array.isArray(v.returns) &&
    Array.isArray(v.events) &&
    Array.isArray(v.debugMessages) &&
    Array.isArray(v.balanceChanges)
  );
}

export function isExecutionView(value: unknown): value is ExecutionView {
  const v = record(value);
  return (
    !!v &&
    (v.status === 'cancelled' ||
      v.status === 'submitted' ||
      v.status === 'confirmed' ||
      v.status === 'failed') &&
    isSimulationView(v.simulation)
  );
}
