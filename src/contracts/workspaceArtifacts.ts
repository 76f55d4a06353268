import * as vscode from 'vscode';
import { ArtifactRegistry, isDeploymentsPath, type SourceFile } from '../core/artifacts';
import { DEPLOYMENTS_FILE_READ_LIMIT } from '../core/artifacts/deployments';
import { deploymentsFileProblems, newDeploymentWarnings } from '../core/artifacts/deploymentProblems';
import { inert, plainText } from '../core/text/inert';
import { showWarning } from '../platform/notify';
import type { Logger } from '../core/util/log';
import { DisposableBase } from '../platform/lifecycle';
import type { WorkspaceProject, WorkspaceProjects } from '../platform/workspaceProjects';

const EXCLUDE = '**/node_modules/**';
/** The source the Problems view names for a left-out deployments entry (the host test reads it). */
export const DEPLOYMENTS_DIAGNOSTIC_SOURCE = 'Alephium deployments';
/** Compilers rewrite dozens of files at once; one rebuild after the burst is enough. */
const DEBOUNCE_MS = 300;
/**
 * An artifact larger than this is skipped (with a log line): real ones are kilobytes (a contract's code
 * is at most 32 KB), and up to 2000 files are read, so a workspace must not make each one megabytes.
 * Deployments files hold every deploy transaction and get the writer's larger bound.
 */
export const ARTIFACT_READ_LIMIT = 2 * 1024 * 1024;

function readLimitOf(path: string): number {
  return isDeploymentsPath(path) ? DEPLOYMENTS_FILE_READ_LIMIT : ARTIFACT_READ_LIMIT;
}

/**
 * The workspace's artifacts and deployments as one ArtifactRegistry, rebuilt when any of them changes.
 * Parsing lives in the core; this only finds, reads and watches files.
 */
export class WorkspaceArtifacts extends DisposableBase {
  private current = ArtifactRegistry.fromFiles([]);
  /** The URI of every file of the current registry, by the path the registry knows it by. */
  private uris = new Map<string, vscode.Uri>();
  private loading: Promise<ArtifactRegistry> | undefined;
  private loadedOnce = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly changed = this.register(new vscode.EventEmitter<ArtifactRegistry>());
  readonly onDidChange = this.changed.event;
  /** Deployments entries left out, at their keys (rebuilt on every read). */
  private readonly problems = this.register(
    vscode.languages.createDiagnosticCollection('alephium-deployments'),
  );
  /** Problems already warned about: a re-read does not warn again. */
  private readonly warned = new Set<string>();
  /** The pattern watched now, and its watcher: replaced when a project config names other folders. */
  private watched: { pattern: string; watcher: vscode.Disposable } | undefined;

