import * as vscode from 'vscode';
import { capResult } from '../core/text/resultDocument';

/**
 * Results of Call, Blocks in Time Range, Address Info and event listings open as read-only virtual
 * documents: an untitled document would ask to be saved when closed, for something nobody wrote.
 * Contents live for the session; the newest ones are kept, each cut to about 1 MB (`capResult`, with a
 * note where it was cut), so memory stays bounded whatever a gateway answers.
 */
export const RESULTS_SCHEME = 'alephium-result';
const MAX_KEPT = 30;

class ResultsProvider implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private readonly changes = new vscode.EventEmitter<vscode.Uri>();
  private next = 1;
  readonly onDidChange = this.changes.event;

  /** Replaces a kept result's text; an open editor of it re-reads it. */
  replace(uri: vscode.Uri, content: string): void {
    this.contents.set(uri.toString(), capResult(content));
    this.changes.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.contents.get(uri.toString()) ?? 'This result is no longer kept. Run the command again to see it.'
    );
  }

  add(title: string, content: string, extension: string): vscode.Uri {
    // The file name is the tab's title: the command's title, made safe for a path.
    const name =
      title
        .slice(0, 200)
        .replace(/[^\w\-.() ]+/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 80) || 'Result';
    const uri = vscode.Uri.from({ scheme: RESULTS_SCHEME, path: `/${this.next++}/${name}.${extension}` });
    this.contents.set(uri.toString(), capResult(content));
    for (const key of this.contents.keys()) {
      if (this.contents.size <= MAX_KEPT) break;
      this.contents.delete(key);
    }
    return uri;
  }
}

const provider = new ResultsProvider();

export function registerResultsDocuments(): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(RESULTS_SCHEME, provider);
}

/** Opens `content` read-only in an editor tab titled `title` (Markdown, or plain text for wide tables). */
export async function showResult(
  title: string,
  content: string,
  kind: 'markdown' | 'text' = 'markdown',
): Promise<vscode.TextEditor> {
  const uri = provider.add(title, content, kind === 'markdown' ? 'md' : 'txt');
  const doc = await vscode.workspace.openTextDocument(uri);
  return vscode.window.showTextDocument(doc, { preview: true });
}

/** A result shown while it is still being read: `update` replaces its text in the open tab. */
export interface LiveResult {
  update(content: string): void;
}

/**
 * Opens a result whose text grows as its parts are read (Blocks in Time Range): the tab opens with the
 * first part and shows each later one without a new tab.
 */
export async function showLiveResult(
  title: string,
  content: string,
  kind: 'markdown' | 'text' = 'markdown',
): Promise<LiveResult> {
  const uri = provider.add(title, content, kind === 'markdown' ? 'md' : 'txt');
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { preview: true });
  return { update: (next) => provider.replace(uri, next) };
}
