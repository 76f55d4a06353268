/**
 * "Alephium: Gas Report": picks a watched contract, says what re-simulating its remembered methods costs
 * (a modal), sends them as multicalls of 20 and opens the report read-only. The plan, the rows and the
 * text are core/debugging/gasReport.ts (loaded with the debugging engine); this file only asks, sends and
 * shows.
 */
import { groupOfAddress } from '../core/protocol';
import { callContracts } from '../core/gateway';
import { loadEngine } from './loadEngine';
import { costNotice } from '../core/usage/costs';
import { UserCancelledError } from '../core/util/errors';
import { inert } from '../core/text/inert';
import type { Services } from '../services';
import { argumentsMayActForUser } from '../platform/automation';
import { askModal } from '../platform/notify';
import { argString, argValue, pickContract } from '../platform/prompts';
import { showResult } from '../platform/resultsDocument';
import { signerAddressIfAny } from '../platform/signing';

/** The services the Gas Report uses: the signer's address (secrets) is its caller when in the contract's group. */
export type GasReportDeps = Pick<Services, 'log' | 'redactor' | 'connection' | 'contracts' | 'secrets'>;

export interface GasReportResult {
  readonly contract: string;
  readonly requests: number;
  readonly rows: readonly { method: string; gasNow?: number; delta?: string; error?: string }[];
}

export async function gasReport(deps: GasReportDeps, args: unknown): Promise<GasReportResult> {
  const { contracts } = deps;
  const address = argString(args, 'address');
  const registryNow = await contracts.registry();
  const w = address
    ? contracts.entry(address)
    : await pickContract(
        contracts.watched,
        (c) => contracts.describe(c, registryNow),
        args,
        inert`Gas Report: which contract?`,
      );
  const resolved = await contracts.resolve(w.address);
  const artifact = resolved.artifact;
  if (!artifact) throw new Error(`No artifact in the workspace describes ${w.address}.`);
  if (resolved.drift.status === 'drift') {
    throw new Error(`Not run: ${resolved.drift.message}. The method indexes come from the artifact.`);
  }
  const signer = await signerAddressIfAny(deps.secrets);
  const engine = await loadEngine();
  // A devnet deploy runs the debug build: its code hash (`.project.json`) is what the tree shows.
  const release = artifact.codeHash.toLowerCase();
  const debugCodeHash = registryNow.codeHashesOf(artifact).find((h) => h !== release);
  const plan = engine.planGasReport(
    contracts.gas,
    artifact,
    {
      address: w.address,
      group: w.group,
      ...(signer !== undefined && groupOfAddress(signer) === w.group ? { callerAddress: signer } : {}),
    },
    debugCodeHash,
  );
  if (plan.reruns.length === 0) {
    throw new Error(
      `No method of ${artifact.name} has remembered arguments yet: Simulate or Execute one first (its arguments are kept for the report).`,
    );
  }
  const notice = costNotice(`A Gas Report of ${plan.reruns.length} method(s) of ${artifact.name}`, plan.cost);
  // Tests may pass `costAccepted: true`; a person always sees the cost first.
  const accepted = argValue(args, 'costAccepted') === true && argumentsMayActForUser();
  if (!accepted) {
    const choice = await askModal(
      inert`${notice.text}`,
      inert`Each method is simulated again with the arguments it last ran with (call-contract, up to 20 per multicall). Nothing is signed or sent.`,
      'Run Gas Report',
    );
    if (choice !== 'Run Gas Report') throw new UserCancelledError();
  }
  const registry = await contracts.registry();
  const outcomes = await callContracts(
    deps.connection.requireClient(),
    plan.reruns.map((r) => r.call),
    { priority: 'user' },
  );
  const rows = engine.gasReportRows(plan, outcomes, contracts.gas, registry.codeHashesOf(artifact));
  for (const record of engine.gasReportRecords(plan, rows, Date.now())) contracts.gas.record(record);
  deps.log.info(
    `Gas Report of ${artifact.name}: ${rows.length} method(s) in ${plan.cost.max} request(s), ${rows.filter((r) => r.error !== undefined).length} failed`,
  );
  if (argValue(args, 'show') !== 'none')
    await showResult(
      `Gas Report ${artifact.name}`,
      engine.gasReportMarkdown(plan, rows, plan.cost.max, engine.measuredCode(plan, outcomes)),
    );
  return {
    contract: artifact.name,
    requests: plan.cost.max,
    rows: rows.map((r) => ({
      method: r.method,
      ...(r.gasNow !== undefined ? { gasNow: r.gasNow } : {}),
      ...(r.delta !== undefined ? { delta: r.delta } : {}),
      ...(r.error !== undefined ? { error: r.error } : {}),
    })),
  };
}
