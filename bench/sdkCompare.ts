/**
 * Side by side on one event-watching scenario: our EventWatcher (through one GatewayClient) and
 * @alephium/web3's own contract-event subscription (`subscribeToEvents`, the engine behind
 * `subscribeContractEvents`), both polling every 16 s, both on a Free key of their own (5/s), watching
 * the same 20 contracts of the same sandbox while an event is mined every second on one of them.
 *
 * The SDK's NodeProvider is pointed at `${baseUrl}/${slug}` with a custom fetch that adds the gateway's
 * `Authorization: Bearer` header (the SDK itself only knows the node's X-API-KEY).
 */
import { NodeProvider, subscribeToEvents, web3, type EventSubscription } from '@alephium/web3';
import { BackgroundScheduler } from '../src/core/scheduling/backgroundScheduler';
import { EventWatcher } from '../src/core/contracts/watching/eventWatcher';
import { eventKey } from '../src/core/contracts/watching/watcherTypes';
import {
  countingTransport,
  counters,
  gatewayClient,
  memoryStore,
  newKey,
  requestsOfKey,
  sandbox,
  trigger,
  type Sandbox,
} from './lib/sandbox';
import { figure, log, seededRandom, sleep, type Figure } from './lib/stats';

const CONTRACTS = 20;
const INTERVAL_MS = 16_000;
const EVENTS_FOR_MS = 38_000;
/**
 * After the last event, both keep running until our watcher has read every contract's final count (a
 * poll round on a 5/s key takes about 4 s, so this is 16 to 21 s), and at least one interval plus slack
 * so that every SDK subscription has polled again too. Bounded.
 */
const MIN_DRAIN_MS = INTERVAL_MS + 3_000;
const MAX_DRAIN_MS = 2 * INTERVAL_MS + 8_000;

export interface SideRun {
  readonly requests: number;
  readonly rejected429: number;
  readonly errors: number;
  readonly delivered: number;
  readonly missed: number;
  readonly repeated: number;
}

export interface CompareRun {
  readonly triggered: number;
  /** How long both ran on after the last event. */
  readonly drainMs: number;
  readonly ours: SideRun;
  readonly sdk: SideRun;
}

function tally(triggered: ReadonlySet<string>, deliveredTxIds: readonly string[]) {
  const seen = new Map<string, number>();
  for (const t of deliveredTxIds) seen.set(t, (seen.get(t) ?? 0) + 1);
  let missed = 0;
  for (const t of triggered) if (!seen.has(t)) missed++;
  let repeated = 0;
  for (const [t, n] of seen) if (triggered.has(t) && n > 1) repeated += n - 1;
  return { delivered: deliveredTxIds.length, missed, repeated };
}

