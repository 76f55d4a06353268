/**
 * The gateway client: the one HTTP choke point of the extension (docs/ARCHITECTURE.md, "One HTTP choke point").
 *
 * One short method per endpoint, grouped as the spec groups them: each validates and builds its request
 * (requests.ts), says what may be cached and for how long, and sends it through the request pipeline
 * (pipeline.ts: authentication, pacing, the quota lock, the spec's error table as retry policy, zod). What
 * is endpoint policy stays here: a submit is never resent blindly, and a blocks range that times out is
 * split.
 */
import { txIdFromUnsignedTx } from '../protocol';
import type { Event } from '../util/emitter';
import { TtlLruCache } from './cache';
import {
  MIN_BLOCKS_PART_MS,
  readBlocksRange,
  readBlocksWithEventsRange,
  type BlocksPart,
  type BlocksRangeRead,
  type BlocksWithEventsPart,
  type BlocksWithEventsRead,
} from './blocksRange';
import {
  GatewayHttpError,
  NetworkError,
  RequestTimeoutError,
  SchemaError,
  SubmitOutcomeUnknownError,
  ValidationError,
  type GatewayError,
} from './errors';
import { validateProfile, type ConnectionProfile } from '../profiles/profile';
import {
  RequestPipeline,
  type Call,
  type PipelineOptions,
  type RequestRecord,
  type SyncState,
  type SyncStateChange,
  type UnauthorizedEvent,
} from './pipeline';
import type { RetryNotice } from './waiting';
import type { Priority, RateHeadroom } from './rateLimiter';
import * as R from './requests';
import type {
  BuildDeployContractRequest,
  BuildExecuteScriptRequest,
  BuildTransferRequest,
  CallTxScriptRequest,
  ContractCall,
  GroupPair,
  RequestOptions,
  SubmitRequest,
  SweepRequest,
} from './requests';
import * as S from './schemas';
import { keyFingerprint, type MonthlyUsage, type UsageTracker } from './usage';

export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './pipeline';
export type { BlocksWithEventsPart, BlocksWithEventsRead } from './blocksRange';
export type { RequestRecord, SyncState, SyncStateChange, UnauthorizedEvent } from './pipeline';
export { QUOTA_PROBE_INTERVAL_MS, monthlyQuotaEnd } from './quotaLock';
export type {
  BuildDeployContractRequest,
  BuildExecuteScriptRequest,
  BuildTransferRequest,
  CallTxScriptRequest,
  ContractCall,
  GroupPair,
  InputAsset,
  RequestOptions,
  SubmitRequest,
  SweepRequest,
} from './requests';

export interface CacheOptions {
  /** Lifetime of mutable contract fields and balances: 5 to 15 s per the spec (default 10 s). */
  readonly mutableTtlMs?: number;
  /** Lifetime of the current hashrate (default 30 s). */
  readonly hashrateTtlMs?: number;
  /** Size bound of the LRU (default 1000 entries). */
  readonly maxEntries?: number;
}

export interface GatewayClientOptions extends PipelineOptions {
  readonly cache?: CacheOptions;
}

export interface SelfCliqueOptions extends RequestOptions {
  /**
   * `false` answers a 503 with the error at once instead of waiting for the node to sync: a probe whose
   * job is to tell "syncing" must not wait until it is over (the Node view did, and wedged).
   */
  readonly waitForSync?: boolean;
}

export interface SubmitResult extends S.SubmittedTx {
  /**
   * True when the submit's own answer was lost and the result comes from asking `status` for the
   * locally computed txId (so it was not resent blindly).
   */
  readonly recovered: boolean;
}

const MUTABLE_TTL_DEFAULT = 10_000;
const BLOCKS = '/blockflow/blocks';
const BLOCKS_WITH_EVENTS = '/blockflow/blocks-with-events';
const FOREVER = Number.POSITIVE_INFINITY;

