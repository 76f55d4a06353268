// Loaded on the first Simulate, Execute or Deploy: esbuild builds it as dist/actionsEngine.js, so the
// script and bytecode code is not part of the activation bundle; nor is the deployments file writer.
export * from '../core/workflows/contractActions';
export { projectRootOf, updateDeploymentsFile } from '../core/artifacts/deploymentsFile';
