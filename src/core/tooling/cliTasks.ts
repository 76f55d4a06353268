/**
 * Beside the Ralph extension and the `@alephium/cli`: the CLI's tasks per project, and whether to offer
 * the official Ralph language extension. Plain data in, plain data out; the glue (src/tooling) runs them.
 */

/** The Marketplace and Open VSX id of Alephium's own Ralph extension (github.com/alephium/ralph-lsp). */
export const RALPH_EXTENSION_ID = 'alephium.ralph-lsp';

/** The task type of package.json's `taskDefinitions`. */
export const ALEPHIUM_TASK_TYPE = 'alephium';

/** The problem matcher of package.json's `problemMatchers` (referred to with a `$`). */
export const RALPH_PROBLEM_MATCHER = '$alephium-ralph';

export const CLI_COMMANDS = ['compile', 'test', 'deploy'] as const;
export type CliCommand = (typeof CLI_COMMANDS)[number];

export interface CliProject {
  /** The folder of the project's `alephium.config.*`, relative to its workspace folder ('' for the folder itself). */
  readonly relativeRoot: string;
  /** Whether the project pins `@alephium/cli` in its own node_modules. */
  readonly pinsCli: boolean;
}

export interface CliTaskPlan {
  readonly command: CliCommand;
  /** The task's name in the picker: `compile`, or `compile (contracts/sub)` when a folder has several. */
  readonly name: string;
  readonly relativeRoot: string;
  /** What runs, in the project's folder: `npx` with these arguments. */
  readonly args: readonly string[];
}

/**
 * The compile, test and deploy tasks of each project. A project that pins the CLI runs its own
 * (`npx --no-install`, never a download); one that does not runs `npx @alephium/cli` as its README says.
 */
export function cliTaskPlans(projects: readonly CliProject[]): CliTaskPlan[] {
  const several = projects.length > 1;
  return projects.flatMap((p) =>
    CLI_COMMANDS.map((command) => ({
      command,
      name: several || p.relativeRoot !== '' ? `${command} (${p.relativeRoot || '.'})` : command,
      relativeRoot: p.relativeRoot,
      args: [...(p.pinsCli ? ['--no-install'] : []), '@alephium/cli', command],
    })),
  );
}

/** What VS Code says about installed extensions, enough to tell whether one gives `.ral` a language. */
export interface InstalledExtension {
  readonly id: string;
  readonly packageJSON: unknown;
}

function contributesRalph(packageJSON: unknown): boolean {
  if (typeof packageJSON !== 'object' || packageJSON === null) return false;
  const languages = (packageJSON as { contributes?: { languages?: unknown } }).contributes?.languages;
  return (
    Array.isArray(languages) &&
    languages.some(
      (l) =>
        typeof l === 'object' &&
        l !== null &&
        ((l as { id?: unknown }).id === 'ralph' ||
          (Array.isArray((l as { extensions?: unknown }).extensions) &&
            (l as { extensions: unknown[] }).extensions.includes('.ral'))),
    )
  );
}

/**
 * Whether to offer the official Ralph extension: once (never after it was offered), and only while no
 * installed extension gives `.ral` files a language (the official one or any other). This extension's
 * own contribution (`ownId`) is not counted: it names the `ralph` language only so that breakpoints can
 * be set in `.ral` files, with no highlighting, diagnostics or navigation.
 */
export function shouldOfferRalphExtension(
  installed: readonly InstalledExtension[],
  alreadyOffered: boolean,
  ownId: string,
): boolean {
  if (alreadyOffered) return false;
  return !installed.some(
    (e) =>
      e.id.toLowerCase() === RALPH_EXTENSION_ID ||
      (e.id.toLowerCase() !== ownId.toLowerCase() && contributesRalph(e.packageJSON)),
  );
}
