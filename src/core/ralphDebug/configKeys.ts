/**
 * What the `ralph` debug type's registration needs at activation, and nothing more (the launch builders
 * load with the commands): the type, the configuration's shape, the entry Run and Debug's list names, and
 * the rule that only the extension's own commands say where a run's state came from.
 */
import type { NodeVal } from '../vm/nodeJson';

export const RALPH_DEBUG_TYPE = 'ralph';

/**
 * A contract's state as the node's `test-contract` takes it (and `/contracts/{address}/state` returns it):
 * the code that runs, both field lists flattened in the node's value shape, and the contract's assets.
 * Given in a launch configuration as `state`, it replaces the artifact's code and the `fields` by name.
 */
export interface LaunchState {
  readonly bytecode: string;
  readonly immFields: readonly NodeVal[];
  readonly mutFields: readonly NodeVal[];
  readonly asset: {
    readonly attoAlphAmount: string;
    readonly tokens?: ReadonlyArray<{ id: string; amount: string }>;
  };
}

export interface RalphLaunchConfiguration {
  readonly type: typeof RALPH_DEBUG_TYPE;
  readonly request: 'launch';
  readonly name: string;
  readonly [key: string]: unknown;
}

/** The method a configuration of `methodDebugConfigurations` (dynamicConfigs.ts) names, or undefined for any other. */
export function debugContractMethodOf(config: {
  readonly [key: string]: unknown;
}): { address: string; method: string } | undefined {
  const v = config.debugContractMethod as { address?: unknown; method?: unknown } | undefined;
  return typeof v === 'object' && v !== null && typeof v.address === 'string' && typeof v.method === 'string'
    ? { address: v.address, method: v.method }
    : undefined;
}

/** The key a configuration started by the extension's own commands carries to its facts. */
export const OWN_FACTS_KEY = 'alephiumOwnFacts';

/**
 * What only the extension's own commands may say about a run: where its state came from (`stateFrom`)
 * and the node's answer to the same question (`node`). A `launch.json` of the workspace could claim
 * either ("read from mainnet", "the node agrees"), so a launch's own values are dropped and only the facts
 * the command kept beside the session (looked up by its one-use key) are put back.
 */
export function withOwnFacts(
  args: Readonly<Record<string, unknown>>,
  facts: { readonly stateFrom?: unknown; readonly node?: unknown } | undefined,
): Record<string, unknown> {
  const { stateFrom: _claimed, node: _claimedNode, [OWN_FACTS_KEY]: _key, ...rest } = args;
  return {
    ...rest,
    ...(facts?.stateFrom !== undefined ? { stateFrom: facts.stateFrom } : {}),
    ...(facts?.node !== undefined ? { node: facts.node } : {}),
  };
}

/** A launch file (artifact, source) larger than this is refused: an artifact is a few hundred KB at most. */
const MAX_LAUNCH_FILE_BYTES = 8 * 1024 * 1024;

/** Refuses a launch file over {@link MAX_LAUNCH_FILE_BYTES}, before it is read. */
export function checkLaunchFileSize(path: string, bytes: number): void {
  if (bytes > MAX_LAUNCH_FILE_BYTES) throw new Error(`${path} is larger than 8 MB`);
}
