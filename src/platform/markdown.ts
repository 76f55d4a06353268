/**
 * The only way this extension makes a MarkdownString (hovers, tooltips): from {@link SafeMarkdown}, the
 * `safeMarkdown` template tag of core/text/inert.ts, whose interpolated values (outside text) are escaped so
 * that no link, image or HTML can come from them. A lint rule keeps `new MarkdownString(…)` and
 * `appendMarkdown(…)` out of every other file.
 */
import * as vscode from 'vscode';
import type { SafeMarkdown } from '../core/text/inert';
import type { CommandId } from '../constants';

export interface MarkdownOptions {
  /** Render `$(icon)` in this extension's own text (outside values cannot form one: `$` is escaped). */
  readonly supportThemeIcons?: boolean;
  /** The only commands its links may run: this extension's own, with arguments it built itself. */
  readonly enabledCommands?: readonly CommandId[];
}

export function markdownString(md: SafeMarkdown, options: MarkdownOptions = {}): vscode.MarkdownString {
  const result = new vscode.MarkdownString(md.markdown, options.supportThemeIcons ?? false);
  result.isTrusted = options.enabledCommands ? { enabledCommands: [...options.enabledCommands] } : false;
  result.supportHtml = false;
  return result;
}
