/** The gateway client: the one HTTP choke point of the extension. Plain Node; never imports 'vscode'. */
export {
  GatewayClient,
  DEFAULT_RETRY_POLICY,
  type GatewayClientOptions,
  type RetryPolicy,
  type CacheOptions,
  type RequestOptions,
  type SelfCliqueOptions,
  type SyncState,
  type SyncStateChange,
  type UnauthorizedEvent,
  type RequestRecord,
  type GroupPair,
  type BuildTransferRequest,
  type SweepRequest,
  type SubmitRequest,
  type SubmitResult,
  type ContractCall,
  type BlocksWithEventsPart,
  type BlocksWithEventsRead,
} from './client';
export * from './errors';
export {
  PLAN_LIMITS,
  limitsOf,
  validateProfile,
  slugProblem,
  urlPrefix,
  authHeaders,
  type Plan,
  type PlanLimits,
  type GatewayProfile,
  type NodeProfile,
  type ConnectionProfile,
  type KeyProvider,
} from '../profiles/profile';
export { RateLimiter, type Priority, type RateHeadroom, type Ticket } from './rateLimiter';
export {
  UsageTracker,
  keyFingerprint,
  monthOf,
  daysInMonthOf,
  dayTotal,
  requestKind,
  REQUEST_KINDS,
  type UsageRecord,
  type MonthlyUsage,
  type MonthLedger,
  type DayUsage,
  type RequestKind,
  type RequestPurpose,
} from './usage';
export { TtlLruCache } from './cache';
export { Emitter, type Event, type Disposable } from '../util/emitter';
export { systemClock, type Clock } from '../util/clock';
export {
  createUndiciTransport,
  type Transport,
  type TransportRequest,
  type TransportResponse,
  type NetworkOptions,
  type UndiciTransportOptions,
  type ClosableTransport,
  type HttpMethod,
} from './transport';
export {
  networkPolicy,
  routeFor,
  verifiesCertificates,
  matchesNoProxy,
  certificateSources,
  certificatesBeyond,
  type NetworkSettings,
  type NetworkPolicy,
  type ProxyChoice,
  type Route,
  type CertificateSources,
} from './networkPolicy';
export { callContracts, MulticallBatcher, type CallOutcome } from './batching';
export {
  contractEventPages,
  fetchEventsFrom,
  fetchLatestEvents,
  latestEventsRequestCap,
  type PagingOptions,
  type EventsSlice,
  type LatestEvents,
} from './paging';
export { RequestBudget } from './requestBudget';
export type { Destination, TokenTransfer } from './requests';
export * as validate from './requests';
export type {
  Token,
  Val,
  UnsignedTx,
  BuiltTransfer,
  SubmittedTx,
  TxStatus,
  TxDetails,
  DecodedUnsignedTx,
  SweepResult,
  ContractEvent,
  ContractEventsPage,
  EventByTxId,
  EventByBlockHash,
  SelfClique,
  NodeVersion,
  ChainParams,
  Hashrate,
  Balance,
  ChainInfo,
  BlockEntry,
  Blocks,
  ContractEventByBlockHash,
  BlockAndEvents,
  BlocksAndEvents,
  ContractState,
  CallContractSucceeded,
  CallContractResult,
  UnknownVariant,
} from './schemas';
export {
  historySupport,
  historyProbeCost,
  historyUnavailableReason,
  knownHistorySupport,
  type HistorySupport,
  type HistoryProbeTarget,
} from './history';
