/**
 * Fault injection by path pattern and count. Every failure mode the extension must survive (node errors,
 * an unsynced clique, timeouts, slow or dropped connections, garbage bodies) is reproducible on demand,
 * instead of hoping a real gateway misbehaves during a test run.
 */

export type FaultKind =
  | 'status' // any status with a {detail} body
  | '500'
  | '503' // also reports the node unsynced (self-clique) until the fault is cleared
  | '504'
  | 'delay' // answers normally after delayMs
  | 'drop' // destroys the socket without answering
  | 'not-json' // 200 with a body that does not parse as JSON
  | 'wrong-shape'; // 200 with valid JSON of an unexpected shape

export const FAULT_KINDS: readonly FaultKind[] = [
  'status',
  '500',
  '503',
  '504',
  'delay',
  'drop',
  'not-json',
  'wrong-shape',
];

export interface FaultSpec {
  /** Glob over the path after the slug, e.g. `/infos/*` or `/transactions/build`; `*` matches anything. */
  path: string;
  method?: string;
  kind: FaultKind;
  /** How many matching requests to affect; omitted or <= 0 means until cleared. */
  count?: number;
  status?: number;
  detail?: string;
  delayMs?: number;
  /** Body for `wrong-shape` (default: an object with none of the expected fields). */
  body?: unknown;
}

export interface Fault extends FaultSpec {
  id: number;
  remaining: number; // Infinity when unlimited
  hits: number;
  regex: RegExp;
}

function globToRegex(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

export class FaultInjector {
  private faults: Fault[] = [];
  private nextId = 1;

  add(spec: FaultSpec): Fault {
    if (!FAULT_KINDS.includes(spec.kind)) throw new Error(`unknown fault kind ${String(spec.kind)}`);
    if (typeof spec.path !== 'string' || spec.path === '') throw new Error('fault needs a path pattern');
    const fault: Fault = {
      ...spec,
      id: this.nextId++,
      remaining: spec.count !== undefined && spec.count > 0 ? spec.count : Infinity,
      hits: 0,
      regex: globToRegex(spec.path),
    };
    this.faults.push(fault);
    return fault;
  }

  list(): Fault[] {
    return this.faults;
  }

  remove(id: number): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((f) => f.id !== id);
    return this.faults.length !== before;
  }

  clear(): void {
    this.faults = [];
  }

  /** The node counts as unsynced while any 503 fault is installed, used up or not, until it is cleared. */
  get unsynced(): boolean {
    return this.faults.some((f) => f.kind === '503');
  }

  /** Consumes one use of the first matching fault. */
  take(method: string, path: string): Fault | undefined {
    for (const f of this.faults) {
      if (f.remaining <= 0) continue;
      if (f.method && f.method.toUpperCase() !== method) continue;
      if (!f.regex.test(path)) continue;
      f.remaining--;
      f.hits++;
      return f;
    }
    return undefined;
  }
}
