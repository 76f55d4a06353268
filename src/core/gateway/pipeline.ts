/**
 * The request pipeline: the engine every request of a GatewayClient goes through (docs/ARCHITECTURE.md,
 * "One HTTP choke point"). It adds authentication, shares identical GETs in flight, holds background work
 * back while the monthly quota is used up, paces against the rate limit, applies the spec's error table as
 * retry policy (backoff, the 429 window, the sync wait of a 503), counts what the month spent, and
 * validates every response with zod. Time, randomness, the network and the logger are injected, so every
 * retry, backoff and pacing decision is reproducible in unit tests without waiting.
 */
import type * as z from 'zod';
import { redactingLogger, silentLogger, type Logger } from '../util/log';
import { Redactor } from '../util/redact';
import { systemClock, type Clock } from '../util/clock';
import { Emitter, type Event } from '../util/emitter';
import { raceAbort } from '../util/abort';
import {
  CancelledError,
  GatewayHttpError,
  MissingKeyError,
  NetworkError,
  QuotaExhaustedError,
  RequestTimeoutError,
  ResponseTooLargeError,
  SchemaError,
  isGatewayError,
  sanitizeDetail,
} from './errors';
import {
  authHeaders,
  limitsOf,
  urlPrefix,
  type ConnectionProfile,
  type KeyProvider,
} from '../profiles/profile';
import { QuotaLock, monthlyQuotaEnd } from './quotaLock';
import { RateLimiter, type Priority, type Settle, type Ticket } from './rateLimiter';
import type { RetryNotice } from './waiting';
import type { RequestOptions } from './requests';
import * as S from './schemas';
import {
  createUndiciTransport,
  DEFAULT_MAX_BODY_BYTES,
  type Transport,
  type TransportResponse,
} from './transport';
import { UsageTracker, keyFingerprint, requestKind } from './usage';
import {
  DEFAULT_RETRY_POLICY,
  type Call,
  type PipelineOptions,
  type RequestRecord,
  type RetryPolicy,
  type SyncState,
  type SyncStateChange,
  type UnauthorizedEvent,
} from './pipelineTypes';

// Importers of the pipeline find its shapes here too.
export * from './pipelineTypes';

interface InFlight {
  readonly promise: Promise<unknown>;
  readonly controller: AbortController;
  readonly ticket: Ticket;
  joined: number;
  /** Its first attempt left: its answer may predate what a `fresh` caller knows of the chain. */
  sent: boolean;
}

/** What one request has been through so far: its retries by row of the error table. */
interface Attempts {
  /** The request's ticket: its priority says whose wait a retry is. */
  readonly ticket: Ticket;
  readonly tries: { server: number; rateLimited: number; network: number; sync: number };
  replacedKeyTried: boolean;
  count: number;
}

/** An error answer the table says to ask again after, or the value that stands for it (a 404's). */
type ErrorOutcome<T> = { readonly retry: true } | { readonly retry: false; readonly value: T };
const RETRY = { retry: true } as const;

export class RequestPipeline {
  readonly profile: ConnectionProfile;
  readonly clock: Clock;
  /** Logs with every secret the redactor knows masked. */
  readonly log: Logger;
  readonly policy: RetryPolicy;
  /** Usage against the plan's monthly limit; persist with `save()`/`load()`. */
  readonly usage: UsageTracker;
  readonly limiter: RateLimiter;
  readonly quota: QuotaLock;
  private readonly keyProvider: KeyProvider;
  private readonly transport: Transport;
  private readonly closeTransport: (() => Promise<void>) | undefined;
  private readonly random: () => number;
  private readonly redactor: Redactor;
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;
  private readonly prefix: string;
  private readonly userAgent: string;
  private readonly inFlight = new Map<string, InFlight>();
  private readonly lifetime = new AbortController();
  private readonly active = new Set<AbortController>();
  private syncWait: Promise<void> | undefined;
  private sync: SyncState = 'unknown';
  private readonly syncEmitter = new Emitter<SyncStateChange>();
  private readonly unauthorizedEmitter = new Emitter<UnauthorizedEvent>();
  private readonly requestEmitter = new Emitter<RequestRecord>();

