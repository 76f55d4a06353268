import * as vscode from 'vscode';
import type { MonthlyUsage, RateHeadroom } from '../core/gateway';
import { limitsOf } from '../core/gateway';
import { statusBarView } from '../core/presentation/statusBar';
import * as config from '../config';
import type { ConnectionManager } from '../connection';
import { CommandIds } from '../constants';
import { DisposableBase } from '../util/lifecycle';

/** Owns the one status-bar item: the active key's rate-limit headroom, usage and last error. */
export class StatusBarController extends DisposableBase {
  private readonly item: vscode.StatusBarItem;
  private headroom: RateHeadroom | undefined;
  private usage: MonthlyUsage | undefined;
  private lastError: { kind: string; message: string; at: number } | undefined;
  private clearWarning: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly connection: ConnectionManager) {
    super();
    this.item = this.register(
      vscode.window.createStatusBarItem('alephium.headroom', vscode.StatusBarAlignment.Left, 50),
    );
    this.item.name = 'Alephium Gateway rate limit';
    this.item.command = CommandIds.statusBarActions;
    this.register(
      connection.onDidChange(() => {
        this.headroom = undefined;
        this.lastError = undefined;
        this.render();
        void this.loadUsage();
      }),
    );
    this.register(
      connection.onHeadroom((h) => {
        this.headroom = h;
        // A good answer after a 401 means the key was fixed.
        if (this.lastError?.kind === 'unauthorized') this.lastError = undefined;
        this.render();
      }),
    );
    this.register(
      connection.onUsage((u) => {
        this.usage = u;
        this.render();
      }),
    );
    this.register(
      connection.onError((e) => {
        this.lastError = { ...e, at: Date.now() };
        this.render();
        // Re-render when the 429 warning expires, so the colour does not stick.
        clearTimeout(this.clearWarning);
        this.clearWarning = setTimeout(() => this.render(), 61_000);
      }),
    );
    this.register({ dispose: () => clearTimeout(this.clearWarning) });
    this.render();
    void this.loadUsage();
  }

  /** What the item shows now (the integration tests read this as well as the DOM). */
  get text(): string {
    return this.item.text;
  }

  private async loadUsage(): Promise<void> {
    const client = this.connection.state.client;
    if (!client) return;
    this.usage = await client.currentUsage().catch(() => undefined);
    this.render();
  }

  private render(): void {
    const { profile, client } = this.connection.state;
    const view = statusBarView({
      profileName: profile?.name,
      plan: profile?.kind === 'gateway' ? (profile.plan ?? 'free') : profile ? 'node' : undefined,
      limitPerSecond: client ? limitsOf(client.profile).perSecond : undefined,
      headroom: this.headroom,
      usage: this.usage,
      lastError: this.lastError,
      now: Date.now(),
    });
    if (!view.visible) {
      this.item.hide();
      return;
    }
    this.item.text = view.text;
    this.item.tooltip = new vscode.MarkdownString(view.tooltip);
    this.item.backgroundColor =
      view.severity === 'error'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : view.severity === 'warning'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
    this.item.accessibilityInformation = { label: view.text.replace(/\$\([a-z-]+\)\s*/g, '') };
    this.item.show();
  }
}

export function registerStatusBarActions(): vscode.Disposable {
  return vscode.commands.registerCommand(CommandIds.statusBarActions, async () => {
    const items = [
      { label: '$(arrow-swap) Switch Profile', command: CommandIds.switchProfile },
      { label: '$(key) Set API Key', command: CommandIds.setApiKey },
      { label: '$(add) Add Profile', command: CommandIds.addProfile },
      { label: '$(output) Show Logs', command: CommandIds.showLogs },
    ];
    const chosen = await vscode.window.showQuickPick(items, {
      placeHolder: `Alephium Gateway · ${config.activeProfileName() ?? 'no profile'}`,
    });
    if (chosen) await vscode.commands.executeCommand(chosen.command);
  });
}
