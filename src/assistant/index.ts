/**
 * The Alephium language-model tools, registered at activation (cheap: names and two forwarding
 * functions); their code loads on the first invocation (a chunk of dist/ of its own, see esbuild.js).
 * Each must also be declared in package.json `contributes.languageModelTools`: VS Code refuses to
 * register an undeclared tool.
 */
import * as vscode from 'vscode';
import { ToolSessionBudget } from '../core/assistant/toolBudget';
import { REGISTERED_TOOLS } from '../core/assistant/toolNames';
import { lazyModule } from '../platform/lifecycle';
import type * as LmToolsModule from './lmTools';
import type { AssistantToolDeps } from './lmTools';

const lmTools: () => Promise<typeof LmToolsModule> = lazyModule(() => import('./lmTools'));

export function registerLanguageModelTools(deps: Omit<AssistantToolDeps, 'budget'>): vscode.Disposable[] {
  // One budget for every tool, for the session: a loop across tools is one loop.
  const withBudget: AssistantToolDeps = { ...deps, budget: new ToolSessionBudget(() => Date.now()) };
  return REGISTERED_TOOLS.map((name) =>
    vscode.lm.registerTool<unknown>(name, {
      prepareInvocation: async (options) => (await lmTools()).prepare(withBudget, name, options.input),
      invoke: async (options, token) => (await lmTools()).invoke(withBudget, name, options.input, token),
    }),
  );
}