  /**
   * `syncing` as soon as any request meets a 503 (or a self-clique answers not synced), whether it waits
   * for the sync or not; `synced` once a self-clique reports synced.
   */
  readonly onSyncState: Event<SyncStateChange> = this.syncEmitter.event;
  /** A 401: the key must be replaced (prompt for a new one). */
  readonly onUnauthorized: Event<UnauthorizedEvent> = this.unauthorizedEmitter.event;
  /** Every HTTP exchange, including retries. */
  readonly onRequest: Event<RequestRecord> = this.requestEmitter.event;
  private readonly retryEmitter = new Emitter<RetryNotice>();
  /** Each retry before its wait starts, so that a person waiting on the request can be told. */
  readonly onRetry: Event<RetryNotice> = this.retryEmitter.event;

  constructor(options: PipelineOptions) {
    this.profile = options.profile;
    this.keyProvider = options.keyProvider;
    if (options.transport) {
      this.transport = options.transport;
    } else {
      const undici = createUndiciTransport(options.network ? { network: options.network } : {});
      this.transport = undici.send;
      this.closeTransport = () => undici.close();
    }
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.redactor = options.redactor ?? new Redactor();
    this.log = redactingLogger(options.logger ?? silentLogger, (text) => this.redactor.redact(text));
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.prefix = urlPrefix(this.profile);
    this.userAgent = options.userAgent ?? 'alephium-gateway-vscode';
    const limits = limitsOf(this.profile);
    this.limiter = new RateLimiter({
      clock: this.clock,
      ...(limits.perSecond !== undefined ? { limitPerSecond: limits.perSecond } : {}),
      ...(options.pacingMarginMs !== undefined ? { marginMs: options.pacingMarginMs } : {}),
    });
    this.usage = new UsageTracker(this.clock, limits.perMonth);
    this.quota = new QuotaLock(this.clock, this.usage, this.log);
    this.reportImplausibleResets();
  }

  get syncState(): SyncState {
    return this.sync;
  }

  /**
   * What a `self-clique` answer said, whoever asked (the Node view's check, the sync wait): the one
   * source of "synced", so a sync wait that gave up does not leave the state "syncing" for good and the
   * next 503 is news again.
   */
  noteSelfClique(synced: boolean): void {
    this.setSync(synced ? 'synced' : 'syncing');
  }

  /** The key as the key provider gives it now, if any. */
  async key(): Promise<string | undefined> {
    return (await this.keyProvider()) ?? undefined;
  }

  /** Ends every request and timer of this pipeline; nothing more is sent. */
  dispose(): void {
    if (this.lifetime.signal.aborted) return;
    this.lifetime.abort();
    for (const controller of this.active) controller.abort();
    this.limiter.dispose();
    this.usage.dispose();
    this.syncEmitter.dispose();
    this.quota.dispose();
    this.unauthorizedEmitter.dispose();
    this.requestEmitter.dispose();
    this.retryEmitter.dispose();
    void this.closeTransport?.();
  }

  /** Aborts when the pipeline is disposed (for waits that belong to no request). */
  get lifetimeSignal(): AbortSignal {
    return this.lifetime.signal;
  }

  get<T>(
    path: string,
    schema: Call<T>['schema'],
    options: RequestOptions | undefined,
    extra: Partial<Call<T>> = {},
  ): Promise<T> {
    const bare = path.split('?')[0] as string;
    return this.request<T>(
      { method: 'GET', endpoint: `GET ${bare}`, path, schema, idempotent: true, ...extra },
      options,
    );
  }

  post<T>(
    path: string,
    body: unknown,
    schema: Call<T>['schema'],
    idempotent: boolean,
    options: RequestOptions | undefined,
  ): Promise<T> {
    return this.request<T>(
      { method: 'POST', endpoint: `POST ${path}`, path, body, schema, idempotent },
      options,
    );
  }

