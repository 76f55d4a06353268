/**
 * Which lines of Ralph made this VM failure? From the node's failure text to the sites that raise it:
 * address → artifact (the caller resolves the code hash; this stays synchronous and request-free) →
 * the error code's name from the artifact's constants and enums (`ErrorCodes.StepTooLarge = 1`) →
 * the `assert!` / `checkCaller!` / `panic!` sites of that contract (and its parents) that use that code.
 */
import type { ContractArtifact } from '../artifacts';
import type { Located, RalphSourceMap } from '../ralph/sourceMap';
import type { Span } from '../ralph/scanner';
import { cap } from '../text/inert';
import { MAX_FAILURE_CHARS, parseVmFailure, type VmFailure } from './vmError';

/** The longest explanation message: the node's text (capped) plus the call, names and tx id. */
export const MAX_EXPLANATION_CHARS = MAX_FAILURE_CHARS + 2048;
/** The longest argument shown in the call of an explanation (a ByteVec may be kilobytes). */
const MAX_ARG_CHARS = 200;

export interface FailureContext {
  /** The contract that was called (the failure may name another one, called from it). */
  readonly address?: string;
  readonly method?: string;
  readonly args?: readonly unknown[];
  readonly txId?: string;
  /** What failed: `simulate`, `build`, `submit`, `tracked`, `execute` (shown in the message). */
  readonly origin?: string;
}

export interface FailureLookup {
  /** The artifact of a contract address (deployments file, watch list or on-chain code hash). */
  artifactOf(address: string): ContractArtifact | undefined;
  /** The workspace's Ralph sources; absent when none were read. */
  readonly sources?: RalphSourceMap;
  /** Global constants and enums (`constants.ral.json`), which error codes may also come from. */
  readonly globals?: Pick<ContractArtifact, 'constants' | 'enums'>;
}

/** Where in the sources the failure is shown. */
export interface FailureSite {
  readonly path: string;
  readonly span: Span;
  /** `assert`, `checkCaller`, `panic`; `function` when only the called method is known; `contract`. */
  readonly kind: 'assert' | 'checkCaller' | 'panic' | 'function' | 'contract';
}

export interface FailureExplanation {
  readonly failure: VmFailure;
  readonly context: FailureContext;
  /** The artifact's name of the contract that failed. */
  readonly contractName?: string;
  /** The error code's name, e.g. `ErrorCodes.StepTooLarge`; several when ambiguous (`A or B`). */
  readonly errorName?: string;
  /** The full message for the Problems view, toasts and logs. */
  readonly message: string;
  readonly sites: readonly FailureSite[];
}

