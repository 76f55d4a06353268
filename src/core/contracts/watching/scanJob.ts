/**
 * The scan as a job of the background scheduler, beside the contracts' own jobs, and the choice between
 * the two ways: while a scan costs fewer requests a round than the contracts' polls would, it runs at the
 * floor and serves every contract, and each contract's own poll becomes a safety net at
 * {@link SAFETY_NET_INTERVAL_MS} (it catches what no scan can: a block later than the overlap). A gateway
 * that does not serve `blocks-with-events` (404) ends the scan for good; any other failure hands that
 * round to the contracts' polls.
 */
import type { ContractEvent } from '../../gateway/schemas';
import type { BackgroundScheduler } from '../../scheduling/backgroundScheduler';
import type { JobHandle, JobRun } from '../../scheduling/jobs';
import { EventScan, type ScanReader } from './eventScan';
import { httpStatus, isAbort, type CursorStore, type Watched } from './watcherTypes';

/** A contract's own poll while the scan serves it: the safety net, not the path (at least this apart). */
export const SAFETY_NET_INTERVAL_MS = 30 * 60_000;
/**
 * The safety nets of all contracts together cost at most one request per this long (3 min: 20 an hour),
 * so fifty contracts' nets do not take the share the scan serves them with.
 */
export const SAFETY_NET_SPACING_MS = 3 * 60_000;

/** How far apart a contract's own polls are while the scan serves `contracts` of them. */
export function safetyNetIntervalMs(contracts: number): number {
  return Math.max(SAFETY_NET_INTERVAL_MS, contracts * SAFETY_NET_SPACING_MS);
}

/** What the scan job needs of its watcher. */
export interface ScanHost {
  readonly contracts: () => Iterable<Watched>;
  readonly load: (w: Watched) => Promise<void>;
  /** Hands a contract the scan's events; returns how many were new to it. */
  readonly deliver: (w: Watched, events: readonly ContractEvent[]) => Promise<number>;
  /** The scan read every block up to now for this contract (nothing else is news). */
  readonly checked: (w: Watched) => void;
  /** The way changed: the contracts' jobs take their new floor (replanned on it when the scan stopped). */
  readonly wayChanged: (scanning: boolean, reason: string) => void;
  readonly failed: (error: unknown, failures: number, retryInMs: number) => void;
  readonly floorMs: () => number;
  readonly maxBackoffMs: number;
  /** The watcher's clock (virtual in tests and benches). */
  readonly now: () => number;
}

/** A way is left only for one cheaper by this fraction: two ways of about the same cost do not flap. */
const SWITCH_MARGIN = 0.1;

export class ScanJob {
  private readonly scan: EventScan;
  private job: JobHandle | undefined;
  private scanning = false;
  private unsupported = false;
  private failures = 0;
  private paused = false;
  /** The last scan failed: the contracts' polls serve until one answers again. */
  private failing = false;

  constructor(
    private readonly scheduler: BackgroundScheduler,
    private readonly host: ScanHost,
    options: { readonly read: ScanReader; readonly store: CursorStore; readonly storeKey: string },
  ) {
    this.scan = new EventScan(options);
  }

  /** Whether the scan serves the contracts now (their own polls are the safety net). */
  get active(): boolean {
    return this.scanning && !this.failing && this.job !== undefined;
  }

  /** A moment on this machine's clock on the chain's, as the scan has learned how the two differ. */
  chainTime(localTime: number): number {
    return this.scan.chainTime(localTime);
  }

  get intervalMs(): number | undefined {
    return this.active ? this.job?.intervalMs : undefined;
  }

  start(state: { readonly visible: boolean; readonly paused: boolean; readonly slowdown: number }): void {
    if (this.job || this.unsupported) return;
    this.job = this.scheduler.add({
      kind: 'scan',
      label: 'blocks-with-events',
      minIntervalMs: this.host.floorMs(),
      // One request a round until a round says otherwise (a split window, a catch-up).
      expectedCost: 1,
      // Not staggered behind the contracts' first polls: the scan is what serves them from the start.
      startNow: true,
      visible: state.visible,
      slowdown: state.slowdown,
      paused: true,
      run: (signal) => this.run(signal),
    });
    this.apply(state);
    this.choose();
  }

