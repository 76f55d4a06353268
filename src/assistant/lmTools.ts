/**
 * The Alephium language-model tools (a chunk of dist/ of its own, loaded on the first invocation): read-only
 * answers for a chat assistant. Each checks its input itself (the workbench does not check it against the
 * declared schema), says its request cost before it runs, and reads through the extension's one
 * GatewayClient at the user's priority under the `assistant` purpose, so the rate limit, the month's
 * budget and the Request Usage view cover it. Nothing here can sign, send or read a key (ESLint keeps
 * this folder away from the signing and secrets code).
 */
import * as vscode from 'vscode';
import { type ArtifactRegistry, getterIndexes } from '../core/artifacts';
import { chainValue, toolErrorText } from '../core/assistant/answerText';
import { contractStateText, readContractState } from '../core/assistant/contractState';
import { decodedTxText, decodeForTool } from '../core/assistant/decodeTx';
import { EXPLAIN_CAVEAT, explanationAnswer } from '../core/assistant/explain';
import { ASSISTANT_REQUESTS } from '../core/assistant/contractState';
import {
  EXPLAIN_COST,
  explainFetchersFrom,
  explainLookup,
  explainTransaction,
  explanationText,
} from '../core/debugging/transactionExplanation';
import { latestEventsCost, type RequestCost } from '../core/usage/costs';
import { callKey, type ToolSessionBudget } from '../core/assistant/toolBudget';
import { decodeRecentEvents, readRecentEvents, recentEventsText } from '../core/assistant/recentEvents';
import {
  contractStateCost,
  DECODE_COST,
  invalidInputInvocation,
  preparedInvocation,
  RECENT_EVENTS_CAVEAT,
  type PreparedInvocationText,
} from '../core/assistant/toolCosts';
import {
  parseContractStateInput,
  parseDecodeUnsignedTxInput,
  parseExplainTransactionInput,
  parseRecentEventsInput,
  resolveContractText,
  TOOL_NAMES,
  ToolInputError,
  type KnownContract,
  type ToolName,
} from '../core/assistant/toolInput';
import { shortAddress } from '../core/contracts/watching/rows';
import { errorMessage } from '../core/util/errors';
import { argumentsMayActForUser } from '../platform/automation';
import { workspacePlaceName } from '../platform/places';
import type { ContractsService } from '../contracts';
import type { Services } from '../services';

/**
 * The services the tools read through (the failures: the Ralph sources, to put a reproduced failure at its
 * line as Explain Transaction does), and what the tools may spend together this session before they ask
 * (one budget for all tools).
 */
export type AssistantToolDeps = Pick<Services, 'log' | 'connection' | 'contracts' | 'failures'> & {
  readonly budget: ToolSessionBudget;
};

/** The contracts a name may stand for: watched ones (by their names) and the network's deployments. */
function knownContracts(contracts: ContractsService, registry: ArtifactRegistry): KnownContract[] {
  const watched = contracts.watched.flatMap((w) => {
    const resolved = contracts.resolvedNow(w.address);
    const names = [w.name, resolved.deployment?.name, resolved.artifact?.name];
    return [...new Set(names)]
      .filter((n): n is string => !!n)
      .map((name) => ({ name, address: w.address, source: 'watched' as const }));
  });
  const deployed = registry
    .deployments(contracts.network)
    .map((d) => ({ name: d.name, address: d.address, source: 'deployment' as const }));
  return [...watched, ...deployed];
}

/** The address a tool's `contract` names (local: the watch list and the workspace's deployments). */
async function contractAddress(deps: AssistantToolDeps, tool: ToolName, text: string): Promise<string> {
  const registry = await deps.contracts.registry();
  return resolveContractText(tool, text, knownContracts(deps.contracts, registry));
}

/** The name a person knows the contract by, for the answer. */
function labelOf(deps: AssistantToolDeps, address: string): string | undefined {
  const resolved = deps.contracts.resolvedNow(address);
  const watched = deps.contracts.watched.find((w) => w.address === address);
  return watched?.name ?? resolved.deployment?.name ?? resolved.artifact?.name;
}

/** The contract as the invocation message names it: a workspace name made inert, or its short address. */
function nameOf(deps: AssistantToolDeps, address: string): string {
  const label = labelOf(deps, address);
  return label ? chainValue(label, 100) : shortAddress(address);
}

/** What a call does and costs, as its invocation message says it (and the session budget counts it). */
interface CallPlan {
  readonly what: string;
  readonly cost: RequestCost;
  readonly caveat?: string;
  readonly monthLeft?: number;
}

async function planOf(deps: AssistantToolDeps, tool: ToolName, input: unknown): Promise<CallPlan> {
  const left = async () => {
    const monthLeft = await deps.connection.requestsLeftThisMonth();
    return monthLeft !== undefined ? { monthLeft } : {};
  };
  switch (tool) {
    case TOOL_NAMES.contractState: {
      const monthLeft = await left();
      const address = await contractAddress(deps, tool, parseContractStateInput(input).contract);
      const getters = getterIndexes((await deps.contracts.resolve(address)).artifact).length;
      const name = nameOf(deps, address);
      return { what: `Reading the state of ${name}`, cost: contractStateCost(getters), ...monthLeft };
    }
    case TOOL_NAMES.recentEvents: {
      const parsed = parseRecentEventsInput(input);
      const address = await contractAddress(deps, tool, parsed.contract);
      return {
        what: `Reading the latest ${parsed.count} events of ${nameOf(deps, address)}`,
        cost: latestEventsCost(parsed.count),
        caveat: RECENT_EVENTS_CAVEAT,
        ...(await left()),
      };
    }
    case TOOL_NAMES.decodeUnsignedTx:
      parseDecodeUnsignedTxInput(input);
      return { what: 'Decoding the unsigned transaction', cost: DECODE_COST };
    case TOOL_NAMES.explainTransaction: {
      const { txId } = parseExplainTransactionInput(input);
      return {
        what: `Explaining transaction ${txId.slice(0, 8)}…`,
        cost: EXPLAIN_COST,
        caveat: EXPLAIN_CAVEAT,
        ...(await left()),
      };
    }
    default:
      throw new Error(`Unknown Alephium tool ${String(tool)}.`);
  }
}

