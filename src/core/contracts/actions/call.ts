/**
 * Calling a method: from what the user chose (a watched contract's public method with typed arguments and
 * approved assets) to the script that runs the call, and its dry run. Sends nothing but the dry run.
 */
import { buildMethodCallScript, singleCallMismatch, buildScriptBytecode } from '../../bytecode';
import {
  ArgumentError,
  decodeEvent,
  encodeArgs,
  formatValue,
  type ArtifactRegistry,
  type ContractArtifact,
  type DriftCheck,
  type FunctionSig,
  type ScriptArtifact,
} from '../../artifacts';
import type { AddressAssetState, CallContractSucceeded, Val } from '../../gateway/schemas';
import { AssetTally, attoToAlph, contractIdFromAddress, groupOfAddress } from '../../protocol';
import { contractMethodBytes } from '../../bytecode/contractMethods';
import type {
  BalanceChangeView,
  EventView,
  MethodCallRequest,
  NamedValue,
  SimulationView,
} from '../actionViews';
import { findMethod } from '../call';
import {
  approvedAlphAtto,
  approvedAlphProblem,
  callerGroupProblem,
  unusedAssetsProblem,
} from '../inputRules';
import { methodTraitsOf } from './methodTraits';
import { fieldValue, gasOf, tokenAmounts, type ApprovedToken, type ScriptClient } from './shared';

/** A method call ready to simulate or build: everything derived from the request, nothing from the gateway. */
export interface PreparedMethodCall {
  readonly contract: string;
  readonly address: string;
  readonly contractId: string;
  readonly group: number;
  readonly fn: FunctionSig;
  readonly methodIndex: number;
  /** The arguments as the node's Vals (flattened), for call-contract. */
  readonly args: readonly Val[];
  readonly approvedAttoAlph: bigint;
  readonly approvedTokens: readonly ApprovedToken[];
  readonly gasAmount?: number;
  /** The TxScript that runs the call, hex: what the signed transaction must carry byte for byte. */
  readonly script: string;
  /** 'artifact script IncrementBy' or 'generated single-call script'. */
  readonly scriptSource: string;
  readonly signerAddress?: string;
  /**
   * The artifact's code hashes (release and debug build): the dry run's state of the called contract
   * must have one of them, or the method index may name another method of other code.
   */
  readonly codeHashes: readonly string[];
}

export interface MethodCallContext {
  readonly artifact: ContractArtifact;
  readonly registry?: ArtifactRegistry;
  /** The signer's address: the caller of a dry run and where approved assets come from. */
  readonly signerAddress?: string;
}

/**
 * A TxScript artifact of the workspace that does exactly this call: named after the method
 * (`incrementBy` → `IncrementBy`), one field holding the contract (typed with the contract's name) and
 * the method's parameters as its other fields, same names and types, and no approvals asked for (a
 * workspace script approves what its source says, which cannot be matched to the user's choice).
 */
export function matchingScript(
  registry: ArtifactRegistry | undefined,
  artifact: ContractArtifact,
  fn: FunctionSig,
  approving: boolean,
): { script: ScriptArtifact; contractField: string } | undefined {
  if (!registry || approving) return undefined;
  for (const script of registry.scripts) {
    if (script.name.toLowerCase() !== fn.name.toLowerCase()) continue;
    const { names, types } = script.fieldsSig;
    const contractFields = names.filter((_, i) => types[i] === artifact.name);
    if (contractFields.length !== 1) continue;
    const rest = names.map((n, i) => ({ n, t: types[i] })).filter((f) => f.t !== artifact.name);
    const sameParams =
      rest.length === fn.paramNames.length &&
      rest.every((f, i) => f.n === fn.paramNames[i] && f.t === fn.paramTypes[i]);
    if (sameParams) return { script, contractField: contractFields[0] as string };
  }
  return undefined;
}

/**
 * Whether a contract's method is public, read from its bytecode (each method starts with its isPublic
 * byte): artifacts do not record it. Unreadable bytecode counts as public and leaves the verdict to the node.
 */
export function methodIsPublic(bytecode: string, methodIndex: number): boolean {
  let methods: Uint8Array[];
  try {
    methods = contractMethodBytes(bytecode);
  } catch {
    return true;
  }
  return methods[methodIndex]?.[0] === 1;
}

