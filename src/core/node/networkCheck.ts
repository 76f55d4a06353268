/**
 * Which node a profile's network name may talk to: `mainnet` is network id 0, `testnet` 1, and any other
 * name (devnet, a local chain) is any id but those two. The same rule pins signing (core/signing
 * signingPath.ts `networkPin`); here it is checked at connect, so a mismatch is said at once, not at the
 * first signature.
 */

export const MAINNET_ID = 0;
export const TESTNET_ID = 1;
/** The CLI's and the full node's devnet id. */
export const DEVNET_ID = 4;

/** The network ids a profile of this network name accepts: one id, or any id but the refused ones. */
export function acceptedNetworkIds(
  profileNetwork: string,
): { readonly exactly: number } | { readonly refused: readonly number[] } {
  if (profileNetwork === 'mainnet') return { exactly: MAINNET_ID };
  if (profileNetwork === 'testnet') return { exactly: TESTNET_ID };
  return { refused: [MAINNET_ID, TESTNET_ID] };
}

function nameOfId(id: number): string {
  return id === MAINNET_ID
    ? 'mainnet'
    : id === TESTNET_ID
      ? 'testnet'
      : id === DEVNET_ID
        ? 'a devnet'
        : 'a local network';
}

/**
 * Undefined when a profile named `profileNetwork` may talk to a node on `nodeNetworkId`; otherwise the
 * sentence that says what is wrong (for the Node view and a warning).
 */
export function networkMismatch(profileNetwork: string, nodeNetworkId: number): string | undefined {
  const accepted = acceptedNetworkIds(profileNetwork);
  const ok =
    'exactly' in accepted ? nodeNetworkId === accepted.exactly : !accepted.refused.includes(nodeNetworkId);
  if (ok) return undefined;
  const node = `the node is on ${nameOfId(nodeNetworkId)} (network id ${nodeNetworkId})`;
  const profile =
    'exactly' in accepted
      ? `the profile's network is ${profileNetwork} (network id ${accepted.exactly})`
      : `the profile's network is "${profileNetwork}", which may not be mainnet or testnet`;
  return `Network mismatch: ${profile}, but ${node}. Nothing will be signed until they agree: fix the profile's network or its URL.`;
}