export class GatewayClient {
  readonly profile: ConnectionProfile;
  /** Usage against the plan's monthly limit; persist with `save()`/`load()`. */
  readonly usage: UsageTracker;
  /** Rate-limit headroom from every response's headers (for the status bar). */
  readonly onRateLimit: Event<RateHeadroom>;
  /** Monthly usage after every counted request (persist it, show it). */
  readonly onUsage: Event<MonthlyUsage>;
  /** `syncing` while a 503 holds requests back until `self-clique` reports synced. */
  readonly onSyncState: Event<SyncStateChange>;
  /** A request about to be retried, before its wait (`RetryNotice`). */
  readonly onRetry: Event<RetryNotice>;
  /** A 401: the key must be replaced (prompt for a new one). */
  readonly onUnauthorized: Event<UnauthorizedEvent>;
  /** Every HTTP exchange, including retries. */
  readonly onRequest: Event<RequestRecord>;
  /** The monthly quota is used up (a 429 said so, or this client counted the plan's limit) until `until`. */
  readonly onQuotaExhausted: Event<{ until: number }>;
  /** The gateway answered again (or another key is in use): the quota lock is gone. */
  readonly onQuotaLifted: Event<void>;
  private readonly pipeline: RequestPipeline;
  private readonly cache: TtlLruCache<unknown>;
  private readonly mutableTtlMs: number;
  private readonly hashrateTtlMs: number;

  constructor(options: GatewayClientOptions) {
    validateProfile(options.profile);
    const mutable = options.cache?.mutableTtlMs ?? MUTABLE_TTL_DEFAULT;
    if (mutable < 5_000 || mutable > 15_000) {
      throw new ValidationError('cache.mutableTtlMs', 'must be from 5000 to 15000 ms (the spec range)');
    }
    this.mutableTtlMs = mutable;
    this.hashrateTtlMs = options.cache?.hashrateTtlMs ?? 30_000;
    const pipeline = new RequestPipeline(options);
    this.pipeline = pipeline;
    this.profile = pipeline.profile;
    this.cache = new TtlLruCache(() => pipeline.clock.now(), options.cache?.maxEntries ?? 1000);
    this.usage = pipeline.usage;
    this.onRateLimit = pipeline.limiter.onHeadroom;
    this.onUsage = pipeline.usage.onDidChange;
    this.onSyncState = pipeline.onSyncState;
    this.onRetry = pipeline.onRetry;
    this.onUnauthorized = pipeline.onUnauthorized;
    this.onRequest = pipeline.onRequest;
    this.onQuotaExhausted = pipeline.quota.onExhausted;
    this.onQuotaLifted = pipeline.quota.onLifted;
  }

  get syncState(): SyncState {
    return this.pipeline.syncState;
  }

  /** The last rate-limit headroom seen, if any. */
  get headroom(): RateHeadroom | undefined {
    return this.pipeline.limiter.headroom;
  }

  /** Requests waiting for a pacing slot, per priority. */
  get queued(): Record<Priority, number> {
    return this.pipeline.limiter.queued;
  }

  /** Monthly usage of the current key (count, plan limit, fraction). */
  async currentUsage(): Promise<MonthlyUsage | undefined> {
    const key = await this.pipeline.key();
    return key ? this.usage.usage(keyFingerprint(key)) : undefined;
  }

  /** While the quota lock holds: when the month renews (ms). Undefined when requests may go. */
  get quotaExhaustedUntil(): number | undefined {
    return this.pipeline.quota.exhaustedUntil;
  }

  /**
   * The gateway answered `key` (this client's request, or another check of it such as Set API Key's):
   * the quota lock lifts. Without a key, the lock lifts whatever key it was about.
   */
  quotaAnswered(key?: string): void {
    this.pipeline.quota.answered(key, false);
  }

  /** Waits until the node reports synced (shared by every request that met a 503). */
  waitForSync(signal?: AbortSignal): Promise<void> {
    return this.pipeline.waitForSync(signal);
  }

