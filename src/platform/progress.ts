import * as vscode from 'vscode';
import type { Event } from '../core/util/emitter';
import { isUsersRetry, retryLine, SLOW_REQUEST_MS, type RetryNotice } from '../core/gateway/waiting';
import { UserCancelledError } from '../core/util/errors';
import { raceAbort } from '../core/util/abort';
import { closeAnsweredPrompt } from './promptHandOver';

/**
 * `vscode.window.withProgress` for this extension: the prompt answered last (kept on screen, busy, by
 * promptHandOver.ts) closes first, since the progress is where the waiting shows from then on.
 */
export function withProgress<R>(
  options: vscode.ProgressOptions,
  task: Parameters<typeof vscode.window.withProgress<R>>[1],
): Thenable<R> {
  closeAnsweredPrompt();
  return vscode.window.withProgress(options, task);
}

/**
 * Runs a person's request with the house rule for waiting (core/gateway/waiting.ts): nothing for a
 * quick answer; past SLOW_REQUEST_MS, or at the first retry, a notification with `title`, a Cancel
 * button, and a line saying when each retry is sent. `work` gets the signal to pass to the client;
 * Cancel ends the wait at once even where a step of `work` does not take the signal.
 */
export async function withRequestProgress<T>(
  client: { readonly onRetry: Event<RetryNotice> },
  title: string,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const running = raceAbort(work(controller.signal), controller.signal, () => new UserCancelledError());
  // Each observer below handles the outcome; this copy only keeps Node from calling it unhandled.
  running.catch(() => undefined);
  let report: ((message: string) => void) | undefined;
  let lastRetry: string | undefined;
  let shown = false;
  const show = () => {
    if (shown) return;
    shown = true;
    void withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      (progress, token) => {
        const sub = token.onCancellationRequested(() => controller.abort());
        report = (message) => progress.report({ message });
        if (lastRetry) report(lastRetry);
        const done = (): void => {
          sub.dispose();
        };
        return running.then(done, done);
      },
    );
  };
  const timer = setTimeout(show, SLOW_REQUEST_MS);
  const retries = client.onRetry((notice) => {
    if (!isUsersRetry(notice)) return;
    lastRetry = retryLine(notice);
    show();
    report?.(lastRetry);
  });
  try {
    return await running;
  } finally {
    clearTimeout(timer);
    retries.dispose();
  }
}
