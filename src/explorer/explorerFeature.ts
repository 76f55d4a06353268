import * as vscode from 'vscode';
import {
  explorerFor,
  explorerTargetOf,
  explorerTargetOfText,
  explorerTextProblem,
  explorerUrl,
  type ExplorerTarget,
} from '../core/explorer/explorerUrl';
import * as config from '../platform/config';
import type { Services } from '../services';
import { registerCommands, type CommandTable } from '../platform/commands';
import { askText, pick } from '../platform/prompts';
import { inert } from '../core/text/inert';
import { inertCheck } from '../core/text/inertInput';
import { BuiltinCommands, CommandIds, ContextKeys } from '../constants';

export type ExplorerDeps = Pick<Services, 'log' | 'redactor' | 'connection'>;

/** The explorer of the active profile (its own `explorerUrl`, else Alephium's for its network), or none. */
export function activeExplorer(): string | undefined {
  const profile = config.activeProfile();
  return profile ? explorerFor(profile.network, profile.explorerUrl) : undefined;
}

/**
 * Open in Explorer: the command, and the context key that offers it only where an explorer is known
 * (`alephium.explorerKnown` in package.json's menus). The URL comes from core/explorer, which lets only a
 * validated id or address into it; VS Code's own "open external website" dialog guards the opening.
 */
export function registerExplorer(deps: ExplorerDeps): vscode.Disposable[] {
  let known: boolean | undefined;
  const publish = (): void => {
    const now = activeExplorer() !== undefined;
    if (now === known) return;
    known = now;
    void vscode.commands.executeCommand(BuiltinCommands.setContext, ContextKeys.explorerKnown, now);
  };
  publish();
  return [
    deps.connection.onDidChange(publish),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(config.SECTION)) publish();
    }),
    ...registerCommands(deps, EXPLORER_COMMANDS),
  ];
}

async function targetFromPrompt(): Promise<ExplorerTarget> {
  const text = await askText({
    title: inert`Open in Explorer`,
    prompt: inert`A transaction id, a block hash or an address`,
    validate: inertCheck(explorerTextProblem),
  });
  if (explorerTargetOfText(text, 'transaction').kind === 'address')
    return explorerTargetOfText(text, 'transaction');
  const kind = await pick(
    [
      { label: inert`Transaction`, as: 'transaction' as const },
      { label: inert`Block`, as: 'block' as const },
    ],
    { title: inert`Open in Explorer`, placeHolder: inert`These 64 hex digits are a…` },
  );
  return explorerTargetOfText(text, kind.as);
}

async function openInExplorer(deps: ExplorerDeps, args: unknown): Promise<{ url: string; opened: boolean }> {
  const profile = config.activeProfile();
  const explorer = activeExplorer();
  if (!profile || !explorer)
    throw new Error(
      profile
        ? `No explorer is known for the "${profile.network}" network: give the profile an "explorerUrl".`
        : 'No profile is active. Run "Alephium: Add Profile".',
    );
  const target = explorerTargetOf(args) ?? (await targetFromPrompt());
  const url = explorerUrl(explorer, target);
  deps.log.info(`Open in Explorer: ${url}`);
  const opened = await vscode.env.openExternal(vscode.Uri.parse(url, true));
  return { url, opened };
}

const EXPLORER_COMMANDS: CommandTable<ExplorerDeps> = [[CommandIds.openInExplorer, openInExplorer]];

/** What the transaction details page needs of the explorer: whether one is known, and opening a tx there. */
export const txDetailsExplorer = {
  known: (): boolean => activeExplorer() !== undefined,
  open: (txId: string): void => void vscode.commands.executeCommand(CommandIds.openInExplorer, { txId }),
};
