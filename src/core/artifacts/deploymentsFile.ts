/**
 * Where the deployments file (`deployments/.deployments.<network>.json`, the file `@alephium/cli` keeps)
 * may be written, and the one writer that does it: the owner of the rule "files stay where they belong".
 *
 * A cloned repository is not trusted to name a path. So the file is written only
 * - inside the workspace folder that holds the project, in the project's own `deployments/` directory
 *   (or the `deploymentsDir` of its `alephium.config.*`, a plain relative folder),
 * - after resolving real paths: a `deployments/` or a deployments file that is a symbolic link is refused,
 *   and so is any directory whose real path leaves the workspace folder,
 * - under a network name that is a plain word (a profile's `..` must not climb out of the folder),
 * - atomically (a temporary file in the same directory, then a rename, which replaces a link rather than
 *   following it), one write at a time per file, keeping every entry that was there (the caller's merge).
 * An existing file that is not JSON is left as it is and reported without quoting it: it may be any file.
 */
import * as fs from 'node:fs/promises';
import { constants as fsConstants, type Stats } from 'node:fs';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { networkNameProblem } from '../profiles/profile';
import { plainProjectDir, projectDirProblem } from './projectConfig';
import { DEPLOYMENTS_FILE_READ_LIMIT } from './deployments';

/** The directory of a project that holds its deployments files, as the CLI names it. */
export const DEPLOYMENTS_DIR = 'deployments';
/** The directory the CLI compiles into; its parent is the project root. */
const ARTIFACTS_DIR = 'artifacts';
export { DEPLOYMENTS_FILE_READ_LIMIT } from './deployments';

/** A deployments file that may not be written (where, or what is there); the message is for the user. */
export class DeploymentsFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeploymentsFileError';
  }
}

/** `.deployments.devnet.json`; throws for a network name that is not a plain word. */
export function deploymentsFileName(network: string): string {
  const problem = networkNameProblem(network);
  if (problem) throw new DeploymentsFileError(`The network name of the profile ${problem}.`);
  return `.deployments.${network}.json`;
}

/** `child` is `parent` or below it (both absolute, already resolved). */
function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * The project root of an artifact: the parent of the nearest `artifacts` directory above it, when that is
 * inside the workspace folder; otherwise the workspace folder itself (an artifact compiled elsewhere).
 * Pure path arithmetic on absolute paths; real paths are checked when the file is written.
 */
export function projectRootOf(workspaceFolder: string, artifactFile: string | undefined): string {
  const folder = path.resolve(workspaceFolder);
  if (artifactFile === undefined) return folder;
  let dir = path.dirname(path.resolve(artifactFile));
  if (!isInside(folder, dir)) return folder;
  while (isInside(folder, dir) && dir !== folder) {
    if (path.basename(dir) === ARTIFACTS_DIR) return path.dirname(dir);
    dir = path.dirname(dir);
  }
  return folder;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? (error as { code?: string }).code : undefined;
}