  /**
   * Identical GETs in flight share one request; each caller can still cancel its own wait, and the
   * request itself is aborted only when the last interested caller is gone. Every request has its own
   * controller (tracked for `dispose`), so no listener piles up on a long-lived signal.
   */
  request<T>(call: Call<T>, options: RequestOptions = {}): Promise<T> {
    if (options.signal?.aborted) return Promise.reject(new CancelledError(call.endpoint));
    const priority = options.priority ?? 'user';
    const shareKey = call.method === 'GET' ? call.path : undefined;
    let entry = shareKey !== undefined ? this.inFlight.get(shareKey) : undefined;
    // A request abandoned by all its callers is on its way out: a new caller must not join it.
    if (entry?.controller.signal.aborted) entry = undefined;
    // A fresh read wants an answer from after it was asked (a state re-read after new events): a request
    // already sent may have been answered from before them. It is only joined while it still waits.
    if (entry?.sent && options.fresh) entry = undefined;
    if (entry) {
      if (priority === 'user') entry.ticket.priority = 'user';
    } else {
      entry = this.start(call, options, priority, shareKey);
    }
    const shared = entry;
    shared.joined++;
    const signal = options.signal;
    if (!signal) return shared.promise as Promise<T>;
    // Counted synchronously in the abort event, not when the rejection is handled: a caller that aborts
    // and at once asks again (a second Refresh) must not join the request it just abandoned.
    const leave = (): void => {
      // The last interested caller gone: nobody needs the answer, free the slot and the socket.
      if (--shared.joined > 0) return;
      shared.controller.abort();
      if (shareKey !== undefined && this.inFlight.get(shareKey) === shared) this.inFlight.delete(shareKey);
    };
    signal.addEventListener('abort', leave, { once: true });
    return raceAbort(shared.promise as Promise<T>, signal, () => new CancelledError(call.endpoint)).finally(
      () => signal.removeEventListener('abort', leave),
    );
  }

  /** Waits until the node reports synced (shared by every request that met a 503). */
  waitForSync(signal?: AbortSignal): Promise<void> {
    if (!this.syncWait) {
      this.syncWait = this.pollUntilSynced().finally(() => {
        this.syncWait = undefined;
      });
      // A rejection reaches every waiter through `raceAbort`; this copy must not be reported as unhandled.
      this.syncWait.catch(() => undefined);
    }
    return raceAbort(this.syncWait, signal, () => new CancelledError());
  }

  /** Exponential backoff with jitter: half fixed, half random, so that clients do not retry in step. */
  backoff(
    attempt: number,
    signal: AbortSignal,
    endpoint: string,
    why: { readonly priority: Priority; readonly reason: string } = { priority: 'user', reason: 'no answer' },
  ): Promise<void> {
    const cap = Math.min(this.policy.maxDelayMs, this.policy.baseDelayMs * 2 ** (attempt - 1));
    const delay = Math.round(cap / 2 + (this.random() * cap) / 2);
    this.log.info(`${endpoint}: retry ${attempt} in ${delay} ms`);
    this.retryEmitter.fire({ endpoint, attempt, delayMs: delay, ...why });
    return this.pause(delay, signal, endpoint);
  }

  // ---- one request ----------------------------------------------------------------------------------

  /** A new request in flight, shared under `shareKey` (a GET's path) until it settles. */
  private start(
    call: Call<unknown>,
    options: RequestOptions,
    priority: Priority,
    shareKey: string | undefined,
  ): InFlight {
    const controller = new AbortController();
    const ticket: Ticket = { priority };
    this.active.add(controller);
    const promise = this.execute(
      call,
      options,
      ticket,
      controller.signal,
      () => (created.sent = true),
    ).finally(() => {
      this.active.delete(controller);
      if (shareKey !== undefined && this.inFlight.get(shareKey) === created) this.inFlight.delete(shareKey);
    });
    // Each caller observes the outcome through its own race; this copy only silences Node.
    promise.catch(() => undefined);
    const created: InFlight = { promise, controller, ticket, joined: 0, sent: false };
    if (shareKey !== undefined) this.inFlight.set(shareKey, created);
    return created;
  }

