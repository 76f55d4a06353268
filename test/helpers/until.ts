/**
 * The one polling wait of the tests: asks `probe` again until it gives a value, for a bounded time, instead
 * of sleeping for a guessed one. Plain Node (the component tier and the extension-host suite share it).
 */
import { errorMessage } from '../../src/core/util/errors';

/**
 * Resolves with the first value `probe` gives that is neither `undefined` nor `false`. A probe that throws
 * is asked again; on timeout the error names `what` and the probe's last error.
 */
export async function until<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
  pollMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  throw new Error(
    `Timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${errorMessage(last)}` : ''}`,
  );
}
