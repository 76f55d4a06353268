import type * as vscode from 'vscode';

/**
 * A tree with no items yet: VS Code then shows the view's `viewsWelcome` content, which is what a
 * newcomer should see before a profile, a watched contract or a tracked transaction exists.
 */
export class EmptyTreeProvider implements vscode.TreeDataProvider<never> {
  getTreeItem(element: never): vscode.TreeItem {
    return element;
  }

  getChildren(): never[] {
    return [];
  }
}
