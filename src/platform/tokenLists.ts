/**
 * The token catalog and the official token lists (`@alephium/token-list`, about 105 KB of JSON), loaded
 * on first use as a chunk of its own (its `import()` in platform/lazyEngine.ts), so activation carries none of it.
 */
import mainnetList from '@alephium/token-list/dist/tokens/mainnet.json';
import testnetList from '@alephium/token-list/dist/tokens/testnet.json';
import {
  parseTokenList,
  TokenCatalog,
  type TokenCallPort,
  type TokenList,
  type TokenMetaStore,
} from '../core/tokens';

const LISTS: ReadonlyMap<number, unknown> = new Map<number, unknown>([
  [0, mainnetList],
  [1, testnetList],
]);

/** The shipped list of `networkId` (0 mainnet, 1 testnet); an empty one for any other network. */
export function shippedTokenList(networkId: number | undefined): TokenList {
  return networkId === undefined ? new Map() : parseTokenList(LISTS.get(networkId), networkId);
}

/** A catalog over the shipped list of `listNetworkId`, asking contracts through `call`, kept in `store`. */
export function newTokenCatalog(
  listNetworkId: number | undefined,
  call: TokenCallPort,
  store: TokenMetaStore,
): TokenCatalog {
  return new TokenCatalog(shippedTokenList(listNetworkId), call, store);
}
