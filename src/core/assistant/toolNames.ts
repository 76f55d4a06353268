/**
 * The names of the Alephium language-model tools, as package.json declares them
 * (`contributes.languageModelTools`). Apart from their checks, so that registering them at activation
 * carries nothing else.
 */
export const TOOL_NAMES = {
  contractState: 'alephium_contractState',
  recentEvents: 'alephium_recentEvents',
  decodeUnsignedTx: 'alephium_decodeUnsignedTx',
  explainTransaction: 'alephium_explainTransaction',
} as const;

export type ToolName = (typeof TOOL_NAMES)[keyof typeof TOOL_NAMES];

/**
 * The tools this build declares in package.json and registers (a tool that is registered but not
 * declared is refused by VS Code).
 */
export const REGISTERED_TOOLS: readonly ToolName[] = [
  TOOL_NAMES.contractState,
  TOOL_NAMES.recentEvents,
  TOOL_NAMES.decodeUnsignedTx,
  TOOL_NAMES.explainTransaction,
];
