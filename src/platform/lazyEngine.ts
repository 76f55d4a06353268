/**
 * The actions engine (dist/actionsEngine.js), loaded once on the first Send, Sweep, Simulate, Execute or
 * Deploy (see `lazyModule`).
 */
import type * as ActionsEngineModule from './actionsEngine';
import { lazyModule } from './lifecycle';

export type ActionsEngine = typeof ActionsEngineModule;

export const actionsEngine: () => Promise<ActionsEngine> = lazyModule(() => import('./actionsEngine'));
