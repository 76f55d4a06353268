import type * as Engine from './engine';

export type DebuggingEngine = typeof Engine;

let loading: Promise<DebuggingEngine> | undefined;

/**
 * The engine, loaded once. esbuild maps `./engine` to the separate `./debuggingEngine.js` (esbuild.js), so
 * this `import()` is a `require` of that file at run time; under tsx it is the module itself.
 */
export function loadEngine(): Promise<DebuggingEngine> {
  loading ??= import('./engine').catch((error: unknown) => {
    loading = undefined; // a later use may try again
    throw error;
  });
  return loading;
}
