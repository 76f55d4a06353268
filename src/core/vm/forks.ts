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

/** Activation times in ms of Leman, Rhone and Danube, from the node's `network_*.conf.tmpl` files. */
export interface ForkActivations {
  readonly leman: number;
  readonly rhone: number;
  readonly danube: number;
}

/** flow/src/main/resources/network_mainnet.conf.tmpl lines 31-33. */
export const MAINNET_FORKS: ForkActivations = {
  leman: 1680170400000,
  rhone: 1718186400000,
  danube: 1752573600000,
};
/** network_testnet.conf.tmpl lines 44-46. */
export const TESTNET_FORKS: ForkActivations = {
  leman: 1676210400000,
  rhone: 1715428800000,
  danube: 1746446400000,
};
/** network_devnet.conf.tmpl lines 25-27: every fork is long active on a devnet. */
export const DEVNET_FORKS: ForkActivations = {
  leman: 1643500800000,
  rhone: 1695571200000,
  danube: 1732666200000,
};

/** The forks of a network id: 0 mainnet, 1 testnet, anything else the devnet template's. */
export function forkActivationsOf(networkId: number): ForkActivations {
  if (networkId === 0) return MAINNET_FORKS;
  if (networkId === 1) return TESTNET_FORKS;
  return DEVNET_FORKS;
}

/** `NetworkConfig.getHardFork`: the latest fork whose activation time is at or before the block time. */
export function hardForkAt(activations: ForkActivations, timeStampMs: number): HardFork {
  if (timeStampMs >= activations.danube) return 'Danube';
  if (timeStampMs >= activations.rhone) return 'Rhone';
  if (timeStampMs >= activations.leman) return 'Leman';
  return 'Genesis';
}
