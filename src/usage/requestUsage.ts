/**
 * What activation registers for the Request Usage view: its command and the serializer that restores it
 * after a reload. The panel itself (its model, its HTML) is loaded on first use from
 * a chunk of dist/ of its own (`lazyModule`), so activation carries none of it.
 */
import * as vscode from 'vscode';
import { REQUEST_USAGE_VIEW_TYPE } from '../core/usage/usageProtocol';
import { CommandIds } from '../constants';
import { registerCommands, type CommandTable } from '../platform/commands';
import { lazyModule } from '../platform/lifecycle';
import type * as PanelModule from './panel/host';
import type { RequestUsageDeps, RequestUsagePanel, RequestUsageSnapshot } from './panel/host';

export type { RequestUsageSnapshot };

export interface RequestUsageFeature {
  /** What the view shows, when it is open. */
  snapshot(): RequestUsageSnapshot | undefined;
  readonly disposables: vscode.Disposable[];
}

/** The view's services, and its one panel, loaded on first use. */
type RequestUsageCommandDeps = RequestUsageDeps & { readonly panel: () => Promise<RequestUsagePanel> };

/** "Alephium: Show Request Usage" (also in the status bar's actions). Returns the model it drew. */
function showRequestUsage(deps: RequestUsageCommandDeps): ReturnType<RequestUsagePanel['show']> {
  return deps.panel().then((panel) => panel.show());
}

const REQUEST_USAGE_COMMANDS: CommandTable<RequestUsageCommandDeps> = [
  [CommandIds.showRequestUsage, showRequestUsage],
];

/** The Request Usage view's command and serializer; the panel loads on the first of them. */
export function registerRequestUsage(deps: RequestUsageDeps): RequestUsageFeature {
  let loaded: RequestUsagePanel | undefined;
  const panel = lazyModule(async (): Promise<RequestUsagePanel> => {
    const m: typeof PanelModule = await import('./panel/host');
    return (loaded = new m.RequestUsagePanel(deps));
  });
  return {
    snapshot: () => loaded?.snapshot(),
    disposables: [
      ...registerCommands({ ...deps, panel }, REQUEST_USAGE_COMMANDS),
      vscode.window.registerWebviewPanelSerializer(REQUEST_USAGE_VIEW_TYPE, {
        deserializeWebviewPanel: async (restored) => (await panel()).revive(restored),
      }),
      { dispose: () => loaded?.dispose() },
    ],
  };
}
