import { setMaxListeners } from 'node:events';

/**
 * A controller whose signal every request of a long-lived owner (the scheduler, the watcher) listens to
 * while it runs: 16 chain heights or a round of contracts at once are more than Node's default of 10
 * listeners, which it reports as a possible leak. Each listener is removed when its request settles, so
 * the count is bounded by the requests in flight; this raises the warning's threshold to that bound.
 */
export function withListenerRoom(controller: AbortController, inFlight = 256): AbortController {
  setMaxListeners(inFlight, controller.signal);
  return controller;
}

/**
 * Resolves/rejects with `promise`, or rejects with `makeError()` as soon as `signal` aborts (without
 * cancelling `promise`: others may still wait for it).
 */
export function raceAbort<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  makeError: () => Error,
): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(makeError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(makeError());
    signal.addEventListener('abort', onAbort, { once: true });
    // Settles as `promise` did, with its own value or reason, once the listener is gone.
    promise.finally(() => signal.removeEventListener('abort', onAbort)).then(resolve, reject);
  });
}
