import * as vscode from 'vscode';
import { UserCancelledError } from '../core/util/errors';
import { inert, type Inert } from '../core/text/inert';
import {
  inertCheck,
  inputBoxStrings,
  pickItemStrings,
  problemStrings,
  type InertInputBox,
  type InertPickItem,
  type InertPickOptions,
  type ProblemSeverity,
} from '../core/text/inertInput';
import { isKeptAnswered, keepUntilNextPrompt, showInPlaceOfAnswered } from './promptHandOver';
import type { ArtifactRegistry, ContractArtifact, FunctionSig } from '../core/artifacts';
import { argumentHint, argumentProblem, findMethod, functionSignature } from '../core/contracts/call';

/**
 * The only way this extension shows an input box or a quick pick. VS Code renders `[label](command:…)` in
 * an input box's prompt and validation message as a link that runs any command, and `$(icon)` in titles
 * and items, so every text shown here is an {@link Inert} (core/text/inertInput.ts): names from the
 * workspace, types from artifacts and values quoted by a check cannot form a link or an icon. A lint
 * rule keeps `showInputBox`, `createInputBox`, `showQuickPick` and `createQuickPick` out of every other
 * file.
 */
const SEVERITY: Record<ProblemSeverity, vscode.InputBoxValidationSeverity> = {
  error: vscode.InputBoxValidationSeverity.Error,
  warning: vscode.InputBoxValidationSeverity.Warning,
  info: vscode.InputBoxValidationSeverity.Info,
};

/**
 * An input box that validates as the user types; undefined on Escape. A problem of severity error blocks
 * Enter, as `showInputBox` does; the answered box stays until the next prompt (promptHandOver.ts).
 */
export async function askTextOrCancel(box: InertInputBox): Promise<string | undefined> {
  const { validate } = box;
  const input = vscode.window.createInputBox();
  const { title, prompt, placeHolder } = inputBoxStrings(box);
  if (title !== undefined) input.title = title;
  if (prompt !== undefined) input.prompt = prompt;
  if (placeHolder !== undefined) input.placeholder = placeHolder;
  input.ignoreFocusOut = true;
  if (box.value !== undefined) input.value = box.value;
  if (box.password !== undefined) input.password = box.password;
  /** Shows the problem of `value`, if any; whether it blocks Enter. */
  const check = (value: string): boolean => {
    const problem = validate?.(value);
    if (problem === undefined) {
      input.validationMessage = undefined;
      return false;
    }
    const { message, severity } = problemStrings(problem);
    input.validationMessage = { message, severity: SEVERITY[severity] };
    return severity === 'error';
  };
  // As showInputBox does, a problem shows once something is typed (or on Enter), not on an untouched box.
  input.onDidChangeValue((value) => check(value));
  return answerOf(input, () => (check(input.value) ? undefined : { answer: input.value }));
}

/**
 * An input box that validates as the user types and throws UserCancelledError on Escape. A problem of
 * severity error blocks Enter; one of info or warning severity lets it through.
 */
export async function askText(box: InertInputBox): Promise<string> {
  const value = await askTextOrCancel(box);
  if (value === undefined) throw new UserCancelledError();
  return value;
}

/** A quick pick of inert items; resolves with the item chosen (with the caller's fields), undefined on Escape. */
export async function pickOrCancel<T extends InertPickItem>(
  items: readonly T[] | Promise<readonly T[]>,
  options: InertPickOptions,
): Promise<T | undefined> {
  type Row = vscode.QuickPickItem & { readonly item: T };
  const quickPick = openPick<Row>(options);
  if (options.matchOnDescription !== undefined) quickPick.matchOnDescription = options.matchOnDescription;
  if (options.matchOnDetail !== undefined) quickPick.matchOnDetail = options.matchOnDetail;
  const rowsOf = (list: readonly T[]) => list.map((item) => ({ ...pickItemStrings(item), item }));
  // A list at hand opens with the pick, as showQuickPick's does; one still loading shows the pick busy.
  if (isList(items)) quickPick.items = rowsOf(items);
  else quickPick.busy = true;
  const answer = answerOf(quickPick, () => chosenRow(quickPick));
  if (isList(items)) return answer;
  // A list that fails to load fails the pick (as showQuickPick's does), rather than reading as Escape.
  const loaded = items.then((list) => {
    quickPick.items = rowsOf(list);
    quickPick.busy = false;
  });
  return Promise.race([answer, loaded.then(() => answer)]).catch((error: unknown) => {
    quickPick.dispose();
    throw error;
  });
}

