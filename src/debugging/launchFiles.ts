/**
 * The files a `ralph` launch names for a contract: its artifact and its `.ral` source as paths of this
 * machine's file system (the adapter reads them there), or undefined when the workspace has no artifact
 * file for it. Shared by Debug Contract Method and Debug Transaction.
 */
import * as vscode from 'vscode';
import type { ContractArtifact } from '../core/artifacts';
import type { Services } from '../services';

export interface LaunchFiles {
  readonly artifactPath: string;
  readonly sourcePath?: string;
}

export async function launchFilesOf(
  deps: Pick<Services, 'artifacts' | 'failures'>,
  artifact: ContractArtifact,
): Promise<LaunchFiles | undefined> {
  const artifactUri = deps.artifacts.uriOf(artifact.file);
  if (!artifactUri || artifactUri.scheme !== 'file') return undefined;
  // The source map knows where the contract is declared; a workspace without it debugs by instruction.
  const sources = await deps.failures.sources.mapFor([artifact.name]).catch(() => undefined);
  const sourceKey = sources?.contract(artifact.name)?.path;
  const sourceUri = sourceKey === undefined ? undefined : vscode.Uri.parse(sourceKey);
  return {
    artifactPath: artifactUri.fsPath,
    ...(sourceUri?.scheme === 'file' ? { sourcePath: sourceUri.fsPath } : {}),
  };
}
