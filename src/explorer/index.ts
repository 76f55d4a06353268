/** Open in Explorer: the command, its context key, and the details page's port. */
export { registerExplorer, txDetailsExplorer, activeExplorer } from './explorerFeature';
