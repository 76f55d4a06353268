/**
 * The well-known devnet test key of `@alephium/cli`, and the one rule for when it may be offered.
 *
 * Source: `@alephium/cli` (3.0.4) `src/types.ts`, `DEFAULT_CONFIGURATION_VALUES.networks.devnet.privateKeys[0]`,
 * the key every `npx @alephium/cli init` project's devnet config starts with. It is the first key of the
 * test mnemonic ("vault alarm sad …") that the devnet's `user.conf` (alephium-stack `devnet/devnet.conf`,
 * the CLI's `devnet-user.conf`) allocates genesis ALPH to: its address is
 * `1DrDyTr9RpRsQnDnXo2YRiPzPW4ooHX5LLoqXrqfMrpQH`, the first genesis allocation (a unit test derives it).
 *
 * It is public: anyone can spend from it, on any network. So it is offered only for a profile whose
 * network may not be mainnet or testnet (the rule of core/node/networkCheck.ts, the same one that pins
 * signing), and never when the node was seen on mainnet or testnet.
 */
import { acceptedNetworkIds } from '../node/networkCheck';
import { isMainnet } from './confirmPolicy';

export const DEVNET_TEST_PRIVATE_KEY = 'a642942e67258589cd2b1822c631506632db5a12aabcf413604e785300d762a5';
/** The genesis address of that key on the CLI's devnet (group 0). */
export const DEVNET_TEST_ADDRESS = '1DrDyTr9RpRsQnDnXo2YRiPzPW4ooHX5LLoqXrqfMrpQH';

/** The words that go wherever the key is offered: what it is, and that it is not a secret. */
export const DEVNET_TEST_KEY_LABEL = "@alephium/cli's default devnet test key";
export const DEVNET_TEST_KEY_WARNING = 'public test key — anyone can spend from it; devnet only';

/**
 * Whether the CLI's devnet test key may be offered for a profile of network `profileNetwork`: only when
 * that network accepts neither mainnet nor testnet, and the node (when its id is known) is on neither.
 */
export function devnetTestKeyOffered(profileNetwork: string | undefined, nodeNetworkId?: number): boolean {
  if (profileNetwork === undefined) return false;
  const name = profileNetwork.trim().toLowerCase();
  // Any spelling of mainnet or testnet is refused, even one the network rule would read as a local chain.
  if (isMainnet(undefined, name) || name === 'testnet') return false;
  // The ids the network rule refuses for such a profile are those of mainnet and testnet.
  const accepted = acceptedNetworkIds(name);
  return 'refused' in accepted && (nodeNetworkId === undefined || !accepted.refused.includes(nodeNetworkId));
}

/** What a person types into Import Signer Key's box, on a devnet profile, to take the test key. */
export const DEVNET_TEST_KEY_WORD = 'devnet';

/**
 * The test key, when `typed` asks for it and it may be offered for this profile (see
 * {@link devnetTestKeyOffered}); undefined otherwise, so on mainnet or testnet the word is just a bad key.
 */
export function devnetTestKeyChosen(
  typed: string,
  profileNetwork: string | undefined,
  nodeNetworkId?: number,
): string | undefined {
  return typed.trim().toLowerCase() === DEVNET_TEST_KEY_WORD &&
    devnetTestKeyOffered(profileNetwork, nodeNetworkId)
    ? DEVNET_TEST_PRIVATE_KEY
    : undefined;
}
