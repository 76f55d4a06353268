/**
 * An in-process stand-in for the sandbox gateway's two event endpoints, for benches that simulate a
 * month: a month of polls over loopback HTTP would take many minutes, and the sandbox's chain mines 16
 * blocks per event. What matters to the watcher is kept exactly as the sandbox has it:
 *
 * - `GET /{slug}/events/contract/{address}?start&limit` and `…/current-count`, with the sandbox's paging
 *   (each Counter.increment takes two counter slots, the first a hidden Debug event that the listing
 *   skips; `nextStart` is where the scan stopped; `start` past the count and a contract that never
 *   emitted answer 404);
 * - `GET /{slug}/blockflow/blocks-with-events?fromTs&toTs` over the fake's own chain: each emit is one
 *   block on the contract's intra-group chain holding its transaction, with the Debug event then the
 *   Incremented one; the blocks of the window by block timestamp, both ends inclusive, one array per
 *   chain (16), refused as the sandbox refuses (400 for a bad or backward window, 504 over its span);
 * - the sandbox's own per-key RateLimiter (sandbox/http/ratelimit.ts) on the bench's virtual clock, so
 *   5 requests per second and 100,000 a month on a Free key are enforced with 429s and the same headers.
 *
 * `compareWithSandbox` (bench/month.ts) checks the paging and blocks-with-events against the real sandbox.
 */
import type { Transport, TransportRequest, TransportResponse } from '../../src/core/gateway';
import { addressFromContractId, groupOfAddress } from '../../src/core/protocol';
import { RateLimiter, type Plan } from '../../sandbox';

/** The sandbox's default longest blocks window (its `maxBlocksSpanMs`); longer ones answer 504. */
export const SANDBOX_MAX_BLOCKS_SPAN_MS = 10 * 60_000;
const GROUPS = 4;

interface Slot {
  /** When the event's block was mined (virtual ms). */
  readonly at: number;
  readonly seq: number;
  readonly hidden: boolean;
}

export interface ServedRequest {
  readonly at: number;
  readonly kind: ServedKind;
  readonly status: number;
}

type ServedKind = 'count' | 'page' | 'blocks';

/** A block of the fake's chain: one emit, its transaction and its two events. */
interface FakeBlock {
  readonly at: number;
  readonly seq: number;
  readonly address: string;
  readonly group: number;
  readonly height: number;
  /** The contract's count of increments after this one (what the Debug message says). */
  readonly count: number;
}

/** 64 hex digits: a distinguishing first digit, then `n` zero-padded (so no two n collide). */
const hex64 = (n: number, first: string): string => first + n.toString(16).padStart(63, '0');

export class EventGateway {
  readonly slug = 'sandbox';
  readonly baseUrl = 'http://127.0.0.1:1';
  readonly limiter: RateLimiter;
  readonly served: ServedRequest[] = [];
  private readonly logs = new Map<string, Slot[]>();
  /** Every emit's block, in the order mined (so in time order: the clock never goes back). */
  private readonly blocks: FakeBlock[] = [];
  private readonly heights = new Array<number>(GROUPS * GROUPS).fill(0);
  private seq = 0;

  constructor(private readonly now: () => number) {
    this.limiter = new RateLimiter({ now });
  }

