/**
 * What the user is told about deployments entries that were left out: each is a Problem at its key
 * (the glue's DiagnosticCollection, rebuilt on every read) and a warning once per entry problem, not
 * on every re-read of the workspace (a compiler rewrites the folder dozens of times).
 */
import { isDeploymentsPath } from './deployments';
import type { ArtifactError } from './errors';
import { plainText } from '../text/inert';

/** Remembered problems beyond this are not warned about again (a workspace cannot grow the set without bound). */
const MAX_REMEMBERED = 2000;

/** The problems of the registry that belong in the Problems view of a deployments file. */
export function deploymentsFileProblems(problems: readonly ArtifactError[]): ArtifactError[] {
  return problems.filter((p) => p.file !== undefined && isDeploymentsPath(p.file));
}

/**
 * The warnings to show for this read: one per deployments file with problems not warned about before
 * (`warned` remembers them across reads). Empty when every problem was already said.
 */
export function newDeploymentWarnings(problems: readonly ArtifactError[], warned: Set<string>): string[] {
  const byFile = new Map<string, ArtifactError[]>();
  for (const p of deploymentsFileProblems(problems)) {
    const key = `${p.file ?? ''}\u0000${p.message}`;
    if (warned.has(key) || warned.size >= MAX_REMEMBERED) continue;
    warned.add(key);
    const list = byFile.get(p.file ?? '') ?? [];
    list.push(p);
    byFile.set(p.file ?? '', list);
  }
  return [...byFile].map(([file, list]) => {
    const entries = list.filter((p) => p.position !== undefined).length;
    const what =
      entries === list.length
        ? `${list.length} deployment entr${list.length === 1 ? 'y is' : 'ies are'} skipped; the file's other deployments are used`
        : `${list.length} problem(s)`;
    return plainText(`${file}: ${what}: ${list[0]!.message}. See the Problems view.`, 1000);
  });
}
