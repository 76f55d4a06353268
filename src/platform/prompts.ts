import * as vscode from 'vscode';
import { UserCancelledError } from '../core/util/errors';
import type { ArtifactRegistry, ContractArtifact, FunctionSig } from '../core/artifacts';
import { argumentHint, argumentProblem, findMethod, functionSignature } from '../core/contracts/call';

/** An input box that validates as the user types and throws UserCancelledError on Escape. */
export async function askText(
  options: vscode.InputBoxOptions & {
    /** A string is an error that blocks Enter; a message of Info or Warning severity lets it through. */
    validate?: (value: string) => string | vscode.InputBoxValidationMessage | undefined;
  },
): Promise<string> {
  const { validate, ...rest } = options;
  const value = await vscode.window.showInputBox({
    ignoreFocusOut: true,
    ...rest,
    ...(validate ? { validateInput: (v: string) => validate(v) ?? null } : {}),
  });
  if (value === undefined) throw new UserCancelledError();
  return value;
}

export async function pick<T extends vscode.QuickPickItem>(
  items: readonly T[] | Promise<readonly T[]>,
  options: vscode.QuickPickOptions,
): Promise<T> {
  const chosen = await vscode.window.showQuickPick(items, { ignoreFocusOut: true, ...options });
  if (!chosen) throw new UserCancelledError();
  return chosen;
}

/**
 * A pick whose rows grow by one while what is typed is itself an answer (a pasted address): `typed`
 * turns the text into that row, shown first, or says there is none. Escape throws UserCancelledError.
 */
export async function pickOrTyped<T extends vscode.QuickPickItem>(
  items: readonly T[],
  options: { readonly title: string; readonly placeHolder: string },
  typed: (value: string) => T | undefined,
): Promise<T> {
  const quickPick = vscode.window.createQuickPick<T>();
  quickPick.title = options.title;
  quickPick.placeholder = options.placeHolder;
  quickPick.ignoreFocusOut = true;
  quickPick.items = items;
  try {
    return await new Promise<T>((resolve, reject) => {
      quickPick.onDidChangeValue((value) => {
        const row = typed(value);
        quickPick.items = row ? [row, ...items] : items;
        if (row) quickPick.activeItems = [row];
      });
      quickPick.onDidAccept(() => {
        const chosen = quickPick.selectedItems[0] ?? quickPick.activeItems[0];
        if (chosen) resolve(chosen);
      });
      quickPick.onDidHide(() => reject(new UserCancelledError()));
      quickPick.show();
    });
  } finally {
    quickPick.dispose();
  }
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
  title: string,
): Promise<T> {
  if (list.length === 0) throw new Error('No contract is watched yet. Run "Alephium: Watch Contract" first.');
  const chosen = await pick(
    onlyCandidates(list, args).map((contract) => ({
      ...describe(contract),
      detail: contract.address,
      contract,
    })),
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
  pickTitle: string,
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
              label: functionSignature(fn),
              description: [`methodIndex ${i}`, note?.(i)].filter(Boolean).join(' · '),
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
          title: `${artifact.name}.${fn.name}: ${name} (${i + 1}/${fn.paramTypes.length})`,
          prompt: `${name}: ${type}`,
          placeHolder: argumentHint(type),
          validate: (v) => argumentProblem(type, name, v, registry),
        }),
      );
    }
  }
  return { method, fn, methodGiven: methodArg !== undefined, inputs };
}
