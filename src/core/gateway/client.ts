/**
 * The gateway client: the one HTTP choke point of the extension (docs/ARCHITECTURE.md, "One HTTP choke point").
 *
 * Every request goes through `execute`, which adds authentication, paces against the rate limit,
 * applies the spec's error table as retry policy, and validates the response with zod. Time, randomness,
 * the network and the logger are injected, so every retry, backoff and pacing decision is reproducible
 * in unit tests without waiting.
 */
import { decodeUnsignedTx, groupOfAddress, groupsOfUnsignedTx, txIdFromUnsignedTx } from '../protocol';
import { redactingLogger, silentLogger, type Logger } from '../util/log';
import { Redactor } from '../util/redact';
import { TtlLruCache } from './cache';
import { systemClock, type Clock } from '../util/clock';
import { Emitter, type Event } from '../util/emitter';
import {
  CancelledError,
  GatewayHttpError,
  MissingKeyError,
  NetworkError,
  QuotaExhaustedError,
  RequestTimeoutError,
  ResponseTooLargeError,
  SchemaError,
  SubmitOutcomeUnknownError,
  ValidationError,
  isGatewayError,
  sanitizeDetail,
  type GatewayError,
} from './errors';
import {
  authHeaders,
  limitsOf,
  urlPrefix,
  validateProfile,
  type ConnectionProfile,
  type KeyProvider,
} from './profile';
import { RateLimiter, type Priority, type RateHeadroom, type Ticket } from './rateLimiter';
import type * as z from 'zod';
import * as S from './schemas';
import {
  createUndiciTransport,
  DEFAULT_MAX_BODY_BYTES,
  type HttpMethod,
  type ProxySettings,
  type Transport,
} from './transport';
import {
  UsageTracker,
  keyFingerprint,
  requestKind,
  type MonthlyUsage,
  type RequestKind,
  type RequestPurpose,
} from './usage';
import * as V from './validate';

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

export interface CacheOptions {
  /** Lifetime of mutable contract fields and balances: 5 to 15 s per the spec (default 10 s). */
  readonly mutableTtlMs?: number;
  /** Lifetime of the current hashrate (default 30 s). */
  readonly hashrateTtlMs?: number;
  /** Size bound of the LRU (default 1000 entries). */
  readonly maxEntries?: number;
}

export interface GatewayClientOptions {
  readonly profile: ConnectionProfile;
  readonly keyProvider: KeyProvider;
  /** Defaults to undici with keep-alive (and a ProxyAgent when `proxy` is set). */
  readonly transport?: Transport;
  /** VS Code's `http.proxy` settings, for the default transport. */
  readonly proxy?: ProxySettings;
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
  readonly cache?: CacheOptions;
  /** See RateLimiterOptions.marginMs. */
  readonly pacingMarginMs?: number;
  readonly userAgent?: string;
}

export interface RequestOptions {
  readonly signal?: AbortSignal;
  /** `user` (default) goes before `background` polling. */
  readonly priority?: Priority;
  readonly timeoutMs?: number;
  /** Skip reading the cache (the fresh answer is still cached). */
  readonly fresh?: boolean;
  /**
   * What a background request is for, for the request ledger (usage.ts): `contracts`, `node` or
   * `tracking`. Requests at user priority count as the user's actions; background ones without it as other.
   */
  readonly purpose?: RequestPurpose;
}

export interface SelfCliqueOptions extends RequestOptions {
  /**
   * `false` answers a 503 with the error at once instead of waiting for the node to sync: a probe whose
   * job is to tell "syncing" must not wait until it is over (the Node view did, and wedged).
   */
  readonly waitForSync?: boolean;
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

export interface GroupPair {
  readonly fromGroup?: number;
  readonly toGroup?: number;
}

export interface BuildTransferRequest {
  readonly fromPublicKey: string;
  readonly destinations: readonly V.Destination[];
  readonly gasAmount?: number | null;
  readonly gasPrice?: string;
  /** Node extras, passed through when set. */
  readonly fromPublicKeyType?: string;
  readonly group?: number;
}

export interface SweepRequest {
  readonly fromPublicKey: string;
  readonly toAddress: string;
  readonly gasAmount?: number;
  readonly gasPrice?: string;
  readonly fromPublicKeyType?: string;
  readonly group?: number;
}

/** `POST /contracts/unsigned-tx/execute-script` (the node's BuildExecuteScriptTx). */
export interface BuildExecuteScriptRequest {
  readonly fromPublicKey: string;
  /** The TxScript's bytecode, hex; it is carried into the transaction as is. */
  readonly bytecode: string;
  /** ALPH approved to the script (atto units). */
  readonly attoAlphAmount?: string;
  readonly tokens?: readonly S.Token[];
  readonly gasAmount?: number;
  readonly gasPrice?: string;
  readonly group?: number;
}

/** `POST /contracts/unsigned-tx/deploy-contract` (the node's BuildDeployContractTx). */
export interface BuildDeployContractRequest {
  readonly fromPublicKey: string;
  /** Contract code followed by its encoded immutable and mutable fields, hex. */
  readonly bytecode: string;
  readonly initialAttoAlphAmount?: string;
  readonly initialTokenAmounts?: readonly S.Token[];
  readonly issueTokenAmount?: string;
  readonly issueTokenTo?: string;
  readonly gasAmount?: number;
  readonly gasPrice?: string;
  readonly group?: number;
}

/** An address's assets offered to a simulation (the node's TestInputAsset). */
export interface InputAsset {
  readonly address: string;
  readonly asset: { readonly attoAlphAmount: string; readonly tokens?: readonly S.Token[] };
}

/** `POST /contracts/call-tx-script` (the node's CallTxScript). */
export interface CallTxScriptRequest {
  readonly group: number;
  readonly bytecode: string;
  readonly callerAddress?: string;
  readonly inputAssets?: readonly InputAsset[];
  readonly interestedContracts?: readonly string[];
}

export interface SubmitRequest extends GroupPair {
  readonly unsignedTx: string;
  readonly signature: string;
}

export interface SubmitResult extends S.SubmittedTx {
  /**
   * True when the submit's own answer was lost and the result comes from asking `status` for the
   * locally computed txId (so it was not resent blindly).
   */
  readonly recovered: boolean;
}

export interface ContractCall {
  readonly address: string;
  readonly methodIndex: number;
  /** Defaults to the contract's group. */
  readonly group?: number;
  readonly args?: readonly S.Val[];
  readonly callerAddress?: string;
  readonly worldStateBlockHash?: string;
  readonly txId?: string;
  readonly interestedContracts?: readonly string[];
  readonly inputAssets?: readonly unknown[];
}

interface Call<T> {
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

interface InFlight {
  readonly promise: Promise<unknown>;
  readonly controller: AbortController;
  readonly ticket: Ticket;
  joined: number;
}

const MUTABLE_TTL_DEFAULT = 10_000;
/** While the quota lock holds, one background request a minute still goes out: the probe that lifts it. */
export const QUOTA_PROBE_INTERVAL_MS = 60_000;
const FOREVER = Number.POSITIVE_INFINITY;
/** Smallest span the blocks query is split down to after 504s. */
const MIN_BLOCK_RANGE_MS = 1_000;

export class GatewayClient {
  readonly profile: ConnectionProfile;
  private readonly keyProvider: KeyProvider;
  private readonly transport: Transport;
  private readonly closeTransport: (() => Promise<void>) | undefined;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly log: Logger;
  private readonly redactor: Redactor;
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;
  private readonly policy: RetryPolicy;
  private readonly mutableTtlMs: number;
  private readonly hashrateTtlMs: number;
  private readonly prefix: string;
  private readonly userAgent: string;
  private readonly limiter: RateLimiter;
  private readonly cache: TtlLruCache<unknown>;
  private readonly inFlight = new Map<string, InFlight>();
  private readonly lifetime = new AbortController();
  private readonly active = new Set<AbortController>();
  private syncWait: Promise<void> | undefined;
  private sync: SyncState = 'unknown';

