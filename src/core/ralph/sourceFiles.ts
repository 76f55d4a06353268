/**
 * Which workspace files the Ralph source map reads, decided in plain Node (the VS Code side only finds
 * and reads them): `.ral` and config files over a size bound are skipped with a line that says why,
 * and the `sourceDir` folders given (each checked by core/artifacts/projectConfig.ts `projectDirProblem`,
 * so a cloned repository cannot widen the search with glob syntax) make the search pattern.
 */

/** The largest `.ral` or config file read (real contracts are a few KB; a 2,000-line file is 60 KB). */
export const MAX_RALPH_FILE_BYTES = 2 * 1024 * 1024;

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
