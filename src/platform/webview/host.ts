/**
 * The house rules of every webview, once: options that allow only the extension's own page scripts and
 * stylesheets, and an HTML shell with a strict CSP and a fresh nonce that carries no data (the page
 * receives everything by message and renders it as text).
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/** A page of `dist/webview/<script>.js`, styled by `media/<style>.css`. */
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
<link rel="stylesheet" href="${asset('media', `${page.style}.css`)}">
<title>${page.title}</title>
</head>
<body>
<main id="root" aria-live="polite"><p class="muted">Loading…</p></main>
<script nonce="${nonce}" src="${asset('dist', 'webview', `${page.script}.js`)}"></script>
</body>
</html>`;
}

/** The panel's tab icon, the extension's own. */
export function panelIcon(extensionUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'media', 'alephium.svg');
}
