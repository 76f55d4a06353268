/**
 * The shapes of the request pipeline (pipeline.ts): what a call says about itself, the retry policy of the
 * spec's error table, the options a pipeline is built with, and what it reports (sync state, a rejected key,
 * each request's record). Apart from the engine so that both stay small enough to read.
 */
import type * as z from 'zod';
import type { Logger } from '../util/log';
import type { Redactor } from '../util/redact';
import type { Clock } from '../util/clock';
import type { ConnectionProfile, KeyProvider } from '../profiles/profile';
import type { Priority } from './rateLimiter';
import type { HttpMethod, NetworkOptionsSource, Transport } from './transport';
import type { RequestKind } from './usage';

export interface RetryPolicy {
  /** Retries of a 500 (and other 5xx, and 504 outside range queries), with exponential backoff. */
  readonly maxServerRetries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** Retries after a 429, each after waiting for `X-RateLimit-Reset`. */
  readonly maxRateLimitRetries: number;
  /** Retries of an idempotent request after a network failure or client-side timeout. */
  readonly maxNetworkRetries: number;
  /** How often `self-clique` is polled while the node is syncing (503). */
  readonly syncPollIntervalMs: number;
  /** How long to wait for the node to sync before giving up with the 503. */
  readonly maxSyncWaitMs: number;
  /** How many times one request may go through a sync wait. */
  readonly maxSyncRetries: number;
  /** Status checks after a submit whose outcome is unknown. */
  readonly submitStatusChecks: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxServerRetries: 4,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRateLimitRetries: 5,
  maxNetworkRetries: 3,
  syncPollIntervalMs: 5_000,
  maxSyncWaitMs: 10 * 60_000,
  maxSyncRetries: 3,
  submitStatusChecks: 3,
};

export interface PipelineOptions {
  readonly profile: ConnectionProfile;
  readonly keyProvider: KeyProvider;
  /** Defaults to undici with keep-alive (and a ProxyAgent when `network` names a proxy). */
  readonly transport?: Transport;
  /** VS Code's proxy and certificates, for the default transport (core/gateway/networkPolicy.ts); a function is read on the first request. */
  readonly network?: NetworkOptionsSource;
  readonly clock?: Clock;
  /** Uniform in [0, 1); used for backoff jitter. */
  readonly random?: () => number;
  readonly logger?: Logger;
  /** Shared redactor; the client registers the API key with it. */
  readonly redactor?: Redactor;
  /** Per-request timeout (default 30 s); a request option overrides it. */
  readonly timeoutMs?: number;
  /** Largest response body read (default DEFAULT_MAX_BODY_BYTES, 8 MB); past it the request fails. */
  readonly maxBodyBytes?: number;
  readonly retry?: Partial<RetryPolicy>;
  /** See RateLimiterOptions.marginMs. */
  readonly pacingMarginMs?: number;
  readonly userAgent?: string;
}

export type SyncState = 'unknown' | 'synced' | 'syncing';

export interface SyncStateChange {
  readonly state: SyncState;
  readonly at: number;
}

export interface UnauthorizedEvent {
  readonly endpoint: string;
  readonly detail: string | undefined;
}

/** One HTTP exchange, for diagnostics (and the burst bench). */
export interface RequestRecord {
  readonly endpoint: string;
  readonly priority: Priority;
  /** What the request counts as in the ledger (from its priority and purpose). */
  readonly kind: RequestKind;
  /** HTTP status, or 0 when the connection failed or timed out. */
  readonly status: number;
  readonly attempt: number;
  readonly durationMs: number;
}

/** One request as the pipeline sends it. */
export interface Call<T> {
  readonly method: HttpMethod;
  /** `GET /transactions/status`: names the endpoint in errors and logs. */
  readonly endpoint: string;
  /** Path (with query) after the prefix. */
  readonly path: string;
  readonly body?: unknown;
  readonly schema: z.ZodType<T>;
  /** Safe to repeat when the outcome is unknown (every GET, and the POSTs that change nothing). */
  readonly idempotent: boolean;
  /** A value standing for "nothing" when the endpoint answers 404 (events of a silent contract). */
  readonly on404?: () => T;
  /** Keep asking on 404 until this time (waiting for a pending transaction makes sense). */
  readonly notFoundUntil?: number;
  readonly notFoundIntervalMs?: number;
  /** 504 is thrown at once so that the caller can split the range. */
  readonly rangeQuery?: boolean;
  /** The sync probe itself must not wait for sync. */
  readonly noSyncWait?: boolean;
}
