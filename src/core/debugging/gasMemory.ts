/**
 * Gas per method, remembered: every simulation or execution a developer runs leaves what the method cost
 * with the arguments it used, under the code hash of the contract at the time. A lens then says what a
 * method costs now and how much its last code change moved it, and the Gas Report re-runs the methods it
 * has arguments for. Nothing here sends a request; the glue keeps the records in workspaceState.
 */
import { attoToAlph, DEFAULT_GAS_PRICE } from '../protocol/units';
import { groupThousands } from '../tokens/units';
import { Emitter, type Event } from '../util/emitter';

export interface GasRecord {
  /** The artifact's contract name. */
  readonly contract: string;
  readonly method: string;
  /** The artifact's code hash when it ran: a new hash means new code. */
  readonly codeHash: string;
  readonly gasUsed: number;
  /** The arguments as sent (the node's Val JSON), when small enough to keep; the Gas Report re-sends them. */
  readonly args?: readonly unknown[];
  readonly via: 'simulate' | 'execute';
  /** When it ran (ms). */
  readonly at: number;
}

/** Where the records live between sessions. */
export interface GasStore {
  load(): unknown;
  save(records: readonly GasRecord[]): void;
}

/** The most records kept (one per method and code hash, the newest first to go last). */
const MAX_RECORDS = 1000;
/** Code hashes kept per method: the current one and a few before it. */
const HASHES_PER_METHOD = 3;
/** Arguments over this size (JSON characters) are not kept. */
export const MAX_KEPT_ARGS_CHARS = 2048;

const key = (contract: string, method: string) => `${contract}.${method}`;

export class GasMemory {
  /** Per contract.method, newest first, at most one per code hash. */
  private readonly byMethod = new Map<string, GasRecord[]>();
  private readonly changed = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changed.event;

  constructor(private readonly store?: GasStore) {
    const loaded = store?.load();
    if (Array.isArray(loaded)) for (const r of loaded.slice(0, MAX_RECORDS)) this.add(checkedRecord(r));
  }

  /** Remembers one run; a later run of the same code replaces the earlier one. */
  record(run: GasRecord): void {
    const args =
      run.args !== undefined && JSON.stringify(run.args).length <= MAX_KEPT_ARGS_CHARS ? run.args : undefined;
    const { args: _dropped, ...rest } = run;
    this.add({ ...rest, ...(args !== undefined ? { args } : {}) });
    this.trim();
    this.store?.save(this.all());
    this.changed.fire();
  }

  /** The newest run of a method, of any code. */
  latest(contract: string, method: string): GasRecord | undefined {
    return this.byMethod.get(key(contract, method))?.[0];
  }

  /** The newest run of a method under other code than `codeHash` (the code before the last change). */
  before(contract: string, method: string, codeHash: string): GasRecord | undefined {
    const runs = this.byMethod.get(key(contract, method)) ?? [];
    const index = runs.findIndex((r) => r.codeHash === codeHash);
    return runs.find((r, i) => r.codeHash !== codeHash && (index < 0 || i > index));
  }

  /** The newest run of each method of a contract that kept its arguments (what a Gas Report re-runs). */
  rerunnable(contract: string): GasRecord[] {
    return [...this.byMethod.values()]
      .map((runs) => runs.find((r) => r.args !== undefined))
      .filter((r): r is GasRecord => r !== undefined && r.contract === contract);
  }

  all(): GasRecord[] {
    return [...this.byMethod.values()].flat();
  }

  dispose(): void {
    this.changed.dispose();
  }

  private add(run: GasRecord | undefined): void {
    if (run === undefined) return;
    const k = key(run.contract, run.method);
    const runs = (this.byMethod.get(k) ?? []).filter((r) => r.codeHash !== run.codeHash);
    runs.unshift(run);
    runs.sort((a, b) => b.at - a.at);
    this.byMethod.set(k, runs.slice(0, HASHES_PER_METHOD));
  }

  private trim(): void {
    const all = this.all().sort((a, b) => b.at - a.at);
    if (all.length <= MAX_RECORDS) return;
    const keep = new Set(all.slice(0, MAX_RECORDS));
    for (const [k, runs] of this.byMethod) {
      const kept = runs.filter((r) => keep.has(r));
      if (kept.length === 0) this.byMethod.delete(k);
      else this.byMethod.set(k, kept);
    }
  }
}

/** "12,345 gas", and its cost at the minimum gas price in ALPH. */
export function gasWords(gasUsed: number): { gas: string; alph: string } {
  return {
    gas: `${groupThousands(String(gasUsed))} gas`,
    alph: `${attoToAlph(BigInt(gasUsed) * DEFAULT_GAS_PRICE)} ALPH`,
  };
}

/** The signed change from `before` to `now`: "+1,200" / "−300" / "±0". */
export function gasDelta(now: number, before: number): string {
  const d = now - before;
  if (d === 0) return '±0';
  return `${d > 0 ? '+' : '−'}${groupThousands(String(Math.abs(d)))}`;
}

/**
 * The gas lens of a method whose artifact has `currentCodeHash`: what its last run cost, and the change
 * since the code before; undefined when it never ran.
 */
export function gasLens(
  memory: Pick<GasMemory, 'latest' | 'before'>,
  contract: string,
  method: string,
  currentCodeHash: string,
): { title: string; tooltip: string } | undefined {
  const last = memory.latest(contract, method);
  if (last === undefined) return undefined;
  const { gas, alph } = gasWords(last.gasUsed);
  if (last.codeHash !== currentCodeHash) {
    return {
      title: `${gas} (before the last code change)`,
      tooltip: `The last ${last.via} ran on older code; simulate again to measure this code.`,
    };
  }
  const previous = memory.before(contract, method, currentCodeHash);
  const delta = previous ? ` · ${gasDelta(last.gasUsed, previous.gasUsed)} since the code changed` : '';
  const previousLine = previous ? `\nBefore the last code change: ${gasWords(previous.gasUsed).gas}.` : '';
  return {
    title: `${gas}${delta}`,
    tooltip: `Measured by the last ${last.via} of this code (${alph} at the minimum gas price; a transaction adds its base gas).${previousLine}`,
  };
}

function checkedRecord(raw: unknown): GasRecord | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  const name = (v: unknown) => typeof v === 'string' && /^[A-Za-z_][A-Za-z0-9_]{0,99}$/.test(v);
  if (!name(r.contract) || !name(r.method)) return undefined;
  if (typeof r.codeHash !== 'string' || !/^[0-9a-f]{64}$/.test(r.codeHash)) return undefined;
  if (typeof r.gasUsed !== 'number' || !Number.isInteger(r.gasUsed) || r.gasUsed < 0 || r.gasUsed > 5_000_000)
    return undefined;
  if (r.via !== 'simulate' && r.via !== 'execute') return undefined;
  if (typeof r.at !== 'number' || !Number.isFinite(r.at)) return undefined;
  const args =
    Array.isArray(r.args) && JSON.stringify(r.args).length <= MAX_KEPT_ARGS_CHARS ? r.args : undefined;
  return {
    contract: r.contract as string,
    method: r.method as string,
    codeHash: r.codeHash,
    gasUsed: r.gasUsed,
    via: r.via,
    at: r.at,
    ...(args ? { args } : {}),
  };
}