function isList<T>(items: readonly T[] | Promise<readonly T[]>): items is readonly T[] {
  return Array.isArray(items);
}

/** A quick pick with the options every pick here has, not shown yet. */
function openPick<R extends vscode.QuickPickItem>(options: InertPickOptions): vscode.QuickPick<R> {
  const quickPick = vscode.window.createQuickPick<R>();
  if (options.title) quickPick.title = options.title.text;
  if (options.placeHolder) quickPick.placeholder = options.placeHolder.text;
  quickPick.ignoreFocusOut = options.ignoreFocusOut ?? true;
  return quickPick;
}

/**
 * Shows `input` in the place of the prompt answered before it and resolves with what `accepted` makes of
 * an Enter (undefined keeps the prompt open: a blocking problem, no row); the answered prompt stays until
 * the next one (promptHandOver.ts). Escape resolves with undefined.
 */
function answerOf<T>(
  input: vscode.QuickInput & {
    readonly onDidAccept: vscode.Event<void>;
    readonly onDidHide: vscode.Event<void>;
  },
  accepted: () => { readonly answer: T } | undefined,
): Promise<T | undefined> {
  return new Promise<T | undefined>((resolve) => {
    let settled = false;
    input.onDidAccept(() => {
      const chosen = settled ? undefined : accepted();
      if (!chosen) return;
      settled = true;
      keepUntilNextPrompt(input);
      resolve(chosen.answer);
    });
    input.onDidHide(() => {
      if (isKeptAnswered(input)) return;
      input.dispose();
      if (settled) return;
      settled = true;
      resolve(undefined);
    });
    showInPlaceOfAnswered(input);
  });
}

/** The row accepted in `quickPick` (selected, else active), if any. */
function chosenRow<T>(
  quickPick: vscode.QuickPick<vscode.QuickPickItem & { readonly item: T }>,
): { readonly answer: T } | undefined {
  const row = quickPick.selectedItems[0] ?? quickPick.activeItems[0];
  return row ? { answer: row.item } : undefined;
}

/** A quick pick of inert items that throws UserCancelledError on Escape. */
export async function pick<T extends InertPickItem>(
  items: readonly T[] | Promise<readonly T[]>,
  options: InertPickOptions,
): Promise<T> {
  const chosen = await pickOrCancel(items, options);
  if (!chosen) throw new UserCancelledError();
  return chosen;
}

/**
 * A pick whose rows grow by one while what is typed is itself an answer (a pasted address): `typed`
 * turns the text into that row, shown first, or says there is none. Escape throws UserCancelledError.
 */
export async function pickOrTyped<T extends InertPickItem>(
  items: readonly T[],
  options: InertPickOptions,
  typed: (value: string) => T | undefined,
): Promise<T> {
  type Row = vscode.QuickPickItem & { readonly item: T };
  const rowOf = (item: T, alwaysShow = false): Row => ({ ...pickItemStrings(item), alwaysShow, item });
  const rows = items.map((item) => rowOf(item));
  const quickPick = openPick<Row>(options);
  quickPick.items = rows;
  let shownTyped: string | undefined;
  quickPick.onDidChangeValue((value) => {
    const item = typed(value);
    const key = item ? pickItemStrings(item).label : undefined;
    // Items are set only when the typed row comes, changes or goes: setting them on every keystroke
    // would drop the list's own focus on the first match, and Enter would choose nothing.
    if (key === shownTyped) return;
    shownTyped = key;
    // alwaysShow: the row stays although its label does not match what was typed (a contract id).
    const row = item ? rowOf(item, true) : undefined;
    quickPick.items = row ? [row, ...rows] : rows;
    if (row) quickPick.activeItems = [row];
  });
  const chosen = await answerOf(quickPick, () => chosenRow(quickPick));
  if (chosen === undefined) throw new UserCancelledError();
  return chosen;
}

/** Reads a string field of a command's argument object, when the command was called with one. */
export function argString(args: unknown, field: string): string | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const value = (args as Record<string, unknown>)[field];
  return typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'bigint'
      ? String(value)
      : undefined;
}

