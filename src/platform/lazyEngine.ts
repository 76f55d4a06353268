/**
 * The actions engine (dist/actionsEngine.js), loaded once on first use. esbuild maps the dynamic
 * `import('./actionsEngine')` of this folder to the separate file (esbuild.js, LAZY_MODULES); under tsx
 * it is the module itself. A failed load is forgotten, so the next command tries again.
 */
import type * as ActionsEngineModule from './actionsEngine';

export type ActionsEngine = typeof ActionsEngineModule;

let engine: Promise<ActionsEngine> | undefined;

export function actionsEngine(): Promise<ActionsEngine> {
  engine ??= import('./actionsEngine').catch((error: unknown) => {
    engine = undefined;
    throw error;
  });
  return engine;
}