/** Validates the request and builds the script that runs the call. Sends nothing. */
export function prepareMethodCall(request: MethodCallRequest, ctx: MethodCallContext): PreparedMethodCall {
  const { artifact, registry } = ctx;
  const { fn, methodIndex } = findMethod(artifact, request.method);
  if (!methodIsPublic(artifact.bytecode, methodIndex)) {
    throw new ArgumentError(
      `${artifact.name}.${fn.name} is private: only public methods can be called from a transaction`,
      'method',
    );
  }
  const inputs = request.args ?? [];
  const args = encodeArgs(fn.paramTypes, inputs, {
    paramNames: fn.paramNames,
    ...(registry ? { structs: registry.structs } : {}),
  }) as Val[];
  const alphRefusal = approvedAlphProblem(request.alph ?? '');
  if (alphRefusal !== undefined) throw new ArgumentError(`alph: ${alphRefusal}`, 'alph');
  const approvedAttoAlph = approvedAlphAtto(request.alph);
  const approvedTokens = tokenAmounts(request.tokens, 'tokens');
  const approving = approvedAttoAlph > 0n || approvedTokens.length > 0;
  // The panel's rule too: a method without @using(preapprovedAssets = true) takes no approval.
  const assetsRefusal = unusedAssetsProblem(
    fn.name,
    methodTraitsOf(artifact, methodIndex).payable,
    approving,
  );
  if (assetsRefusal !== undefined) throw new ArgumentError(assetsRefusal, 'alph');
  if (approvedTokens.length > 0 && approvedAttoAlph === 0n) {
    // The node's execute-script moves approved tokens through an output that must carry dust ALPH.
    throw new ArgumentError('approving tokens also needs some ALPH (at least 0.001 for the dust)', 'alph');
  }
  if (approving && ctx.signerAddress === undefined) {
    throw new ArgumentError('approving assets needs a signer key: run "Alephium: Import Signer Key"', 'alph');
  }
  const groupRefusal =
    ctx.signerAddress === undefined
      ? undefined
      : callerGroupProblem(artifact.name, request.address, ctx.signerAddress);
  if (groupRefusal !== undefined) throw new ArgumentError(groupRefusal, 'address');
  const contractId = contractIdFromAddress(request.address);
  // The typed text as values (JSON for arrays and structs): both script builders flatten them themselves.
  const values = fn.paramTypes.map((t, i) => fieldValue(t, String(inputs[i] ?? ''), registry));
  const generated = buildMethodCallScript({
    contractId,
    methodIndex,
    paramTypes: fn.paramTypes,
    args: values,
    returnTypes: fn.returnTypes,
    ...(registry ? { structs: registry.structs } : {}),
    ...(approving
      ? {
          approve: {
            from: ctx.signerAddress as string,
            attoAlphAmount: approvedAttoAlph,
            tokens: approvedTokens,
          },
        }
      : {}),
  });
  const matched = matchingScript(registry, artifact, fn, approving);
  let script = generated;
  let scriptSource = 'generated single-call script';
  if (matched) {
    const fields: Record<string, unknown> = { [matched.contractField]: contractId };
    fn.paramNames.forEach((name, i) => {
      fields[name] = values[i];
    });
    const candidate = buildScriptBytecode(
      matched.script.bytecodeTemplate,
      fields,
      matched.script.fieldsSig,
      registry?.structs,
    );
    // Its name and fields matched; its body must be this very call, or the generated script runs instead.
    const mismatch = singleCallMismatch(generated, candidate);
    if (mismatch === undefined) {
      script = candidate;
      scriptSource = `artifact script ${matched.script.name}`;
    } else {
      scriptSource = `generated single-call script (workspace script ${matched.script.name} is not just this call: ${mismatch})`;
    }
  }
  const gasAmount = gasOf(request.gasAmount);
  return {
    contract: artifact.name,
    address: request.address,
    contractId,
    group: groupOfAddress(request.address),
    fn,
    methodIndex,
    args,
    approvedAttoAlph,
    approvedTokens,
    ...(gasAmount !== undefined ? { gasAmount } : {}),
    script: script.toLowerCase(),
    scriptSource,
    ...(ctx.signerAddress !== undefined ? { signerAddress: ctx.signerAddress } : {}),
    codeHashes: [...new Set([artifact.codeHash, ...(registry?.codeHashesOf(artifact) ?? [])])],
  };
}

/** Names for returns: the artifact has only types. */
function returnNames(fn: FunctionSig): string[] {
  return fn.returnTypes.length === 1 ? ['result'] : fn.returnTypes.map((_, i) => `result${i}`);
}

export type ArtifactLookup = (
  address: string,
) => { artifact?: ContractArtifact; drift?: DriftCheck } | undefined;

export function eventViews(
  events: CallContractSucceeded['events'],
  artifactOf: ArtifactLookup,
  registry?: ArtifactRegistry,
): EventView[] {
  return events.map((e) => {
    const found = artifactOf(e.contractAddress);
    const decoded = decodeEvent(e, found?.artifact, {
      ...(found?.drift ? { drift: found.drift } : {}),
      ...(registry ? { structs: registry.structs } : {}),
    });
    return {
      contractAddress: e.contractAddress,
      name: decoded.name,
      fields: decoded.fields.map((f) => ({ name: f.name, type: f.type, value: formatValue(f.value) })),
      ...(decoded.warning ? { warning: decoded.warning } : {}),
    };
  });
}

function signedAlph(delta: bigint): string {
  return delta < 0n ? `-${attoToAlph(-delta)}` : `+${attoToAlph(delta)}`;
}

