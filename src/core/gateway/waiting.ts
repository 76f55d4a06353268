/**
 * What a person waiting on their own request is told. A request that takes longer than SLOW_REQUEST_MS
 * shows progress with a Cancel button, and each retry says when it is sent again and why, rather than
 * a silent half minute followed by a silent second try.
 */
import type { Priority } from './rateLimiter';

/** A request about to be sent again after a failure, and when: what a waiting person is told. */
export interface RetryNotice {
  readonly endpoint: string;
  readonly priority: Priority;
  /** The retry's number (1 for the first retry). */
  readonly attempt: number;
  readonly delayMs: number;
  /** Why, in the extension's words: "no answer", "HTTP 500". */
  readonly reason: string;
}

/** Past this, a person's request shows progress with Cancel (a quick answer shows nothing). */
export const SLOW_REQUEST_MS = 2_000;

/** Whether a retry is of a person's request (background polling retries are not theirs to watch). */
export function isUsersRetry(notice: RetryNotice): boolean {
  return notice.priority === 'user';
}

/** "no answer; retry 1 of GET /contracts/call-contract in 3 s". */
export function retryLine(notice: RetryNotice): string {
  const seconds = Math.max(1, Math.round(notice.delayMs / 1000));
  return `${notice.reason}; retry ${notice.attempt} of ${notice.endpoint} in ${seconds} s`;
}
