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
