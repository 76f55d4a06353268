/**
 * Where a Ralph source line is in a contract's bytecode, placed only with certainty (issue 31): a
 * function's line is its method's first instruction (the method index is the artifact's function order),
 * and a statement line is placed where the compiler leaves a mark the scanner can match one to one, in
 * order, within the function: each `assert!`/`checkCaller!` at its `AssertWithErrorCode` (the error code
 * constant before it must be the one the source names), each `emit` of an event at its `Log{n+1}`, each
 * `emit Debug` at its `DEBUG` (the debug code only). A line that cannot be placed so says why; it is never
 * moved to a guess.
 */
import type { ContractArtifact } from '../artifacts';
import type { Instr, Method } from '../vm';
import type { RalphCheckSite, RalphDecl, RalphEmitSite, RalphScan } from '../ralph/scanner';

/** A place in the code: a method and the instruction about to run. */
export interface CodePlace {
  readonly methodIndex: number;
  readonly pc: number;
}

export type PlaceKind = 'function' | 'check' | 'emit';

/** A source line and the instruction it stands for. */
export interface PlacedLine extends CodePlace {
  /** 0-based, as the scanner counts. */
  readonly line: number;
  readonly kind: PlaceKind;
}

export interface Placement {
  /** Every line placed, by line: where a breakpoint on it stops (the first of its places). */
  readonly lines: ReadonlyMap<number, PlacedLine>;
  /** Every place, several on one line too (two checks on one line, a one-line function's check). */
  readonly sites: readonly PlacedLine[];
  /** Why the statements of a function could not be placed, by its method index. */
  readonly unplaced: ReadonlyMap<number, string>;
  /** The line of each method's function, by method index. */
  readonly functionLines: ReadonlyMap<number, number>;
}

const DEBUG_EVENT = 'Debug';

/** The value an error-code argument names: a number, or an enum field or constant of the artifact. */
function errorCodeValue(arg: string | undefined, artifact: ContractArtifact): bigint | undefined {
  if (arg === undefined) return undefined;
  if (/^\d+$/.test(arg)) return BigInt(arg);
  const [enumName, field] = arg.split('.');
  const raw =
    field === undefined
      ? artifact.constants.find((c) => c.name === arg)?.value
      : artifact.enums.find((e) => e.name === enumName)?.fields.find((f) => f.name === field)?.value;
  const value = raw?.value;
  return typeof value === 'string' && /^\d+$/.test(value) ? BigInt(value) : undefined;
}

/** The value a constant instruction pushes, where it is a U256 (what an error code is). */
function u256Pushed(instr: Instr | undefined): bigint | undefined {
  if (instr === undefined) return undefined;
  const small = /^U256Const([0-5])$/.exec(instr.name);
  if (small) return BigInt(small[1] as string);
  if (instr.name === 'U256Const' && instr.operand.kind === 'u256') return instr.operand.value;
  return undefined;
}

const pcsOf = (method: Method, test: (i: Instr) => boolean): number[] =>
  method.instrs.flatMap((instr, pc) => (test(instr) ? [pc] : []));

/** Pairs sites with code marks in order, or says why they cannot be. */
function pair<T extends { span: { start: { line: number } } }>(
  sites: readonly T[],
  pcs: readonly number[],
  what: string,
): Array<{ site: T; pc: number }> | string {
  if (sites.length !== pcs.length)
    return `${sites.length} ${what} in the source, ${pcs.length} in the code: not matched one to one`;
  return sites.map((site, i) => ({ site, pc: pcs[i] as number }));
}

function checkPlaces(
  method: Method,
  checks: readonly RalphCheckSite[],
  artifact: ContractArtifact,
): PlacedLine[] | string {
  const asserts = checks.filter((c) => c.kind !== 'panic');
  const paired = pair(
    asserts,
    pcsOf(method, (i) => i.name === 'AssertWithErrorCode'),
    'assert!/checkCaller!',
  );
  if (typeof paired === 'string') return paired;
  const out: PlacedLine[] = [];
  for (const { site, pc } of paired) {
    const named = errorCodeValue(site.errorArg, artifact);
    const pushed = u256Pushed(method.instrs[pc - 1]);
    if (named === undefined || named !== pushed)
      return `the error code of the check on line ${site.span.start.line + 1} is not the one the code asserts`;
    out.push({ methodIndex: -1, pc, line: site.span.start.line, kind: 'check' });
  }
  return out;
}

