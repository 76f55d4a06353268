import * as vscode from 'vscode';

/**
 * A source file as a person names it: relative to the workspace folder ("contracts/counter.ral"), never the
 * absolute path of this machine (which would also leak into what a chat assistant is given).
 */
export function workspacePlaceName(path: string): string {
  return vscode.workspace.asRelativePath(path.includes('://') ? vscode.Uri.parse(path) : path, false);
}
