/**
 * The hard forks (`model/HardFork.scala`): versions 0 to 3, ordered. "Mainnet" is the node's name for
 * the genesis rules; this module calls it `Genesis` in text, and keeps the order that gates
 * instructions (`checkLemanHardFork`, `checkRhoneHardFork`, `checkDanubeHardFork` in `Context.scala`).
 */
export const HARD_FORKS = ['Genesis', 'Leman', 'Rhone', 'Danube'] as const;
export type HardFork = (typeof HARD_FORKS)[number];

export function forkVersion(fork: HardFork): number {
  return HARD_FORKS.indexOf(fork);
}

/** Whether rules introduced at `since` apply under `active`. */
export function isForkEnabled(active: HardFork, since: HardFork): boolean {
  return forkVersion(active) >= forkVersion(since);
}
