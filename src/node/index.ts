/**
 * The node commands as activation registers them: their ids only. Their code (the address and block queries
 * and their documents) is a chunk of its own, loaded on the first run of either.
 */
import type * as vscode from 'vscode';
import { CommandIds } from '../constants';
import { registerCommandsOnFirstUse } from '../platform/commands';
import type { NodeCommandDeps } from './nodeCommands';

export type { BlocksInTimeRangeResult, NodeCommandDeps } from './nodeCommands';

const NODE_COMMAND_IDS = [CommandIds.addressInfo, CommandIds.blocksInTimeRange] as const;

export function registerNodeCommands(deps: NodeCommandDeps): vscode.Disposable[] {
  return registerCommandsOnFirstUse(
    deps,
    NODE_COMMAND_IDS,
    async () => (await import('./nodeCommands')).NODE_COMMANDS,
  );
}
