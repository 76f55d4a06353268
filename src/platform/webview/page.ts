// The browser side every webview page shares: VS Code's API object (a page may acquire it only once)
// and the root element the host's shell (src/platform/webview/host.ts) puts in every page.

/** VS Code's API inside a webview, typed by the page's protocol and the state it keeps for revival. */
export interface VsCodeApi<Out, State = never> {
  postMessage(message: Out): void;
  getState(): unknown;
  setState(state: State): void;
}

declare function acquireVsCodeApi(): VsCodeApi<unknown, unknown>;

/** The page's one VS Code API object; call once per page. */
export function vsCodeApi<Out, State = never>(): VsCodeApi<Out, State> {
  return acquireVsCodeApi();
}

/** The shell's `<main id="root">`, where the page renders. */
export function pageRoot(): HTMLElement {
  return document.getElementById('root') as HTMLElement;
}

/** An element with an optional class and text: text only ever as `textContent`, never as HTML. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
