/**
 * The status-bar item's command: its menu of the commands a person reaches for from there. Registered
 * through the command wrapper like every other command, so a failure is logged and shown once with
 * "Show Logs" rather than left to VS Code's bare error.
 */
import * as vscode from 'vscode';
import { inert } from '../core/text/inert';
import { CommandIds } from '../constants';
import { registerCommands, type CommandContext, type CommandTable } from '../platform/commands';
import * as config from '../platform/config';
import { pickOrCancel } from '../platform/prompts';

/** The menu: the chosen command runs with no argument, as from the palette (it asks what it needs). */
async function statusBarActions(): Promise<void> {
  // The icons are this extension's own words (literal parts of inert`…`); the profile name is not.
  const items = [
    { label: inert`$(arrow-swap) Switch Profile`, command: CommandIds.switchProfile },
    { label: inert`$(key) Set API Key`, command: CommandIds.setApiKey },
    { label: inert`$(add) Add Profile`, command: CommandIds.addProfile },
    { label: inert`$(graph) Show Request Usage`, command: CommandIds.showRequestUsage },
    { label: inert`$(output) Show Logs`, command: CommandIds.showLogs },
  ];
  const chosen = await pickOrCancel(items, {
    placeHolder: inert`Alephium Gateway · ${config.activeProfileName() ?? 'no profile'}`,
    ignoreFocusOut: false,
  });
  if (chosen) await vscode.commands.executeCommand(chosen.command);
}

const STATUS_BAR_COMMANDS: CommandTable<CommandContext> = [[CommandIds.statusBarActions, statusBarActions]];

export function registerStatusBarCommands(deps: CommandContext): vscode.Disposable[] {
  return registerCommands(deps, STATUS_BAR_COMMANDS);
}
