import * as vscode from 'vscode';
import { UserCancelledError } from '../core/errors';

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