  /**
   * `projects` gives the folders to search: what the Alephium CLI writes (artifacts, `.project.json`
   * with the debug code hashes, deployments files, also the legacy `artifacts/.deployments.<net>.json`)
   * under the CLI's default folders and each project config's `artifactDir` and `deploymentsDir`.
   */
  constructor(
    private readonly log: Logger,
    private readonly projects: Pick<WorkspaceProjects, 'filesGlob' | 'onDidChange' | 'projectOf'>,
  ) {
    super();
    // The watcher starts with the first read (its pattern comes from the configs): before it nothing was
    // read, so nothing can be stale.
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.scheduleReload()));
    this.register(projects.onDidChange(() => this.scheduleReload()));
    this.register({ dispose: () => clearTimeout(this.timer) });
    this.register({
      dispose: () => {
        this.watched?.watcher.dispose();
      },
    });
  }

  /** Watches `pattern` (once per pattern): a config naming `build/` must have `build/` watched. */
  private watch(pattern: string): void {
    if (this.isDisposed || this.watched?.pattern === pattern) return;
    this.watched?.watcher.dispose();
    const watcher = vscode.workspace.createFileSystemWatcher(pattern);
    const schedule = () => this.scheduleReload();
    const subscriptions = [
      watcher.onDidCreate(schedule),
      watcher.onDidChange(schedule),
      watcher.onDidDelete(schedule),
    ];
    this.watched = {
      pattern,
      watcher: {
        dispose: () => {
          for (const s of subscriptions) s.dispose();
          watcher.dispose();
        },
      },
    };
  }

  /** The registry; the first call reads the workspace (later ones get the cached one). */
  async registry(): Promise<ArtifactRegistry> {
    if (!this.loadedOnce) return this.reload();
    return this.loading ?? this.current;
  }

  /** The last registry read, without waiting (empty before the first read). */
  get latest(): ArtifactRegistry {
    return this.current;
  }

  /**
   * The file an artifact (or deployments file) was read from: what the registry calls `file` is a path
   * for people (relative, with the folder's name in a multi-root workspace); this is where it really is.
   */
  uriOf(file: string | undefined): vscode.Uri | undefined {
    return file === undefined ? undefined : this.uris.get(file);
  }

  /** The `@alephium/cli` project (its config's folder and settings) that holds `file`, if a config does. */
  projectOf(folder: vscode.WorkspaceFolder, file: vscode.Uri): Promise<WorkspaceProject | undefined> {
    return this.projects.projectOf(folder, file);
  }

  /** Each deployments problem in the Problems view at its key (line 1 when the core had no place), warned once. */
  private showProblems(registry: ArtifactRegistry, uris: ReadonlyMap<string, vscode.Uri>): void {
    const byUri = new Map<string, { uri: vscode.Uri; list: vscode.Diagnostic[] }>();
    for (const p of deploymentsFileProblems(registry.problems)) {
      const uri = p.file === undefined ? undefined : uris.get(p.file);
      if (!uri) continue;
      const at = p.position;
      const range = at
        ? new vscode.Range(at.line, at.column, at.line, at.column + (at.length ?? 1))
        : new vscode.Range(0, 0, 0, 0);
      const diagnostic = new vscode.Diagnostic(
        range,
        plainText(p.message, 1000),
        vscode.DiagnosticSeverity.Warning,
      );
      diagnostic.source = DEPLOYMENTS_DIAGNOSTIC_SOURCE;
      const entry = byUri.get(uri.toString()) ?? { uri, list: [] };
      entry.list.push(diagnostic);
      byUri.set(uri.toString(), entry);
    }
    this.problems.clear();
    for (const { uri, list } of byUri.values()) this.problems.set(uri, list);
    for (const line of newDeploymentWarnings(registry.problems, this.warned))
      void showWarning(inert`Alephium: ${line}`);
  }

  private scheduleReload(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.reload(), DEBOUNCE_MS);
  }

  /** Reads every matching file again; a read in progress is shared. */
  reload(): Promise<ArtifactRegistry> {
    this.loading ??= this.read().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async read(): Promise<ArtifactRegistry> {
    const pattern = await this.projects.filesGlob();
    this.watch(pattern);
    const found = await vscode.workspace.findFiles(pattern, EXCLUDE, 2000);
    const files: SourceFile[] = [];
    const uris = new Map<string, vscode.Uri>();
    await Promise.all(
      found.map(async (uri) => {
        const path = vscode.workspace.asRelativePath(uri, true);
        try {
          const limit = readLimitOf(path);
          const { size } = await vscode.workspace.fs.stat(uri);
          if (size > limit) {
            this.log.warn(
              `Artifacts: skipped ${path}: ${(size / 1024 / 1024).toFixed(1)} MB is more than the ${limit / 1024 / 1024} MB an artifact file may have`,
            );
            return;
          }
          const bytes = await vscode.workspace.fs.readFile(uri);
          if (bytes.byteLength > limit) return; // grew since the stat: next time it is reported
          files.push({ path, text: new TextDecoder().decode(bytes) });
          uris.set(path, uri);
        } catch (error) {
          this.log.warn(
            `Could not read ${uri.fsPath}: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }),
    );
    const registry = ArtifactRegistry.fromFiles(files);
    for (const p of registry.problems) this.log.warn(`Artifacts: ${p.message}`);
    this.log.info(
      `Artifacts: ${registry.contracts.length} contract(s), ${registry.deployments().length} deployed contract(s) in ${registry.deploymentFiles.length} deployments file(s)`,
    );
    this.showProblems(registry, uris);
    this.current = registry;
    this.uris = uris;
    this.loadedOnce = true;
    if (!this.isDisposed) this.changed.fire(registry);
    return registry;
  }
}
