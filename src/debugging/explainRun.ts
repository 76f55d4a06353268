/**
 * Explain Transaction's command, loaded on first use (a chunk of dist/ of its own): asks for a tx id (validated
 * before any request) or takes a row's, says the cost, runs the core's explainTransaction (from the
 * debugging engine), puts a reproduced failure at its Ralph line as a Problem (origin `tracked`, naming the
 * block state it ran against) and shows the answer in the transaction's details panel.
 */
import * as vscode from 'vscode';
import { withProgress } from '../platform/progress';
import type { TransactionExplanation } from '../core/debugging/transactionExplanation';
import { costNotice } from '../core/usage/costs';
import { inert } from '../core/text/inert';
import { CommandIds } from '../constants';
import { fromOwnUi } from '../platform/commands';
import { showInfo } from '../platform/notify';
import { workspacePlaceName } from '../platform/places';
import { argString } from '../platform/prompts';
import { askTxId } from './txIdPrompt';
import type { DebuggingEditorDeps } from './debuggingFeature';
import { loadEngine, type DebuggingEngine } from './loadEngine';

const DEBUG_TRANSACTION = 'Debug Transaction';

/** What the command returns (tests read it; the person reads the panel and the Problem). */
export interface ExplainCommandResult {
  readonly txId: string;
  readonly outcome: TransactionExplanation['outcome']['kind'];
  readonly text: string;
  readonly stateBlocks?: TransactionExplanation['stateBlocks'];
  readonly problem?: { readonly message: string; readonly path: string; readonly line: number };
}

export async function explainTransactionCommand(
  deps: DebuggingEditorDeps,
  args: unknown,
): Promise<ExplainCommandResult> {
  const engine = await loadEngine();
  const notice = costNotice('Explain Transaction', engine.EXPLAIN_COST);
  // A bad id is refused here, before the client is even asked for.
  const txId = await askTxId(args, 'Explain Transaction', notice.text);
  const client = deps.connection.requireClient();
  deps.log.info(`Explain Transaction ${txId}: ${notice.text}`);
  const explanation = await withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Explaining ${txId.slice(0, 8)}… (${notice.text})`,
    },
    async () =>
      engine.explainTransaction(
        { ...engine.explainFetchersFrom(client, { priority: 'user' }), ...(await lookupOf(deps, engine)) },
        txId,
      ),
  );
  const text = engine.explanationText(explanation, workspacePlaceName);
  deps.log.info(text);
  const failure = explanation.outcome.kind === 'failed-reproduced' ? explanation.outcome.failure : undefined;
  const reporter = deps.failures;
  if (failure) {
    reporter.diagnostics.showDebugHints(explanation.debugHints);
    reporter.diagnostics.report(failure);
  } else if (explanation.debugHints.length > 0) reporter.diagnostics.showDebugHints(explanation.debugHints);
  const site = failure?.sites[0];
  const view = engine.whatHappenedView(explanation, workspacePlaceName);
  reporter.explanations.set(txId, view, site);
  if (argString(args, 'show') !== 'none') {
    await vscode.commands.executeCommand(CommandIds.showTransaction, { txId });
    // The next step from an explanation: the same transaction, stepped through in the debugger.
    const ran = explanation.outcome.kind !== 'no-script' && explanation.outcome.kind !== 'not-mined';
    if (!failure)
      void showInfo(inert`${view.outcome}`, ...(ran ? [DEBUG_TRANSACTION] : [])).then((choice) => {
        if (choice === DEBUG_TRANSACTION)
          void vscode.commands.executeCommand(CommandIds.debugTransaction, fromOwnUi({ txId }));
      });
  }
  return {
    txId,
    outcome: explanation.outcome.kind,
    text,
    ...(explanation.stateBlocks ? { stateBlocks: explanation.stateBlocks } : {}),
    ...(failure && site
      ? { problem: { message: failure.message, path: site.path, line: site.span.start.line } }
      : {}),
  };
}

/** Artifacts as every view resolves them (watch list, deployments, code hash), sources read on demand. */
async function lookupOf(deps: DebuggingEditorDeps, engine: DebuggingEngine) {
  // Read the workspace's artifacts and deployments again (local files, no request): an explanation names
  // contracts as the workspace describes them now, not as a watcher that has not fired yet last saw them.
  return engine.explainLookup(
    await deps.artifacts.reload(),
    async (address) => (await deps.contracts.resolve(address)).artifact,
    (names) => deps.failures.sources.mapFor([...names]),
  );
}
