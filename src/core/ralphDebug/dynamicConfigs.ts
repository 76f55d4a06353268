/**
 * Run and Debug's "Ralph (Alephium VM)…" list (issue 31): one entry per public method of each watched
 * contract, read from the code (which methods are public is in the bytecode, not the artifact). Loaded
 * when the list is first shown, with the bytecode reader, never at activation.
 */
import type { ContractArtifact } from '../artifacts';
import { contractMethodHeaders } from '../bytecode/contractMethods';
import { RALPH_DEBUG_TYPE, type RalphLaunchConfiguration } from './deployedLaunch';

/** A watched contract as the Run and Debug view lists it: its address, the name shown and its artifact's methods. */
export interface DebuggableContract {
  readonly address: string;
  readonly label: string;
  /** The public methods, by name (a private one cannot be called from a script). */
  readonly methods: readonly string[];
}

/** At most this many entries in Run and Debug's list (a long watch list would bury it). */
const MAX_DYNAMIC_CONFIGURATIONS = 50;

/**
 * Run and Debug's "Ralph (Alephium VM)…" list: one entry per public method of each watched contract. An
 * entry names the method only; choosing it runs Debug Contract Method, which asks for the arguments and
 * reads the state (1 request) as the Contract Panel's Debug does.
 */
export function methodDebugConfigurations(
  contracts: readonly DebuggableContract[],
): RalphLaunchConfiguration[] {
  return contracts
    .flatMap((c) =>
      c.methods.map((method): RalphLaunchConfiguration => ({
        type: RALPH_DEBUG_TYPE,
        request: 'launch',
        name: `Debug ${c.label}.${method} (${c.address.slice(0, 6)}…${c.address.slice(-4)})`,
        debugContractMethod: { address: c.address, method },
      })),
    )
    .slice(0, MAX_DYNAMIC_CONFIGURATIONS);
}

/** A watched contract's entry for {@link methodDebugConfigurations}: the public methods its code declares. */
export function debuggableContract(
  address: string,
  label: string,
  artifact: ContractArtifact,
): DebuggableContract {
  let headers: ReturnType<typeof contractMethodHeaders> = [];
  try {
    headers = contractMethodHeaders(artifact.bytecode);
  } catch {
    // An artifact whose code does not decode lists no method rather than a guess.
  }
  const methods = artifact.functions.filter((_, i) => headers[i]?.isPublic === true).map((f) => f.name);
  return { address, label, methods };
}
