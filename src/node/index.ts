/**
 * The node commands as activation registers them. Refresh runs on the Node view at hand; the address and
 * block queries (and their documents) are a chunk of their own, registered by id and loaded on the first
 * run of either.
 */
import type * as vscode from 'vscode';
import { CommandIds } from '../constants';
import { registerCommands, registerCommandsOnFirstUse, type CommandTable } from '../platform/commands';
import type { NodeCommandDeps } from './nodeCommands';
import type { NodeTreeProvider } from './nodeView';

export type { BlocksInTimeRangeResult, NodeCommandDeps } from './nodeCommands';

/** The node commands' services, and the Node view whose Refresh they run. */
export type NodeViewCommandDeps = NodeCommandDeps & { readonly nodeTree: Pick<NodeTreeProvider, 'refresh'> };

/** The Node view's refresh button (and `executeCommand` callers): reads the node's status again. */
function refreshNode(deps: NodeViewCommandDeps): Promise<void> {
  return deps.nodeTree.refresh();
}

const NODE_VIEW_COMMANDS: CommandTable<NodeViewCommandDeps> = [[CommandIds.refreshNode, refreshNode]];

const NODE_COMMAND_IDS = [CommandIds.addressInfo, CommandIds.blocksInTimeRange] as const;

export function registerNodeCommands(deps: NodeViewCommandDeps): vscode.Disposable[] {
  return [
    ...registerCommands(deps, NODE_VIEW_COMMANDS),
    ...registerCommandsOnFirstUse(
      deps,
      NODE_COMMAND_IDS,
      async () => (await import('./nodeCommands')).NODE_COMMANDS,
    ),
  ];
}
