/**
 * An in-process stand-in for the sandbox gateway's two event endpoints, for benches that simulate a
 * month: a month of polls over loopback HTTP would take many minutes, and the sandbox's chain mines 16
 * blocks per event. What matters to the watcher is kept exactly as the sandbox has it:
 *
 * - `GET /{slug}/events/contract/{address}?start&limit` and `…/current-count`, with the sandbox's paging
 *   (each Counter.increment takes two counter slots, the first a hidden Debug event that the listing
 *   skips; `nextStart` is where the scan stopped; `start` past the count and a contract that never
 *   emitted answer 404);
 * - the sandbox's own per-key RateLimiter (sandbox/http/ratelimit.ts) on the bench's virtual clock, so
 *   5 requests per second and 100,000 a month on a Free key are enforced with 429s and the same headers.
 *
 * `compareWithSandbox` (bench/month.ts) checks the paging against the real sandbox over HTTP.
 */
import type { Transport, TransportRequest, TransportResponse } from '../../src/core/gateway';
import { addressFromContractId } from '../../src/core/protocol';
import { RateLimiter, type Plan } from '../../sandbox';

interface Slot {
  /** When the event's block was mined (virtual ms). */
  readonly at: number;
  readonly seq: number;
  readonly hidden: boolean;
}

export interface ServedRequest {
  readonly at: number;
  readonly kind: 'count' | 'page';
  readonly status: number;
}

/** 64 hex digits: a distinguishing first digit, then `n` zero-padded (so no two n collide). */
const hex64 = (n: number, first: string): string => first + n.toString(16).padStart(63, '0');

export class EventGateway {
  readonly slug = 'sandbox';
  readonly baseUrl = 'http://127.0.0.1:1';
  readonly limiter: RateLimiter;
  readonly served: ServedRequest[] = [];
  private readonly logs = new Map<string, Slot[]>();
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
    return hex64(seq, 'a');
  }

  count(address: string): number {
    return this.logs.get(address)?.length ?? 0;
  }

  readonly transport: Transport = (request) => Promise.resolve(this.handle(request));

  private handle(request: TransportRequest): TransportResponse {
    const url = new URL(request.url);
    const prefix = `/${this.slug}/events/contract/`;
    if (request.method !== 'GET' || !url.pathname.startsWith(prefix))
      return this.reply(404, { detail: `Not found: ${url.pathname}` }, {});
    const rest = url.pathname.slice(prefix.length);
    const isCount = rest.endsWith('/current-count');
    const address = isCount ? rest.slice(0, -'/current-count'.length) : rest;
    const kind = isCount ? 'count' : 'page';
    const key = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const rec = key === undefined ? undefined : this.limiter.get(key);
    if (!rec) return this.reply(401, { detail: 'Invalid API key' }, this.limiter.anonymousHeaders());
    const decision = this.limiter.check(rec);
    if (!decision.allowed)
      return this.record(kind, this.reply(429, { detail: decision.detail }, decision.headers));
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

  private record(kind: 'count' | 'page', response: TransportResponse): TransportResponse {
    this.served.push({ at: this.now(), kind, status: response.status });
    return response;
  }

  private reply(status: number, body: unknown, headers: Record<string, string>): TransportResponse {
    const lower: Record<string, string> = { 'content-type': 'application/json' };
    for (const [k, v] of Object.entries(headers)) lower[k.toLowerCase()] = v;
    return { status, headers: lower, bodyText: JSON.stringify(body) };
  }
}
