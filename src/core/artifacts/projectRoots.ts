/**
 * Which `@alephium/cli` project a file belongs to, when the workspace's projects are known by the
 * folders of their `alephium.config.*`: the nearest such folder above the file, inside the workspace
 * folder. Pure path arithmetic on absolute paths (real paths are checked when anything is written).
 */
import * as path from 'node:path';

/** `child` is `parent` or below it (both absolute, resolved). */
function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * The deepest of `projectRoots` that holds `file` and lies inside `workspaceFolder`, or undefined when
 * none does (the caller falls back to the rule without a config). A config outside the workspace folder
 * never makes a project: the deployments file must stay inside the folder.
 */
export function nearestProjectRoot(
  workspaceFolder: string,
  projectRoots: readonly string[],
  file: string,
): string | undefined {
  const folder = path.resolve(workspaceFolder);
  const resolvedFile = path.resolve(file);
  let best: string | undefined;
  for (const root of projectRoots) {
    const candidate = path.resolve(root);
    if (!isInside(folder, candidate) || !isInside(candidate, resolvedFile)) continue;
    if (best === undefined || candidate.length > best.length) best = candidate;
  }
  return best;
}
