import * as vscode from 'vscode';
import { ArtifactRegistry, type SourceFile } from '../core/artifacts';
import type { Logger } from '../core/log';
import { DisposableBase } from '../util/lifecycle';

/**
 * What the Alephium CLI writes: artifacts (contracts, scripts, structs, constants, `.project.json` with
 * the debug code hashes) and deployments files, also the legacy `artifacts/.deployments.<net>.json`.
 */
const PATTERN =
  '**/{artifacts/**/*.ral.json,artifacts/.project.json,artifacts/**/.project.json,deployments/.deployments.*.json,artifacts/.deployments.*.json}';
const EXCLUDE = '**/node_modules/**';
/** Compilers rewrite dozens of files at once; one rebuild after the burst is enough. */
const DEBOUNCE_MS = 300;

/**
 * The workspace's artifacts and deployments as one ArtifactRegistry, rebuilt when any of them changes.
 * Parsing lives in the core; this only finds, reads and watches files.
 */
export class WorkspaceArtifacts extends DisposableBase {
  private current = ArtifactRegistry.fromFiles([]);
  private loading: Promise<ArtifactRegistry> | undefined;
  private loadedOnce = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly changed = this.register(new vscode.EventEmitter<ArtifactRegistry>());
  readonly onDidChange = this.changed.event;

  constructor(private readonly log: Logger) {
    super();
    const watcher = this.register(vscode.workspace.createFileSystemWatcher(PATTERN));
    const schedule = () => this.scheduleReload();
    this.register(watcher.onDidCreate(schedule));
    this.register(watcher.onDidChange(schedule));
    this.register(watcher.onDidDelete(schedule));
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(schedule));
    this.register({ dispose: () => clearTimeout(this.timer) });
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
    const uris = await vscode.workspace.findFiles(PATTERN, EXCLUDE, 2000);
    const files: SourceFile[] = [];
    await Promise.all(
      uris.map(async (uri) => {
        try {
          const bytes = await vscode.workspace.fs.readFile(uri);
          files.push({
            path: vscode.workspace.asRelativePath(uri, true),
            text: new TextDecoder().decode(bytes),
          });
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
    this.current = registry;
    this.loadedOnce = true;
    if (!this.isDisposed) this.changed.fire(registry);
    return registry;
  }
}
