/**
 * Simulate, Execute and Deploy as activation registers them: their ids, and the contract panel's handle on the
 * first two. Their code (prompts, the deploy flow, the deployments writer) is a chunk of its own, loaded on the
 * first run of any of them.
 */
import type * as vscode from 'vscode';
import { CommandIds } from '../constants';
import { registerCommandsOnFirstUse } from '../platform/commands';
import { lazyModule } from '../platform/lifecycle';
import type { ContractActionsDeps } from './contractActionsCommands';
import type { ContractActions } from './panel/host';

export type { ContractActionsDeps } from './contractActionsCommands';

const actionCommands = lazyModule(() => import('./contractActionsCommands'));

const CONTRACT_ACTION_IDS = [
  CommandIds.simulateContractMethod,
  CommandIds.executeContractMethod,
  CommandIds.deployContract,
  CommandIds.debugContractMethod,
] as const;

export function registerContractActions(deps: ContractActionsDeps): vscode.Disposable[] {
  return registerCommandsOnFirstUse(
    deps,
    CONTRACT_ACTION_IDS,
    async () => (await actionCommands()).CONTRACT_ACTIONS,
  );
}

/** Simulate and Execute for the contract panel: the same functions and wrapper as the commands. */
export function contractActions(deps: ContractActionsDeps): ContractActions {
  return {
    simulate: async (request) => (await actionCommands()).contractActions(deps).simulate(request),
    execute: async (request) => (await actionCommands()).contractActions(deps).execute(request),
    debug: async (request) => (await actionCommands()).contractActions(deps).debug(request),
  };
}