  stop(): void {
    this.job?.dispose();
    this.job = undefined;
    if (this.scanning) {
      this.scanning = false;
      this.host.wayChanged(false, 'the watcher stopped');
    }
  }

  apply(state: { readonly visible: boolean; readonly paused: boolean; readonly slowdown: number }): void {
    if (!this.job) return;
    this.paused = state.paused;
    this.job.setSlowdown(state.slowdown);
    this.job.setVisible(state.visible);
    this.job.setPaused(state.paused || !this.scanning);
  }

  setFloor(ms: number): void {
    this.job?.setMinInterval(ms);
  }

  /** Someone waits for news: the next scan is due as soon as its floor allows. */
  runSoon(): void {
    if (this.active) this.job?.runSoon();
  }

  /**
   * Scan or poll each contract, whichever costs fewer requests a round: a scan's learned cost against
   * the contracts' learned costs, less what their safety-net polls still cost beside the scan.
   */
  choose(): void {
    if (!this.job) return;
    const jobs = [...this.host.contracts()].map((w) => w.job).filter((j) => j !== undefined);
    const pollsCost = jobs.reduce((sum, j) => sum + j.cost, 0);
    const floor = this.host.floorMs();
    const netCost = pollsCost * (1 - floor / safetyNetIntervalMs(jobs.length));
    const margin = this.scanning ? 1 + SWITCH_MARGIN : 1 - SWITCH_MARGIN;
    const scan = jobs.length > 0 && this.job.cost < netCost * margin;
    if (scan === this.scanning) return;
    this.scanning = scan;
    this.job.setPaused(this.paused || !scan);
    const costs = `a scan ${round1(this.job.cost)} request(s) a round, polling ${jobs.length} contract(s) ${round1(pollsCost)}`;
    this.host.wayChanged(scan, scan ? `scanning blocks: ${costs}` : `polling each contract: ${costs}`);
  }

  private async run(signal: AbortSignal): Promise<JobRun> {
    if (!this.scanning || signal.aborted) return { requests: 0 };
    const watched = new Map<string, Watched>();
    for (const w of this.host.contracts()) {
      await this.host.load(w);
      if (w.cursor) watched.set(w.address, w);
    }
    try {
      const round = await this.scan.round(this.host.now(), new Set(watched.keys()));
      this.failures = 0;
      if (this.failing) {
        this.failing = false;
        this.host.wayChanged(true, 'scanning blocks again: the scan answered');
      }
      let urgent = round.behind;
      for (const w of watched.values()) {
        const news = (await this.host.deliver(w, round.events.get(w.address) ?? [])) > 0;
        // A user waiting for this contract's result is answered by the scan as its poll would be.
        w.urgentPolls = news ? 0 : Math.max(0, w.urgentPolls - 1);
        if (w.urgentPolls > 0) urgent = true;
      }
      await round.commit();
      for (const w of watched.values()) this.host.checked(w);
      // A gap too long to read (VS Code was closed): each contract reads its count now instead. (With
      // fifty contracts these catch-ups fill the sliding hour and hold the scan for it: see issue 32.)
      if (round.jumpedFrom !== undefined) for (const w of watched.values()) w.job?.runSoon();
      this.choose();
      return { requests: round.requests, ...(urgent ? { urgent: true } : {}) };
    } catch (error) {
      return this.failedRound(error, signal);
    }
  }

  private failedRound(error: unknown, signal: AbortSignal): JobRun {
    if (signal.aborted && isAbort(error)) return { requests: 0, done: true };
    if (httpStatus(error) === 404) {
      // This gateway does not forward the node's endpoint: the contracts poll, as without a scan.
      this.unsupported = true;
      this.job = undefined;
      this.scanning = false;
      this.host.wayChanged(false, 'the gateway does not serve /blockflow/blocks-with-events (404)');
      return { requests: 1, done: true };
    }
    this.failures++;
    const retryInMs = Math.min(this.host.maxBackoffMs, this.host.floorMs() * 2 ** (this.failures - 1));
    this.host.failed(error, this.failures, retryInMs);
    if (!this.failing) {
      // The news of the rounds until a scan answers again comes from the contracts' own polls.
      this.failing = true;
      this.host.wayChanged(false, 'polling each contract while the scan fails');
    }
    return { requests: 1, retryInMs };
  }
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
