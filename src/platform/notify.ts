/**
 * The only way this extension shows a notification or a modal dialog. VS Code renders
 * `[label](command:…)` in a notification's text as a link that runs any command with any arguments, so
 * every text shown here is an {@link Inert}: made with the `inert` template tag of core/text/inert.ts,
 * whose interpolated values (gateway errors, names from the workspace, values from the chain) cannot
 * form a link, an icon or a control sequence. A lint rule keeps `window.show*Message` out of every other
 * file.
 */
import * as vscode from 'vscode';
import type { Inert } from '../core/text/inert';

type Level = 'error' | 'warning' | 'info';

function show(
  level: Level,
  message: Inert,
  options: vscode.MessageOptions,
  actions: readonly string[],
): Thenable<string | undefined> {
  const text = message.text;
  switch (level) {
    case 'error':
      return vscode.window.showErrorMessage(text, options, ...actions);
    case 'warning':
      return vscode.window.showWarningMessage(text, options, ...actions);
    case 'info':
      return vscode.window.showInformationMessage(text, options, ...actions);
  }
}

/** A non-modal error toast; resolves with the action clicked, if any. */
export function showError(message: Inert, ...actions: string[]): Thenable<string | undefined> {
  return show('error', message, {}, actions);
}

/** A non-modal warning toast; resolves with the action clicked, if any. */
export function showWarning(message: Inert, ...actions: string[]): Thenable<string | undefined> {
  return show('warning', message, {}, actions);
}

/** A non-modal information toast; resolves with the action clicked, if any. */
export function showInfo(message: Inert, ...actions: string[]): Thenable<string | undefined> {
  return show('info', message, {}, actions);
}

/**
 * A modal warning with a detail text; resolves with the action chosen, or undefined when the dialog was
 * dismissed (Escape, Cancel). Actions are this extension's own words.
 */
export function askModal(
  message: Inert,
  detail: Inert | undefined,
  ...actions: string[]
): Thenable<string | undefined> {
  return show('warning', message, { modal: true, ...(detail ? { detail: detail.text } : {}) }, actions);
}

/**
 * A modal for a request a command's caller made (a task, a link, another extension): its default button
 * is Cancel, so a reflexive Enter refuses. VS Code focuses a modal's first item that is not its close
 * affordance and always puts the close affordance last, so the first item is a Cancel of this
 * extension's own and the close affordance (Escape, the dialog's X) is "Close". Resolves with `action`
 * only when that button was chosen.
 */
export async function askModalCancelFirst(
  message: Inert,
  detail: Inert | undefined,
  action: string,
): Promise<string | undefined> {
  const items: vscode.MessageItem[] = [
    { title: CANCEL_FIRST },
    { title: action },
    { title: 'Close', isCloseAffordance: true },
  ];
  const choice = await vscode.window.showWarningMessage(
    message.text,
    { modal: true, ...(detail ? { detail: detail.text } : {}) },
    ...items,
  );
  return choice?.title === action ? action : undefined;
}

/** The default button of {@link askModalCancelFirst}. */
export const CANCEL_FIRST = 'Cancel';
