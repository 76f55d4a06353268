/**
 * Which workspace files the Ralph source map reads, decided in plain Node (the VS Code side only finds
 * and reads them): `.ral` and config files over a size bound are skipped with a line that says why,
 * and a `sourceDir` from `alephium.config.*` / `.project.json` goes into the search pattern only when
 * it is a plain relative folder, so a cloned repository cannot widen the search with glob syntax.
 */

/** The largest `.ral` or config file read (real contracts are a few KB; a 2,000-line file is 60 KB). */
export const MAX_RALPH_FILE_BYTES = 2 * 1024 * 1024;

/** The longest `sourceDir` used. */
const MAX_SOURCE_DIR_CHARS = 200;

/** One path segment of a plain folder name: letters, digits, `_`, `.` and `-`, not `.` or `..`. */
const SEGMENT = /^[A-Za-z0-9_.-]+$/;

/**
 * Why `dir` (a `sourceDir` as written in a config) cannot be searched, or undefined when it can: a
 * relative folder of plain segments separated by `/`. Glob characters (`{ } , * ? [ ] !`), `..`,
 * absolute paths and backslashes are refused rather than escaped: no real project needs them.
 */
export function sourceDirProblem(dir: string): string | undefined {
  if (dir.length === 0) return 'it is empty';
  if (dir.length > MAX_SOURCE_DIR_CHARS) return `it is longer than ${MAX_SOURCE_DIR_CHARS} characters`;
  if (dir.startsWith('/')) return 'it is an absolute path';
  for (const segment of dir.split('/')) {
    if (segment === '..' || segment === '.' || segment === '')
      return 'it leaves or repeats a folder (., .., //)';
    if (!SEGMENT.test(segment))
      return 'it has characters other than letters, digits, _, ., - and / (glob syntax is not taken)';
  }
  return undefined;
}

/** The search pattern of `.ral` files under the given source folders (each checked by the caller). */
export function ralphSourcesGlob(dirs: readonly string[]): string {
  return `**/{${dirs.join(',')}}/**/*.ral`;
}

/**
 * The log line for a file too large to read, or undefined when it may be read. `size` is in bytes (the
 * file on disk) or UTF-16 units (an open editor's text); both are compared with the same bound.
 */
export function oversizedSourceFile(path: string, size: number): string | undefined {
  if (size <= MAX_RALPH_FILE_BYTES) return undefined;
  const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MB`;
  return `Skipped ${path}: it is ${mb(size)}, over the ${mb(MAX_RALPH_FILE_BYTES)} read for Ralph sources and configs; its lenses, hovers and problems are not shown.`;
}