function valueNumber(v: { type: string; value: unknown }): number | undefined {
  if ((v.type === 'U256' || v.type === 'I256') && typeof v.value === 'string' && /^-?\d+$/.test(v.value)) {
    const n = Number(v.value);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

/** Names whose value is `code`: constants (`InvalidCaller`) and enum fields (`ErrorCodes.InvalidCaller`). */
export function errorCodeNames(
  code: number,
  ...sources: (Pick<ContractArtifact, 'constants' | 'enums'> | undefined)[]
): string[] {
  const names: string[] = [];
  for (const s of sources) {
    if (!s) continue;
    for (const e of s.enums)
      for (const f of e.fields) if (valueNumber(f.value) === code) names.push(`${e.name}.${f.name}`);
    for (const c of s.constants) if (valueNumber(c.value) === code) names.push(c.name);
  }
  return [...new Set(names)];
}

function short(address: string): string {
  return address.length > 16 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

function argText(a: unknown): string {
  return cap(fullArgText(a), MAX_ARG_CHARS);
}

function fullArgText(a: unknown): string {
  if (typeof a === 'string') return a;
  if (typeof a === 'bigint') return a.toString();
  if (a && typeof a === 'object' && 'value' in a) return fullArgText(a.value);
  try {
    return JSON.stringify(a) ?? String(a);
  } catch {
    return String(a);
  }
}

/**
 * Explains a VM failure. Synchronous and request-free: `lookup` answers from what is already known.
 * Never throws: whatever cannot be resolved is left out and the raw text stays in the message.
 */
export function explainVmFailure(
  detail: string,
  ctx: FailureContext,
  lookup: FailureLookup,
): FailureExplanation {
  const failure = parseVmFailure(detail);
  const address = failure.contractAddress ?? (failure.inTxScript ? undefined : ctx.address);
  let artifact: ContractArtifact | undefined;
  try {
    artifact = address ? lookup.artifactOf(address) : undefined;
  } catch {
    artifact = undefined;
  }
  const calledArtifact =
    ctx.address && ctx.address !== address ? safeArtifact(lookup, ctx.address) : artifact;

  let errorName: string | undefined;
  const sites: FailureSite[] = [];
  const sources = lookup.sources;
  if (failure.errorCode !== undefined && artifact) {
    const candidates = errorCodeNames(failure.errorCode, artifact, lookup.globals);
    const code = String(failure.errorCode);
    const used = new Set<string>();
    if (sources) {
      const hits = sources.checkSites(artifact.name).filter((s) => {
        const arg = s.errorArg;
        if (arg === undefined || (arg !== code && !candidates.includes(arg))) return false;
        if (arg !== code) used.add(arg);
        return true;
      });
      // A code used in several methods failed in the one that was called, when that method checks it
      // itself (Counter's Paused is asserted in increment and incrementBy); otherwise every site may be it.
      const own =
        ctx.method !== undefined && calledArtifact === artifact
          ? hits.filter((s) => s.functionName === ctx.method)
          : [];
      for (const s of own.length > 0 ? own : hits) sites.push({ path: s.path, span: s.span, kind: s.kind });
    }
    const named = used.size > 0 ? [...used] : candidates;
    if (named.length > 0) errorName = named.join(' or ');
  }
  // No check site (another failure, or a code the sources do not use): show it at the called method.
  if (sites.length === 0 && sources && calledArtifact) {
    const fnSite = ctx.method ? sources.member(calledArtifact.name, 'function', ctx.method) : undefined;
    const target: Located<{ span: Span }> | undefined = fnSite ?? sources.contract(calledArtifact.name);
    if (target) sites.push({ path: target.path, span: target.span, kind: fnSite ? 'function' : 'contract' });
  }

  const contractName = artifact?.name;
  const call =
    calledArtifact && ctx.method
      ? `${calledArtifact.name}.${ctx.method}(${(ctx.args ?? []).map(argText).join(', ')})`
      : ctx.method
        ? `${ctx.method}(${(ctx.args ?? []).map(argText).join(', ')})`
        : undefined;
  const what =
    failure.errorCode !== undefined
      ? `${failure.inTxScript ? 'assertion in the TxScript' : `assertion in ${contractName ?? (address ? short(address) : 'a contract')}`} failed: ${
          errorName ? `${errorName} = ${failure.errorCode}` : `error code ${failure.errorCode}`
        }`
      : `${failure.name === 'Unknown' ? 'failed' : failure.name}: ${failure.summary}`;
  const parts = [
    `${call ? `${call} ` : ''}${ctx.origin ? `(${ctx.origin}) ` : ''}failed — ${what}`,
    ...(ctx.txId ? [`tx ${ctx.txId}`] : []),
    ...(failure.name === 'Unknown' || failure.raw === '' ? [] : [`node: ${failure.raw}`]),
  ];
  return {
    failure,
    context: ctx,
    ...(contractName ? { contractName } : {}),
    ...(errorName ? { errorName } : {}),
    message: cap(parts.join(' · '), MAX_EXPLANATION_CHARS),
    sites,
  };
}

function safeArtifact(lookup: FailureLookup, address: string): ContractArtifact | undefined {
  try {
    return lookup.artifactOf(address);
  } catch {
    return undefined;
  }
}

/** A debug message from a simulation, placed at the `emit Debug(...)` that printed it. */
export interface DebugHint {
  readonly path: string;
  readonly line: number;
  readonly message: string;
  readonly contractAddress: string;
}

/**
 * The literal parts of a Debug template (`` `deposit ${amount} from ${who}` `` → `deposit `, ` from `,
 * ``), between which each `${expr}` may print anything; undefined when the argument is no template.
 */
function templateParts(arg: string): string[] | undefined {
  const text = arg.trim();
  const open = text.startsWith('b`') ? 2 : text.startsWith('`') ? 1 : 0;
  if (open === 0 || text.length < open + 1 || !text.endsWith('`')) return undefined;
  const body = text.slice(open, -1);
  const parts: string[] = [];
  let from = 0;
  for (;;) {
    const hole = body.indexOf('${', from);
    const close = hole < 0 ? -1 : body.indexOf('}', hole + 2);
    // A `${` with no `}` after it is text, and so is everything after it.
    if (close < 0) break;
    parts.push(body.slice(from, hole));
    from = close + 1;
  }
  parts.push(body.slice(from));
  return parts.map((p) => p.split('\\`').join('`'));
}

/**
 * Whether `message` is what a template with these literal parts can print. Linear: the first part must
 * start it, the last end it, and each middle part is taken at its leftmost place after the previous one
 * (a regex of `[\s\S]*` holes would retry every split of the message, once per hole).
 */
function fitsTemplate(parts: readonly string[], message: string): boolean {
  const first = parts[0] ?? '';
  if (parts.length === 1) return message === first;
  const last = parts[parts.length - 1]!;
  const end = message.length - last.length;
  if (end < first.length || !message.startsWith(first) || !message.endsWith(last)) return false;
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = message.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

/**
 * Places each debug message at the `emit Debug` of its contract that can print it (its template fits the
 * text). When several emits fit, the ones in `method` win; when none fits, the message is not placed.
 */
export function placeDebugMessages(
  messages: readonly { contractAddress: string; message: string }[],
  lookup: FailureLookup,
  method?: string,
): DebugHint[] {
  const sources = lookup.sources;
  if (!sources) return [];
  const out: DebugHint[] = [];
  for (const d of messages) {
    const artifact = safeArtifact(lookup, d.contractAddress);
    if (!artifact) continue;
    const fits = sources.emitSites(artifact.name, 'Debug').filter((e) => {
      const parts = e.args[0] !== undefined ? templateParts(e.args[0]) : undefined;
      return parts ? fitsTemplate(parts, d.message) : false;
    });
    const inMethod = fits.filter((e) => e.functionName === method);
    for (const e of inMethod.length > 0 ? inMethod : fits) {
      out.push({
        path: e.path,
        line: e.span.start.line,
        message: d.message,
        contractAddress: d.contractAddress,
      });
    }
  }
  return out;
}
