import * as vscode from 'vscode';
import { debuggableCall } from '../core/debugging/debuggableCall';
import type { DebugHint, FailureExplanation } from '../core/debugging/failureExplanation';
import { CommandIds } from '../constants';
import { joinMarkdown, safeMarkdown, markdownCode, plainText } from '../core/text/inert';
import { markdownString } from '../platform/markdown';
import { fromOwnUi } from '../platform/commands';
import { DisposableBase } from '../platform/lifecycle';

/** The diagnostics' source, which the Problems view shows and the UI test reads. */
export const DIAGNOSTIC_SOURCE = 'Alephium';

const TX_ID = /^[0-9a-fA-F]{64}$/;

/**
 * Failures explained at the line that caused them (Problems view), and debug messages of the last
 * simulation shown after their `emit Debug` line. Each report replaces the previous one: a run's problems
 * are about that run, and stale ones would point at fixed code.
 */
export class FailureDiagnostics extends DisposableBase implements vscode.CodeActionProvider {
  private readonly collection = this.register(
    vscode.languages.createDiagnosticCollection('alephium-failures'),
  );
  private readonly hintType = this.register(
    vscode.window.createTextEditorDecorationType({
      after: {
        margin: '0 0 0 2em',
        color: new vscode.ThemeColor('editorCodeLens.foreground'),
        fontStyle: 'italic',
      },
      isWholeLine: true,
    }),
  );
  private hints: DebugHint[] = [];
  private last: FailureExplanation | undefined;

  constructor() {
    super();
    this.register(
      vscode.languages.registerCodeActionsProvider({ pattern: '**/*.ral' }, this, {
        providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
      }),
    );
    this.register(vscode.window.onDidChangeVisibleTextEditors(() => this.paintHints()));
  }

  /** The last explanation reported (for the API and tests). */
  get lastExplanation(): FailureExplanation | undefined {
    return this.last;
  }

  /**
   * Shows an explanation in the Problems view at its sites (replacing the previous run's). Returns the
   * number of diagnostics placed: 0 when the sources do not contain the failing code.
   */
  report(explanation: FailureExplanation): number {
    this.last = explanation;
    this.collection.clear();
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const site of explanation.sites) {
      const range = new vscode.Range(
        site.span.start.line,
        site.span.start.character,
        site.span.end.line,
        site.span.end.character,
      );
      const d = new vscode.Diagnostic(
        range,
        plainText(explanation.message, 1000),
        vscode.DiagnosticSeverity.Error,
      );
      d.source = DIAGNOSTIC_SOURCE;
      d.code = explanation.failure.name;
      const list = byFile.get(site.path) ?? [];
      list.push(d);
      byFile.set(site.path, list);
    }
    for (const [path, list] of byFile) this.collection.set(vscode.Uri.parse(path), list);
    return explanation.sites.length;
  }

  clear(): void {
    this.last = undefined;
    this.collection.clear();
  }

  /** Debug messages of a run, shown until the next run (an empty list clears them). */
  showDebugHints(hints: readonly DebugHint[]): void {
    this.hints = [...hints];
    this.paintHints();
  }

  get debugHints(): readonly DebugHint[] {
    return this.hints;
  }

  private paintHints(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      const key = editor.document.uri.toString();
      const mine = this.hints.filter((h) => h.path === key);
      const byLine = new Map<number, string[]>();
      for (const h of mine) byLine.set(h.line, [...(byLine.get(h.line) ?? []), h.message]);
      editor.setDecorations(
        this.hintType,
        [...byLine].map(([line, messages]) => ({
          range: new vscode.Range(line, 0, line, 0),
          renderOptions: { after: { contentText: `Debug: ${plainText(messages.join(' | '), 300)}` } },
          // A debug message is outside text (a contract's emit, relayed by the gateway): a code span it
          // cannot break out of, never Markdown.
          hoverMessage: markdownString(
            joinMarkdown(
              messages.map((m) => safeMarkdown`Debug message of the last simulation: ${markdownCode(m)}`),
            ),
          ),
        })),
      );
    }
  }

  provideCodeActions(
    _document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const mine = context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE);
    const failed = this.last?.context;
    if (mine.length === 0 || !failed) return [];
    const action = (title: string, command: string, args: object): vscode.CodeAction => {
      const a = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
      a.diagnostics = mine;
      // The explanation is the extension's own: its call is handed back as the user's own UI choice.
      a.command = { title, command, arguments: [fromOwnUi({ ...args })] };
      return a;
    };
    const txId = failed.txId;
    if (txId && TX_ID.test(txId))
      return [
        action('Open transaction details', CommandIds.showTransaction, { txId }),
        action('Debug this transaction (replay on the local VM)', CommandIds.debugTransaction, { txId }),
      ];
    const call = debuggableCall(failed);
    return call
      ? [action('Debug this failure (Ralph debugger, local VM)', CommandIds.debugContractMethod, call)]
      : [];
  }
}
