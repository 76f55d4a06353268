/** Alephium protocol core: plain Node, no VS Code. Addresses, amounts and tx bytes. */
export * from './errors';
export * from './hex';
export * from './hash';
export * from './units';
export * from './format';
export * from './codec';
export * from './address';
// Not the keys (./keys): the secp256k1 curve code would be reachable from every importer of this barrel, the
// activation chunk included. Signing and key derivation import it by its path.
export * from './unsignedTx';
export * from './script';
export * from './balances';
