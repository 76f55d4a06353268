/**
 * The profile commands as activation registers them: their ids only. Their code (prompts, checks, key import)
 * is a chunk of its own, loaded on the first run of any of them.
 */
import type * as vscode from 'vscode';
import { CommandIds } from '../constants';
import { registerCommandsOnFirstUse } from '../platform/commands';
import type { ProfileDeps } from './profileCommands';

export type { ProfileDeps } from './profileCommands';

const PROFILE_COMMAND_IDS = [
  CommandIds.addProfile,
  CommandIds.switchProfile,
  CommandIds.removeProfile,
  CommandIds.setApiKey,
  CommandIds.removeApiKey,
  CommandIds.importSignerKey,
  CommandIds.showSignerAddress,
  CommandIds.forgetSignerKey,
] as const;

export function registerProfileCommands(deps: ProfileDeps): vscode.Disposable[] {
  return registerCommandsOnFirstUse(
    deps,
    PROFILE_COMMAND_IDS,
    async () => (await import('./profileCommands')).PROFILE_COMMANDS,
  );
}
