/**
 * A chain for the scan's tests: blocks with timestamps on 16 chains, each holding transactions whose
 * events go to contracts' event logs as the node indexes them (every emit a counter slot, Debug events
 * hidden: gaps). It answers the watcher's three reads and records each. Blocks can be mined late (a
 * timestamp in the past), a chain's tip can be replaced by a fork sibling holding the same transactions,
 * a busy chain has a new empty block at each scan, and `blocks-with-events` can be refused (a gateway
 * that does not forward it), cost more than one request, or fail once.
 */
import type { RequestOptions } from '../../../../src/core/gateway/client';
import type { ContractEvent, ContractEventsPage } from '../../../../src/core/gateway/schemas';
import type { ScanBlock, ScanRead } from '../../../../src/core/contracts/watching/eventScan';
import type { WatcherClient } from '../../../../src/core/contracts/watching/watcherTypes';
import { DEBUG_INDEX } from '../../../../src/core/artifacts/events';

interface Tx {
  readonly txId: string;
  readonly events: ReadonlyArray<{
    readonly address: string;
    readonly value: string;
    readonly hidden: boolean;
  }>;
}

interface Block {
  readonly hash: string;
  readonly timestamp: number;
  readonly chain: number;
  readonly txs: readonly Tx[];
}

type Call = { kind: 'count' | 'events' | 'scan'; address?: string };

export class ScanChain implements WatcherClient {
  readonly calls: Call[] = [];
  /** Main-chain blocks per chain (index 0..15), in time order. */
  private readonly chains: Block[][] = Array.from({ length: 16 }, () => []);
  private readonly logs = new Map<string, Array<{ hidden: boolean; event: ContractEvent }>>();
  private n = 0;
  /** Answer `blocks-with-events` with a 404, as a gateway without the node endpoint does. */
  scanNotServed = false;
  /** What the next scans cost in requests (a window split on the gateway's span), then 1 again. */
  scanCosts: number[] = [];
  /** The next scans fail with this (then answer again). */
  failScans: Error[] = [];

  /**
   * @param busy Whether a block with no events is mined on some chain at each scan, as a real chain's
   *   16 chains make one about every second: the newest block says what time it is on the chain.
   */
  constructor(
    private readonly now: () => number,
    private readonly busy = true,
  ) {}

  /**
   * Mines one block on `chain` holding one transaction that emits an event to each address given, at
   * now − `ageMs` (a block that reaches the node late). Returns the transaction id.
   */
  mine(
    events: ReadonlyArray<string | { address: string; value?: string; hidden?: boolean }>,
    options: { chain?: number; ageMs?: number } = {},
  ): string {
    const k = ++this.n;
    const txId = k.toString(16).padStart(64, 'a');
    const tx: Tx = {
      txId,
      events: events.map((e) =>
        typeof e === 'string'
          ? { address: e, value: String(k), hidden: false }
          : { address: e.address, value: e.value ?? String(k), hidden: e.hidden ?? false },
      ),
    };
    this.addBlock(options.chain ?? k % 16, this.now() - (options.ageMs ?? 0), [tx]);
    return txId;
  }

  /**
   * The tip of `chain` leaves the main chain; a sibling mined now holds its transactions (same ids,
   * same events: the event logs are not written again, as the node's counters are not).
   */
  fork(chain: number): void {
    const blocks = this.chains[chain]!;
    const tip = blocks.pop();
    if (!tip) throw new Error(`chain ${chain} has no block`);
    blocks.push({ ...tip, hash: (++this.n).toString(16).padStart(64, 'f'), timestamp: this.now() });
  }

  private addBlock(chain: number, timestamp: number, txs: readonly Tx[]): void {
    const hash = (++this.n).toString(16).padStart(64, 'b');
    const blocks = this.chains[chain]!;
    blocks.push({ hash, timestamp, chain, txs });
    blocks.sort((a, b) => a.timestamp - b.timestamp);
    for (const tx of txs)
      tx.events.forEach((e, eventIndex) => {
        const log = this.logs.get(e.address) ?? [];
        this.logs.set(e.address, log);
        const event: ContractEvent = {
          blockHash: hash,
          txId: tx.txId,
          contractAddress: e.address,
          eventIndex,
          fields: [{ type: 'U256', value: e.value }],
          timestamp,
        };
        log.push({ hidden: e.hidden, event });
      });
  }

  count(kind: Call['kind'], address?: string): number {
    return this.calls.filter((c) => c.kind === kind && (address === undefined || c.address === address))
      .length;
  }

  getContractEventCount(address: string, _options?: RequestOptions): Promise<number> {
    this.calls.push({ kind: 'count', address });
    return Promise.resolve(this.logs.get(address)?.length ?? 0);
  }

  getContractEvents(
    address: string,
    page: { start: number; limit?: number },
    _options?: RequestOptions,
  ): Promise<ContractEventsPage> {
    this.calls.push({ kind: 'events', address });
    const log = this.logs.get(address) ?? [];
    const events: ContractEvent[] = [];
    let i = page.start;
    for (; i < log.length && events.length < (page.limit ?? 100); i++)
      if (!log[i]!.hidden) events.push(log[i]!.event);
    return Promise.resolve({ events, nextStart: Math.max(i, page.start) });
  }

  readBlocksWithEvents(fromTs: number, toTs: number, _options?: RequestOptions): Promise<ScanRead> {
    this.calls.push({ kind: 'scan' });
    if (this.scanNotServed) return Promise.reject(Object.assign(new Error('Not Found'), { status: 404 }));
    const failure = this.failScans.shift();
    if (failure !== undefined) return Promise.reject(failure);
    if (this.busy) this.addBlock(++this.n % 16, this.now(), []);
    const inWindow = (b: Block) => b.timestamp >= fromTs && b.timestamp <= toTs;
    const blocksAndEvents = this.chains.map((blocks) => blocks.filter(inWindow).map(scanBlock));
    return Promise.resolve({ blocksAndEvents, requests: this.scanCosts.shift() ?? 1 });
  }
}

/**
 * A block as blocks-with-events answers it: every event of its transactions, Debug ones too (index -3),
 * which a contract's own listing hides.
 */
function scanBlock(b: Block): ScanBlock {
  return {
    block: { hash: b.hash, timestamp: b.timestamp },
    events: b.txs.flatMap((tx) =>
      tx.events.map((e, eventIndex) => ({
        txId: tx.txId,
        contractAddress: e.address,
        eventIndex: e.hidden ? DEBUG_INDEX : eventIndex,
        fields: [{ type: 'U256', value: e.value }],
        timestamp: b.timestamp,
      })),
    ),
  };
}