function emitPlaces(method: Method, emits: readonly RalphEmitSite[]): PlacedLine[] | string {
  const events = emits.filter((e) => e.event !== DEBUG_EVENT);
  const logs = pair(
    events,
    pcsOf(method, (i) => /^Log[1-9]$/.test(i.name)),
    'emit',
  );
  if (typeof logs === 'string') return logs;
  const out = logs.map(({ site, pc }) => ({
    methodIndex: -1,
    pc,
    line: site.span.start.line,
    kind: 'emit' as const,
  }));
  const debugs = emits.filter((e) => e.event === DEBUG_EVENT);
  const debugPcs = pcsOf(method, (i) => i.name === 'DEBUG');
  // The release code has no DEBUG instructions: those lines are placed in the debug code only.
  if (debugPcs.length > 0) {
    const paired = pair(debugs, debugPcs, 'emit Debug');
    if (typeof paired === 'string') return paired;
    out.push(
      ...paired.map(({ site, pc }) => ({
        methodIndex: -1,
        pc,
        line: site.span.start.line,
        kind: 'emit' as const,
      })),
    );
  }
  return out;
}

/**
 * Places the lines of `contract`'s functions in `scan` (one file) on `methods` (the code that runs: the
 * release or the debug code). Functions the artifact does not list, or declared in another file, are not
 * placed here.
 */
export function placeLines(
  artifact: ContractArtifact,
  methods: readonly Method[],
  scan: RalphScan,
): Placement {
  const lines = new Map<number, PlacedLine>();
  const sites: PlacedLine[] = [];
  const place = (p: PlacedLine) => {
    sites.push(p);
    const first = lines.get(p.line);
    if (first === undefined || (first.methodIndex === p.methodIndex && p.pc < first.pc)) lines.set(p.line, p);
  };
  const unplaced = new Map<number, string>();
  const functionLines = new Map<number, number>();
  const fns = scan.decls.filter(
    (d): d is RalphDecl => d.kind === 'function' && d.container === artifact.name && d.hasBody !== false,
  );
  for (const fn of fns) {
    const methodIndex = artifact.functions.findIndex((f) => f.name === fn.name);
    const method = methods[methodIndex];
    if (methodIndex < 0 || method === undefined) continue;
    functionLines.set(methodIndex, fn.span.start.line);
    place({ methodIndex, pc: 0, line: fn.span.start.line, kind: 'function' });
    const inFn = <T extends { container?: string; functionName?: string }>(xs: readonly T[]) =>
      xs.filter((x) => x.container === artifact.name && x.functionName === fn.name);
    const checks = checkPlaces(method, inFn(scan.checks), artifact);
    const emits = emitPlaces(method, inFn(scan.emits));
    const problem = [checks, emits].find((r): r is string => typeof r === 'string');
    if (problem !== undefined) {
      unplaced.set(methodIndex, problem);
      continue;
    }
    for (const p of [...(checks as PlacedLine[]), ...(emits as PlacedLine[])]) place({ ...p, methodIndex });
  }
  return { lines, sites, unplaced, functionLines };
}

/** Why a line cannot hold a breakpoint (undefined when it can). */
export function unplacedReason(placement: Placement, line: number): string | undefined {
  if (placement.lines.has(line)) return undefined;
  let within: number | undefined;
  for (const [methodIndex, fnLine] of placement.functionLines) {
    if (fnLine <= line && (within === undefined || fnLine > (placement.functionLines.get(within) ?? -1)))
      within = methodIndex;
  }
  const why = within === undefined ? undefined : placement.unplaced.get(within);
  return why !== undefined
    ? `Not placed: ${why}`
    : 'Not placed: only function lines, assert!/checkCaller! and emit statements can be found in the bytecode with certainty';
}

/** The source line of a place: the statement placed there, else its function's line. */
export function lineOf(placement: Placement, place: CodePlace): number | undefined {
  for (const p of placement.sites)
    if (p.methodIndex === place.methodIndex && p.pc === place.pc && p.kind !== 'function') return p.line;
  return placement.functionLines.get(place.methodIndex);
}
