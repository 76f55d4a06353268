import * as vscode from 'vscode';

/**
 * Tree rows built in the core carry their icon as `codicon` or `codicon|themeColorId` (the core cannot
 * create VS Code objects); this turns that into a ThemeIcon.
 */
export function themeIconOf(spec: string): vscode.ThemeIcon {
  const [icon, color] = spec.split('|');
  return new vscode.ThemeIcon(icon || 'circle', color ? new vscode.ThemeColor(color) : undefined);
}
