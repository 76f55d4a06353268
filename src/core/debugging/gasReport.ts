/**
 * The Gas Report: every method of a contract that the gas memory holds arguments for is simulated again
 * on today's code, in multicalls of up to 20 calls, and each method is listed with its gas now, what that
 * costs at the minimum gas price, and the change from the code before. This module plans the calls and
 * turns their outcomes into rows and text; the glue asks, sends (`callContracts`) and shows.
 */
import type { ContractArtifact } from '../artifacts';
import { methodIsPublic } from '../contracts/actions/call';
import type { CallOutcome, ContractCall } from '../gateway';
import type { Val } from '../gateway/schemas';
import { batchCost, type RequestCost } from '../usage/costs';
import { codeSpan, markdownText } from '../text/inert';
import { gasDelta, gasWords, type GasMemory, type GasRecord } from './gasMemory';

/** A multicall holds at most this many calls (the node's `maxCallsInMultipleCall`). */
export const GAS_REPORT_CALLS_PER_REQUEST = 20;

export interface GasReportTarget {
  readonly address: string;
  readonly group: number;
  /** The signer when it is in the contract's group: the caller the methods last ran with, most likely. */
  readonly callerAddress?: string;
}

export interface PlannedRerun {
  readonly method: string;
  readonly methodIndex: number;
  readonly args: readonly unknown[];
  readonly call: ContractCall;
}

export interface GasReportPlan {
  readonly contract: string;
  readonly address: string;
  /** The artifact's code hash now (its release build): the gas memory keeps figures under it. */
  readonly codeHash: string;
  /** Its debug build's code hash (`codeHashDebug` of `.project.json`), which a devnet deploy runs. */
  readonly debugCodeHash?: string;
  readonly reruns: readonly PlannedRerun[];
  /** Remembered methods that cannot run on this code (gone, or no longer public), with why. */
  readonly skipped: readonly { readonly method: string; readonly reason: string }[];
  readonly cost: RequestCost;
}

/** The calls a Gas Report sends for `artifact` at `target`: one per remembered method with arguments. */
export function planGasReport(
  memory: Pick<GasMemory, 'rerunnable'>,
  artifact: ContractArtifact,
  target: GasReportTarget,
  debugCodeHash?: string,
): GasReportPlan {
  const reruns: PlannedRerun[] = [];
  const skipped: { method: string; reason: string }[] = [];
  const records = memory.rerunnable(artifact.name).sort((a, b) => a.method.localeCompare(b.method));
  for (const record of records) {
    const methodIndex = artifact.functions.findIndex((f) => f.name === record.method);
    if (methodIndex < 0) {
      skipped.push({ method: record.method, reason: `${artifact.name} has no such method any more` });
      continue;
    }
    if (!methodIsPublic(artifact.bytecode, methodIndex)) {
      skipped.push({ method: record.method, reason: 'it is private now' });
      continue;
    }
    const args = record.args ?? [];
    reruns.push({
      method: record.method,
      methodIndex,
      args,
      call: {
        address: target.address,
        group: target.group,
        methodIndex,
        // Checked by the client before anything is sent: a bad remembered argument fails only its call.
        args: args as readonly Val[],
        ...(target.callerAddress !== undefined ? { callerAddress: target.callerAddress } : {}),
      },
    });
  }
  return {
    contract: artifact.name,
    address: target.address,
    codeHash: artifact.codeHash,
    ...(debugCodeHash !== undefined && debugCodeHash.toLowerCase() !== artifact.codeHash.toLowerCase()
      ? { debugCodeHash: debugCodeHash.toLowerCase() }
      : {}),
    reruns,
    skipped,
    cost: batchCost(reruns.length, 1, GAS_REPORT_CALLS_PER_REQUEST),
  };
}

export interface GasReportRow {
  readonly method: string;
  /** Gas of the run just made; undefined when it failed. */
  readonly gasNow?: number;
  /** "12,345 gas" and its ALPH at the minimum gas price. */
  readonly gas?: string;
  readonly alph?: string;
  /** The change from the newest run on other code ("+1,200"), when one was measured. */
  readonly delta?: string;
  readonly previousGas?: number;
  readonly error?: string;
}

/**
 * One row per planned rerun, in order. A call whose result shows other code at the address than the
 * artifact's (`codeHashes`: release and debug build) is a failure, not a figure: it measured another
 * contract's method.
 */