async function lstatOrUndefined(p: string): Promise<Stats | undefined> {
  try {
    return await fs.lstat(p);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

export interface DeploymentsTarget {
  /** Real path of the file to write. */
  readonly file: string;
  /** Real path of its directory. */
  readonly dir: string;
  /** The file relative to the workspace folder, with `/` (for messages and results). */
  readonly shown: string;
}

/**
 * Resolves where the deployments file of `network` goes for a project under `workspaceFolder` (both
 * absolute; `projectRoot` defaults to the folder), creating `deployments/` when it is missing. Refuses,
 * with a DeploymentsFileError, a name that is not plain, links, and anything whose real path leaves the
 * workspace folder.
 */
export async function resolveDeploymentsTarget(
  workspaceFolder: string,
  network: string,
  projectRoot: string = workspaceFolder,
  deploymentsDir: string = DEPLOYMENTS_DIR,
): Promise<DeploymentsTarget> {
  const name = deploymentsFileName(network);
  const dirProblem = projectDirProblem(deploymentsDir);
  if (dirProblem)
    throw new DeploymentsFileError(
      `The project's deploymentsDir "${deploymentsDir.slice(0, 80)}" is not used: ${dirProblem}.`,
    );
  const realFolder = await fs.realpath(workspaceFolder);
  const realRoot = await fs.realpath(projectRoot).catch(() => undefined);
  if (realRoot === undefined || !isInside(realFolder, realRoot)) {
    throw new DeploymentsFileError(
      'The project folder is not inside the workspace folder (after resolving links); the deployments file is written only inside it.',
    );
  }
  const rootShown = path.relative(realFolder, realRoot).split(path.sep).join('/');
  let dir = realRoot;
  let shownDir = rootShown;
  for (const segment of plainProjectDir(deploymentsDir).split('/')) {
    dir = path.join(dir, segment);
    shownDir = [shownDir, segment].filter(Boolean).join('/');
    await requireRealDirectory(dir, shownDir);
  }
  const realDir = await fs.realpath(dir);
  if (!isInside(realFolder, realDir))
    throw new DeploymentsFileError(`${shownDir} leaves the workspace folder; nothing was written.`);
  const file = path.join(realDir, name);
  const shown = `${shownDir}/${name}`;
  const fileStat = await lstatOrUndefined(file);
  if (fileStat?.isSymbolicLink())
    throw new DeploymentsFileError(`${shown} is a symbolic link; it was left as it is.`);
  if (fileStat && !fileStat.isFile())
    throw new DeploymentsFileError(`${shown} is not a regular file; it was left as it is.`);
  return { file, dir: realDir, shown };
}

/**
 * Makes sure `dir` is a directory and not a link, creating it when it is missing. Not recursive: its
 * parent exists (the root resolved, or the previous segment was made), so only this one is created.
 */
async function requireRealDirectory(dir: string, shownDir: string): Promise<void> {
  let dirStat = await lstatOrUndefined(dir);
  if (dirStat === undefined) {
    await fs.mkdir(dir).catch((error: unknown) => {
      if (errorCode(error) !== 'EEXIST') throw error;
    });
    dirStat = await fs.lstat(dir);
  }
  if (dirStat.isSymbolicLink())
    throw new DeploymentsFileError(
      `${shownDir} is a symbolic link; the deployments file is not written through links.`,
    );
  if (!dirStat.isDirectory()) throw new DeploymentsFileError(`${shownDir} is not a directory.`);
}

/** Reads the file without following a link (where the platform can say so); undefined when absent. */
async function readExisting(target: DeploymentsTarget): Promise<{ text: string; mode: number } | undefined> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(target.file, fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    if (errorCode(error) === 'ELOOP')
      throw new DeploymentsFileError(`${target.shown} is a symbolic link; it was left as it is.`);
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile())
      throw new DeploymentsFileError(`${target.shown} is not a regular file; it was left as it is.`);
    if (stat.size > DEPLOYMENTS_FILE_READ_LIMIT)
      throw new DeploymentsFileError(
        `${target.shown} is larger than ${DEPLOYMENTS_FILE_READ_LIMIT / 1024 / 1024} MB; it was left as it is.`,
      );
    return { text: await handle.readFile('utf8'), mode: stat.mode & 0o777 };
  } finally {
    await handle.close();
  }
}

/** Throws when `text` is not JSON, without the parser's message (V8 quotes the text it choked on). */
function requireJson(text: string, shown: string): void {
  if (text.trim() === '') return;
  try {
    JSON.parse(text);
  } catch {
    throw new DeploymentsFileError(`${shown} is not valid JSON; it was left as it is.`);
  }
}

/** Writes `text` to a new file beside `target.file`, flushes it, then renames it over the target. */
async function replaceAtomically(target: DeploymentsTarget, text: string, mode: number): Promise<void> {
  const temporary = path.join(
    target.dir,
    `.${path.basename(target.file)}.${randomBytes(6).toString('hex')}.tmp`,
  );
  // `wx`: created here and now, never an existing file or link of that name.
  const handle = await fs.open(temporary, 'wx', mode);
  try {
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temporary, target.file);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}

/** One write at a time per file: a late deploy and a new one must not both read the old content. */
const queues = new Map<string, Promise<unknown>>();

function serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const run = previous.then(work, work);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return run;
}

/** What the caller's merge returns: the whole new text, and anything it wants back (e.g. the entry name). */
export type DeploymentsMerge<T> = (
  existing: string | undefined,
) => ({ readonly text: string } & T) | Promise<{ readonly text: string } & T>;

/**
 * Updates the deployments file of `network` for the project under `workspaceFolder`: resolves and checks
 * the target (see {@link resolveDeploymentsTarget}), reads what is there, lets `merge` compute the new
 * text from it (keeping every entry), and replaces the file atomically. Writes to one file run one after
 * another. Resolves with the caller's result and the file as shown to the user.
 */
export async function updateDeploymentsFile<T>(
  workspaceFolder: string,
  network: string,
  merge: DeploymentsMerge<T>,
  projectRoot: string = workspaceFolder,
  deploymentsDir: string = DEPLOYMENTS_DIR,
): Promise<{ readonly shown: string; readonly file: string } & { readonly text: string } & T> {
  // The name is checked before anything touches the disk, and again (with real paths) inside the queue.
  deploymentsFileName(network);
  const key = path.join(path.resolve(projectRoot), deploymentsDir, `.deployments.${network}.json`);
  return serialized(key, async () => {
    const target = await resolveDeploymentsTarget(workspaceFolder, network, projectRoot, deploymentsDir);
    const existing = await readExisting(target);
    if (existing) requireJson(existing.text, target.shown);
    const merged = await merge(existing?.text);
    await replaceAtomically(target, merged.text, existing?.mode ?? 0o644);
    return { ...merged, shown: target.shown, file: target.file };
  });
}