  /** Usage against the plan's monthly limit; persist with `save()`/`load()`. */
  readonly usage: UsageTracker;

  private readonly syncEmitter = new Emitter<SyncStateChange>();
  private readonly unauthorizedEmitter = new Emitter<UnauthorizedEvent>();
  private readonly requestEmitter = new Emitter<RequestRecord>();

  /** Rate-limit headroom from every response's headers (for the status bar). */
  readonly onRateLimit: Event<RateHeadroom>;
  /** Monthly usage after every counted request (persist it, show it). */
  readonly onUsage: Event<MonthlyUsage>;
  /** `syncing` while a 503 holds requests back until `self-clique` reports synced. */
  readonly onSyncState: Event<SyncStateChange> = this.syncEmitter.event;
  /** A 401: the key must be replaced (prompt for a new one). */
  readonly onUnauthorized: Event<UnauthorizedEvent> = this.unauthorizedEmitter.event;
  /** Every HTTP exchange, including retries. */
  readonly onRequest: Event<RequestRecord> = this.requestEmitter.event;

  constructor(options: GatewayClientOptions) {
    validateProfile(options.profile);
    this.profile = options.profile;
    this.keyProvider = options.keyProvider;
    if (options.transport) {
      this.transport = options.transport;
    } else {
      const undici = createUndiciTransport(options.proxy ? { proxy: options.proxy } : {});
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
    const mutable = options.cache?.mutableTtlMs ?? MUTABLE_TTL_DEFAULT;
    if (mutable < 5_000 || mutable > 15_000) {
      throw new ValidationError('cache.mutableTtlMs', 'must be from 5000 to 15000 ms (the spec range)');
    }
    this.mutableTtlMs = mutable;
    this.hashrateTtlMs = options.cache?.hashrateTtlMs ?? 30_000;
    this.cache = new TtlLruCache(() => this.clock.now(), options.cache?.maxEntries ?? 1000);
    this.prefix = urlPrefix(this.profile);
    this.userAgent = options.userAgent ?? 'alephium-gateway-vscode';
    const limits = limitsOf(this.profile);
    this.limiter = new RateLimiter({
      clock: this.clock,
      ...(limits.perSecond !== undefined ? { limitPerSecond: limits.perSecond } : {}),
      ...(options.pacingMarginMs !== undefined ? { marginMs: options.pacingMarginMs } : {}),
    });
    this.usage = new UsageTracker(this.clock, limits.perMonth);
    this.onRateLimit = this.limiter.onHeadroom;
    // Said once per client: a gateway that keeps sending it should not flood the log.
    let implausibleReported = false;
    this.limiter.onImplausibleReset(({ resetAt }) => {
      if (implausibleReported) return;
      implausibleReported = true;
      this.log.warn(
        `The gateway announced a rate-limit reset ${Math.round((resetAt - this.clock.now()) / 1000)} s ahead, which is no per-second window (a reset in milliseconds?); it is ignored and the window is learned from the next response.`,
      );
    });
    this.onUsage = this.usage.onDidChange;
  }

  get syncState(): SyncState {
    return this.sync;
  }

  /** The last rate-limit headroom seen, if any. */
  get headroom(): RateHeadroom | undefined {
    return this.limiter.headroom;
  }

  /** Requests waiting for a pacing slot, per priority. */
  get queued(): Record<Priority, number> {
    return this.limiter.queued;
  }

  /** Monthly usage of the current key (count, plan limit, fraction). */
  async currentUsage(): Promise<MonthlyUsage | undefined> {
    const key = await this.keyProvider();
    return key ? this.usage.usage(keyFingerprint(key)) : undefined;
  }

  /** Drops cached answers (e.g. after the user switches networks behind the same URL). */
  clearCache(): void {
    this.cache.clear();
  }

  dispose(): void {
    if (this.lifetime.signal.aborted) return;
    this.lifetime.abort();
    for (const controller of this.active) controller.abort();
    this.limiter.dispose();
    this.usage.dispose();
    this.syncEmitter.dispose();
    this.quotaEmitter.dispose();
    this.quotaLiftedEmitter.dispose();
    this.unauthorizedEmitter.dispose();
    this.requestEmitter.dispose();
    void this.closeTransport?.();
  }

  // ---- transactions --------------------------------------------------------------------------------

  async buildTransfer(request: BuildTransferRequest, options?: RequestOptions): Promise<S.BuiltTransfer> {
    V.required('request', request);
    V.validatePublicKey('fromPublicKey', request.fromPublicKey);
    const destinations = V.validateDestinations('destinations', request.destinations);
    if (request.gasAmount !== undefined && request.gasAmount !== null) {
      V.validateInt('gasAmount', request.gasAmount, 1);
    }
    if (request.gasPrice !== undefined) V.validateAmount('gasPrice', request.gasPrice);
    if (request.group !== undefined) V.validateGroup('group', request.group);
    const body = {
      fromPublicKey: request.fromPublicKey,
      ...(request.fromPublicKeyType !== undefined ? { fromPublicKeyType: request.fromPublicKeyType } : {}),
      destinations: destinations.map((d) => ({
        address: d.address,
        // The spec names the amount `attoCoinAmount`, the node `attoAlphAmount`; both readers ignore
        // the other's name, so sending both works against either.
        attoCoinAmount: d.attoCoinAmount,
        attoAlphAmount: d.attoCoinAmount,
        ...(d.tokens !== undefined ? { tokens: d.tokens.map((t) => ({ id: t.id, amount: t.amount })) } : {}),
        ...(d.lockTime !== undefined ? { lockTime: d.lockTime } : {}),
        ...(d.message !== undefined ? { message: d.message } : {}),
      })),
      ...(request.gasAmount !== undefined && request.gasAmount !== null
        ? { gasAmount: request.gasAmount }
        : {}),
      ...(request.gasPrice !== undefined ? { gasPrice: request.gasPrice } : {}),
      ...(request.group !== undefined ? { group: request.group } : {}),
    };
    // Building changes nothing on the node, so it is safe to repeat.
    return this.post('/transactions/build', body, S.BuiltTransferSchema, true, options);
  }

  /**
   * Submits a signed transaction. It is never resent blindly: when the answer is lost (connection
   * dropped, timeout, 5xx), the client asks `status` for the txId (Blake2b-256 of the unsigned bytes)
   * and only resends when the node has never seen the transaction.
   */
  async submitTransaction(request: SubmitRequest, options?: RequestOptions): Promise<SubmitResult> {
    V.required('request', request);
    const unsignedTx = V.validateHex('unsignedTx', request.unsignedTx);
    V.validateSignature('signature', request.signature);
    const groups = this.groupsForSubmit(request);
    const txId = txIdFromUnsignedTx(unsignedTx);
    const endpoint = 'POST /transactions/submit';
    let resends = 0;
    for (;;) {
      try {
        const submitted = await this.request<S.SubmittedTx>(
          {
            method: 'POST',
            endpoint,
            path: '/transactions/submit',
            body: { unsignedTx, signature: request.signature },
            schema: S.SubmittedTxSchema,
            idempotent: false,
          },
          options,
        );
        return { ...submitted, recovered: false };
      } catch (error) {
        if (!submitOutcomeUnknown(error)) throw error;
        this.log.warn(`${endpoint}: outcome unknown (${describeError(error)}); asking status for ${txId}`);
        const status = await this.statusAfterLostSubmit(txId, groups, error, options);
        if (status.type === 'TxNotFound' && resends < 1) {
          // The node has never seen it: resending cannot create a duplicate.
          resends++;
          this.log.info(`${endpoint}: ${txId} is unknown to the node; sending it again`);
          continue;
        }
        if (status.type === 'MemPooled' || status.type === 'Confirmed' || status.type === 'Conflicted') {
          return { txId, fromGroup: groups.fromGroup, toGroup: groups.toGroup, recovered: true };
        }
        throw new SubmitOutcomeUnknownError(endpoint, txId, error);
      }
    }
  }

  /** `TxNotFound` is a normal answer here (spec: a pending tx may not be visible yet), never an error. */
  async getTxStatus(txId: string, groups: GroupPair = {}, options?: RequestOptions): Promise<S.TxStatus> {
    V.validateTxId('txId', txId);
    const query = new URLSearchParams({ txId });
    if (groups.fromGroup !== undefined)
      query.set('fromGroup', String(V.validateGroup('fromGroup', groups.fromGroup)));
    if (groups.toGroup !== undefined)
      query.set('toGroup', String(V.validateGroup('toGroup', groups.toGroup)));
    return this.get(`/transactions/status?${query}`, S.TxStatusSchema, options, {
      endpoint: 'GET /transactions/status',
    });
  }

  /**
   * Details of a transaction. A 200 means it is in a block, and then it never changes, so it is cached
   * forever. `waitMs` keeps asking on 404 for that long (a just-submitted tx is not confirmed yet).
   */
  async getTxDetails(
    txId: string,
    groups: GroupPair = {},
    options?: RequestOptions & { waitMs?: number },
  ): Promise<S.TxDetails> {
    V.validateTxId('txId', txId);
    const query = new URLSearchParams();
    if (groups.fromGroup !== undefined)
      query.set('fromGroup', String(V.validateGroup('fromGroup', groups.fromGroup)));
    if (groups.toGroup !== undefined)
      query.set('toGroup', String(V.validateGroup('toGroup', groups.toGroup)));
    const waitMs = options?.waitMs !== undefined ? V.validateInt('waitMs', options.waitMs, 0) : 0;
    const qs = query.size > 0 ? `?${query}` : '';
    return this.cached(`details:${txId.toLowerCase()}`, FOREVER, options, () =>
      this.get(`/transactions/details/${txId}${qs}`, S.TxDetailsSchema, options, {
        endpoint: 'GET /transactions/details/{txId}',
        ...(waitMs > 0 ? { notFoundUntil: this.clock.now() + waitMs, notFoundIntervalMs: 4_000 } : {}),
      }),
    );
  }

  async decodeUnsignedTx(unsignedTx: string, options?: RequestOptions): Promise<S.DecodedUnsignedTx> {
    V.validateHex('unsignedTx', unsignedTx);
    return this.post(
      '/transactions/decode-unsigned-tx',
      { unsignedTx },
      S.DecodedUnsignedTxSchema,
      true,
      options,
    );
  }

  async buildSweep(request: SweepRequest, options?: RequestOptions): Promise<S.SweepResult> {
    V.required('request', request);
    V.validatePublicKey('fromPublicKey', request.fromPublicKey);
    V.validateAddress('toAddress', request.toAddress);
    if (request.gasAmount !== undefined) V.validateInt('gasAmount', request.gasAmount, 1);
    if (request.gasPrice !== undefined) V.validateAmount('gasPrice', request.gasPrice);
    if (request.group !== undefined) V.validateGroup('group', request.group);
    const body = Object.fromEntries(Object.entries(request).filter(([, v]) => v !== undefined));
    return this.post('/transactions/sweep-address/build', body, S.SweepResultSchema, true, options);
  }

  // ---- scripts and deployment ------------------------------------------------------------------------

  /** Builds a script transaction; changes nothing on the node, so it is safe to repeat. */
  async buildExecuteScript(
    request: BuildExecuteScriptRequest,
    options?: RequestOptions,
  ): Promise<S.BuiltExecuteScript> {
    V.required('request', request);
    V.validatePublicKey('fromPublicKey', request.fromPublicKey);
    const bytecode = V.validateHex('bytecode', request.bytecode);
    if (bytecode.length === 0) throw new ValidationError('bytecode', 'must not be empty');
    const body: Record<string, unknown> = { fromPublicKey: request.fromPublicKey, bytecode };
    if (request.attoAlphAmount !== undefined) {
      body.attoAlphAmount = V.validateAmount('attoAlphAmount', request.attoAlphAmount).toString();
    }
    if (request.tokens !== undefined) body.tokens = validateTokens('tokens', request.tokens);
    addGasAndGroup(body, request);
    return this.post(
      '/contracts/unsigned-tx/execute-script',
      body,
      S.BuiltExecuteScriptSchema,
      true,
      options,
    );
  }

  /** Builds a deploy transaction; the node compiles the deploy script around `bytecode`. */
  async buildDeployContract(
    request: BuildDeployContractRequest,
    options?: RequestOptions,
  ): Promise<S.BuiltDeployContract> {
    V.required('request', request);
    V.validatePublicKey('fromPublicKey', request.fromPublicKey);
    const bytecode = V.validateHex('bytecode', request.bytecode);
    if (bytecode.length === 0) throw new ValidationError('bytecode', 'must not be empty');
    const body: Record<string, unknown> = { fromPublicKey: request.fromPublicKey, bytecode };
    if (request.initialAttoAlphAmount !== undefined) {
      body.initialAttoAlphAmount = V.validateAmount(
        'initialAttoAlphAmount',
        request.initialAttoAlphAmount,
      ).toString();
    }
    if (request.initialTokenAmounts !== undefined) {
      body.initialTokenAmounts = validateTokens('initialTokenAmounts', request.initialTokenAmounts);
    }
    if (request.issueTokenAmount !== undefined) {
      body.issueTokenAmount = V.validateAmount('issueTokenAmount', request.issueTokenAmount).toString();
    }
    if (request.issueTokenTo !== undefined) {
      if (request.issueTokenAmount === undefined) {
        throw new ValidationError('issueTokenTo', 'needs issueTokenAmount');
      }
      body.issueTokenTo = V.validateAddress('issueTokenTo', request.issueTokenTo);
    }
    addGasAndGroup(body, request);
    return this.post(
      '/contracts/unsigned-tx/deploy-contract',
      body,
      S.BuiltDeployContractSchema,
      true,
      options,
    );
  }

  /** A dry run of a whole script: nothing is signed and the chain does not change. */
  async callTxScript(request: CallTxScriptRequest, options?: RequestOptions): Promise<S.CallTxScriptResult> {
    V.required('request', request);
    const group = V.validateGroup('group', request.group);
    const bytecode = V.validateHex('bytecode', request.bytecode);
    if (bytecode.length === 0) throw new ValidationError('bytecode', 'must not be empty');
    const body: Record<string, unknown> = { group, bytecode };
    if (request.callerAddress !== undefined) {
      body.callerAddress = V.validateAddress('callerAddress', request.callerAddress);
    }
    if (request.inputAssets !== undefined) {
      body.inputAssets = validateInputAssets('inputAssets', request.inputAssets);
    }
    if (request.interestedContracts !== undefined) {
      body.interestedContracts = request.interestedContracts.map((a, i) =>
        V.validateAddress(`interestedContracts[${i}]`, a, V.CONTRACT_ADDRESS_TYPES),
      );
    }
    return this.post('/contracts/call-tx-script', body, S.CallTxScriptResultSchema, true, options);
  }

  // ---- events ----------------------------------------------------------------------------------------

  /**
   * One page of a contract's events. A contract that never emitted (or a `start` past the end) answers
   * 404 on the node; that is an empty page, not an error.
   */
  async getContractEvents(
    address: string,
    page: { start: number; limit?: number; group?: number },
    options?: RequestOptions,
  ): Promise<S.ContractEventsPage> {
    V.validateAddress('address', address, V.CONTRACT_ADDRESS_TYPES);
    V.required('page', page);
    const start = V.validateInt('start', page.start, 0);
    const limit = page.limit !== undefined ? V.validateLimit('limit', page.limit) : undefined;
    const query = new URLSearchParams({ start: String(start) });
    if (limit !== undefined) query.set('limit', String(limit));
    if (page.group !== undefined) query.set('group', String(V.validateGroup('group', page.group)));
    const endpoint = 'GET /events/contract/{address}';
    const body = await this.get(`/events/contract/${address}?${query}`, S.ContractEventsSchema, options, {
      endpoint,
      on404: () => ({ events: [], nextStart: start }),
    });
    // A page never holds more than was asked for (the spec's maximum when nothing was): a longer one is
    // refused whole, so no answer can make a caller hold more events than its pages allow.
    const asked = limit ?? V.MAX_EVENT_PAGE;
    if (body.events.length > asked) {
      throw new SchemaError(
        endpoint,
        'events',
        `the page holds ${body.events.length} events, more than the ${asked} asked for; it was refused`,
      );
    }
    return body;
  }

  /** Never cached: polling it is how new events are noticed. 404 (never emitted) counts as 0. */
  async getContractEventCount(address: string, options?: RequestOptions): Promise<number> {
    V.validateAddress('address', address, V.CONTRACT_ADDRESS_TYPES);
    return this.get(`/events/contract/${address}/current-count`, S.EventCountSchema, options, {
      endpoint: 'GET /events/contract/{address}/current-count',
      on404: () => 0,
    });
  }

  async getEventsByTxId(
    txId: string,
    options?: RequestOptions & { group?: number },
  ): Promise<S.EventByTxId[]> {
    V.validateTxId('txId', txId);
    const qs = options?.group !== undefined ? `?group=${V.validateGroup('group', options.group)}` : '';
    const body = await this.get(`/events/tx-id/${txId}${qs}`, S.EventsByTxIdSchema, options, {
      endpoint: 'GET /events/tx-id/{txId}',
    });
    return body.events;
  }

  async getEventsByBlockHash(
    blockHash: string,
    options?: RequestOptions & { group?: number },
  ): Promise<S.EventByBlockHash[]> {
    V.validateBlockHash('blockHash', blockHash);
    const qs = options?.group !== undefined ? `?group=${V.validateGroup('group', options.group)}` : '';
    const body = await this.get(`/events/block-hash/${blockHash}${qs}`, S.EventsByBlockHashSchema, options, {
      endpoint: 'GET /events/block-hash/{blockHash}',
    });
    return body.events;
  }

  // ---- infos -----------------------------------------------------------------------------------------

  /** `synced` folds the spec's `nodes[].isSynced` and the node's top-level `synced`. */
  async getSelfClique(options?: SelfCliqueOptions): Promise<S.SelfClique> {
    const { waitForSync = true, ...rest } = options ?? {};
    return this.get('/infos/self-clique', S.SelfCliqueSchema, rest, waitForSync ? {} : { noSyncWait: true });
  }

  async getVersion(options?: RequestOptions): Promise<S.NodeVersion> {
    return this.get('/infos/version', S.VersionSchema, options);
  }

  async getChainParams(options?: RequestOptions): Promise<S.ChainParams> {
    return this.cached('chain-params', FOREVER, options, () =>
      this.get('/infos/chain-params', S.ChainParamsSchema, options),
    );
  }

  async getCurrentHashrate(options?: RequestOptions & { timespanMs?: number }): Promise<S.Hashrate> {
    const timespan =
      options?.timespanMs !== undefined ? V.validateInt('timespanMs', options.timespanMs, 1) : undefined;
    const qs = timespan !== undefined ? `?timespan=${timespan}` : '';
    return this.cached(`hashrate:${qs}`, this.hashrateTtlMs, options, () =>
      this.get(`/infos/current-hashrate${qs}`, S.HashrateSchema, options, {
        endpoint: 'GET /infos/current-hashrate',
      }),
    );
  }

  // ---- addresses ---------------------------------------------------------------------------------

  async getAddressGroup(address: string, options?: RequestOptions): Promise<number> {
    V.validateAddress('address', address);
    const body = await this.get(`/addresses/${address}/group`, S.AddressGroupSchema, options, {
      endpoint: 'GET /addresses/{address}/group',
    });
    return body.group;
  }

  async getAddressBalance(
    address: string,
    options?: RequestOptions & { mempool?: boolean },
  ): Promise<S.Balance> {
    V.validateAddress('address', address);
    if (options?.mempool !== undefined && typeof options.mempool !== 'boolean')
      throw new ValidationError('mempool', 'must be true or false');
    const qs = options?.mempool !== undefined ? `?mempool=${options.mempool}` : '';
    return this.cached(`balance:${address}${qs}`, this.mutableTtlMs, options, () =>
      this.get(`/addresses/${address}/balance${qs}`, S.BalanceSchema, options, {
        endpoint: 'GET /addresses/{address}/balance',
      }),
    );
  }

  // ---- blockflow -------------------------------------------------------------------------------------

  async getChainInfo(fromGroup: number, toGroup: number, options?: RequestOptions): Promise<S.ChainInfo> {
    V.validateGroup('fromGroup', fromGroup);
    V.validateGroup('toGroup', toGroup);
    return this.get(
      `/blockflow/chain-info?fromGroup=${fromGroup}&toGroup=${toGroup}`,
      S.ChainInfoSchema,
      options,
      {
        endpoint: 'GET /blockflow/chain-info',
      },
    );
  }

  /**
   * Blocks in [fromTs, toTs]. A 504 (the range was too heavy) splits the range in two and fetches the
   * halves, recursively down to one second; the per-chain arrays are concatenated in time order.
   */
  async getBlocks(fromTs: number, toTs: number, options?: RequestOptions): Promise<S.Blocks> {
    V.validateTimeRange(fromTs, toTs);
    return this.blocksInRange(fromTs, toTs, options);
  }

  private async blocksInRange(fromTs: number, toTs: number, options?: RequestOptions): Promise<S.Blocks> {
    try {
      return await this.get(`/blockflow/blocks?fromTs=${fromTs}&toTs=${toTs}`, S.BlocksSchema, options, {
        endpoint: 'GET /blockflow/blocks',
        rangeQuery: toTs - fromTs > MIN_BLOCK_RANGE_MS,
      });
    } catch (error) {
      if (
        !(error instanceof GatewayHttpError && error.status === 504) ||
        toTs - fromTs <= MIN_BLOCK_RANGE_MS
      ) {
        throw error;
      }
      const middle = fromTs + Math.floor((toTs - fromTs) / 2);
      this.log.info(`GET /blockflow/blocks: 504 on ${toTs - fromTs} ms, splitting at ${middle}`);
      // Sequential halves: the gateway is already under load, and order is preserved for free.
      const first = await this.blocksInRange(fromTs, middle, options);
      const second = await this.blocksInRange(middle + 1, toTs, options);
      return mergeBlocks(first, second);
    }
  }

  // ---- contracts -------------------------------------------------------------------------------------

  /**
   * Contract state, cached for the mutable lifetime. Its immutable fields and its code are also kept
   * forever under their own keys, so that `getContractImmFields` and `getContractCode` cost nothing more.
   */
  async getContractState(
    address: string,
    options?: RequestOptions & { group?: number },
  ): Promise<S.ContractState> {
    V.validateAddress('address', address, V.CONTRACT_ADDRESS_TYPES);
    const qs = options?.group !== undefined ? `?group=${V.validateGroup('group', options.group)}` : '';
    const state = await this.cached(`state:${address}`, this.mutableTtlMs, options, () =>
      this.get(`/contracts/${address}/state${qs}`, S.ContractStateSchema, options, {
        endpoint: 'GET /contracts/{address}/state',
      }),
    );
    this.cache.set(`imm:${address}`, state.immFields, FOREVER);
    this.cache.set(`code:${state.codeHash.toLowerCase()}`, state.bytecode, FOREVER);
    return state;
  }

  /** Immutable fields never change (spec: cache forever): read once per contract. */
  async getContractImmFields(address: string, options?: RequestOptions): Promise<S.Val[]> {
    V.validateAddress('address', address, V.CONTRACT_ADDRESS_TYPES);
    const known = this.cache.get(`imm:${address}`) as S.Val[] | undefined;
    if (known) return known;
    return (await this.getContractState(address, options)).immFields;
  }

  /** Bytecode by code hash: content-addressed, cached forever. */
  async getContractCode(codeHash: string, options?: RequestOptions): Promise<string> {
    V.validateHex('codeHash', codeHash, 32);
    return this.cached(`code:${codeHash.toLowerCase()}`, FOREVER, options, () =>
      this.get(`/contracts/${codeHash}/code`, S.ContractCodeSchema, options, {
        endpoint: 'GET /contracts/{codeHash}/code',
      }),
    );
  }

  /** Throws the ValidationError a call would get, without sending anything (used by batching). */
  validateContractCall(field: string, call: ContractCall): void {
    contractCallBody(field, call);
  }

  async callContract(call: ContractCall, options?: RequestOptions): Promise<S.CallContractResult> {
    const body = contractCallBody('call', call);
    return this.post('/contracts/call-contract', body, S.CallContractResultSchema, true, options);
  }

  /**
   * One multicall request (at most 20 calls, as the node allows). The answer has one result per call,
   * in order. For any number of calls, use `callContracts` (batching.ts), which packs them.
   */
  async multicallContract(
    calls: readonly ContractCall[],
    options?: RequestOptions,
  ): Promise<S.CallContractResult[]> {
    if (!Array.isArray(calls) || calls.length === 0)
      throw new ValidationError('calls', 'must be a non-empty array');
    if (calls.length > V.MAX_MULTICALL) {
      throw new ValidationError(
        'calls',
        `at most ${V.MAX_MULTICALL} calls per multicall, got ${calls.length}`,
      );
    }
    const body = { calls: calls.map((c, i) => contractCallBody(`calls[${i}]`, c)) };
    const endpoint = 'POST /contracts/multicall-contract';
    const result = await this.post(
      '/contracts/multicall-contract',
      body,
      S.MulticallResultSchema,
      true,
      options,
    );
    if (result.results.length !== calls.length) {
      throw new SchemaError(
        endpoint,
        'results',
        `expected ${calls.length} results, got ${result.results.length}`,
      );
    }
    return result.results;
  }

  // ---- the choke point ---------------------------------------------------------------------------

  /** Waits until the node reports synced (shared by every request that met a 503). */
  waitForSync(signal?: AbortSignal): Promise<void> {
    if (!this.syncWait) {
      this.syncWait = this.pollUntilSynced().finally(() => {
        this.syncWait = undefined;
      });
      // A rejection reaches every waiter through `raceAbort`; this copy must not be reported as unhandled.
      this.syncWait.catch(() => undefined);
    }
    return raceAbort(this.syncWait, signal);
  }

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
        if (clique.synced) {
          this.setSync('synced');
          return;
        }
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

  private get<T>(
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

  private post<T>(
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

  private async cached<T>(
    key: string,
    ttlMs: number,
    options: RequestOptions | undefined,
    load: () => Promise<T>,
  ): Promise<T> {
    if (!options?.fresh) {
      const hit = this.cache.get(key);
      if (hit !== undefined) return hit as T;
    }
    const value = await load();
    this.cache.set(key, value, ttlMs);
    return value;
  }

  /**
   * Identical GETs in flight share one request; each caller can still cancel its own wait, and the
   * request itself is aborted only when the last interested caller is gone. Every request has its own
   * controller (tracked for `dispose`), so no listener piles up on a long-lived signal.
   */
  private request<T>(call: Call<T>, options: RequestOptions = {}): Promise<T> {
    if (options.signal?.aborted) return Promise.reject(new CancelledError(call.endpoint));
    const priority = options.priority ?? 'user';
    const shareKey = call.method === 'GET' ? call.path : undefined;
    let entry = shareKey !== undefined ? this.inFlight.get(shareKey) : undefined;
    // A request abandoned by all its callers is on its way out: a new caller must not join it.
    if (entry?.controller.signal.aborted) entry = undefined;
    if (entry) {
      if (priority === 'user') entry.ticket.priority = 'user';
    } else {
      const controller = new AbortController();
      const ticket: Ticket = { priority };
      this.active.add(controller);
      const promise = this.execute(call, options, ticket, controller.signal).finally(() => {
        this.active.delete(controller);
        if (shareKey !== undefined && this.inFlight.get(shareKey) === created) this.inFlight.delete(shareKey);
      });
      // Each caller observes the outcome through its own race below; this copy only silences Node.
      promise.catch(() => undefined);
      const created: InFlight = { promise, controller, ticket, joined: 0 };
      if (shareKey !== undefined) this.inFlight.set(shareKey, created);
      entry = created;
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

  /** The retry loop: the spec's error table, row by row. */
  private async execute<T>(
    call: Call<T>,
    options: RequestOptions,
    ticket: Ticket,
    signal: AbortSignal,
  ): Promise<T> {
    const tries = { server: 0, rateLimited: 0, network: 0, sync: 0 };
    let replacedKeyTried = false;
    let attempt = 0;
    for (;;) {
      const key = await this.currentKey(call.endpoint);
      // While the month's quota is known to be used up, background polling sends nothing (but one probe
      // a minute) and fails at once with the date it renews; a user's request is still sent, since a
      // refused one costs nothing and an answer is how the lock learns that the quota is back.
      const quotaEnd = this.quotaEndFor(key, ticket.priority);
      if (quotaEnd !== undefined) throw new QuotaExhaustedError(call.endpoint, quotaEnd);
      let settle: () => void;
      try {
        settle = await this.limiter.acquire(ticket, signal);
      } catch {
        throw new CancelledError(call.endpoint);
      }
      attempt++;
      const started = this.clock.now();
      this.log.debug(`→ ${call.endpoint} (${ticket.priority}${attempt > 1 ? `, attempt ${attempt}` : ''})`);
      let response;
      try {
        response = await this.send(call, key, signal, options.timeoutMs ?? this.timeoutMs);
      } catch (error) {
        settle();
        const kind = requestKind(ticket.priority, options.purpose);
        if (key) this.usage.record(keyFingerprint(key), kind);
        this.emitRequest(call, ticket, kind, 0, attempt, started);
        if (signal.aborted && !(error instanceof RequestTimeoutError))
          throw new CancelledError(call.endpoint);
        // Too large is an answer, not a network failure: asking again would read the same.
        if (error instanceof ResponseTooLargeError)
          throw new ResponseTooLargeError(call.endpoint, error.limitBytes);
        const failure = error instanceof RequestTimeoutError ? error : new NetworkError(call.endpoint, error);
        this.log.warn(`${call.endpoint}: ${failure.message}`);
        if (call.idempotent && tries.network < this.policy.maxNetworkRetries) {
          await this.backoff(++tries.network, signal, call.endpoint);
          continue;
        }
        throw failure;
      }
      settle();
      const { status } = response;
      // Refused requests (429, 401) are not counted by the server against the monthly quota. A request
      // joined by a user action while it waited counts as the user's (the ticket's priority was raised).
      const kind = requestKind(ticket.priority, options.purpose);
      if (key && status !== 429 && status !== 401) this.usage.record(keyFingerprint(key), kind);
      this.limiter.observe(response.headers);
      this.emitRequest(call, ticket, kind, status, attempt, started);
      this.log.debug(`← ${status} ${call.endpoint} (${this.clock.now() - started} ms)`);

      if (status >= 200 && status < 300) {
        // The gateway answers this key: whatever the lock thought, the month is not used up.
        this.answered(key, true);
        return this.parse(call, response.bodyText);
      }

      const body = errorBody(response.bodyText);
      // What the server said reaches messages, toasts, trees and logs: cut, stripped of control
      // characters, and with any secret (a key the server echoed) masked, before it is kept anywhere.
      const detail =
        body.detail === undefined ? undefined : this.redactor.redact(sanitizeDetail(body.detail)!);
      const error = new GatewayHttpError(call.endpoint, status, detail, body.resource);
      // The detail may echo request data (even a key); the redacting logger masks it.
      if (!(error.kind === 'notFound' && call.on404)) this.log.warn(error.message);
      switch (error.kind) {
        case 'unauthorized': {
          // Never again with the same key; but if the key was replaced meanwhile, the new one deserves a try.
          const fresh = (await this.keyProvider())?.trim();
          if (!replacedKeyTried && fresh && fresh !== key) {
            replacedKeyTried = true;
            continue;
          }
          this.unauthorizedEmitter.fire({ endpoint: call.endpoint, detail });
          throw error;
        }
        case 'notFound': {
          if (call.on404) return call.on404();
          const interval = call.notFoundIntervalMs ?? 4_000;
          if (call.notFoundUntil !== undefined && this.clock.now() + interval <= call.notFoundUntil) {
            await this.pause(interval, signal, call.endpoint);
            continue;
          }
          throw error;
        }
        case 'rateLimited': {
          // The monthly quota is not a window to wait out: waiting would hang every request for days.
          const quotaEnd = monthlyQuotaEnd(error.detail, this.clock.now());
          if (quotaEnd !== undefined) {
            this.quotaExhausted(quotaEnd, key);
            throw new QuotaExhaustedError(call.endpoint, quotaEnd, error.detail);
          }
          if (tries.rateLimited++ >= this.policy.maxRateLimitRetries) throw error;
          const resetAt = this.limiter.headroom?.resetAt;
          const now = this.clock.now();
          // Wait for the reset the server announced (bounded, in case a clock is off); 1 s without one.
          const until =
            resetAt !== undefined && resetAt > now ? Math.min(resetAt, now + 60_000) : now + 1_000;
          this.limiter.blockUntil(until);
          this.log.info(`${call.endpoint}: 429, waiting ${until - now} ms for the rate-limit window`);
          continue;
        }
        case 'unavailable': {
          if (call.noSyncWait || tries.sync++ >= this.policy.maxSyncRetries) throw error;
          this.log.info(`${call.endpoint}: 503, node syncing; waiting for self-clique to report synced`);
          try {
            await this.waitForSync(signal);
          } catch (syncError) {
            if (signal.aborted) throw new CancelledError(call.endpoint);
            throw isGatewayError(syncError) ? syncError : error;
          }
          continue;
        }
        case 'timeout':
        case 'server': {
          // A 504 on a range query goes back to the caller, which splits the range; elsewhere a 504 is
          // a transient failure like a 500.
          if (error.kind === 'timeout' && call.rangeQuery) throw error;
          if (!call.idempotent || tries.server >= this.policy.maxServerRetries) throw error;
          await this.backoff(++tries.server, signal, call.endpoint);
          continue;
        }
        default:
          throw error;
      }
    }
  }

  // ---- the monthly quota lock ------------------------------------------------------------------------
  // Set by a monthly-quota 429 (or this client's own count reaching the plan's limit), for the key that
  // met it. It lifts as soon as the gateway answers that key (any 2xx: a user's request, the one
  // background probe a minute, Set API Key's check through `quotaAnswered`), when another key is used,
  // or when the month renews.

  private quotaUntil = 0;
  /** Fingerprint of the key the lock is about; undefined: any key (a keyless node profile). */
  private quotaKeyId: string | undefined;
  /** When a background request last went out as a probe while the lock held. */
  private quotaProbeAt = Number.NEGATIVE_INFINITY;
  /** Keys whose own count reached the plan's limit but which the gateway still answered this month. */
  private readonly countContradicted = new Map<string, string>();
  private readonly quotaEmitter = new Emitter<{ until: number }>();
  private readonly quotaLiftedEmitter = new Emitter<void>();
  /** The monthly quota is used up (a 429 said so, or this client counted the plan's limit) until `until`. */
  readonly onQuotaExhausted: Event<{ until: number }> = this.quotaEmitter.event;
  /** The gateway answered again (or another key is in use): the quota lock is gone. */
  readonly onQuotaLifted: Event<void> = this.quotaLiftedEmitter.event;

  /** While the quota lock holds: when the month renews (ms). Undefined when requests may go. */
  get quotaExhaustedUntil(): number | undefined {
    return this.quotaUntil > this.clock.now() ? this.quotaUntil : undefined;
  }

  /**
   * The gateway answered `key` (this client's request, or another check of it such as Set API Key's):
   * the quota lock lifts. Without a key, the lock lifts whatever key it was about.
   */
  quotaAnswered(key?: string): void {
    this.answered(key, false);
  }

  /** `counted`: this answer's request is in the count already (so reaching the limit is no news). */
  private answered(key: string | undefined, counted: boolean): void {
    if (key) {
      const id = keyFingerprint(key);
      const usage = this.usage.usage(id);
      // Answered past the plan's limit by our own count: the count is wrong (another plan, a reset).
      if (usage.limit !== undefined && usage.count >= usage.limit + (counted ? 1 : 0))
        this.countContradicted.set(id, usage.month);
      if (this.quotaUntil > 0 && this.quotaKeyId !== undefined && this.quotaKeyId !== id) return;
    }
    if (this.quotaUntil === 0) return;
    this.quotaUntil = 0;
    this.quotaKeyId = undefined;
    this.log.info('The gateway answers again: the monthly quota lock is lifted.');
    this.quotaLiftedEmitter.fire();
  }

  private quotaExhausted(until: number, key: string | undefined): void {
    const keyId = key ? keyFingerprint(key) : undefined;
    if (until <= this.quotaUntil && keyId === this.quotaKeyId) return;
    this.quotaUntil = until;
    this.quotaKeyId = keyId;
    // A probe just met the lock: the next one is a minute away.
    this.quotaProbeAt = this.clock.now();
    this.quotaEmitter.fire({ until });
  }

  private quotaEndFor(key: string | undefined, priority: Priority): number | undefined {
    const now = this.clock.now();
    const keyId = key ? keyFingerprint(key) : undefined;
    if (this.quotaUntil > 0 && now >= this.quotaUntil) {
      // A new month: the lock is over by itself.
      this.quotaUntil = 0;
      this.quotaKeyId = undefined;
      this.quotaLiftedEmitter.fire();
    }
    if (this.quotaUntil > 0 && this.quotaKeyId !== undefined && keyId !== this.quotaKeyId) {
      // Another key (re-entered, or another profile's): the lock was about the old one.
      this.quotaUntil = 0;
      this.quotaKeyId = undefined;
      this.quotaLiftedEmitter.fire();
    }
    if (this.quotaUntil === 0 && keyId) {
      const usage = this.usage.usage(keyId);
      const reached = usage.limit !== undefined && usage.count >= usage.limit;
      if (reached && this.countContradicted.get(keyId) !== usage.month) {
        const d = new Date(now);
        this.quotaExhausted(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1), key);
      }
    }
    if (this.quotaUntil === 0) return undefined;
    if (priority === 'user') return undefined;
    if (now - this.quotaProbeAt >= QUOTA_PROBE_INTERVAL_MS) {
      this.quotaProbeAt = now;
      return undefined;
    }
    return this.quotaUntil;
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
    return S.decode(call.endpoint, call.schema, json) as T;
  }

  /** Exponential backoff with jitter: half fixed, half random, so that clients do not retry in step. */
  private backoff(attempt: number, signal: AbortSignal, endpoint: string): Promise<void> {
    const cap = Math.min(this.policy.maxDelayMs, this.policy.baseDelayMs * 2 ** (attempt - 1));
    const delay = Math.round(cap / 2 + (this.random() * cap) / 2);
    this.log.info(`${endpoint}: retry ${attempt} in ${delay} ms`);
    return this.pause(delay, signal, endpoint);
  }

  private async pause(ms: number, signal: AbortSignal, endpoint: string): Promise<void> {
    try {
      await this.clock.sleep(ms, signal);
    } catch {
      throw new CancelledError(endpoint);
    }
  }

  private emitRequest(
    call: Call<unknown>,
    ticket: Ticket,
    kind: RequestKind,
    status: number,
    attempt: number,
    started: number,
  ): void {
    this.requestEmitter.fire({
      endpoint: call.endpoint,
      priority: ticket.priority,
      kind,
      status,
      attempt,
      durationMs: this.clock.now() - started,
    });
  }

  private groupsForSubmit(request: SubmitRequest): { fromGroup: number; toGroup: number } {
    if (request.fromGroup !== undefined && request.toGroup !== undefined) {
      return {
        fromGroup: V.validateGroup('fromGroup', request.fromGroup),
        toGroup: V.validateGroup('toGroup', request.toGroup),
      };
    }
    try {
      return groupsOfUnsignedTx(decodeUnsignedTx(request.unsignedTx));
    } catch {
      // Script transactions cannot be decoded locally; the groups are then needed to recover a lost submit.
      throw new ValidationError('fromGroup', 'fromGroup and toGroup are required for this transaction');
    }
  }

  private async statusAfterLostSubmit(
    txId: string,
    groups: GroupPair,
    cause: unknown,
    options: RequestOptions | undefined,
  ): Promise<S.TxStatus> {
    const signal = options?.signal;
    for (let check = 1; ; check++) {
      try {
        // The submit's own timeout is not the status check's: keep only the caller's signal, priority and purpose.
        return await this.getTxStatus(txId, groups, {
          ...(signal ? { signal } : {}),
          ...(options?.priority ? { priority: options.priority } : {}),
          ...(options?.purpose ? { purpose: options.purpose } : {}),
        });
      } catch {
        if (signal?.aborted || check >= this.policy.submitStatusChecks) {
          throw new SubmitOutcomeUnknownError('POST /transactions/submit', txId, cause);
        }
        await this.backoff(check, signal ?? this.lifetime.signal, 'GET /transactions/status');
      }
    }
  }
}

/** Errors after which a submit may or may not have reached the node. */
function submitOutcomeUnknown(error: unknown): boolean {
  if (error instanceof NetworkError || error instanceof RequestTimeoutError) return true;
  // A 200 with a garbled body: the node did accept it, status will say so.
  if (error instanceof SchemaError) return true;
  return error instanceof GatewayHttpError && (error.kind === 'server' || error.kind === 'timeout');
}

function isTransient(error: unknown): boolean {
  return (
    error instanceof NetworkError ||
    error instanceof RequestTimeoutError ||
    (error instanceof GatewayHttpError &&
      (error.kind === 'server' || error.kind === 'timeout' || error.kind === 'rateLimited'))
  );
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * When a 429 says the monthly quota is used up (the spec's 429 covers both limits; the detail tells
 * them apart), the moment it renews: the first day of the next month, UTC.
 */
export function monthlyQuotaEnd(detail: string | undefined, now: number): number | undefined {
  if (!detail || !/\bmonth(ly)?\b/i.test(detail)) return undefined;
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
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

function mergeBlocks(a: S.Blocks, b: S.Blocks): S.Blocks {
  const chains = Math.max(a.blocks.length, b.blocks.length);
  const blocks: S.BlockEntry[][] = [];
  for (let i = 0; i < chains; i++) blocks.push([...(a.blocks[i] ?? []), ...(b.blocks[i] ?? [])]);
  return { ...a, blocks };
}

function validateTokens(field: string, tokens: unknown): S.Token[] {
  if (!Array.isArray(tokens)) throw new ValidationError(field, 'must be an array');
  const seen = new Set<string>();
  return tokens.map((t: unknown, i) => {
    if (typeof t !== 'object' || t === null)
      throw new ValidationError(`${field}[${i}]`, 'must be {id, amount}');
    const { id, amount } = t as { id?: unknown; amount?: unknown };
    const tokenId = V.validateHex(`${field}[${i}].id`, id, 32).toLowerCase();
    if (seen.has(tokenId)) throw new ValidationError(`${field}[${i}].id`, 'is listed twice');
    seen.add(tokenId);
    const value = V.validateAmount(`${field}[${i}].amount`, amount);
    if (value === 0n) throw new ValidationError(`${field}[${i}].amount`, 'must be positive');
    return { id: tokenId, amount: value.toString() };
  });
}

function validateInputAssets(field: string, assets: unknown): InputAsset[] {
  if (!Array.isArray(assets)) throw new ValidationError(field, 'must be an array');
  return assets.map((a: unknown, i) => {
    if (typeof a !== 'object' || a === null)
      throw new ValidationError(`${field}[${i}]`, 'must be {address, asset}');
    const { address, asset } = a as { address?: unknown; asset?: unknown };
    if (typeof asset !== 'object' || asset === null) {
      throw new ValidationError(`${field}[${i}].asset`, 'must be {attoAlphAmount, tokens?}');
    }
    const { attoAlphAmount, tokens } = asset as { attoAlphAmount?: unknown; tokens?: unknown };
    return {
      address: V.validateAddress(`${field}[${i}].address`, address),
      asset: {
        attoAlphAmount: V.validateAmount(`${field}[${i}].asset.attoAlphAmount`, attoAlphAmount).toString(),
        ...(tokens !== undefined ? { tokens: validateTokens(`${field}[${i}].asset.tokens`, tokens) } : {}),
      },
    };
  });
}

function addGasAndGroup(
  body: Record<string, unknown>,
  request: { readonly gasAmount?: number; readonly gasPrice?: string; readonly group?: number },
): void {
  if (request.gasAmount !== undefined) body.gasAmount = V.validateInt('gasAmount', request.gasAmount, 1);
  if (request.gasPrice !== undefined)
    body.gasPrice = V.validateAmount('gasPrice', request.gasPrice).toString();
  if (request.group !== undefined) body.group = V.validateGroup('group', request.group);
}

function contractCallBody(field: string, call: ContractCall): Record<string, unknown> {
  if (typeof call !== 'object' || call === null) throw new ValidationError(field, 'is required');
  const address = V.validateAddress(`${field}.address`, call.address, V.CONTRACT_ADDRESS_TYPES);
  const group =
    call.group !== undefined ? V.validateGroup(`${field}.group`, call.group) : groupOfAddress(address);
  V.validateInt(`${field}.methodIndex`, call.methodIndex, 0);
  if (call.args !== undefined) {
    if (!Array.isArray(call.args)) throw new ValidationError(`${field}.args`, 'must be an array');
    call.args.forEach((arg, i) => {
      if (typeof arg !== 'object' || arg === null || typeof arg.type !== 'string' || !('value' in arg)) {
        throw new ValidationError(`${field}.args[${i}]`, 'must be a {type, value} object');
      }
    });
  }
  if (call.callerAddress !== undefined) V.validateAddress(`${field}.callerAddress`, call.callerAddress);
  if (call.worldStateBlockHash !== undefined)
    V.validateBlockHash(`${field}.worldStateBlockHash`, call.worldStateBlockHash);
  if (call.txId !== undefined) V.validateTxId(`${field}.txId`, call.txId);
  call.interestedContracts?.forEach((a, i) =>
    V.validateAddress(`${field}.interestedContracts[${i}]`, a, V.CONTRACT_ADDRESS_TYPES),
  );
  const body: Record<string, unknown> = { group, address, methodIndex: call.methodIndex };
  for (const name of [
    'args',
    'callerAddress',
    'worldStateBlockHash',
    'txId',
    'interestedContracts',
    'inputAssets',
  ] as const) {
    if (call[name] !== undefined) body[name] = call[name];
  }
  return body;
}

/** Resolves/rejects with `promise`, or rejects as soon as `signal` aborts (without cancelling `promise`). */
function raceAbort<T>(promise: Promise<T>, signal?: AbortSignal, makeError?: () => Error): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(makeError ? makeError() : new CancelledError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(makeError ? makeError() : new CancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export type { GatewayError };