async function prepareText(
  deps: AssistantToolDeps,
  tool: ToolName,
  input: unknown,
): Promise<PreparedInvocationText> {
  const acts = argumentsMayActForUser();
  const plan = await planOf(deps, tool, input);
  const overBudget = deps.budget.exceeds(plan.cost) ? deps.budget.question(plan.cost) : undefined;
  const text = preparedInvocation(plan.what, plan.cost, acts, {
    ...(plan.caveat !== undefined ? { caveat: plan.caveat } : {}),
    ...(plan.monthLeft !== undefined ? { monthLeft: plan.monthLeft } : {}),
    ...(overBudget !== undefined ? { overBudget } : {}),
  });
  // Past the budget, this call may run only once the user answered its confirmation (or the policy
  // skipped it: only the extension's own tests).
  if (overBudget !== undefined && (text.confirmation || acts)) deps.budget.asked(callKey(tool, input));
  return text;
}

/** What the workbench shows before the tool runs: its cost, and a question when the cost is worth one. */
export async function prepare(
  deps: AssistantToolDeps,
  tool: ToolName,
  input: unknown,
): Promise<vscode.PreparedToolInvocation> {
  let text: PreparedInvocationText;
  try {
    text = await prepareText(deps, tool, input);
  } catch (e) {
    // Invoke says the same problem to the model; preparing must not fail the invocation before it.
    if (!(e instanceof ToolInputError)) throw e;
    text = invalidInputInvocation(e.message);
  }
  return {
    invocationMessage: text.invocationMessage,
    ...(text.confirmation ? { confirmationMessages: text.confirmation } : {}),
  };
}

function signalOf(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const sub = token.onCancellationRequested(() => controller.abort());
  return {
    signal: controller.signal,
    dispose: () => {
      sub.dispose();
    },
  };
}

async function answerOf(
  deps: AssistantToolDeps,
  tool: ToolName,
  input: unknown,
  signal: AbortSignal,
): Promise<string> {
  switch (tool) {
    case TOOL_NAMES.contractState: {
      const address = await contractAddress(deps, tool, parseContractStateInput(input).contract);
      const client = deps.connection.requireClient();
      const registry = await deps.contracts.registry();
      const reading = await readContractState(
        { client, resolve: (a, codeHash) => deps.contracts.resolve(a, codeHash), structs: registry.structs },
        address,
        labelOf(deps, address),
        signal,
      );
      return contractStateText(reading, registry.structs);
    }
    case TOOL_NAMES.recentEvents: {
      const parsed = parseRecentEventsInput(input);
      const address = await contractAddress(deps, tool, parsed.contract);
      const client = deps.connection.requireClient();
      const latest = await readRecentEvents(client, address, parsed.count, signal);
      const lookup = await deps.contracts.artifactLookup([address]);
      const registry = await deps.contracts.registry();
      return recentEventsText(
        decodeRecentEvents(address, latest, parsed.count, lookup(address), registry, labelOf(deps, address)),
      );
    }
    case TOOL_NAMES.decodeUnsignedTx: {
      const decoded = decodeForTool(parseDecodeUnsignedTxInput(input).unsignedTx);
      // The workspace's artifacts read (local) first, so the script's callees are named from them.
      await deps.contracts.registry();
      return decodedTxText(decoded, (a) => deps.contracts.resolvedNow(a).artifact);
    }
    case TOOL_NAMES.explainTransaction:
      return explanationAnswer(
        explanationText(
          await explain(deps, parseExplainTransactionInput(input).txId, signal),
          workspacePlaceName,
        ),
      );
    default:
      throw new Error(`Unknown Alephium tool ${String(tool)}.`);
  }
}

/** Explain Transaction's core, with the artifacts and sources as the command resolves them. */
async function explain(deps: AssistantToolDeps, txId: string, signal: AbortSignal) {
  const client = deps.connection.requireClient();
  const registry = await deps.contracts.registry();
  return explainTransaction(
    {
      ...explainFetchersFrom(client, { ...ASSISTANT_REQUESTS, signal }),
      ...explainLookup(
        registry,
        async (address) => (await deps.contracts.resolve(address)).artifact,
        (names) => deps.failures.sources.mapFor([...names]),
      ),
    },
    txId,
  );
}

/** Runs a tool: its answer as one text part, or an error whose message says what went wrong. */
export async function invoke(
  deps: AssistantToolDeps,
  tool: ToolName,
  input: unknown,
  token: vscode.CancellationToken,
): Promise<vscode.LanguageModelToolResult> {
  const cancel = signalOf(token);
  try {
    const plan = await planOf(deps, tool, input);
    if (!deps.budget.spend(callKey(tool, input), plan.cost)) {
      throw new Error(
        `${deps.budget.question(plan.cost)} Not run: ask again, and the user is asked whether to spend more.`,
      );
    }
    const text = await answerOf(deps, tool, input, cancel.signal);
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
  } catch (e) {
    deps.log.info(`${tool}: ${errorMessage(e)}`);
    // What reaches the model is outside text too (a gateway's detail, a path): inert, one line, capped.
    throw new Error(toolErrorText(e));
  } finally {
    cancel.dispose();
  }
}