  /** `n` contract addresses with empty event logs. */
  contracts(n: number, salt = 1): string[] {
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const address = addressFromContractId(hex64(salt * 1_000 + i + 1, 'c'));
      this.logs.set(address, []);
      out.push(address);
    }
    return out;
  }

  key(plan: Plan, label: string): string {
    const key = `sbx_month_${plan}_${label}`;
    this.limiter.add(key, plan);
    return key;
  }

  /** One Counter.increment mined now: a hidden Debug slot, then the visible Incremented event. Its txId. */
  emit(address: string): string {
    const log = this.logs.get(address);
    if (!log) throw new Error(`no contract ${address}`);
    const seq = ++this.seq;
    log.push({ at: this.now(), seq, hidden: true }, { at: this.now(), seq, hidden: false });
    const group = groupOfAddress(address);
    const chain = group * GROUPS + group;
    const height = (this.heights[chain] ?? 0) + 1;
    this.heights[chain] = height;
    this.blocks.push({ at: this.now(), seq, address, group, height, count: log.length / 2 });
    return hex64(seq, 'a');
  }

  count(address: string): number {
    return this.logs.get(address)?.length ?? 0;
  }

  readonly transport: Transport = (request) => Promise.resolve(this.handle(request));

  private handle(request: TransportRequest): TransportResponse {
    const url = new URL(request.url);
    const prefix = `/${this.slug}/events/contract/`;
    const blocksPath = `/${this.slug}/blockflow/blocks-with-events`;
    const isBlocks = url.pathname === blocksPath;
    if (request.method !== 'GET' || !(isBlocks || url.pathname.startsWith(prefix)))
      return this.reply(404, { detail: `Not found: ${url.pathname}` }, {});
    const rest = url.pathname.slice(prefix.length);
    const isCount = !isBlocks && rest.endsWith('/current-count');
    const address = isCount ? rest.slice(0, -'/current-count'.length) : rest;
    const kind = isBlocks ? 'blocks' : isCount ? 'count' : 'page';
    const key = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const rec = key === undefined ? undefined : this.limiter.get(key);
    if (!rec) return this.reply(401, { detail: 'Invalid API key' }, this.limiter.anonymousHeaders());
    const decision = this.limiter.check(rec);
    if (!decision.allowed)
      return this.record(kind, this.reply(429, { detail: decision.detail }, decision.headers));
    if (isBlocks) {
      const answer = this.blocksWithEvents(url.searchParams);
      return this.record(kind, this.reply(answer.status, answer.body, decision.headers));
    }
    const log = this.logs.get(address) ?? [];
    if (isCount) {
      if (log.length === 0)
        return this.record(
          kind,
          this.reply(
            404,
            { detail: `Current events count for the contract ${address} not found`, resource: address },
            decision.headers,
          ),
        );
      return this.record(kind, this.reply(200, { count: log.length }, decision.headers));
    }
    const start = Number(url.searchParams.get('start'));
    const limit = Number(url.searchParams.get('limit') ?? 100);
    if (log.length === 0 || start > log.length)
      return this.record(
        kind,
        this.reply(
          404,
          { detail: `Contract events of ${address} not found`, resource: address },
          decision.headers,
        ),
      );
    const events: unknown[] = [];
    let i = start;
    for (; i < log.length && events.length < limit; i++) {
      const slot = log[i] as Slot;
      if (slot.hidden) continue;
      events.push({
        blockHash: hex64(slot.seq, 'b'),
        txId: hex64(slot.seq, 'a'),
        timestamp: slot.at,
        contractAddress: address,
        eventIndex: 0,
        fields: [
          { type: 'U256', value: '1' },
          { type: 'U256', value: String(slot.seq) },
        ],
      });
    }
    return this.record(kind, this.reply(200, { events, nextStart: i }, decision.headers));
  }

  /**
   * `blocks-with-events` over the fake's chain. The query is refused as the sandbox's `timeRange` refuses
   * it (an integer of digits, at least 0; `toTs` defaults to now; backward is 400; over the span is 504).
   */
  private blocksWithEvents(query: URLSearchParams): { status: number; body: unknown } {
    const fromTs = timestampParam(query, 'fromTs', true);
    const toTs = timestampParam(query, 'toTs', false) ?? this.now();
    if (typeof fromTs !== 'number') return { status: 400, body: { detail: fromTs ?? 'fromTs is missing' } };
    if (typeof toTs === 'string') return { status: 400, body: { detail: toTs } };
    if (fromTs > toTs)
      return { status: 400, body: { detail: `fromTs ${fromTs} must not be after toTs ${toTs}` } };
    if (toTs - fromTs > SANDBOX_MAX_BLOCKS_SPAN_MS)
      return { status: 504, body: { detail: `Time span of ${toTs - fromTs} ms is too large to fetch` } };
    const chains: unknown[][] = Array.from({ length: GROUPS * GROUPS }, () => []);
    // The blocks are in time order: the first in the window is found by halving, not by a scan.
    let lo = 0;
    for (let hi = this.blocks.length; lo < hi;) {
      const mid = (lo + hi) >>> 1;
      if ((this.blocks[mid] as FakeBlock).at < fromTs) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.blocks.length && (this.blocks[i] as FakeBlock).at <= toTs; i++) {
      const b = this.blocks[i] as FakeBlock;
      (chains[b.group * GROUPS + b.group] as unknown[]).push(blockAndEvents(b));
    }
    return { status: 200, body: { blocksAndEvents: chains } };
  }

  private record(kind: ServedKind, response: TransportResponse): TransportResponse {
    this.served.push({ at: this.now(), kind, status: response.status });
    return response;
  }

  private reply(status: number, body: unknown, headers: Record<string, string>): TransportResponse {
    const lower: Record<string, string> = { 'content-type': 'application/json' };
    for (const [k, v] of Object.entries(headers)) lower[k.toLowerCase()] = v;
    return { status, headers: lower, bodyText: JSON.stringify(body) };
  }
}

/** A query timestamp as the sandbox reads one: digits only, at least 0, a safe integer; else why not. */
function timestampParam(
  query: URLSearchParams,
  name: string,
  required: boolean,
): number | string | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return required ? `query parameter ${name} (missing)` : undefined;
  const n = Number(raw);
  if (!/^-?\d+$/.test(raw) || n < 0 || !Number.isSafeInteger(n))
    return `query parameter ${name} (expected an integer from 0, got '${raw.slice(0, 40)}')`;
  return n;
}

/**
 * One emit's block as the node lists it with its events: the transaction of the increment, then the
 * Debug event and the Incremented one (the same fields as the fake's event listing gives it).
 */
function blockAndEvents(b: FakeBlock): unknown {
  const txId = hex64(b.seq, 'a');
  const event = (eventIndex: number, fields: unknown[]) => ({
    txId,
    timestamp: b.at,
    contractAddress: b.address,
    eventIndex,
    fields,
  });
  const message = Buffer.from(`count is now ${b.count}`, 'utf8').toString('hex');
  return {
    block: {
      hash: hex64(b.seq, 'b'),
      timestamp: b.at,
      chainFrom: b.group,
      chainTo: b.group,
      height: b.height,
      deps: [],
      transactions: [
        {
          unsigned: {
            txId,
            version: 0,
            networkId: 4,
            gasAmount: 20_000,
            gasPrice: '100000000000',
            inputs: [],
            fixedOutputs: [],
          },
          scriptExecutionOk: true,
          contractInputs: [],
          generatedOutputs: [],
          inputSignatures: [],
          scriptSignatures: [],
        },
      ],
    },
    events: [
      event(-3, [{ type: 'ByteVec', value: message }]),
      event(0, [
        { type: 'U256', value: '1' },
        { type: 'U256', value: String(b.seq) },
      ]),
    ],
  };
}
