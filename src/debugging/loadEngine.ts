import type * as Engine from './engine';
import { lazyModule } from '../platform/lifecycle';

export type DebuggingEngine = typeof Engine;

/** The scanner and explainer (a chunk of dist/ of its own), loaded once on first use (see `lazyModule`). */
export const loadEngine: () => Promise<DebuggingEngine> = lazyModule(() => import('./engine'));