  /** The retry loop: each attempt is paced and sent, and its answer goes through the spec's error table. */
  private async execute<T>(
    call: Call<T>,
    options: RequestOptions,
    ticket: Ticket,
    signal: AbortSignal,
    onSent: () => void = () => undefined,
  ): Promise<T> {
    const attempts: Attempts = {
      ticket,
      tries: { server: 0, rateLimited: 0, network: 0, sync: 0 },
      replacedKeyTried: false,
      count: 0,
    };
    for (;;) {
      const key = await this.currentKey(call.endpoint);
      // While the month's quota is known to be used up, background polling sends nothing (but one probe
      // a minute) and fails at once with the date it renews; a user's request is still sent, since a
      // refused one costs nothing and an answer is how the lock learns that the quota is back.
      const quotaEnd = this.quota.endFor(key, ticket.priority);
      if (quotaEnd !== undefined) throw new QuotaExhaustedError(call.endpoint, quotaEnd);
      const settle = await this.slot(ticket, signal, call.endpoint);
      onSent();
      attempts.count++;
      const started = this.clock.now();
      this.log.debug(
        `→ ${call.endpoint} (${ticket.priority}${attempts.count > 1 ? `, attempt ${attempts.count}` : ''})`,
      );
      let response: TransportResponse;
      try {
        response = await this.send(call, key, signal, options.timeoutMs ?? this.timeoutMs);
      } catch (error) {
        settle();
        this.account(call, ticket, options, key, attempts.count, started);
        await this.afterSendFailure(call, error, attempts, signal);
        continue;
      }
      settle();
      const { status } = response;
      this.account(call, ticket, options, key, attempts.count, started, response);
      this.log.debug(`← ${status} ${call.endpoint} (${this.clock.now() - started} ms)`);
      if (status >= 200 && status < 300) {
        // The gateway answers this key: whatever the lock thought, the month is not used up.
        this.quota.answered(key, true);
        return this.parse(call, response.bodyText);
      }
      const outcome = await this.afterErrorStatus(call, response, key, attempts, signal);
      if (!outcome.retry) return outcome.value;
    }
  }

  /** A pacing slot for one attempt; its settle function marks the attempt answered. */
  private async slot(ticket: Ticket, signal: AbortSignal, endpoint: string): Promise<Settle> {
    try {
      return await this.limiter.acquire(ticket, signal);
    } catch {
      throw new CancelledError(endpoint);
    }
  }

  /**
   * Counts an attempt in the month's usage, learns the rate-limit headroom of its answer and reports it.
   * Refused requests (429, 401) are not counted by the server against the monthly quota; one without an
   * answer is (the gateway counted its arrival). A request joined by a user action while it waited counts
   * as the user's (the ticket's priority was raised).
   */
  private account(
    call: Call<unknown>,
    ticket: Ticket,
    options: RequestOptions,
    key: string | undefined,
    attempt: number,
    started: number,
    response?: TransportResponse,
  ): void {
    const status = response?.status ?? 0;
    const kind = requestKind(ticket.priority, options.purpose);
    if (key && status !== 429 && status !== 401) this.usage.record(keyFingerprint(key), kind);
    if (response) this.limiter.observe(response.headers);
    this.requestEmitter.fire({
      endpoint: call.endpoint,
      priority: ticket.priority,
      kind,
      status,
      attempt,
      durationMs: this.clock.now() - started,
    });
  }

  /** No answer: a cancel, a body too large (an answer), or a network failure or timeout, retried if safe. */
  private async afterSendFailure(
    call: Call<unknown>,
    error: unknown,
    attempts: Attempts,
    signal: AbortSignal,
  ): Promise<void> {
    if (signal.aborted && !(error instanceof RequestTimeoutError)) throw new CancelledError(call.endpoint);
    // Too large is an answer, not a network failure: asking again would read the same.
    if (error instanceof ResponseTooLargeError)
      throw new ResponseTooLargeError(call.endpoint, error.limitBytes);
    const failure = error instanceof RequestTimeoutError ? error : new NetworkError(call.endpoint, error);
    this.log.warn(`${call.endpoint}: ${failure.message}`);
    if (call.idempotent && attempts.tries.network < this.policy.maxNetworkRetries) {
      const reason = failure instanceof RequestTimeoutError ? 'no answer in time' : 'no answer';
      await this.backoff(++attempts.tries.network, signal, call.endpoint, { ...attempts.ticket, reason });
      return;
    }
    throw failure;
  }