/** Per address, after minus before: ALPH and each token. Unchanged addresses are left out. */
export function balanceChanges(
  before: readonly AddressAssetState[],
  after: readonly AddressAssetState[],
  tokenName?: (id: string) => string | undefined,
): BalanceChangeView[] {
  const tally = new AssetTally();
  const lowerIds = (s: AddressAssetState) => (s.tokens ?? []).map((t) => ({ ...t, id: t.id.toLowerCase() }));
  for (const s of before) tally.add(s.address, BigInt(s.attoAlphAmount), lowerIds(s), -1n);
  for (const s of after) tally.add(s.address, BigInt(s.attoAlphAmount), lowerIds(s));
  return tally
    .entries()
    .filter((c) => c.atto !== 0n || c.tokens.length > 0)
    .map((c) => ({
      address: c.address,
      alph: signedAlph(c.atto),
      tokens: c.tokens.map((t) => {
        const name = tokenName?.(t.id);
        return {
          id: t.id,
          ...(name ? { name } : {}),
          amount: t.amount < 0n ? `${t.amount}` : `+${t.amount}`,
        };
      }),
    }));
}

export interface SimulateDeps {
  readonly client: Pick<ScriptClient, 'callContract'>;
  readonly artifactOf: ArtifactLookup;
  readonly registry?: ArtifactRegistry;
  readonly signal?: AbortSignal;
}

/**
 * The dry run of a prepared call: `call-contract` with the signer as caller and the approved assets as
 * its input assets, which runs the very method and arguments the script calls and, unlike a dry run of
 * the script, shows what the method returns. One request; nothing is signed and the chain is unchanged.
 */
export async function simulateMethodCall(
  deps: SimulateDeps,
  call: PreparedMethodCall,
): Promise<SimulationView> {
  const approving = call.approvedAttoAlph > 0n || call.approvedTokens.length > 0;
  // prepareMethodCall refuses approvals without a signer, so approving implies signerAddress.
  const offered: AddressAssetState[] =
    approving && call.signerAddress !== undefined
      ? [
          {
            address: call.signerAddress,
            attoAlphAmount: call.approvedAttoAlph.toString(),
            tokens: call.approvedTokens.map((t) => ({ id: t.id, amount: t.amount.toString() })),
          },
        ]
      : [];
  const result = await deps.client.callContract(
    {
      address: call.address,
      group: call.group,
      methodIndex: call.methodIndex,
      args: call.args,
      ...(call.signerAddress !== undefined ? { callerAddress: call.signerAddress } : {}),
      ...(approving
        ? {
            inputAssets: offered.map((o) => ({
              address: o.address,
              asset: { attoAlphAmount: o.attoAlphAmount, tokens: o.tokens },
            })),
          }
        : {}),
    },
    { priority: 'user', ...(deps.signal ? { signal: deps.signal } : {}) },
  );
  const base = {
    contract: call.contract,
    method: call.fn.name,
    methodIndex: call.methodIndex,
    scriptSource: call.scriptSource,
  };
  const failed = (error: string): SimulationView => ({
    ...base,
    ok: false,
    error,
    returns: [],
    events: [],
    debugMessages: [],
    balanceChanges: [],
  });
  if (result.type === 'CallContractFailed') return failed(result.error);
  if (result.type !== 'CallContractSucceeded')
    return failed(`the gateway answered with an unknown result type '${result.rawType}'`);
  // The dry run ran the code at the address: it must be the artifact's, whether or not the view has
  // checked the code hash yet (this costs no request; drift found later would be too late to sign on).
  const ran = result.contracts.find((c) => c.address === call.address);
  if (ran && call.codeHashes.length > 0 && !call.codeHashes.includes(ran.codeHash.toLowerCase())) {
    return failed(
      `the code at ${call.address} (code hash ${ran.codeHash}) is not ${call.contract}'s (${call.codeHashes.join(' or ')}): the method index from the artifact could run another method, so nothing is built`,
    );
  }
  const names = returnNames(call.fn);
  const returns: NamedValue[] = result.returns.map((r, i) => ({
    name: names[i] ?? `result${i}`,
    type: r.type,
    value: Array.isArray(r.value) ? JSON.stringify(r.value) : String(r.value),
  }));
  // What the signer offered against what the run gave back to asset addresses (contract outputs hold a
  // contract's whole balance, so they say nothing about a change and are left to the built tx's check).
  const returned = result.txOutputs
    .filter((o) => o.type !== 'ContractOutput' && o.address === call.signerAddress)
    .map((o) => ({ address: o.address, attoAlphAmount: o.attoAlphAmount, tokens: o.tokens }));
  return {
    ...base,
    ok: true,
    returns,
    gasUsed: result.gasUsed,
    events: eventViews(result.events, deps.artifactOf, deps.registry),
    debugMessages: result.debugMessages.map((d) => ({
      contractAddress: d.contractAddress,
      message: d.message,
    })),
    balanceChanges: approving ? balanceChanges(offered, returned) : [],
  };
}
