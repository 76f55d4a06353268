/**
 * "Alephium: Explain Transaction" at activation: the explanations the details panels show, and the
 * command's entry, whose body (explainRun.ts) is loaded on first use to keep the activation bundle small.
 */
import * as vscode from 'vscode';
import type { FailureSite } from '../core/debugging/failureExplanation';
import { Emitter } from '../core/util/emitter';
import { CommandIds } from '../constants';
import { lazyModule } from '../platform/lifecycle';
import type { WhatHappenedView } from '../core/transactions/txDetailsProtocol';
import type { TxExplanationsView } from '../transactions';
import type { DebuggingEditorDeps } from './debuggingFeature';
import type { ExplainCommandResult } from './explainRun';

/** Explanations kept for this session, for the details panels (the newest few; each is cheap to redo). */
const KEPT = 50;

/** Explain Transaction's answers by tx id: what the details panels show, and where a failure is. */
export class TxExplanations implements TxExplanationsView {
  private readonly views = new Map<string, { view: WhatHappenedView; site?: FailureSite }>();
  private readonly changed = new Emitter<string>();

  of(txId: string): WhatHappenedView | undefined {
    return this.views.get(txId)?.view;
  }

  onDidChange(listener: (txId: string) => void): vscode.Disposable {
    return this.changed.event(listener);
  }

  set(txId: string, view: WhatHappenedView, site: FailureSite | undefined): void {
    this.views.delete(txId);
    this.views.set(txId, { view, ...(site ? { site } : {}) });
    for (const old of this.views.keys()) {
      if (this.views.size <= KEPT) break;
      this.views.delete(old);
    }
    this.changed.fire(txId);
  }

  explain(txId: string): void {
    void vscode.commands.executeCommand(CommandIds.explainTransaction, { txId });
  }

  openFailure(txId: string): void {
    const site = this.views.get(txId)?.site;
    if (!site) return;
    const { start, end } = site.span;
    void vscode.window.showTextDocument(vscode.Uri.parse(site.path), {
      selection: new vscode.Range(start.line, start.character, end.line, end.character),
      preview: true,
    });
  }

  dispose(): void {
    this.changed.dispose();
  }
}

const explainRun = lazyModule(() => import('./explainRun'));

export async function explainTransactionCommand(
  deps: DebuggingEditorDeps,
  args: unknown,
): Promise<ExplainCommandResult> {
  return (await explainRun()).explainTransactionCommand(deps, args);
}

const debugTransactionRun = lazyModule(() => import('./debugTransactionRun'));

/** Debug Transaction's entry; its body (and the replay planner) load on first use. */
export async function debugTransactionCommand(deps: DebuggingEditorDeps, args: unknown): Promise<unknown> {
  return (await debugTransactionRun()).debugTransactionCommand(deps, args);
}
