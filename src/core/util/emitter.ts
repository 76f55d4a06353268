/**
 * A tiny event emitter shaped like VS Code's `Event<T>` (a function that takes a listener and returns a
 * disposable), so that the VS Code side can re-expose these events without adapters, while the core
 * stays free of any 'vscode' import.
 */
export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (value: T) => void) => Disposable;

export class Emitter<T> {
  private listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  };

  fire(value: T): void {
    // Copy first: a listener may dispose itself (or others) while we iterate.
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch {
        // A faulty listener (e.g. a status bar that was disposed) must never break the request path.
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