export function argValue(args: unknown, field: string): unknown {
  if (typeof args !== 'object' || args === null) return undefined;
  return (args as Record<string, unknown>)[field];
}

/**
 * The contracts a picker may offer: all of `list`, or, when the argument object names `candidates` (a
 * Simulate/Execute lens on a function of one artifact), only those. None left is an error that says
 * what to do, rather than a pick list of contracts the method does not belong to.
 */
export function onlyCandidates<T extends { readonly address: string }>(
  list: readonly T[],
  args: unknown,
): T[] {
  const candidates = argValue(args, 'candidates');
  if (!Array.isArray(candidates)) return [...list];
  const allowed = new Set(candidates.filter((c): c is string => typeof c === 'string'));
  const kept = list.filter((w) => allowed.has(w.address));
  if (kept.length === 0) {
    throw new Error(
      'No watched contract runs this artifact yet: watch one (the Watch lens on its Contract line) or deploy one first.',
    );
  }
  return kept;
}

/**
 * The one contract picker: the contracts of `list` (or the `candidates` the argument object names), each
 * named by `describe` and shown with its full address, as every contract command offers them.
 */
export async function pickContract<T extends { readonly address: string }>(
  list: readonly T[],
  describe: (contract: T) => { label: string; description: string },
  args: unknown,
  title: Inert,
): Promise<T> {
  if (list.length === 0) throw new Error('No contract is watched yet. Run "Alephium: Watch Contract" first.');
  const chosen = await pick(
    onlyCandidates(list, args).map((contract) => {
      // A contract's name comes from a deployments file or an artifact: outside text.
      const { label, description } = describe(contract);
      return {
        label: inert`${label}`,
        description: inert`${description}`,
        detail: inert`${contract.address}`,
        contract,
      };
    }),
    { title },
  );
  return chosen.contract;
}

/** A method of an artifact and its arguments, as an argument object gave them or the user typed them. */
export interface MethodCallInput {
  readonly method: string | number;
  readonly fn: FunctionSig;
  /** The argument object named the method (keybindings, the panel, tests): a complete request. */
  readonly methodGiven: boolean;
  /** The argument object's `args` as given, else one typed (and checked) text per parameter. */
  readonly inputs: readonly unknown[];
}

/**
 * The one method-arguments prompt: the method from the argument object or a pick of the artifact's
 * functions, then each parameter the argument object leaves out, checked as it is typed with the rule
 * the core applies (`argumentProblem`).
 */
export async function askMethodCall(
  artifact: ContractArtifact,
  registry: ArtifactRegistry,
  args: unknown,
  pickTitle: Inert,
  /** A word beside a method in the pick list (e.g. that it is view-only), by methodIndex. */
  note?: (methodIndex: number) => string | undefined,
): Promise<MethodCallInput> {
  const methodArg = argValue(args, 'method');
  const method =
    typeof methodArg === 'string' || typeof methodArg === 'number'
      ? methodArg
      : (
          await pick(
            artifact.functions.map((fn, i) => ({
              label: inert`${functionSignature(fn)}`,
              description: inert`${[`methodIndex ${i}`, note?.(i)].filter(Boolean).join(' · ')}`,
              index: i,
            })),
            { title: pickTitle },
          )
        ).index;
  const { fn } = findMethod(artifact, method);
  const given = argValue(args, 'args');
  const inputs: unknown[] = Array.isArray(given) ? given : [];
  if (!Array.isArray(given)) {
    for (let i = 0; i < fn.paramTypes.length; i++) {
      const type = fn.paramTypes[i] as string;
      const name = fn.paramNames[i] ?? `#${i}`;
      inputs.push(
        await askText({
          // The names and the type come from the workspace's artifact: outside text, made inert.
          title: inert`${artifact.name}.${fn.name}: ${name} (${i + 1}/${fn.paramTypes.length})`,
          prompt: inert`${name}: ${type}`,
          placeHolder: inert`${argumentHint(type)}`,
          validate: inertCheck((v) => argumentProblem(type, name, v, registry)),
        }),
      );
    }
  }
  return { method, fn, methodGiven: methodArg !== undefined, inputs };
}
