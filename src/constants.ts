/** Identifiers shared by package.json and the code. A test checks that the two agree. */
export const EXTENSION_ID = 'alephium-gateway.alephium-gateway';
export const OUTPUT_CHANNEL_NAME = 'Alephium Gateway';

export const ViewIds = {
  container: 'alephium',
  node: 'alephium.node',
  contracts: 'alephium.contracts',
  transactions: 'alephium.transactions',
} as const;

export const CommandIds = {
  showLogs: 'alephium.showLogs',
} as const;

export type CommandId = (typeof CommandIds)[keyof typeof CommandIds];
