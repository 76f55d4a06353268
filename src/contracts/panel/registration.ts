/**
 * What activation registers for the contract panel: "Alephium: Open Contract Panel" and the serializer
 * that restores panels after a reload. The panels themselves (host.ts, the model, the runs of Simulate
 * and Execute) load on first use from a chunk of dist/ of its own, so activation carries none of them.
 */
import * as vscode from 'vscode';
import { CONTRACT_PANEL_VIEW_TYPE } from '../../core/contracts/panelProtocol';
import { CommandIds } from '../../constants';
import { inert } from '../../core/text/inert';
import { registerCommands, type CommandTable } from '../../platform/commands';
import { lazyModule } from '../../platform/lifecycle';
import { watchedOrPick } from '../contractsService';
import type * as HostModule from './host';
import type { ContractPanelDeps, ContractPanels, ContractPanelSnapshot } from './host';

/** The panels in the extension's API: what they show, and the page's side for tests and automation. */
export interface ContractPanelApi {
  /** The panel of that address, or the one opened last. */
  contractPanelSnapshot(address?: string): ContractPanelSnapshot | undefined;
  /**
   * Delivers a message as the page of that address's panel would send it, through the same host-side
   * checks (a form that does not pass them runs nothing). Resolves when the run it starts has ended.
   */
  contractPanelMessage(address: string, message: unknown): Promise<void>;
}

export interface ContractPanelFeature {
  readonly api: ContractPanelApi;
  readonly disposables: vscode.Disposable[];
}

/** The panel's services, and the panels, loaded on first use. */
type ContractPanelCommandDeps = ContractPanelDeps & { readonly panels: () => Promise<ContractPanels> };

/**
 * Open Contract Panel. The argument is a contract address, `{address}` or a Watched Contracts tree element
 * (which carries `address`); without one it asks with the picker of the other contract commands.
 */
async function openContractPanel(
  deps: ContractPanelCommandDeps,
  args: unknown,
): Promise<{ address: string; methods: string[] }> {
  const address =
    typeof args === 'string'
      ? args.trim()
      : (await watchedOrPick(deps.contracts, args, inert`Open Contract Panel`)).address;
  const panel = await (await deps.panels()).show(address);
  const model = panel.snapshot().model;
  return { address, methods: model?.methods.map((m) => m.name) ?? [] };
}

const CONTRACT_PANEL_COMMANDS: CommandTable<ContractPanelCommandDeps> = [
  [CommandIds.openContractPanel, openContractPanel],
];

export function registerContractPanel(deps: ContractPanelDeps): ContractPanelFeature {
  let loaded: ContractPanels | undefined;
  const panels = lazyModule(async (): Promise<ContractPanels> => {
    const m: typeof HostModule = await import('./host');
    return (loaded = new m.ContractPanels(deps));
  });
  const api: ContractPanelApi = {
    contractPanelSnapshot: (address) => loaded?.snapshot(address),
    contractPanelMessage: async (address, message) => {
      const panel = loaded?.get(address);
      if (!panel) throw new Error(`No contract panel is open for ${address}.`);
      await panel.deliver(message);
    },
  };
  return {
    api,
    disposables: [
      ...registerCommands({ ...deps, panels }, CONTRACT_PANEL_COMMANDS),
      vscode.window.registerWebviewPanelSerializer(CONTRACT_PANEL_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel, state) =>
          (await panels()).deserializeWebviewPanel(panel, state),
      }),
      { dispose: () => loaded?.dispose() },
    ],
  };
}