function bearerFetch(key: string): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${key}`);
    return fetch(input, { ...init, headers });
  };
}

/** What the SDK makes of the sandbox's (spec-shaped) `{count}` answer to current-count. */
export async function sdkCurrentCountShape(sb: Sandbox, address: string): Promise<string> {
  const key = newKey(sb, 'pro', 'sdkcount');
  const provider = new NodeProvider(`${sb.baseUrl}/${sb.slug}`, undefined, bearerFetch(key));
  try {
    const value: unknown = await provider.events.getEventsContractContractaddressCurrentCount(address);
    return `typed as number, returned ${typeof value} ${JSON.stringify(value)}`;
  } catch (error) {
    return `threw: ${error instanceof Error ? error.message : String(error)}`;
  }
}

async function once(seed: number): Promise<CompareRun & { countShape: string }> {
  const sb = await sandbox();
  const transport = countingTransport();
  try {
    const addresses = counters(sb, CONTRACTS);
    // One event each beforehand: both sides start from a non-zero count, as with a live contract.
    for (const a of addresses) trigger(sb, a, 1, false);
    sb.chain.mine();
    const countShape = await sdkCurrentCountShape(sb, addresses[0] as string);

    const ourKey = newKey(sb, 'free', `ours${seed}`);
    const sdkKey = newKey(sb, 'free', `sdk${seed}`);
    const client = gatewayClient(sb, ourKey, 'free', transport.send);
    // Both start from the count at t = 0: the SDK takes it as fromCount, our watcher as a stored cursor
    // (with backlog 0 alone it would start from the count at its first poll, which on a 5/s key comes
    // up to 4 s later for the last of 20 contracts, and events of those seconds would count as missed).
    const store = memoryStore();
    for (const a of addresses) {
      const count = sb.chain.eventCount(a);
      store.set(`alephium.eventCursor.${a}`, {
        nextStart: count,
        lastCount: count,
        seen: [],
        pending: false,
      });
    }
    // Both at the spec's 16 s: our watcher on a scheduler without a monthly budget (as on a node profile),
    // since the SDK has none; both keys are Free, so the per-second limit is the same for both.
    const scheduler = new BackgroundScheduler();
    const watcher = new EventWatcher({ client, store, scheduler, intervalMs: INTERVAL_MS, backlog: 0 });
    const ours: string[] = [];
    let ourErrors = 0;
    watcher.onEvents((e) => ours.push(...e.events.map((ev) => eventKey(ev).split(':')[0] as string)));
    watcher.onError(() => ourErrors++);
    const lastCount = new Map<string, number>();
    watcher.onPolled((p) => lastCount.set(p.address, p.count));

    web3.setCurrentNodeProvider(new NodeProvider(`${sb.baseUrl}/${sb.slug}`, undefined, bearerFetch(sdkKey)));
    const sdk: string[] = [];
    let sdkErrors = 0;
    const subscriptions: EventSubscription[] = [];

    // Start both from the current count (our watcher with backlog 0 does the same).
    for (const a of addresses) watcher.watch(a);
    watcher.start();
    for (const a of addresses) {
      subscriptions.push(
        subscribeToEvents(
          {
            pollingInterval: INTERVAL_MS,
            messageCallback: (event) => {
              sdk.push(event.txId);
              return Promise.resolve();
            },
            errorCallback: () => {
              sdkErrors++;
              return Promise.resolve();
            },
          },
          a,
          sb.chain.eventCount(a),
        ),
      );
    }

    const random = seededRandom(seed);
    const triggered = new Set<string>();
    const started = Date.now();
    while (Date.now() - started < EVENTS_FOR_MS) {
      await sleep(1_000);
      for (const t of trigger(sb, addresses[Math.floor(random() * addresses.length)] as string))
        triggered.add(t);
    }
    const drainStarted = Date.now();
    const finalCounts = new Map(addresses.map((a) => [a, sb.chain.eventCount(a)]));
    while (Date.now() - drainStarted < MAX_DRAIN_MS) {
      const caughtUp = addresses.every((a) => (lastCount.get(a) ?? -1) >= (finalCounts.get(a) ?? 0));
      if (caughtUp && Date.now() - drainStarted >= MIN_DRAIN_MS) break;
      await sleep(250);
    }
    // The count was read; let the page fetch that follows it land.
    await sleep(1_000);
    const drainMs = Date.now() - drainStarted;
    for (const s of subscriptions) s.unsubscribe();
    watcher.dispose();
    scheduler.dispose();
    client.dispose();

    const side = (key: string, delivered: string[], errors: number): SideRun => {
      const served = requestsOfKey(sb, key);
      return {
        requests: served.length,
        rejected429: served.filter((r) => r.status === 429).length,
        errors,
        ...tally(triggered, delivered),
      };
    };
    return {
      triggered: triggered.size,
      ours: side(ourKey, ours, ourErrors),
      sdk: side(sdkKey, sdk, sdkErrors),
      countShape,
      drainMs,
    };
  } finally {
    await transport.close();
    await sb.close();
  }
}

export async function sdkCompareBench(
  runs: number,
): Promise<{ figures: Figure[]; raw: CompareRun[]; currentCount: string }> {
  const raw: CompareRun[] = [];
  let currentCount = '';
  for (let i = 1; i <= runs; i++) {
    const r = await once(i);
    currentCount = r.countShape;
    log(
      `sdk compare run ${i}: ${r.triggered} events; ours ${JSON.stringify(r.ours)}; sdk ${JSON.stringify(r.sdk)}`,
    );
    raw.push(r);
  }
  // Side by side, as ratios: the SDK is what we compare with, not something held to our targets.
  const b = 'vs SDK (ours | @alephium/web3 subscribeToEvents)';
  const pair = (name: string, unit: string, pick: (x: CompareRun['ours']) => number): Figure[] => [
    figure(
      b,
      `${name}: ours`,
      unit,
      raw.map((r) => pick(r.ours)),
    ),
    figure(
      b,
      `${name}: SDK`,
      unit,
      raw.map((r) => pick(r.sdk)),
      {
        note: `ours/SDK ${raw.map((r) => (pick(r.sdk) === 0 ? (pick(r.ours) === 0 ? '1 (both 0)' : '∞') : (pick(r.ours) / pick(r.sdk)).toFixed(2))).join('/')}`,
      },
    ),
  ];
  const figures: Figure[] = [
    ...pair(`requests (20 contracts, ${EVENTS_FOR_MS / 1000} s of events + drain)`, 'req', (x) => x.requests),
    ...pair('429 responses', '', (x) => x.rejected429),
    ...pair('events not delivered by the end', 'events', (x) => x.missed),
    ...pair('events repeated', 'events', (x) => x.repeated),
    ...pair('errors reported to the caller', '', (x) => x.errors),
  ];
  // Our own targets still hold for our side, and we send no more than the SDK does.
  figures.push(
    figure(
      b,
      'requests: ours / SDK',
      'ratio',
      raw.map((r) => r.ours.requests / Math.max(1, r.sdk.requests)),
      {
        target: '<= 1 (with 0 undelivered)',
        met: (s) => s.max <= 1 && raw.every((r) => r.ours.missed === 0),
        note: 'both poll every 16 s; ours reads the next page directly where the count first would cost more',
      },
    ),
    figure(
      b,
      'ours: 429s + undelivered + repeated',
      '',
      raw.map((r) => r.ours.rejected429 + r.ours.missed + r.ours.repeated),
      {
        target: '0',
        met: (s) => s.max === 0,
        note: `of ${raw.map((r) => r.triggered).join('/')} events triggered`,
      },
    ),
  );
  return { figures, raw, currentCount };
}
