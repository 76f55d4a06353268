import type * as vscode from 'vscode';

/** Base for every provider, controller and panel: owns what it registers and disposes it once. */
export abstract class DisposableBase implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  protected register<T extends vscode.Disposable>(disposable: T): T {
    if (this.disposed) disposable.dispose();
    else this.disposables.push(disposable);
    return disposable;
  }

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.disposables.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // Disposal must go on for the rest even if one part fails.
      }
    }
  }
}

/**
 * A module loaded on first use and kept: `lazyModule(() => import('./x'))`. esbuild splits each module
 * loaded this way into a chunk of its own beside dist/extension.mjs (one module runtime: code it shares with
 * activation or another chunk is in exactly one file), so activation carries none of it; under tsx it is the
 * module itself. A failed load is forgotten, so the next use tries again.
 */
export function lazyModule<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
