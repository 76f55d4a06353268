/** What other features may take from the transactions feature: the tracked transactions store. */
export type { TrackedTransactions } from './trackedTransactions';
