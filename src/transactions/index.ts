/** What other features may take from the transactions feature: the tracked transactions store. */
export type { TrackedTransactions } from './trackedTransactions';
/** What the debugging feature's Explain Transaction hands to the details panels ("What happened"). */
export type { TxExplanationsView } from './txDetails/host';
