/**
 * Which token list a profile's network reads: the official list exists for mainnet (network id 0) and
 * testnet (1); a devnet has none, so its tokens are named only by their own contracts.
 */

/** The network id of the token list for a profile's network name, or undefined (devnet, anything else). */
export function tokenListNetworkId(networkName: string): number | undefined {
  const name = networkName.trim().toLowerCase();
  return name === 'mainnet' ? 0 : name === 'testnet' ? 1 : undefined;
}

/** The request cost of naming tokens on chain, in words (for the places that list what a command costs). */
export const TOKEN_METADATA_COST =
  'a token not in the token list costs one multicall per six tokens the first time (then it is cached)';
