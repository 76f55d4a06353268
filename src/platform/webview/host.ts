/**
 * The house rules of every webview, once: options that allow only the extension's own page scripts and
 * stylesheets, an HTML shell with a strict CSP and a fresh nonce that carries no data, a ready handshake
 * (the page says `ready` and is answered with what is current), every message from the page parsed by
 * its protocol's bounded parser before anything reads it, the last messages posted kept for the
 * extension's API, and the serializer that revives panels after a reload.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { DisposableBase } from '../lifecycle';

/** A page of `dist/webview/<script>.js`, styled by `media/base.css` and `media/<style>.css`. */
export interface WebviewPage {
  readonly script: string;
  readonly style: string;
  /** The document's title (the tab shows the panel's own title). */
  readonly title: string;
}

export interface WebviewShape {
  /** Keep the page alive in a background tab (forms keep what was typed). */
  readonly retainContextWhenHidden?: boolean;
}

/** How many posted messages a host keeps for the extension's API. */
const POSTED_KEPT = 50;

/** Scripts from dist/webview, styles and the icon from media: nothing else may load. */
export function webviewOptions(
  extensionUri: vscode.Uri,
  shape: WebviewShape = {},
): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableFindWidget: true,
    ...(shape.retainContextWhenHidden ? { retainContextWhenHidden: true } : {}),
    localResourceRoots: [
      vscode.Uri.joinPath(extensionUri, 'dist', 'webview'),
      vscode.Uri.joinPath(extensionUri, 'media'),
    ],
  };
}

/**
 * The HTML of a page: a shell with a strict CSP (no inline code, scripts only by this nonce) and no data
 * at all. Everything from the chain, the workspace or the host arrives by message and the page renders
 * it as text.
 */
export function webviewShell(webview: vscode.Webview, extensionUri: vscode.Uri, page: WebviewPage): string {
  const nonce = randomBytes(16).toString('base64');
  const asset = (...parts: string[]) =>
    webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...parts)).toString();
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
    `img-src ${webview.cspSource}`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('media', 'base.css')}">
<link rel="stylesheet" href="${asset('media', `${page.style}.css`)}">
<title>${page.title}</title>
</head>
<body>
<main id="root" aria-live="polite"><p class="muted">Loading…</p></main>
<script nonce="${nonce}" src="${asset('dist', 'webview', `${page.script}.js`)}"></script>
</body>
</html>`;
}

/** A message of a page's protocol: the `ready` of the handshake, or something the host answers. */
export interface PageMessage {
  readonly type: string;
}

/**
 * One panel's host: owns the panel, its shell and its messages. A subclass answers the page's `ready`
 * with its current state (`onReady`) and handles the other messages (`onMessage`); both receive only
 * what the protocol's parser accepted. Nothing is sent to a page before its first `ready`: the page
 * could not hear it, and `onReady` sends what is current then.
 */
export abstract class WebviewHost<In extends PageMessage, Out> extends DisposableBase {
  /** The page's HTML: a shell without data (the extension's API shows it to tests). */
  readonly html: string;
  /** The last messages posted to the page, as JSON (kept for the extension's API). */
  protected readonly posted: string[] = [];
  /** How many messages were posted since the panel opened. */
  protected postCount = 0;
  private pageReady = false;

  protected constructor(
    protected readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    page: WebviewPage,
    private readonly parse: (raw: unknown) => In | undefined,
  ) {
    super();
    this.register(panel);
    // Closed by the user or disposed by the extension: the host goes with its panel.
    this.register(panel.onDidDispose(() => this.dispose()));
    this.register(panel.webview.onDidReceiveMessage((raw: unknown) => void this.receive(raw)));
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'alephium.svg');
    this.html = webviewShell(panel.webview, extensionUri, page);
    panel.webview.html = this.html;
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  /**
   * Every message from the page passes here. It is parsed exactly and bounded by the protocol first;
   * anything that does not parse is ignored. Public for tests that play the page.
   */
  async receive(raw: unknown): Promise<void> {
    const message = this.parse(raw);
    if (!message || this.isDisposed) return;
    if (message.type === 'ready') {
      this.pageReady = true;
      await this.onReady(message);
    } else await this.onMessage(message);
  }

  /** The page (re)loaded and listens: send it what is current. */
  protected abstract onReady(message: In): void | Promise<void>;

  protected abstract onMessage(message: In): void | Promise<void>;

  protected post(message: Out): void {
    if (this.isDisposed) return;
    this.postCount++;
    this.posted.push(JSON.stringify(message));
    if (this.posted.length > POSTED_KEPT) this.posted.splice(0, this.posted.length - POSTED_KEPT);
    this.onPosted(message);
    if (this.pageReady) void this.panel.webview.postMessage(message);
  }

  /** A message was posted (a subclass may record it elsewhere). */
  protected onPosted(_message: Out): void {}
}

/**
 * The panels of one view type, one per key (a contract address, a txId), revived after a reload by the
 * serializer registered here. The map keeps the most recently opened panel last.
 */
export abstract class WebviewPanels<Key, Host extends WebviewHost<PageMessage, unknown>>
  extends DisposableBase
  implements vscode.WebviewPanelSerializer
{
  private readonly hosts = new Map<Key, Host>();

  protected constructor(
    protected readonly extensionUri: vscode.Uri,
    private readonly viewType: string,
    private readonly shape: WebviewShape = {},
  ) {
    super();
    this.register(vscode.window.registerWebviewPanelSerializer(viewType, this));
    this.register({
      dispose: () => {
        for (const host of [...this.hosts.values()]) host.dispose();
      },
    });
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    // Options are not persisted with the panel: apply them again before any HTML is set.
    panel.webview.options = webviewOptions(this.extensionUri, this.shape);
    if (!(await this.revive(panel, state))) panel.dispose();
  }

  /** Adopts a panel VS Code restored from the page's state; false when the state names none (or a dup). */
  protected abstract revive(panel: vscode.WebviewPanel, state: unknown): boolean | Promise<boolean>;

  get(key: Key): Host | undefined {
    return this.hosts.get(key);
  }

  /** The panel opened (or revived) last. */
  get latest(): Host | undefined {
    return [...this.hosts.values()].at(-1);
  }

  protected createPanel(title: string): vscode.WebviewPanel {
    return vscode.window.createWebviewPanel(
      this.viewType,
      title,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      webviewOptions(this.extensionUri, this.shape),
    );
  }

  protected adopt(key: Key, host: Host, panel: vscode.WebviewPanel): Host {
    // Delete-then-set keeps the map's order "most recently opened last".
    this.hosts.delete(key);
    this.hosts.set(key, host);
    const closed = panel.onDidDispose(() => {
      closed.dispose();
      if (this.hosts.get(key) === host) this.hosts.delete(key);
    });
    return host;
  }
}