  /** The spec's error table, row by row: what an error status means for this request. */
  private async afterErrorStatus<T>(
    call: Call<T>,
    response: TransportResponse,
    key: string | undefined,
    attempts: Attempts,
    signal: AbortSignal,
  ): Promise<ErrorOutcome<T>> {
    const error = this.httpError(call, response);
    const { tries } = attempts;
    switch (error.kind) {
      case 'unauthorized': {
        // Never again with the same key; but if the key was replaced meanwhile, the new one deserves a try.
        const fresh = (await this.keyProvider())?.trim();
        if (!attempts.replacedKeyTried && fresh && fresh !== key) {
          attempts.replacedKeyTried = true;
          return RETRY;
        }
        this.unauthorizedEmitter.fire({ endpoint: call.endpoint, detail: error.detail });
        throw error;
      }
      case 'notFound': {
        if (call.on404) return { retry: false, value: call.on404() };
        const interval = call.notFoundIntervalMs ?? 4_000;
        if (call.notFoundUntil !== undefined && this.clock.now() + interval <= call.notFoundUntil) {
          await this.pause(interval, signal, call.endpoint);
          return RETRY;
        }
        throw error;
      }
      case 'rateLimited':
        this.waitForRateWindow(call, error, key, tries.rateLimited++);
        return RETRY;
      case 'unavailable': {
        // Said at once, by any request: the Node view shows "syncing" without waiting for its own check.
        this.setSync('syncing');
        if (call.noSyncWait || tries.sync++ >= this.policy.maxSyncRetries) throw error;
        this.log.info(`${call.endpoint}: 503, node syncing; waiting for self-clique to report synced`);
        try {
          await this.waitForSync(signal);
        } catch (syncError) {
          if (signal.aborted) throw new CancelledError(call.endpoint);
          throw isGatewayError(syncError) ? syncError : error;
        }
        return RETRY;
      }
      case 'timeout':
      case 'server': {
        // A 504 on a range query goes back to the caller, which splits the range; elsewhere a 504 is
        // a transient failure like a 500.
        if (error.kind === 'timeout' && call.rangeQuery) throw error;
        if (!call.idempotent || tries.server >= this.policy.maxServerRetries) throw error;
        const reason = `HTTP ${error.status}`;
        await this.backoff(++tries.server, signal, call.endpoint, { ...attempts.ticket, reason });
        return RETRY;
      }
      default:
        throw error;
    }
  }

  /** The error of an answer, with what the server said made safe to keep. */
  private httpError(call: Call<unknown>, response: TransportResponse): GatewayHttpError {
    const body = errorBody(response.bodyText);
    // What the server said reaches messages, toasts, trees and logs: cut, stripped of control
    // characters, and with any secret (a key the server echoed) masked, before it is kept anywhere.
    const detail = body.detail === undefined ? undefined : this.redactor.redact(sanitizeDetail(body.detail)!);
    const error = new GatewayHttpError(call.endpoint, response.status, detail, body.resource);
    // The detail may echo request data (even a key); the redacting logger masks it.
    if (!(error.kind === 'notFound' && call.on404)) this.log.warn(error.message);
    return error;
  }

  /**
   * A 429: the monthly quota is not a window to wait out (waiting would hang every request for days), so
   * it throws; a per-second one blocks the limiter until the window the server announced, then retries.
   */
  private waitForRateWindow(
    call: Call<unknown>,
    error: GatewayHttpError,
    key: string | undefined,
    retries: number,
  ): void {
    const quotaEnd = monthlyQuotaEnd(error.detail, this.clock.now());
    if (quotaEnd !== undefined) {
      this.quota.exhausted(quotaEnd, key);
      throw new QuotaExhaustedError(call.endpoint, quotaEnd, error.detail);
    }
    if (retries >= this.policy.maxRateLimitRetries) throw error;
    const resetAt = this.limiter.headroom?.resetAt;
    const now = this.clock.now();
    // Wait for the reset the server announced (bounded, in case a clock is off); 1 s without one.
    const until = resetAt !== undefined && resetAt > now ? Math.min(resetAt, now + 60_000) : now + 1_000;
    this.limiter.blockUntil(until);
    this.log.info(`${call.endpoint}: 429, waiting ${until - now} ms for the rate-limit window`);
  }

