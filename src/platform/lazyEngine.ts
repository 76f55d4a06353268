/**
 * The actions engine (dist/actionsEngine.js), loaded once on the first Send, Sweep, Simulate, Execute or
 * Deploy (see `lazyModule`).
 */
import type * as ActionsEngineModule from './actionsEngine';
import type * as KeyDerivationModule from './keyDerivation';
import type * as TokenListsModule from './tokenLists';
import { lazyModule } from './lifecycle';

export type ActionsEngine = typeof ActionsEngineModule;

export const actionsEngine: () => Promise<ActionsEngine> = lazyModule(() => import('./actionsEngine'));

export type KeyDerivation = typeof KeyDerivationModule;

/** The secp256k1 and BIP39/BIP32 code (dist/keyDerivation.js), loaded once on the first key it is asked about. */
export const keyDerivation: () => Promise<KeyDerivation> = lazyModule(() => import('./keyDerivation'));

export type TokenLists = typeof TokenListsModule;

/** The token catalog and the shipped token lists (dist/tokenLists.js), loaded once on the first token named. */
export const tokenLists: () => Promise<TokenLists> = lazyModule(() => import('./tokenLists'));
