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
  debugContractMethod: 'alephium.debugContractMethod',
  debugTransaction: 'alephium.debugTransaction',
  gasReport: 'alephium.gasReport',
  explainTransaction: 'alephium.explainTransaction',
  eventWhatChanged: 'alephium.eventWhatChanged',
  openInExplorer: 'alephium.openInExplorer',
  // node and status bar
  refreshNode: 'alephium.refreshNode',
  addressInfo: 'alephium.addressInfo',
  blocksInTimeRange: 'alephium.blocksInTimeRange',
  statusBarActions: 'alephium.statusBarActions',
  showRequestUsage: 'alephium.showRequestUsage',
} as const;

export type CommandId = (typeof CommandIds)[keyof typeof CommandIds];

/** Built-in VS Code commands the extension runs. */
export const BuiltinCommands = {
  setContext: 'setContext',
} as const;

/** Context keys the extension sets (`setContext`), read by package.json `when` clauses. */
export const ContextKeys = {
  /** True while the active profile has (or can have) a client. */
  connected: 'alephium.connected',
  /** True while the active profile has an explorer (its own `explorerUrl`, or mainnet's and testnet's). */
  explorerKnown: 'alephium.explorerKnown',
  // The "Get started" walkthrough's steps complete on these (`onContext:`), set in src/onboarding.
  walkthroughConnected: 'alephium.walkthrough.connected',
  walkthroughSigner: 'alephium.walkthrough.signer',
  walkthroughWatched: 'alephium.walkthrough.watched',
  walkthroughSimulated: 'alephium.walkthrough.simulated',
  walkthroughDeployed: 'alephium.walkthrough.deployed',
} as const;

/** The `contextValue` of tree rows, matched by package.json `viewItem` clauses. */
export const TreeItemContexts = {
  nodeRow: 'alephium.node.row',
  txPending: 'alephium.tx.pending',
  txDone: 'alephium.tx.done',
  /** A finished transaction that failed (its script, or never confirmed): Explain Transaction inline. */
  txFailed: 'alephium.tx.failed',
  contract: 'alephium.contract',
  contractDrift: 'alephium.contract.drift',
  contractState: 'alephium.contractState',
  contractEvents: 'alephium.contractEvents',
  value: 'alephium.value',
  event: 'alephium.event',
  loadMore: 'alephium.loadMore',
  message: 'alephium.message',
} as const;

/**
 * Every key the extension stores under: workspaceState (per project), globalState (per machine) and
 * SecretStorage. A renamed key loses what users stored under the old one.
 */
export const StorageKeys = {
  /** workspaceState: tracked transactions belong to the project they were sent from. */
  trackedTransactions: 'alephium.trackedTransactions',
  /** workspaceState: a profile's watch list, per workspace and per profile. */
  watchList: (profileName: string): string => `alephium.watchedContracts.${profileName}`,
  /** workspaceState: prefix of the watcher's cursors; a cursor only means something on its profile's chain. */
  eventCursorPrefix: (profileName: string): string => `alephium.eventCursor.${profileName}.`,
  /** workspaceState: what each method cost when it last ran, per code hash (lenses and the Gas Report). */
  gasMemory: 'alephium.gasMemory',
  /** globalState: whether the Ralph extension was offered once (it is never offered again). */
  ralphExtensionOffered: 'alephium.ralphExtensionOffered',
  /** globalState: the request ledger of every key. */
  monthlyUsage: 'alephium.monthlyUsage',
  /** globalState: this month's background activity and spending of a profile (the scheduler's pace). */
  backgroundActivity: (profileName: string): string => `alephium.backgroundActivity.${profileName}`,
  /** globalState: token metadata read from token contracts, per network (a token's names never change). */
  tokenMetadata: (network: string): string => `alephium.tokenMetadata.${network}`,
  /** SecretStorage: prefix of each profile's API key. */
  apiKeyPrefix: 'alephium.apiKey.',
  /** SecretStorage: the signer's private key. */
  signerKey: 'alephium.signerKey',
  /** SecretStorage: the signer's public key, stored beside it so that building never needs the private key. */
  signerPublicKey: 'alephium.signerPublicKey',
  /** SecretStorage and globalState: the generation of the last secret stored (is SecretStorage kept?). */
  secretsGeneration: 'alephium.secretsGeneration',
} as const;
