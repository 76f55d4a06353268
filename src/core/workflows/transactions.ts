/** "Money moves" (issue #5): verify-before-sign, confirmation, send/sweep, tracking and tx summaries. */
export * from './verifyTransfer';
export * from './confirmation';
export * from './sendTransfer';
export * from './txTracker';
export * from './txSummary';
