import * as vscode from 'vscode';
import type { RalphSourceMap } from '../core/ralph/sourceMap';
import { oversizedSourceFile, ralphSourcesGlob } from '../core/ralph/sourceFiles';
import { loadEngine } from './loadEngine';
import type { Logger } from '../core/util/log';
import { DisposableBase } from '../platform/lifecycle';
import type { WorkspaceProjects } from '../platform/workspaceProjects';

const RAL = '**/*.ral';
const EXCLUDE = '**/node_modules/**';
const DEBOUNCE_MS = 300;

/**
 * The workspace's Ralph sources as one RalphSourceMap. Sources are `contracts/**\/*.ral` or the
 * `sourceDir` of each `alephium.config.*` (read once for the workspace by WorkspaceProjects, which
 * refuses a `sourceDir` that is not a plain relative folder); when neither has a file, every `.ral`
 * outside node_modules is used, so a project laid out differently still gets its lenses. Open editors
 * win over the disk: a diagnostic or lens must match the text the user sees, saved or not. Read lazily
 * on first use, so activation reads nothing. Files over 2 MB are skipped with a log line
 * (core/ralph/sourceFiles.ts decides).
 */
export class WorkspaceRalphSources extends DisposableBase {
  private current: RalphSourceMap | undefined;
  private loading: Promise<RalphSourceMap> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** What was already logged as skipped: a reload on every edit must not repeat the same line. */
  private readonly reported = new Set<string>();
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly log: Logger,
    private readonly projects: Pick<WorkspaceProjects, 'projects' | 'onDidChange'>,
  ) {
    super();
    this.register(projects.onDidChange(() => this.scheduleReload()));
    const watcher = this.register(vscode.workspace.createFileSystemWatcher(RAL));
    const schedule = () => this.scheduleReload();
    this.register(watcher.onDidCreate(schedule));
    this.register(watcher.onDidChange(schedule));
    this.register(watcher.onDidDelete(schedule));
    this.register(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.path.endsWith('.ral') && e.contentChanges.length > 0) schedule();
      }),
    );
    this.register({ dispose: () => clearTimeout(this.timer) });
  }

  /** The map; the first call reads the workspace. */
  map(): Promise<RalphSourceMap> {
    if (this.current) return Promise.resolve(this.current);
    return this.reload();
  }

  /**
   * The map, read again first when it has none of `contracts` declared: a user action should not trust
   * the file watcher alone (it can miss files written by other tools, or into folders created after the
   * watch began). At most one extra read per call.
   */
  async mapFor(contracts: readonly string[]): Promise<RalphSourceMap> {
    const map = await this.map();
    if (contracts.length === 0 || contracts.some((name) => map.contract(name) !== undefined)) return map;
    return this.reload();
  }

  /** The last map read, without waiting. */
  get latest(): RalphSourceMap | undefined {
    return this.current;
  }

  private scheduleReload(): void {
    if (!this.current) return; // nobody asked yet: stay lazy
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.reload(), DEBOUNCE_MS);
  }

  reload(): Promise<RalphSourceMap> {
    this.loading ??= this.read().finally(() => (this.loading = undefined));
    return this.loading;
  }

  /** `contracts` and every project config's `sourceDir` (each checked by core/artifacts/projectConfig.ts). */
  private async sourceDirs(): Promise<string[]> {
    const dirs = new Set(['contracts']);
    for (const project of await this.projects.projects()) dirs.add(project.config.sourceDir);
    return [...dirs];
  }

  private async read(): Promise<RalphSourceMap> {
    const { RalphSourceMap } = await loadEngine();
    const dirs = await this.sourceDirs();
    let uris = await vscode.workspace.findFiles(ralphSourcesGlob(dirs), EXCLUDE, 2000);
    if (uris.length === 0) uris = await vscode.workspace.findFiles(RAL, EXCLUDE, 2000);
    const open = new Map(
      vscode.workspace.textDocuments
        .filter((d) => d.uri.path.endsWith('.ral'))
        .map((d) => [d.uri.toString(), d]),
    );
    const files: { path: string; text: string }[] = [];
    await Promise.all(
      uris.map(async (uri) => {
        const key = uri.toString();
        const doc = open.get(key);
        try {
          const text = doc ? this.capped(uri, doc.getText()) : await this.readCapped(uri);
          if (text !== undefined) files.push({ path: key, text });
        } catch (error) {
          this.log.warn(
            `Could not read ${uri.fsPath}: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }),
    );
    const map = RalphSourceMap.build(files);
    this.current = map;
    if (!this.isDisposed) this.changed.fire();
    return map;
  }

  /** The file's text, or undefined (logged) when it is over the size bound; the size is read first. */
  private async readCapped(uri: vscode.Uri): Promise<string | undefined> {
    const skipped = oversizedSourceFile(uri.fsPath, (await vscode.workspace.fs.stat(uri)).size);
    if (skipped) {
      this.warnOnce(skipped);
      return undefined;
    }
    return this.capped(uri, new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
  }

  /** An open editor's text, or undefined (logged) when it is over the size bound. */
  private capped(uri: vscode.Uri, text: string): string | undefined {
    const skipped = oversizedSourceFile(uri.fsPath, text.length);
    if (skipped) this.warnOnce(skipped);
    return skipped ? undefined : text;
  }

  private warnOnce(line: string): void {
    if (this.reported.has(line) || this.reported.size >= 2000) return;
    this.reported.add(line);
    this.log.warn(line);
  }
}
