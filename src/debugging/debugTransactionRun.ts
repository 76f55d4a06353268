/**
 * "Alephium: Debug Transaction", loaded on first use: a row's tx id (or one typed, checked before any
 * request), the cost said, the replay's configuration built by the core from the Explain fetchers, and
 * VS Code's debugger started on it, stopped at the script's entry. Nothing is signed or sent but reads.
 */
import * as vscode from 'vscode';
import { explainFetchersFrom, explainLookup } from '../core/debugging/transactionExplanation';
import { REPLAY_COST, replayConfiguration, type ReplayFile } from '../core/ralphDebug/replayPlan';
import { costNotice } from '../core/usage/costs';
import { withProgress } from '../platform/progress';
import type { DebuggingEditorDeps } from './debuggingFeature';
import { launchFilesOf } from './launchFiles';
import { startOwnDebugging } from './ralphDebugger';
import { askTxId } from './txIdPrompt';

export interface DebugTransactionResult {
  readonly started: boolean;
  readonly configuration: vscode.DebugConfiguration;
}

export async function debugTransactionCommand(
  deps: DebuggingEditorDeps,
  args: unknown,
): Promise<DebugTransactionResult> {
  const notice = costNotice('Debug Transaction', REPLAY_COST);
  const txId = await askTxId(args, 'Debug Transaction', notice.text);
  const client = deps.connection.requireClient();
  // A contract's artifact as Explain Transaction finds it (the views' rule, then the deployments file).
  const lookup = explainLookup(
    await deps.artifacts.reload(),
    async (address) => (await deps.contracts.resolve(address)).artifact,
    (names) => deps.failures.sources.mapFor([...names]),
  );
  const fileOf = async (address: string): Promise<ReplayFile | undefined> => {
    const artifact = await lookup.artifactOf(address);
    const files = artifact ? await launchFilesOf(deps, artifact) : undefined;
    return artifact && files ? { artifact, ...files } : undefined;
  };
  deps.log.info(`Debug Transaction ${txId}: ${notice.text}`);
  const configuration = await withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Reading ${txId.slice(0, 8)}… for the debugger (${notice.text})`,
    },
    () =>
      replayConfiguration({
        txId,
        fetchers: explainFetchersFrom(client, { priority: 'user' }),
        fileOf,
        profile: deps.connection.profile?.name ?? 'the active profile',
      }),
  );
  const launch = { ...configuration, stopOnEntry: true };
  const started = await startOwnDebugging(vscode.workspace.workspaceFolders?.[0], launch);
  return { started, configuration: launch };
}