  /** Drops cached answers (e.g. after the user switches networks behind the same URL). */
  clearCache(): void {
    this.cache.clear();
  }

  dispose(): void {
    this.pipeline.dispose();
  }

  // ---- transactions ------------------------------------------------------------------------------------

  async buildTransfer(request: BuildTransferRequest, options?: RequestOptions): Promise<S.BuiltTransfer> {
    const body = R.transferBody(request);
    // Building changes nothing on the node, so it is safe to repeat.
    return this.pipeline.post('/transactions/build', body, S.BuiltTransferSchema, true, options);
  }

  /**
   * Submits a signed transaction. It is never resent blindly: when the answer is lost (connection
   * dropped, timeout, 5xx), the client asks `status` for the txId (Blake2b-256 of the unsigned bytes)
   * and only resends when the node has never seen the transaction.
   */
  async submitTransaction(request: SubmitRequest, options?: RequestOptions): Promise<SubmitResult> {
    const { unsignedTx, groups } = R.checkSubmit(request);
    const txId = txIdFromUnsignedTx(unsignedTx);
    const endpoint = 'POST /transactions/submit';
    const call = {
      method: 'POST',
      endpoint,
      path: '/transactions/submit',
      body: { unsignedTx, signature: request.signature },
      schema: S.SubmittedTxSchema,
      idempotent: false,
    } as const;
    let resends = 0;
    for (;;) {
      try {
        return { ...(await this.pipeline.request<S.SubmittedTx>(call, options)), recovered: false };
      } catch (error) {
        if (!submitOutcomeUnknown(error)) throw error;
        this.pipeline.log.warn(
          `${endpoint}: outcome unknown (${describeError(error)}); asking status for ${txId}`,
        );
        const status = await this.statusAfterLostSubmit(txId, groups, error, options);
        if (status.type === 'TxNotFound' && resends < 1) {
          // The node has never seen it: resending cannot create a duplicate.
          resends++;
          this.pipeline.log.info(`${endpoint}: ${txId} is unknown to the node; sending it again`);
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
    R.validateTxId('txId', txId);
    const query = R.groupsQuery(groups, new URLSearchParams({ txId }));
    return this.pipeline.get(`/transactions/status?${query.toString()}`, S.TxStatusSchema, options, {
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
    R.validateTxId('txId', txId);
    const qs = R.querySuffix(R.groupsQuery(groups));
    const waitMs = options?.waitMs !== undefined ? R.validateInt('waitMs', options.waitMs, 0) : 0;
    const wait =
      waitMs > 0 ? { notFoundUntil: this.pipeline.clock.now() + waitMs, notFoundIntervalMs: 4_000 } : {};
    return this.cached(`details:${txId.toLowerCase()}`, FOREVER, options, () =>
      this.pipeline.get(`/transactions/details/${txId}${qs}`, S.TxDetailsSchema, options, {
        endpoint: 'GET /transactions/details/{txId}',
        ...wait,
      }),
    );
  }

  async decodeUnsignedTx(unsignedTx: string, options?: RequestOptions): Promise<S.DecodedUnsignedTx> {
    R.validateHex('unsignedTx', unsignedTx);
    const path = '/transactions/decode-unsigned-tx';
    return this.pipeline.post(path, { unsignedTx }, S.DecodedUnsignedTxSchema, true, options);
  }

  async buildSweep(request: SweepRequest, options?: RequestOptions): Promise<S.SweepResult> {
    const body = R.sweepBody(request);
    return this.pipeline.post('/transactions/sweep-address/build', body, S.SweepResultSchema, true, options);
  }

  // ---- contract events ---------------------------------------------------------------------------------

  /**
   * One page of a contract's events. A contract that never emitted (or a `start` past the end) answers
   * 404 on the node; that is an empty page, not an error.
   */
  async getContractEvents(
    address: string,
    page: { start: number; limit?: number; group?: number },
    options?: RequestOptions,
  ): Promise<S.ContractEventsPage> {
    R.validateAddress('address', address, R.CONTRACT_ADDRESS_TYPES);
    const { start, limit, query } = R.eventsPageQuery(page);
    const endpoint = 'GET /events/contract/{address}';
    const body = await this.pipeline.get(
      `/events/contract/${address}?${query.toString()}`,
      S.ContractEventsSchema,
      options,
      {
        endpoint,
        on404: () => ({ events: [], nextStart: start }),
      },
    );
    // A page never holds more than was asked for (the spec's maximum when nothing was): a longer one is
    // refused whole, so no answer can make a caller hold more events than its pages allow.
    const asked = limit ?? R.MAX_EVENT_PAGE;
    if (body.events.length > asked) {
      const why = `the page holds ${body.events.length} events, more than the ${asked} asked for; it was refused`;
      throw new SchemaError(endpoint, 'events', why);
    }
    return body;
  }

  /** Never cached: polling it is how new events are noticed. 404 (never emitted) counts as 0. */
  async getContractEventCount(address: string, options?: RequestOptions): Promise<number> {
    R.validateAddress('address', address, R.CONTRACT_ADDRESS_TYPES);
    return this.pipeline.get(`/events/contract/${address}/current-count`, S.EventCountSchema, options, {
      endpoint: 'GET /events/contract/{address}/current-count',
      on404: () => 0,
    });
  }

  async getEventsByTxId(
    txId: string,
    options?: RequestOptions & { group?: number },
  ): Promise<S.EventByTxId[]> {
    R.validateTxId('txId', txId);
    const qs = R.groupSuffix(options?.group);
    const body = await this.pipeline.get(`/events/tx-id/${txId}${qs}`, S.EventsByTxIdSchema, options, {
      endpoint: 'GET /events/tx-id/{txId}',
    });
    return body.events;
  }

  async getEventsByBlockHash(
    blockHash: string,
    options?: RequestOptions & { group?: number },
  ): Promise<S.EventByBlockHash[]> {
    R.validateBlockHash('blockHash', blockHash);
    const path = `/events/block-hash/${blockHash}${R.groupSuffix(options?.group)}`;
    const body = await this.pipeline.get(path, S.EventsByBlockHashSchema, options, {
      endpoint: 'GET /events/block-hash/{blockHash}',
    });
    return body.events;
  }

  // ---- node and chain information ----------------------------------------------------------------------

  /** `synced` folds the spec's `nodes[].isSynced` and the node's top-level `synced`. */
  async getSelfClique(options?: SelfCliqueOptions): Promise<S.SelfClique> {
    const { waitForSync = true, ...rest } = options ?? {};
    const extra = waitForSync ? {} : { noSyncWait: true };
    const clique = await this.pipeline.get('/infos/self-clique', S.SelfCliqueSchema, rest, extra);
    this.pipeline.noteSelfClique(clique.synced);
    return clique;
  }

  async getVersion(options?: RequestOptions): Promise<S.NodeVersion> {
    return this.pipeline.get('/infos/version', S.VersionSchema, options);
  }

  async getChainParams(options?: RequestOptions): Promise<S.ChainParams> {
    return this.cached('chain-params', FOREVER, options, () =>
      this.pipeline.get('/infos/chain-params', S.ChainParamsSchema, options),
    );
  }

  async getCurrentHashrate(options?: RequestOptions & { timespanMs?: number }): Promise<S.Hashrate> {
    const timespan =
      options?.timespanMs !== undefined ? R.validateInt('timespanMs', options.timespanMs, 1) : undefined;
    const qs = timespan !== undefined ? `?timespan=${timespan}` : '';
    return this.cached(`hashrate:${qs}`, this.hashrateTtlMs, options, () =>
      this.pipeline.get(`/infos/current-hashrate${qs}`, S.HashrateSchema, options, {
        endpoint: 'GET /infos/current-hashrate',
      }),
    );
  }

  async getAddressGroup(address: string, options?: RequestOptions): Promise<number> {
    R.validateAddress('address', address);
    const body = await this.pipeline.get(`/addresses/${address}/group`, S.AddressGroupSchema, options, {
      endpoint: 'GET /addresses/{address}/group',
    });
    return body.group;
  }

  async getAddressBalance(
    address: string,
    options?: RequestOptions & { mempool?: boolean },
  ): Promise<S.Balance> {
    R.validateAddress('address', address);
    if (options?.mempool !== undefined && typeof options.mempool !== 'boolean')
      throw new ValidationError('mempool', 'must be true or false');
    const qs = options?.mempool !== undefined ? `?mempool=${options.mempool}` : '';
    return this.cached(`balance:${address}${qs}`, this.mutableTtlMs, options, () =>
      this.pipeline.get(`/addresses/${address}/balance${qs}`, S.BalanceSchema, options, {
        endpoint: 'GET /addresses/{address}/balance',
      }),
    );
  }

  async getChainInfo(fromGroup: number, toGroup: number, options?: RequestOptions): Promise<S.ChainInfo> {
    R.validateGroup('fromGroup', fromGroup);
    R.validateGroup('toGroup', toGroup);
    const path = `/blockflow/chain-info?fromGroup=${fromGroup}&toGroup=${toGroup}`;
    return this.pipeline.get(path, S.ChainInfoSchema, options, { endpoint: 'GET /blockflow/chain-info' });
  }

  /**
   * Blocks in [fromTs, toTs]. A 504 (the range was too heavy) or an answer over the body cap splits the
   * range in two and reads the halves, down to the bound of `blocksRange.ts`; the per-chain arrays are
   * concatenated in time order. A part that cannot be read even then fails the whole read: use
   * `readBlocks` to keep what was read and hear of each part as it arrives.
   */
  async getBlocks(fromTs: number, toTs: number, options?: RequestOptions): Promise<S.Blocks> {
    const read = await this.readBlocks(fromTs, toTs, options);
    if (read.unread) throw read.unread.reason;
    return read.blocks;
  }

  /**
   * Blocks in [fromTs, toTs], part by part: `onPart` gets each part as soon as it is read, and a part
   * the gateway refuses at the deepest split ends the read with what came before it (`unread`).
   */
  async readBlocks(
    fromTs: number,
    toTs: number,
    options?: RequestOptions & { readonly onPart?: (part: BlocksPart) => void },
  ): Promise<BlocksRangeRead> {
    R.validateTimeRange(fromTs, toTs);
    const read = (from: number, to: number) => this.rangePart(BLOCKS, from, to, S.BlocksSchema, options);
    return readBlocksRange(fromTs, toTs, read, options?.onPart);
  }

  /**
   * Blocks in [fromTs, toTs], each with its contract events (the node's endpoint, not in the gateway
   * spec), read in parts exactly as `readBlocks` reads blocks: the same split, the same bound. A gateway
   * that does not forward it answers 404, thrown as that GatewayHttpError (never retried, never read as
   * "no events"), so that the caller can fall back to reading each contract's events.
   */
  async readBlocksWithEvents(
    fromTs: number,
    toTs: number,
    options?: RequestOptions & { readonly onPart?: (part: BlocksWithEventsPart) => void },
  ): Promise<BlocksWithEventsRead> {
    R.validateTimeRange(fromTs, toTs);
    const read = (from: number, to: number) =>
      this.rangePart(BLOCKS_WITH_EVENTS, from, to, S.BlocksAndEventsSchema, options);
    return readBlocksWithEventsRange(fromTs, toTs, read, options?.onPart);
  }

  // ---- contracts ---------------------------------------------------------------------------------------

  /**
   * Contract state, cached for the mutable lifetime. Its immutable fields and its code are also kept
   * forever under their own keys, so that `getContractImmFields` and `getContractCode` cost nothing more.
   */
  async getContractState(
    address: string,
    options?: RequestOptions & { group?: number },
  ): Promise<S.ContractState> {
    R.validateAddress('address', address, R.CONTRACT_ADDRESS_TYPES);
    const qs = R.groupSuffix(options?.group);
    const state = await this.cached(`state:${address}`, this.mutableTtlMs, options, () =>
      this.pipeline.get(`/contracts/${address}/state${qs}`, S.ContractStateSchema, options, {
        endpoint: 'GET /contracts/{address}/state',
      }),
    );
    this.cache.set(`imm:${address}`, state.immFields, FOREVER);
    this.cache.set(`code:${state.codeHash.toLowerCase()}`, state.bytecode, FOREVER);
    return state;
  }

  /** Immutable fields never change (spec: cache forever): read once per contract. */
  async getContractImmFields(address: string, options?: RequestOptions): Promise<S.Val[]> {
    R.validateAddress('address', address, R.CONTRACT_ADDRESS_TYPES);
    const known = this.cache.get(`imm:${address}`) as S.Val[] | undefined;
    if (known) return known;
    return (await this.getContractState(address, options)).immFields;
  }

  /** Bytecode by code hash: content-addressed, cached forever. */
  async getContractCode(codeHash: string, options?: RequestOptions): Promise<string> {
    R.validateHex('codeHash', codeHash, 32);
    return this.cached(`code:${codeHash.toLowerCase()}`, FOREVER, options, () =>
      this.pipeline.get(`/contracts/${codeHash}/code`, S.ContractCodeSchema, options, {
        endpoint: 'GET /contracts/{codeHash}/code',
      }),
    );
  }

  /** Throws the ValidationError a call would get, without sending anything (used by batching). */
  validateContractCall(field: string, call: ContractCall): void {
    R.contractCallBody(field, call);
  }

  /** A call that pins a `worldStateBlockHash` and succeeds is cached forever (see `pinnedCall`). */
  async callContract(call: ContractCall, options?: RequestOptions): Promise<S.CallContractResult> {
    const body = R.contractCallBody('call', call);
    const path = '/contracts/call-contract';
    return this.pinnedCall(path, body, R.pinsWorldState(body), options, succeeded, () =>
      this.pipeline.post(path, body, S.CallContractResultSchema, true, options),
    );
  }

  /**
   * One multicall request (at most 20 calls, as the node allows). The answer has one result per call,
   * in order. For any number of calls, use `callContracts` (batching.ts), which packs them.
   */
  async multicallContract(
    calls: readonly ContractCall[],
    options?: RequestOptions,
  ): Promise<S.CallContractResult[]> {
    const body = R.multicallBody(calls);
    const path = '/contracts/multicall-contract';
    const allPinned = body.calls.every(R.pinsWorldState);
    const allSucceeded = (results: S.CallContractResult[]): boolean => results.every(succeeded);
    return this.pinnedCall(path, body, allPinned, options, allSucceeded, async () => {
      const result = await this.pipeline.post(path, body, S.MulticallResultSchema, true, options);
      if (result.results.length !== calls.length) {
        const why = `expected ${calls.length} results, got ${result.results.length}`;
        throw new SchemaError(`POST ${path}`, 'results', why);
      }
      return result.results;
    });
  }

  /** Builds a script transaction; changes nothing on the node, so it is safe to repeat. */
  async buildExecuteScript(
    request: BuildExecuteScriptRequest,
    options?: RequestOptions,
  ): Promise<S.BuiltExecuteScript> {
    const body = R.executeScriptBody(request);
    const path = '/contracts/unsigned-tx/execute-script';
    return this.pipeline.post(path, body, S.BuiltExecuteScriptSchema, true, options);
  }

  /** Builds a deploy transaction; the node compiles the deploy script around `bytecode`. */
  async buildDeployContract(
    request: BuildDeployContractRequest,
    options?: RequestOptions,
  ): Promise<S.BuiltDeployContract> {
    const body = R.deployContractBody(request);
    const path = '/contracts/unsigned-tx/deploy-contract';
    return this.pipeline.post(path, body, S.BuiltDeployContractSchema, true, options);
  }

  /** A dry run of a whole script: nothing is signed and the chain does not change. */
  /**
   * A dry run of a whole script: nothing is signed and the chain does not change. Pinned to a
   * `worldStateBlockHash`, its answer is cached forever (a failure is an HTTP error and is not cached).
   */
  async callTxScript(request: CallTxScriptRequest, options?: RequestOptions): Promise<S.CallTxScriptResult> {
    const body = R.callTxScriptBody(request);
    const path = '/contracts/call-tx-script';
    return this.pinnedCall(
      path,
      body,
      R.pinsWorldState(body),
      options,
      () => true,
      () => this.pipeline.post(path, body, S.CallTxScriptResultSchema, true, options),
    );
  }

  /**
   * A block's header by hash (its chain, height, time and deps). A block never changes, so it is
   * cached forever; an unknown hash is the gateway's 404.
   */
  async getBlockHeader(hash: string, options?: RequestOptions): Promise<S.BlockHeader> {
    R.validateBlockHash('hash', hash);
    return this.cached(`header:${hash.toLowerCase()}`, FOREVER, options, () =>
      this.pipeline.get(`/blockflow/headers/${hash}`, S.BlockHeaderSchema, options, {
        endpoint: 'GET /blockflow/headers/{hash}',
      }),
    );
  }

  // ---- endpoint policy ---------------------------------------------------------------------------------

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
   * A contract call (or multicall, or script dry run) whose every call pins a `worldStateBlockHash`
   * answers the same forever: the state after a block never changes. Such answers are cached forever,
   * keyed by the request body, but only when `keep` accepts them: a `CallContractFailed` may mean the
   * node does not have the block (yet, or any more), which is not a property of the block.
   */
  private async pinnedCall<T>(
    path: string,
    body: unknown,
    pinned: boolean,
    options: RequestOptions | undefined,
    keep: (value: T) => boolean,
    load: () => Promise<T>,
  ): Promise<T> {
    if (!pinned) return load();
    const key = `pinned:${path}:${JSON.stringify(body)}`;
    if (!options?.fresh) {
      const hit = this.cache.get(key);
      if (hit !== undefined) return hit as T;
    }
    const value = await load();
    if (keep(value)) this.cache.set(key, value, FOREVER);
    return value;
  }

  /** One part of a time range; never cached: a window near the present can still gain blocks. */
  private rangePart<T>(
    path: typeof BLOCKS | typeof BLOCKS_WITH_EVENTS,
    fromTs: number,
    toTs: number,
    schema: Call<T>['schema'],
    options?: RequestOptions,
  ): Promise<T> {
    return this.pipeline.get(`${path}?fromTs=${fromTs}&toTs=${toTs}`, schema, options, {
      endpoint: `GET ${path}`,
      // A 504 comes back at once, to be split; a part too short to split is retried like any 504.
      rangeQuery: toTs - fromTs > MIN_BLOCKS_PART_MS,
    });
  }

  /** Asks `status` after a submit whose answer was lost, a few times with backoff. */
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
        if (signal?.aborted || check >= this.pipeline.policy.submitStatusChecks) {
          throw new SubmitOutcomeUnknownError('POST /transactions/submit', txId, cause);
        }
        const waitSignal = signal ?? this.pipeline.lifetimeSignal;
        await this.pipeline.backoff(check, waitSignal, 'GET /transactions/status');
      }
    }
  }
}

function succeeded(result: S.CallContractResult): boolean {
  return result.type === 'CallContractSucceeded';
}

/** Errors after which a submit may or may not have reached the node. */
function submitOutcomeUnknown(error: unknown): boolean {
  if (error instanceof NetworkError || error instanceof RequestTimeoutError) return true;
  // A 200 with a garbled body: the node did accept it, status will say so.
  if (error instanceof SchemaError) return true;
  return error instanceof GatewayHttpError && (error.kind === 'server' || error.kind === 'timeout');
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export type { GatewayError };