export function gasReportRows(
  plan: GasReportPlan,
  outcomes: readonly CallOutcome[],
  memory: Pick<GasMemory, 'before'>,
  codeHashes: readonly string[],
): GasReportRow[] {
  return plan.reruns.map((rerun, i) => {
    const outcome = outcomes[i];
    if (outcome === undefined) return { method: rerun.method, error: 'no answer for this call' };
    if (!outcome.ok) return { method: rerun.method, error: outcome.error.message };
    const ran = outcome.result.contracts.find((c) => c.address === plan.address);
    if (ran && codeHashes.length > 0 && !codeHashes.includes(ran.codeHash.toLowerCase())) {
      return {
        method: rerun.method,
        error: `the code at ${plan.address} (code hash ${ran.codeHash}) is not ${plan.contract}'s`,
      };
    }
    const gasNow = outcome.result.gasUsed;
    const previous = memory.before(plan.contract, rerun.method, plan.codeHash);
    return {
      method: rerun.method,
      gasNow,
      ...gasWords(gasNow),
      ...(previous ? { delta: gasDelta(gasNow, previous.gasUsed), previousGas: previous.gasUsed } : {}),
    };
  });
}

/** Which build of the artifact the simulations ran on, as the node said (the code at the address). */
export type MeasuredCode =
  { readonly build: 'release' | 'debug'; readonly codeHash: string } | { readonly build: 'unknown' };

/**
 * The code the report measured: the code hash a successful run names for the contract's address (the
 * one the tree shows), told apart as the artifact's release build or its debug build.
 */
export function measuredCode(plan: GasReportPlan, outcomes: readonly CallOutcome[]): MeasuredCode {
  for (const outcome of outcomes) {
    if (!outcome?.ok) continue;
    const ran = outcome.result.contracts.find((c) => c.address === plan.address)?.codeHash.toLowerCase();
    if (ran === plan.codeHash.toLowerCase()) return { build: 'release', codeHash: ran };
    if (ran !== undefined && ran === plan.debugCodeHash) return { build: 'debug', codeHash: ran };
  }
  return { build: 'unknown' };
}

/** The report's line that names the code it measured, and why it is not the artifact's code hash. */
function measuredLine(plan: GasReportPlan, measured: MeasuredCode): string {
  const name = markdownText(plan.contract);
  switch (measured.build) {
    case 'debug':
      return (
        `- code measured: ${codeSpan(measured.codeHash)}, the debug build of ${name} deployed here: a devnet ` +
        `deploy runs the debug build (with its Debug messages), whose code hash is the artifact's ` +
        `codeHashDebug in .project.json, not the release build's ${codeSpan(plan.codeHash)}`
      );
    case 'release':
      return `- code measured: ${codeSpan(measured.codeHash)}, the release build of ${name} in the artifact`;
    case 'unknown':
      return `- code hash: ${codeSpan(plan.codeHash)}, the release build of ${name} in the artifact (no run said which code it measured)`;
  }
}

/** What the report's runs leave in the memory: the figures it measured, on today's code. */
export function gasReportRecords(
  plan: GasReportPlan,
  rows: readonly GasReportRow[],
  at: number,
): GasRecord[] {
  return rows.flatMap((row, i) =>
    row.gasNow === undefined
      ? []
      : [
          {
            contract: plan.contract,
            method: row.method,
            codeHash: plan.codeHash,
            gasUsed: row.gasNow,
            args: plan.reruns[i]?.args ?? [],
            via: 'simulate' as const,
            at,
          },
        ],
  );
}

/** The report as Markdown (names and errors from outside are escaped or quoted, never Markdown). */
export function gasReportMarkdown(
  plan: GasReportPlan,
  rows: readonly GasReportRow[],
  requestsSpent: number,
  measured: MeasuredCode = { build: 'unknown' },
): string {
  const cell = (text: string) => markdownText(text);
  const lines = [
    `# Gas Report: ${markdownText(plan.contract)}`,
    '',
    `- contract: ${codeSpan(plan.address)}`,
    measuredLine(plan, measured),
    `- ${rows.length} method(s) simulated again with their remembered arguments, in ${requestsSpent} request(s); nothing was signed or sent`,
    '- ALPH: the gas at the minimum gas price; a transaction adds its base gas (1,000 + 2,000 per input + 4,500 per output, at least 20,000)',
    '- change: from the last run on the code before the last change',
    '',
    '| method | gas now | ALPH | change | before |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows.map((r) =>
      r.error !== undefined
        ? `| ${cell(r.method)} | failed: ${cell(r.error)} | | | |`
        : `| ${cell(r.method)} | ${r.gas ?? ''} | ${r.alph ?? ''} | ${r.delta ?? '—'} | ${r.previousGas !== undefined ? gasWords(r.previousGas).gas : 'not measured'} |`,
    ),
  ];
  if (plan.skipped.length > 0) {
    lines.push('', '## Not simulated', ...plan.skipped.map((s) => `- ${cell(s.method)}: ${cell(s.reason)}`));
  }
  return `${lines.join('\n')}\n`;
}
