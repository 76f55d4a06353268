/**
 * Debug Transaction (issue 31): the `ralph` launch configuration that runs a mined transaction's script
 * again on the project's VM, as its signer, with its id, gas and block time, against the state of the
 * contracts it names just before its block. The node's answer to the same question (its dry run of the
 * same script at the same state) travels in the configuration, so the session says at its end whether
 * the local run agrees with it. No VM here: the requests are the Explain Transaction fetchers', each
 * counted in {@link REPLAY_COST}, and the glue says the count before it sends them.
 */
import type { ContractArtifact } from '../artifacts';
import {
  approvedAtto,
  callerOf,
  explainScriptCalls,
  reproductionRequest,
  stateBeforeBlock,
} from '../debugging/scriptReproduction';
import { NO_OP_SCRIPT, refusalText, type ExplainFetchers } from '../debugging/transactionExplanation';
import { historyUnavailableReason } from '../gateway/history';
import type { CallTxScriptResult } from '../gateway/schemas';
import type { RequestCost } from '../usage/costs';
import { RALPH_DEBUG_TYPE, type RalphLaunchConfiguration } from './deployedLaunch';
import type { NodeAnswer } from './nodeComparison';

/**
 * Status 1, details 1, the block's header 1, the history probe 0-1 (once per gateway), the state before
 * the block 1 (a no-op script pinned to it), the node's dry run of the script there 1.
 */
export const REPLAY_COST: RequestCost = { min: 5, max: 6 };

/** Where the workspace has a contract's artifact and source, as file system paths. */
export interface ReplayFile {
  readonly artifact: ContractArtifact;
  readonly artifactPath: string;
  readonly sourcePath?: string;
}

export interface ReplayInput {
  readonly txId: string;
  readonly fetchers: Pick<
    ExplainFetchers,
    'txStatus' | 'txDetails' | 'blockHeader' | 'callTxScript' | 'historySupport'
  >;
  readonly fileOf: (address: string) => Promise<ReplayFile | undefined>;
  readonly profile: string;
}

const short = (hash: string): string => `${hash.slice(0, 8)}…`;

function nodeAnswerOfRun(
  run: { ok: true; result: CallTxScriptResult } | { ok: false; detail: string },
): NodeAnswer {
  if (!run.ok) return { ok: false, error: refusalText(run, 600) };
  return {
    ok: true,
    gasUsed: run.result.gasUsed,
    contracts: run.result.contracts.map((c) => ({
      address: c.address,
      immFields: c.immFields,
      mutFields: c.mutFields,
    })),
    events: run.result.events.length,
  };
}

/** The configuration, or an error that says why this transaction cannot be replayed. */
export async function replayConfiguration(input: ReplayInput): Promise<RalphLaunchConfiguration> {
  const { txId, fetchers } = input;
  const status = await fetchers.txStatus(txId);
  if (status.type !== 'Confirmed' && status.type !== 'Conflicted')
    throw new Error(
      `Transaction ${short(txId)} is not in a block (${status.type}): there is no state to replay it on`,
    );
  const details = await fetchers.txDetails(txId);
  const script = details.unsigned.scriptOpt;
  if (!script) throw new Error(`Transaction ${short(txId)} has no script: it runs no contract code to debug`);
  const caller = callerOf(details.unsigned.inputs);
  if (!caller) throw new Error(`The signer of ${short(txId)} could not be read from its first input`);
  const header = await fetchers.blockHeader(status.blockHash);
  const before = stateBeforeBlock(header);
  if (!before) throw new Error(`Block ${short(status.blockHash)} names no parent on its chain`);
  const calls = explainScriptCalls(script, () => undefined);
  const addresses = [...new Set(calls.flatMap((c) => (c.address ? [c.address] : [])))];
  const first = calls.find((c) => c.address !== undefined);
  if (!first?.address)
    throw new Error('The script names no contract by its id, so the state it ran on cannot be read');
  const support = await fetchers.historySupport({ address: first.address, methodIndex: first.methodIndex });
  const unavailable = historyUnavailableReason(support);
  if (unavailable)
    throw new Error(`${unavailable.replace(/\.$/, '')}: the replay needs the state before the block`);
  const group = header.chainFrom;
  const stateRun = await fetchers.callTxScript({
    group,
    bytecode: NO_OP_SCRIPT,
    worldStateBlockHash: before,
    interestedContracts: addresses,
  });
  if (!stateRun.ok)
    throw new Error(
      `The state before block ${short(status.blockHash)} could not be read: ${refusalText(stateRun)}`,
    );
  const approved = approvedAtto(script);
  const reproduction = reproductionRequest({
    txId,
    group,
    scriptHex: script,
    inputs: details.unsigned.inputs,
    gasAmount: details.unsigned.gasAmount,
    gasPrice: details.unsigned.gasPrice,
    stateBlockHash: before,
    calls,
    approvedAtto: approved,
  });
  const node = nodeAnswerOfRun(await fetchers.callTxScript(reproduction));
  const contracts = await Promise.all(
    stateRun.result.contracts.map(async (c) => {
      const file = await input.fileOf(c.address);
      return {
        address: c.address,
        state: {
          bytecode: c.bytecode,
          immFields: c.immFields,
          mutFields: c.mutFields,
          asset: {
            attoAlphAmount: c.asset.attoAlphAmount,
            ...(c.asset.tokens && c.asset.tokens.length > 0 ? { tokens: c.asset.tokens } : {}),
          },
        },
        ...(file ? { artifact: file.artifactPath, name: file.artifact.name } : {}),
        ...(file?.sourcePath ? { source: file.sourcePath } : {}),
      };
    }),
  );
  const fee = BigInt(details.unsigned.gasAmount) * BigInt(details.unsigned.gasPrice);
  const named = calls.map((c) => c.method ?? `#${c.methodIndex}`);
  const contractNames = [...new Set(contracts.flatMap((c) => ('name' in c && c.name ? [c.name] : [])))];
  return {
    type: RALPH_DEBUG_TYPE,
    request: 'launch',
    name: `Debug transaction ${short(txId)}${contractNames.length ? ` (${contractNames.join(', ')})` : ` (${named.join(', ')})`}`,
    replay: {
      txId,
      script,
      caller,
      callerAttoAlph: (approved + fee).toString(),
      networkId: details.unsigned.networkId,
      blockTimeStamp: header.timestamp,
      gasAmount: details.unsigned.gasAmount,
      gasPrice: details.unsigned.gasPrice,
      fixedOutputs: details.unsigned.fixedOutputs.length,
      contracts,
    },
    node,
    ...(details.scriptExecutionOk !== undefined ? { scriptExecutionOk: details.scriptExecutionOk } : {}),
    stateFrom: `the state before block ${short(status.blockHash)} (its parent ${short(before)}), read from profile "${input.profile}"; the transaction's signer ${caller}, its id, gas and block time`,
  };
}
