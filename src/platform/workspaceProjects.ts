import * as vscode from 'vscode';
import type { ProjectConfig } from '../core/artifacts/projectConfig';
import type { Logger } from '../core/util/log';
import { projectsEngine, type ProjectsEngine } from './lazyEngine';
import { DisposableBase } from './lifecycle';

const CONFIGS = '**/alephium.config.{ts,js,mjs}';
const EXCLUDE = '**/node_modules/**';
/** A workspace with more projects than this is a monorepo of examples; the first ones are read. */
const MAX_CONFIGS = 50;
const DEBOUNCE_MS = 300;

/** One `@alephium/cli` project of the workspace: the folder of its config, and what the config says. */
export interface WorkspaceProject {
  readonly root: vscode.Uri;
  readonly configFile: vscode.Uri;
  readonly config: ProjectConfig;
}

/**
 * The workspace's `alephium.config.{ts,js,mjs}` files, each read without running it
 * (core/artifacts/projectConfig.ts): the one reader of project settings for the artifacts search, the
 * deployments writer and the Ralph sources. Read on first use, read again when a config changes; each
 * problem line of a config is logged once, a config over the size bound is skipped with a line.
 */
export class WorkspaceProjects extends DisposableBase {
  private current: readonly WorkspaceProject[] | undefined;
  private loading: Promise<readonly WorkspaceProject[]> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly reported = new Set<string>();
  private readonly changed = this.register(new vscode.EventEmitter<readonly WorkspaceProject[]>());
  /** Fired after a config was read again (only once someone asked for the projects). */
  readonly onDidChange = this.changed.event;

  constructor(private readonly log: Logger) {
    super();
    const watcher = this.register(vscode.workspace.createFileSystemWatcher(CONFIGS));
    const schedule = () => this.scheduleReload();
    this.register(watcher.onDidCreate(schedule));
    this.register(watcher.onDidChange(schedule));
    this.register(watcher.onDidDelete(schedule));
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(schedule));
    this.register({ dispose: () => clearTimeout(this.timer) });
  }

  /**
   * The projects; the first call reads the configs, later ones get the cached list. `fresh` reads them
   * again first: a user action should not trust the file watcher alone (it can be late, or miss a file
   * another tool wrote), and the configs are a few small files.
   */
  projects(options: { fresh?: boolean } = {}): Promise<readonly WorkspaceProject[]> {
    if (this.current && !options.fresh) return Promise.resolve(this.current);
    return this.reload();
  }

  /** The project whose config folder is the nearest above `file`, inside `folder` (read on demand). */
  async projectOf(folder: vscode.WorkspaceFolder, file: vscode.Uri): Promise<WorkspaceProject | undefined> {
    const projects = await this.projects();
    const { nearestProjectRoot } = await projectsEngine();
    const root = nearestProjectRoot(
      folder.uri.fsPath,
      projects.map((p) => p.root.fsPath),
      file.fsPath,
    );
    return root === undefined ? undefined : projects.find((p) => p.root.fsPath === root);
  }

  /**
   * The search pattern of what the CLI writes (artifacts, `.project.json`, deployments files) under the
   * CLI's default folders and every config's `artifactDir` and `deploymentsDir`.
   */
  async filesGlob(): Promise<string> {
    const projects = await this.projects();
    return (await projectsEngine()).projectFilesGlob(projects.map((p) => p.config));
  }

  private scheduleReload(): void {
    if (!this.current) return; // nobody asked yet: stay lazy
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.reload(), DEBOUNCE_MS);
  }

  private reload(): Promise<readonly WorkspaceProject[]> {
    this.loading ??= this.read().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async read(): Promise<readonly WorkspaceProject[]> {
    const engine = await projectsEngine();
    const found = await vscode.workspace.findFiles(CONFIGS, EXCLUDE, MAX_CONFIGS);
    const read = await Promise.all(found.map((uri) => this.readOne(engine, uri)));
    const projects = read
      .filter((p): p is WorkspaceProject => p !== undefined)
      .sort((a, b) => (a.root.fsPath < b.root.fsPath ? -1 : a.root.fsPath > b.root.fsPath ? 1 : 0));
    const changed = this.current !== undefined;
    this.current = projects;
    if (changed && !this.isDisposed) this.changed.fire(projects);
    return projects;
  }

  private async readOne(
    { MAX_PROJECT_CONFIG_CHARS, readProjectConfig }: ProjectsEngine,
    configFile: vscode.Uri,
  ): Promise<WorkspaceProject | undefined> {
    const shown = vscode.workspace.asRelativePath(configFile, true);
    try {
      const { size } = await vscode.workspace.fs.stat(configFile);
      if (size > MAX_PROJECT_CONFIG_CHARS) {
        this.warnOnce(
          `Project config ${shown} is not read: it is over ${MAX_PROJECT_CONFIG_CHARS / 1024} KB; the CLI's defaults are used.`,
        );
        return undefined;
      }
      const config = readProjectConfig(
        new TextDecoder().decode(await vscode.workspace.fs.readFile(configFile)),
      );
      for (const problem of config.problems) this.warnOnce(`Project config ${shown}: ${problem}.`);
      return { root: vscode.Uri.joinPath(configFile, '..'), configFile, config };
    } catch (error) {
      this.warnOnce(
        `Could not read ${shown}: ${error instanceof Error ? error.message : String(error)}; the CLI's defaults are used.`,
      );
      return undefined;
    }
  }

  private warnOnce(line: string): void {
    if (this.reported.has(line) || this.reported.size >= 2000) return;
    this.reported.add(line);
    this.log.warn(line);
  }
}
