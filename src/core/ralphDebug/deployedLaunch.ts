/**
 * The `ralph` launch configuration of a deployed contract's method (issue 31): what the Contract Panel's
 * Debug button, the Debug lens and "Debug Contract Method" start. The contract's state comes from the
 * active profile (one read of `/contracts/{address}/state`), as the node's test-contract takes it; the
 * arguments stay as the user typed them, for the launch to type them by the artifact as every prompt does.
 * No VM here: this module is loaded with the commands, the VM only when a session starts.
 */
import { addressFromLockupScript, groupOfAddress } from '../protocol';
import { RALPH_DEBUG_TYPE, type LaunchState, type RalphLaunchConfiguration } from './configKeys';

export { RALPH_DEBUG_TYPE, type LaunchState, type RalphLaunchConfiguration } from './configKeys';

/** A contract's state as a gateway returns it: a launch state and the hash of its code. */
export interface DeployedState extends LaunchState {
  readonly codeHash: string;
}

export interface DeployedLaunchInput {
  readonly contractName: string;
  readonly address: string;
  readonly method: string;
  /** The arguments as typed (decimal, true/false, hex, base58, JSON for arrays and structs). */
  readonly args: readonly string[];
  /** The artifact file and the `.ral` source, as file system paths. */
  readonly artifactPath: string;
  readonly sourcePath?: string;
  readonly state: DeployedState;
  /** The artifact's code hashes (release and debug): the state's code must be one of them. */
  readonly codeHashes: readonly string[];
  /** The signer, when it could call the contract (same group). */
  readonly signerAddress?: string;
  /** ALPH approved to the call, in atto. */
  readonly approvedAttoAlph: bigint;
  /** Where the state was read, for the Debug Console's first line. */
  readonly profile: string;
}

/** The ALPH a caller brings when the call approves none: enough for gas and dust, as the node's default. */
const DEFAULT_CALLER_ATTO_ALPH = 10n ** 18n;

/**
 * An address of `group` that no key holds (a P2PKH of a hash with no known preimage), the caller of a
 * launch when no signer key is set: `callerAddress!()` then names it, and the Debug Console says so.
 */
export function placeholderCaller(group: number): string {
  for (let last = 0; last < 256; last++) {
    const script = new Uint8Array(33);
    script[32] = last;
    const address = addressFromLockupScript(script);
    if (groupOfAddress(address) === group) return address;
  }
  throw new Error(`No placeholder address of group ${group}`);
}

/**
 * The configuration, or an error that says why not: code on chain that is not the artifact's would run
 * other methods under the artifact's names, so it is refused rather than debugged under a wrong map.
 */
export function deployedLaunchConfiguration(input: DeployedLaunchInput): RalphLaunchConfiguration {
  const hash = input.state.codeHash.toLowerCase();
  if (!input.codeHashes.some((h) => h.toLowerCase() === hash))
    throw new Error(
      `The code of ${input.address} (hash ${hash}) is not ${input.contractName}'s artifact: compile the source that was deployed, or debug with the artifact's own state`,
    );
  const caller = input.signerAddress ?? placeholderCaller(groupOfAddress(input.address));
  const callerAttoAlph = input.approvedAttoAlph + DEFAULT_CALLER_ATTO_ALPH;
  return {
    type: RALPH_DEBUG_TYPE,
    request: 'launch',
    name: `Debug ${input.contractName}.${input.method}(${input.args.join(', ')})`,
    artifact: input.artifactPath,
    ...(input.sourcePath ? { source: input.sourcePath } : {}),
    method: input.method,
    args: [...input.args],
    address: input.address,
    caller,
    callerAttoAlph: callerAttoAlph.toString(),
    state: {
      bytecode: input.state.bytecode,
      immFields: input.state.immFields.map((v) => ({ type: v.type, value: v.value })),
      mutFields: input.state.mutFields.map((v) => ({ type: v.type, value: v.value })),
      asset: {
        attoAlphAmount: input.state.asset.attoAlphAmount,
        ...(input.state.asset.tokens && input.state.asset.tokens.length > 0
          ? { tokens: input.state.asset.tokens.map((t) => ({ id: t.id, amount: t.amount })) }
          : {}),
      },
    },
    stateFrom: `the state of ${input.address} read from profile "${input.profile}" (1 request)${input.signerAddress ? '' : '; caller: a placeholder address, as no signer key is set'}`,
  };
}
