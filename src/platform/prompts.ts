import * as vscode from 'vscode';
import { UserCancelledError } from '../core/util/errors';

/** An input box that validates as the user types and throws UserCancelledError on Escape. */
export async function askText(
  options: vscode.InputBoxOptions & { validate?: (value: string) => string | undefined },
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
