import type * as Engine from './engine';
import { lazyModule } from '../platform/lifecycle';

export type DebuggingEngine = typeof Engine;

/** The scanner and explainer (dist/debuggingEngine.js), loaded once on first use (see `lazyModule`). */
export const loadEngine: () => Promise<DebuggingEngine> = lazyModule(() => import('./engine'));