  private async currentKey(endpoint: string): Promise<string | undefined> {
    const key = (await this.keyProvider())?.trim() || undefined;
    if (key) this.redactor.addSecret(key);
    else if (this.profile.kind === 'gateway') throw new MissingKeyError(endpoint);
    return key;
  }

  private async send(call: Call<unknown>, key: string | undefined, signal: AbortSignal, timeoutMs: number) {
    const timeout = new AbortController();
    const stopTimer = new AbortController();
    let timedOut = false;
    this.clock.sleep(timeoutMs, stopTimer.signal).then(
      () => {
        timedOut = true;
        timeout.abort();
      },
      () => undefined,
    );
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.userAgent,
      ...authHeaders(this.profile, key),
    };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await this.transport({
        method: call.method,
        url: `${this.prefix}${call.path}`,
        headers,
        ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
        signal: AbortSignal.any([signal, timeout.signal]),
        maxBodyBytes: this.maxBodyBytes,
      });
    } catch (error) {
      if (timedOut) throw new RequestTimeoutError(call.endpoint, timeoutMs);
      throw error;
    } finally {
      stopTimer.abort();
    }
  }

  private parse<T>(call: Call<T>, bodyText: string): T {
    let json: unknown;
    try {
      json = JSON.parse(bodyText);
    } catch {
      throw new SchemaError(call.endpoint, '', `body is not JSON (${bodyText.length} bytes)`);
    }
    return S.decode<z.ZodType<T>>(call.endpoint, call.schema, json);
  }

  private async pause(ms: number, signal: AbortSignal, endpoint: string): Promise<void> {
    try {
      await this.clock.sleep(ms, signal);
    } catch {
      throw new CancelledError(endpoint);
    }
  }

  // ---- the sync wait --------------------------------------------------------------------------------

  private async pollUntilSynced(): Promise<void> {
    const started = this.clock.now();
    this.setSync('syncing');
    for (;;) {
      await this.clock.sleep(this.policy.syncPollIntervalMs, this.lifetime.signal);
      try {
        const clique = await this.get(
          '/infos/self-clique',
          S.SelfCliqueSchema,
          { fresh: true },
          { noSyncWait: true },
        );
        this.noteSelfClique(clique.synced);
        if (clique.synced) return;
      } catch (error) {
        // Unreachable or still 503: keep polling; anything else (401, schema) ends the wait.
        if (!(error instanceof GatewayHttpError && error.kind === 'unavailable') && !isTransient(error))
          throw error;
      }
      if (this.clock.now() - started >= this.policy.maxSyncWaitMs) {
        throw new GatewayHttpError('GET /infos/self-clique', 503, 'the node did not finish syncing in time');
      }
      this.log.debug(`node still syncing after ${this.clock.now() - started} ms`);
    }
  }

  private setSync(state: SyncState): void {
    if (this.sync === state) return;
    this.sync = state;
    this.syncEmitter.fire({ state, at: this.clock.now() });
  }

  /** Said once per pipeline: a gateway that keeps sending it should not flood the log. */
  private reportImplausibleResets(): void {
    let reported = false;
    this.limiter.onImplausibleReset(({ resetAt }) => {
      if (reported) return;
      reported = true;
      this.log.warn(
        `The gateway announced a rate-limit reset ${Math.round((resetAt - this.clock.now()) / 1000)} s ahead, which is no per-second window (a reset in milliseconds?); it is ignored and the window is learned from the next response.`,
      );
    });
  }
}

function isTransient(error: unknown): boolean {
  return (
    error instanceof NetworkError ||
    error instanceof RequestTimeoutError ||
    (error instanceof GatewayHttpError &&
      (error.kind === 'server' || error.kind === 'timeout' || error.kind === 'rateLimited'))
  );
}

function errorBody(text: string): { detail: string | undefined; resource: string | undefined } {
  try {
    const parsed = S.ErrorBodySchema.safeParse(JSON.parse(text));
    if (parsed.success) return { detail: parsed.data.detail, resource: parsed.data.resource };
  } catch {
    // Not JSON (a proxy's HTML page): keep a short excerpt for the log.
  }
  const excerpt = text.trim().slice(0, 200);
  return { detail: excerpt || undefined, resource: undefined };
}
