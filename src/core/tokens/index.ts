export { TokenCatalog, metaFromOutcomes, type TokenCallPort, type TokenMetaStore } from './catalog';
export { tokenAmountShort, tokenAmountText } from './describe';
export { cleanTokenLabel, type TokenMeta, type TokenSource } from './metadata';
export { parseTokenList, type TokenList } from './tokenList';
export { formatTokenAmount, formatUnits, groupThousands, MAX_TOKEN_DECIMALS } from './units';
export { tokenListNetworkId, TOKEN_METADATA_COST } from './network';
