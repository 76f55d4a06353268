/**
 * VS Code glue of the deployments file writer: finds the workspace folder that holds the deployed
 * artifact and its project (the folder of the nearest `alephium.config.*` above it, with the config's
 * `deploymentsDir`; without a config, the parent of its `artifacts/`), and hands the rest to
 * core/artifacts/deploymentsFile.ts, which decides where the file may be written (inside that folder,
 * no links, a plain network name and folder) and writes it atomically.
 */
import * as vscode from 'vscode';
import type { ContractArtifact } from '../core/artifacts';
import type { WorkspaceArtifacts } from './workspaceArtifacts';
import { actionsEngine } from '../platform/lazyEngine';

/** The folder of the artifact's file; with no known file, the workspace's only folder (never a guess). */
function folderOf(artifactUri: vscode.Uri | undefined): vscode.WorkspaceFolder {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const folder = artifactUri
    ? vscode.workspace.getWorkspaceFolder(artifactUri)
    : folders.length === 1
      ? folders[0]
      : undefined;
  if (!folder)
    throw new Error(
      'The deployed artifact is not in a workspace folder, so there is no project to write its deployments file into.',
    );
  if (folder.uri.scheme !== 'file')
    throw new Error(
      `The deployments file is written only to a folder on disk, not to ${folder.uri.scheme}:.`,
    );
  return folder;
}

/**
 * Adds a deployment to `<deploymentsDir>/.deployments.<network>.json` of the project that holds `artifact`;
 * `merge` turns the file's current text (undefined when there is none) into the new text, keeping every
 * entry (core/contracts/actions.ts `addDeployment`). Resolves with the file as shown to people
 * and the name the entry got.
 */
export async function writeDeploymentsEntry(
  artifacts: Pick<WorkspaceArtifacts, 'uriOf' | 'projectOf'>,
  artifact: ContractArtifact,
  network: string,
  merge: (existing: string | undefined) => Promise<{ text: string; name: string }>,
): Promise<{ file: string; name: string }> {
  const artifactUri = artifacts.uriOf(artifact.file);
  const folder = folderOf(artifactUri);
  // The writer comes with Deploy's lazy bundle (a chunk of dist/ of its own), not with activation.
  const { projectRootOf, updateDeploymentsFile } = await actionsEngine();
  const project = artifactUri ? await artifacts.projectOf(folder, artifactUri) : undefined;
  const root = project?.root.fsPath ?? projectRootOf(folder.uri.fsPath, artifactUri?.fsPath);
  const written = await updateDeploymentsFile(
    folder.uri.fsPath,
    network,
    merge,
    root,
    project?.config.deploymentsDir,
  );
  const shown =
    (vscode.workspace.workspaceFolders?.length ?? 0) > 1 ? `${folder.name}/${written.shown}` : written.shown;
  return { file: shown, name: written.name };
}
