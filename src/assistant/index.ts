/**
 * The Alephium language-model tools, registered at activation (cheap: names and two forwarding
 * functions); their code loads on the first invocation (dist/assistantTools.js, see esbuild.js).
 * Each must also be declared in package.json `contributes.languageModelTools`: VS Code refuses to
 * register an undeclared tool.
 */
import * as vscode from 'vscode';
import { REGISTERED_TOOLS } from '../core/assistant/toolNames';
import { lazyModule } from '../platform/lifecycle';
import type * as LmToolsModule from './lmTools';
import type { AssistantToolDeps } from './lmTools';

const lmTools: () => Promise<typeof LmToolsModule> = lazyModule(() => import('./lmTools'));

export function registerLanguageModelTools(deps: AssistantToolDeps): vscode.Disposable[] {
  return REGISTERED_TOOLS.map((name) =>
    vscode.lm.registerTool<unknown>(name, {
      prepareInvocation: async (options) => (await lmTools()).prepare(deps, name, options.input),
      invoke: async (options, token) => (await lmTools()).invoke(deps, name, options.input, token),
    }),
  );
}
