// Loaded on first use as a chunk of its own (its `import()` in platform/lazyEngine.ts): reading alephium.config.*
// (a tokenizer) and the devnet preset load with the first read of the workspace's projects, not with
// activation. Import it only through `projectsEngine()` (lazyEngine.ts).
export {
  MAX_PROJECT_CONFIG_CHARS,
  projectFilesGlob,
  readProjectConfig,
} from '../core/artifacts/projectConfig';
export { nearestProjectRoot } from '../core/artifacts/projectRoots';
export { devnetPreset, devnetPresetDescription, devnetPresetLabel } from '../core/profiles/devnetPreset';
