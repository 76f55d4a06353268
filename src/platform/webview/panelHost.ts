/**
 * The host side every webview panel shares, written once: the panel's icon and shell (host.ts), every
 * message from the page parsed by the page's protocol before anything looks at it (what does not parse
 * is dropped), the ready handshake (a page that loads, or reloads in a revived tab, says `ready` and the
 * host answers with what it shows), the posts kept for tests (the last 50, as JSON), and the panel
 * disposed with its host. A manager of many panels (one per transaction, one per contract) adds the
 * serializer that revives them after a reload: `PanelManager`.
 */
import * as vscode from 'vscode';
import { DisposableBase } from '../lifecycle';
import { panelIcon, webviewOptions, webviewShell, type WebviewPage, type WebviewShape } from './host';

/** The posts a host keeps for the extension's test API. */
const KEPT_POSTS = 50;

/** A message from a page: each protocol's union has a `type`, and every page starts with `ready`. */
export interface PageMessage {
  readonly type: string;
}

export interface PanelHostOptions<FromPage extends PageMessage> {
  readonly extensionUri: vscode.Uri;
  readonly page: WebviewPage;
  /** The page's protocol parser: exact and bounded; undefined for anything it does not accept. */
  readonly parse: (raw: unknown) => FromPage | undefined;
}

export abstract class PanelHost<ToPage, FromPage extends PageMessage> extends DisposableBase {
  /** The shell set on the panel (no data: the page gets everything by message). */
  readonly html: string;
  /** What was posted to the page, as JSON, the last 50. */
  protected readonly posted: string[] = [];
  private readonly parse: (raw: unknown) => FromPage | undefined;

  constructor(
    protected readonly panel: vscode.WebviewPanel,
    options: PanelHostOptions<FromPage>,
  ) {
    super();
    this.parse = options.parse;
    this.register(panel);
    this.register(
      panel.onDidDispose(() => {
        this.panelClosed();
        this.dispose();
      }),
    );
    this.register(panel.webview.onDidReceiveMessage((raw: unknown) => void this.deliver(raw)));
    panel.iconPath = panelIcon(options.extensionUri);
    this.html = webviewShell(panel.webview, options.extensionUri, options.page);
    panel.webview.html = this.html;
  }

  /**
   * A message as the page sends it: parsed first, dropped when it does not parse or the panel is gone;
   * `ready` goes to `pageReady`, anything else to `received`. Public so tests can play the page.
   */
  async deliver(raw: unknown): Promise<void> {
    const message = this.parse(raw);
    if (!message || this.isDisposed) return;
    if (message.type === 'ready') await this.pageReady(message);
    else await this.received(message);
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  /** The page (re)loaded: post what the panel shows. */
  protected abstract pageReady(message: FromPage): void | Promise<void>;
  /** Any other parsed message of the page. */
  protected abstract received(message: FromPage): void | Promise<void>;
  /** The user closed the panel (before the host is disposed). */
  protected panelClosed(): void {}

  protected post(message: ToPage): void {
    if (this.isDisposed) return;
    this.posted.push(JSON.stringify(message));
    if (this.posted.length > KEPT_POSTS) this.posted.splice(0, this.posted.length - KEPT_POSTS);
    void this.panel.webview.postMessage(message);
  }
}

/**
 * Panels of one view type, one per key (a txId, a contract address), revived after a reload by VS Code's
 * serializer: the revived state is parsed by the subclass (`revive`), options are applied again (they are
 * not persisted with a panel), and a panel whose key is unreadable or already open is closed.
 */
export abstract class PanelManager<Key, Host extends vscode.Disposable>
  extends DisposableBase
  implements vscode.WebviewPanelSerializer
{
  protected readonly panels = new Map<Key, Host>();

  /**
   * `registerSerializer: false` when activation registers the serializer itself (a manager loaded on first
   * use: VS Code asks for serializers while activating, before any lazy module is loaded).
   */
  constructor(
    private readonly viewType: string,
    protected readonly extensionUri: vscode.Uri,
    private readonly shape: WebviewShape = {},
    registerSerializer = true,
  ) {
    super();
    if (registerSerializer) this.register(vscode.window.registerWebviewPanelSerializer(viewType, this));
    this.register({
      dispose: () => {
        for (const host of [...this.panels.values()]) host.dispose();
      },
    });
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    panel.webview.options = this.options();
    const key = this.keyOfState(state);
    if (key === undefined || this.panels.has(key)) {
      panel.dispose();
      return;
    }
    await this.revive(panel, key, state);
  }

  /** @internal for panels: a closed panel leaves the map (unless another took its key since). */
  forget(key: Key, host: Host): void {
    if (this.panels.get(key) === host) this.panels.delete(key);
  }

  /** A new panel of this view type, in the active column, with the house options. */
  protected createPanel(title: string): vscode.WebviewPanel {
    return vscode.window.createWebviewPanel(
      this.viewType,
      title,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      this.options(),
    );
  }

  protected options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return webviewOptions(this.extensionUri, this.shape);
  }

  /** The key a revived panel's state names, or undefined when it names none that may be shown. */
  protected abstract keyOfState(state: unknown): Key | undefined;
  /** Takes over a revived panel. */
  protected abstract revive(panel: vscode.WebviewPanel, key: Key, state: unknown): Promise<void>;
}
