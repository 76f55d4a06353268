/** Alephium protocol core: plain Node, no VS Code. Addresses, keys, signing, amounts and tx bytes. */
export * from './errors';
export * from './hex';
export * from './hash';
export * from './units';
export * from './format';
export * from './codec';
export * from './address';
export * from './keys';
export * from './unsignedTx';
export * from './script';
export * from './balances';
