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
  // profiles and keys
  addProfile: 'alephium.addProfile',
  switchProfile: 'alephium.switchProfile',
  removeProfile: 'alephium.removeProfile',
  setApiKey: 'alephium.setApiKey',
  removeApiKey: 'alephium.removeApiKey',
  importSignerKey: 'alephium.importSignerKey',
  showSignerAddress: 'alephium.showSignerAddress',
  forgetSignerKey: 'alephium.forgetSignerKey',
  // transactions
  sendTransfer: 'alephium.sendTransfer',
  sweepAddress: 'alephium.sweepAddress',
  decodeUnsignedTx: 'alephium.decodeUnsignedTx',
  trackTransaction: 'alephium.trackTransaction',
  showTransaction: 'alephium.showTransaction',
  untrackTransaction: 'alephium.untrackTransaction',
  // contracts and events
  watchContract: 'alephium.watchContract',
  unwatchContract: 'alephium.unwatchContract',
  refreshContracts: 'alephium.refreshContracts',
  showLatestEvents: 'alephium.showLatestEvents',
  eventsByTxId: 'alephium.eventsByTxId',
  eventsByBlockHash: 'alephium.eventsByBlockHash',
  copyValue: 'alephium.copyValue',
  loadMoreEvents: 'alephium.loadMoreEvents',
  callContractMethod: 'alephium.callContractMethod',
  goToDeclaration: 'alephium.goToDeclaration',
  identifyAddress: 'alephium.identifyAddress',
  openContractPanel: 'alephium.openContractPanel',
  simulateContractMethod: 'alephium.simulateContractMethod',
  executeContractMethod: 'alephium.executeContractMethod',
  deployContract: 'alephium.deployContract',
  // node and status bar
  refreshNode: 'alephium.refreshNode',
  addressInfo: 'alephium.addressInfo',
  blocksInTimeRange: 'alephium.blocksInTimeRange',
  statusBarActions: 'alephium.statusBarActions',
  showRequestUsage: 'alephium.showRequestUsage',
} as const;

export type CommandId = (typeof CommandIds)[keyof typeof CommandIds];
