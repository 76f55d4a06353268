/**
 * What other features may take from the contracts feature (ESLint keeps them out of its other files):
 * the service every view receives by name, the one artifacts service, and the tree's element type.
 */
export type { ContractsService } from './contractsService';
export type { ContractNode } from './contractsTree';
export type { WorkspaceArtifacts } from './workspaceArtifacts';
