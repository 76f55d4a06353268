/**
 * The actions engine (a chunk of dist/ of its own), loaded once on the first Send, Sweep, Simulate, Execute or
 * Deploy (see `lazyModule`).
 */
import type * as ActionsEngineModule from './actionsEngine';
import type * as KeyDerivationModule from './keyDerivation';
import type * as TokenListsModule from './tokenLists';
import type * as ProjectsEngineModule from './projectsEngine';
import { lazyModule } from './lifecycle';

export type ActionsEngine = typeof ActionsEngineModule;

export const actionsEngine: () => Promise<ActionsEngine> = lazyModule(() => import('./actionsEngine'));

export type KeyDerivation = typeof KeyDerivationModule;

/** The secp256k1 and BIP39/BIP32 code (a chunk of its own), loaded once on the first key it is asked about. */
export const keyDerivation: () => Promise<KeyDerivation> = lazyModule(() => import('./keyDerivation'));

export type TokenLists = typeof TokenListsModule;

/** The token catalog and the shipped token lists (a chunk of dist/ of its own), loaded once on the first token named. */
export const tokenLists: () => Promise<TokenLists> = lazyModule(() => import('./tokenLists'));

export type ProjectsEngine = typeof ProjectsEngineModule;

/** The alephium.config.* reader and the devnet preset (a chunk of dist/ of its own), loaded on the first project read. */
export const projectsEngine: () => Promise<ProjectsEngine> = lazyModule(() => import('./projectsEngine'));
