/**
 * Simulate, execute and deploy: from what the user chose (a watched contract's public method with typed
 * arguments and approved assets, or a contract artifact with initial fields) to a script, a dry run, a
 * built transaction that is verified before signing, and the submitted transaction.
 *
 * What you sign is what you called: the script is built here, from the artifact and the arguments, and
 * the transaction the gateway builds must carry exactly those bytes (for a deploy, exactly the script the
 * node compiles around exactly this bytecode and these fields). Plain Node; the glue only prompts, shows
 * the confirmation and tracks.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import {
  buildContractBytecode,
  buildDeployScript,
  buildMethodCallScript,
  singleCallMismatch,
  buildScriptBytecode,
  describeScriptDifference,
  encodeContractFields,
  parseDeployScript,
} from '../bytecode';
import {
  ArgumentError,
  STD_ID_FIELD,
  decodeEvent,
  encodeArgs,
  formatValue,
  parseType,
  standardInterfaceField,
  type ArtifactRegistry,
  type ContractArtifact,
  type DriftCheck,
  type FunctionSig,
  type ScriptArtifact,
} from '../artifacts';
import type {
  BuildDeployContractRequest,
  BuildExecuteScriptRequest,
  CallTxScriptRequest,
  ContractCall,
  RequestOptions,
  SubmitRequest,
  SubmitResult,
} from '../gateway/client';
import type {
  AddressAssetState,
  BuiltDeployContract,
  BuiltExecuteScript,
  CallContractResult,
  CallContractSucceeded,
  CallTxScriptResult,
  Val,
} from '../gateway/schemas';
import {
  DUST_ATTO,
  ONE_ALPH,
  addressFromContractId,
  attoToAlph,
  Reader,
  blake2b256,
  bytesToHex,
  hexToBytes,
  contractIdFromAddress,
  contractIdFromTx,
  decodeUnsignedTx,
  equalBytes,
  formatAlph,
  groupOfAddress,
  isHash32,
  lockupScriptFromAddress,
} from '../protocol';
import type {
  BalanceChangeView,
  DeployRequest,
  EventView,
  MethodCallRequest,
  NamedValue,
  SimulationView,
} from './actionViews';
import { scriptFeeWarning } from '../signing/gasBounds';
import { findMethod } from './call';
import { parseAlphAmount } from '../transfers/transferInput';
import type {
  TransferVerificationError,
  VerifiedTransfer,
  VerifyOptions,
  verifyScriptTx,
} from '../signing/verify';

/**
 * The verifier is handed in by the caller instead of imported: the extension loads this module lazily as
 * its own bundle, and only the verifier instance of the signer's bundle issues transactions the signer
 * accepts (its record of verified transactions is per module instance).
 */
export interface ScriptVerifier {
  readonly verifyScriptTx: typeof verifyScriptTx;
  readonly TransferVerificationError: typeof TransferVerificationError;
}

/** The smallest deposit a new contract may hold (0.1 ALPH since Rhone); the node's default too. */
export const MINIMAL_CONTRACT_DEPOSIT = ONE_ALPH / 10n;

/** The part of the gateway client these workflows need (structural, so tests can fake it). */
export interface ScriptClient {
  callContract(call: ContractCall, options?: RequestOptions): Promise<CallContractResult>;
  callTxScript(request: CallTxScriptRequest, options?: RequestOptions): Promise<CallTxScriptResult>;
  buildExecuteScript(
    request: BuildExecuteScriptRequest,
    options?: RequestOptions,
  ): Promise<BuiltExecuteScript>;
  buildDeployContract(
    request: BuildDeployContractRequest,
    options?: RequestOptions,
  ): Promise<BuiltDeployContract>;
  submitTransaction(request: SubmitRequest, options?: RequestOptions): Promise<SubmitResult>;
}

export interface ApprovedToken {
  readonly id: string;
  readonly amount: bigint;
}

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

const MAX_TOKENS = 16;

function tokenAmounts(tokens: MethodCallRequest['tokens'], field: string): ApprovedToken[] {
  if (tokens === undefined) return [];
  if (!Array.isArray(tokens)) throw new ArgumentError(`${field} must be a list of {id, amount}`, field);
  if (tokens.length > MAX_TOKENS) throw new ArgumentError(`${field}: at most ${MAX_TOKENS} tokens`, field);
  const seen = new Set<string>();
  return tokens.map((t, i) => {
    const id = String(t?.id ?? '')
      .trim()
      .toLowerCase();
    if (!isHash32(id)) {
      throw new ArgumentError(`${field}[${i}].id must be a 32-byte token id in hex`, `${field}[${i}].id`);
    }
    if (seen.has(id))
      throw new ArgumentError(`${field}[${i}]: token ${id} is listed twice`, `${field}[${i}].id`);
    seen.add(id);
    const text = String(t?.amount ?? '')
      .trim()
      .replace(/_/g, '');
    if (!/^\d+$/.test(text) || BigInt(text) === 0n) {
      throw new ArgumentError(
        `${field}[${i}].amount must be a positive integer in the token's smallest unit, got '${text.slice(0, 40)}'`,
        `${field}[${i}].amount`,
      );
    }
    return { id, amount: BigInt(text) };
  });
}

function alphAmount(text: string | undefined, field: string): bigint {
  if (text === undefined || text.trim() === '') return 0n;
  try {
    return parseAlphAmount(text);
  } catch (e) {
    throw new ArgumentError(`${field}: ${(e as Error).message}`, field);
  }
}

function gasOf(gasAmount: unknown): number | undefined {
  if (gasAmount === undefined || gasAmount === null || gasAmount === '') return undefined;
  const n = typeof gasAmount === 'string' ? Number(gasAmount) : gasAmount;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 5_000_000) {
    throw new ArgumentError(
      `gasAmount must be an integer from 1 to 5000000, got ${String(gasAmount)}`,
      'gasAmount',
    );
  }
  return n;
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

/** Bool prompts give 'true'/'false' text; JSON types are parsed; everything else stays text. */
function fieldValue(type: string, input: string, registry?: ArtifactRegistry): unknown {
  const node = parseType(type, registry?.structs);
  const text = input.trim();
  if (node.kind === 'array' || node.kind === 'tuple' || node.kind === 'struct') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ArgumentError(`'${text.slice(0, 60)}' is not JSON (${type} takes a JSON value)`, type);
    }
  }
  if (type === 'Bool') {
    if (text === 'true') return true;
    if (text === 'false') return false;
  }
  return text;
}

export function blake2b256Hex(hex: string): string {
  return bytesToHex(blake2b256(hexToBytes(hex)));
}

/**
 * Whether a contract's method is public, read from its bytecode: artifacts do not record it. A contract's
 * bytecode is its field count, its method count, each method's end offset, then the methods, each starting
 * with its isPublic byte. Unreadable bytecode counts as public and leaves the verdict to the node.
 */
export function methodIsPublic(bytecode: string, methodIndex: number): boolean {
  try {
    const r = new Reader(hexToBytes(bytecode));
    r.i32('fieldLength');
    const count = r.i32('methodCount');
    if (methodIndex < 0 || methodIndex >= count) return false;
    const ends: number[] = [];
    for (let i = 0; i < count; i++) ends.push(r.i32('methodIndex'));
    const start = r.offset + (methodIndex === 0 ? 0 : (ends[methodIndex - 1] as number));
    return r.data[start] === 1;
  } catch {
    return true;
  }
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
  const approvedAttoAlph = alphAmount(request.alph, 'alph');
  const approvedTokens = tokenAmounts(request.tokens, 'tokens');
  const approving = approvedAttoAlph > 0n || approvedTokens.length > 0;
  if (approvedTokens.length > 0 && approvedAttoAlph === 0n) {
    // The node's execute-script moves approved tokens through an output that must carry dust ALPH.
    throw new ArgumentError('approving tokens also needs some ALPH (at least 0.001 for the dust)', 'alph');
  }
  if (approving && approvedAttoAlph < DUST_ATTO) {
    throw new ArgumentError(
      `alph: ${formatAlph(approvedAttoAlph)} is below the dust minimum of 0.001 ALPH`,
      'alph',
    );
  }
  if (approving && ctx.signerAddress === undefined) {
    throw new ArgumentError('approving assets needs a signer key: run "Alephium: Import Signer Key"', 'alph');
  }
  const contractGroup = groupOfAddress(request.address);
  if (ctx.signerAddress !== undefined && groupOfAddress(ctx.signerAddress) !== contractGroup) {
    // A transaction's script runs in its inputs' group and can only reach contracts of that group.
    throw new ArgumentError(
      `${artifact.name} at ${request.address} is in group ${contractGroup}, but the signer ${ctx.signerAddress} is in group ${groupOfAddress(ctx.signerAddress)}: a script can only call contracts of its sender's group`,
      'address',
    );
  }
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
    group: contractGroup,
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

function tokenMap(tokens: readonly { id: string; amount: string }[] | undefined): Map<string, bigint> {
  const m = new Map<string, bigint>();
  for (const t of tokens ?? [])
    m.set(t.id.toLowerCase(), (m.get(t.id.toLowerCase()) ?? 0n) + BigInt(t.amount));
  return m;
}

/** Per address, after minus before: ALPH and each token. Unchanged addresses are left out. */
export function balanceChanges(
  before: readonly AddressAssetState[],
  after: readonly AddressAssetState[],
  tokenName?: (id: string) => string | undefined,
): BalanceChangeView[] {
  const addresses = [...new Set([...before, ...after].map((s) => s.address))];
  const sum = (list: readonly AddressAssetState[], address: string) => {
    let alph = 0n;
    const tokens = new Map<string, bigint>();
    for (const s of list.filter((x) => x.address === address)) {
      alph += BigInt(s.attoAlphAmount);
      for (const [id, v] of tokenMap(s.tokens)) tokens.set(id, (tokens.get(id) ?? 0n) + v);
    }
    return { alph, tokens };
  };
  const out: BalanceChangeView[] = [];
  for (const address of addresses) {
    const b = sum(before, address);
    const a = sum(after, address);
    const ids = [...new Set([...b.tokens.keys(), ...a.tokens.keys()])].sort();
    const tokens = ids
      .map((id) => ({ id, delta: (a.tokens.get(id) ?? 0n) - (b.tokens.get(id) ?? 0n) }))
      .filter((t) => t.delta !== 0n)
      .map((t) => {
        const name = tokenName?.(t.id);
        return { id: t.id, ...(name ? { name } : {}), amount: t.delta < 0n ? `${t.delta}` : `+${t.delta}` };
      });
    if (a.alph === b.alph && tokens.length === 0) continue;
    out.push({ address, alph: signedAlph(a.alph - b.alph), tokens });
  }
  return out;
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

// ---- executing --------------------------------------------------------------------------------------

export interface BuiltScriptTx {
  readonly verified: VerifiedTransfer;
  /** Exact balance changes from the build's own simulation (contract inputs vs generated outputs). */
  readonly balanceChanges: readonly BalanceChangeView[];
  /** Lines of the confirmation, built from the verified bytes. */
  readonly lines: readonly string[];
}

/** Builds the execute-script transaction for a prepared call and verifies it. Throws TransferVerificationError. */
/** The confirmation's warning, in words, when a verified script's fee is far above the usual (gasBounds.ts). */
function feeWarningLines(verified: VerifiedTransfer): string[] {
  const script = verified.script;
  if (!script) return [];
  const warning = scriptFeeWarning(script.kind, script.bytecode.length / 2, verified.gasAmount, verified.fee);
  return warning ? [warning] : [];
}

export async function buildAndVerifyExecute(
  client: Pick<ScriptClient, 'buildExecuteScript'>,
  call: PreparedMethodCall,
  fromPublicKey: string,
  simulatedGas: number | undefined,
  verify: VerifyOptions,
  verifier: ScriptVerifier,
  signal?: AbortSignal,
): Promise<BuiltScriptTx> {
  const built = await client.buildExecuteScript(
    {
      fromPublicKey,
      bytecode: call.script,
      ...(call.approvedAttoAlph > 0n ? { attoAlphAmount: call.approvedAttoAlph.toString() } : {}),
      ...(call.approvedTokens.length > 0
        ? { tokens: call.approvedTokens.map((t) => ({ id: t.id, amount: t.amount.toString() })) }
        : {}),
      ...(call.gasAmount !== undefined ? { gasAmount: call.gasAmount } : {}),
    },
    { priority: 'user', ...(signal ? { signal } : {}) },
  );
  const verified = verifier.verifyScriptTx(
    {
      kind: 'execute',
      fromPublicKey,
      expectedScript: call.script,
      approvedAttoAlph: call.approvedAttoAlph,
      approvedTokens: call.approvedTokens,
      ...(call.gasAmount !== undefined ? { gasAmount: call.gasAmount } : {}),
      ...(simulatedGas !== undefined ? { simulatedGas } : {}),
      describeScriptDifference,
    },
    built,
    verify,
  );
  const changes = built.simulationResult
    ? balanceChanges(built.simulationResult.contractInputs, built.simulationResult.generatedOutputs)
    : [];
  const lines = [
    `Run ${call.contract}.${call.fn.name} (method ${call.methodIndex}) on ${call.address}`,
    `Arguments: ${call.args.length ? call.args.map((a) => `${a.type} ${JSON.stringify(a.value)}`).join(', ') : 'none'}`,
    `Script: ${call.scriptSource}, ${call.script.length / 2} bytes, byte-equal to the one built locally ✓`,
    `Approves: ${approvalText(call.approvedAttoAlph, call.approvedTokens)}`,
    `Outputs: only change back to you (${verified.change.length}) ✓; inputs: only yours (${decodeUnsignedTx(verified.unsignedTx).inputs.length}) ✓`,
    `Gas: ${verified.gasAmount} × ${verified.gasPrice} atto; fee ${formatAlph(verified.fee)}`,
    ...feeWarningLines(verified),
    ...(changes.length ? ['Balance changes (node simulation):', ...changes.map(changeText)] : []),
    `txId (recomputed locally): ${verified.txId}`,
  ];
  return { verified, balanceChanges: changes, lines };
}

export function approvalText(alph: bigint, tokens: readonly ApprovedToken[]): string {
  if (alph === 0n && tokens.length === 0) return 'nothing';
  return [
    ...(alph > 0n ? [`${attoToAlph(alph)} ALPH`] : []),
    ...tokens.map((t) => `${t.amount} of token ${t.id.slice(0, 12)}…`),
  ].join(', ');
}

export function changeText(c: BalanceChangeView): string {
  const tokens = c.tokens.map((t) => `${t.amount} ${t.name ?? `${t.id.slice(0, 12)}…`}`).join(', ');
  return `  ${c.address}: ${c.alph} ALPH${tokens ? `, ${tokens}` : ''}`;
}

// ---- deploying ------------------------------------------------------------------------------------------

export interface PreparedDeploy {
  readonly contract: string;
  readonly artifact: ContractArtifact;
  /** Contract code followed by its encoded fields: the `bytecode` of the deploy request. */
  readonly bytecode: string;
  readonly encodedImmFields: string;
  readonly encodedMutFields: string;
  readonly initialAttoAlph: bigint;
  readonly initialTokens: readonly ApprovedToken[];
  readonly issueTokenAmount?: bigint;
  readonly issueTokenTo?: string;
  readonly gasAmount?: number;
  /** The script the node must compile for this deployment, hex. */
  readonly expectedScript: string;
  readonly fields: readonly { name: string; type: string; value: string; mutable: boolean }[];
  readonly signerAddress: string;
  /** What the CLI's deployments file records as `codeHash` (see cliDeploymentCodeHash). */
  readonly cliCodeHash: string;
}

/**
 * The `codeHash` @alephium/cli writes for a deployed contract: SHA-256 of the deploy bytecode's hex text
 * (code ‖ immutable fields ‖ mutable fields), as crypto-js hashes a string. The CLI compares it to decide
 * whether a contract must be deployed again, so any other hash makes it redeploy over our entry.
 */
export function cliDeploymentCodeHash(deployBytecodeHex: string): string {
  return bytesToHex(sha256(new TextEncoder().encode(deployBytecodeHex.toLowerCase())));
}

/** Default field values an artifact can give: none in the artifact format, so only what the user types. */
export function prepareDeploy(
  request: DeployRequest,
  artifact: ContractArtifact,
  signerAddress: string,
  registry?: ArtifactRegistry,
): PreparedDeploy {
  const given = request.fields ?? {};
  for (const name of Object.keys(given)) {
    if (!artifact.fieldsSig.names.includes(name)) {
      throw new ArgumentError(
        `${artifact.name} has no field '${name}'; its fields are ${artifact.fieldsSig.names.join(', ') || 'none'}`,
        `fields.${name}`,
      );
    }
  }
  const fields: Record<string, unknown> = {};
  const shown: { name: string; type: string; value: string; mutable: boolean }[] = [];
  const stdId = standardInterfaceField(artifact);
  if (stdId !== undefined && given[STD_ID_FIELD] !== undefined) {
    const typed = given[STD_ID_FIELD].trim().toLowerCase();
    if (typed !== stdId) {
      throw new ArgumentError(
        `field ${STD_ID_FIELD} is set from the artifact's stdInterfaceId (${stdId}), not '${typed.slice(0, 40)}'`,
        `fields.${STD_ID_FIELD}`,
      );
    }
  }
  artifact.fieldsSig.names.forEach((name, i) => {
    const type = artifact.fieldsSig.types[i] as string;
    // As @alephium/web3 and the CLI do: the standard's id is the artifact's, never typed by hand.
    const text = name === STD_ID_FIELD && stdId !== undefined ? stdId : given[name];
    if (text === undefined) {
      throw new ArgumentError(`field '${name}' (${type}) needs a value`, `fields.${name}`);
    }
    try {
      fields[name] = fieldValue(type, text, registry);
      // The same validation a call's arguments get, so the message names the field and the type.
      encodeArgs([type], [fields[name]], {
        paramNames: [name],
        ...(registry ? { structs: registry.structs } : {}),
      });
    } catch (e) {
      if (e instanceof ArgumentError) throw new ArgumentError(`field ${e.message}`, `fields.${name}`);
      throw e;
    }
    shown.push({ name, type, value: text.trim(), mutable: artifact.fieldsSig.isMutable[i] === true });
  });
  const structs = registry?.structs;
  const { encodedImmFields, encodedMutFields } = encodeContractFields(fields, artifact.fieldsSig, structs);
  const bytecode = buildContractBytecode(
    artifact.bytecode,
    fields,
    artifact.fieldsSig,
    structs,
  ).toLowerCase();
  const initialAttoAlph =
    request.alph === undefined || request.alph.trim() === ''
      ? MINIMAL_CONTRACT_DEPOSIT
      : alphAmount(request.alph, 'alph');
  if (initialAttoAlph < MINIMAL_CONTRACT_DEPOSIT) {
    throw new ArgumentError(
      `alph: a contract must hold at least ${attoToAlph(MINIMAL_CONTRACT_DEPOSIT)} ALPH, got ${attoToAlph(initialAttoAlph)}`,
      'alph',
    );
  }
  const initialTokens = tokenAmounts(request.tokens, 'tokens');
  let issueTokenAmount: bigint | undefined;
  if (request.issueTokenAmount !== undefined && request.issueTokenAmount.trim() !== '') {
    const t = request.issueTokenAmount.trim().replace(/_/g, '');
    if (!/^\d+$/.test(t) || BigInt(t) === 0n) {
      throw new ArgumentError(
        'issueTokenAmount must be a positive integer (smallest unit)',
        'issueTokenAmount',
      );
    }
    issueTokenAmount = BigInt(t);
  }
  const issueTokenTo = request.issueTokenTo?.trim() || undefined;
  if (issueTokenTo !== undefined) {
    if (issueTokenAmount === undefined)
      throw new ArgumentError('issueTokenTo needs issueTokenAmount', 'issueTokenTo');
    try {
      lockupScriptFromAddress(issueTokenTo);
    } catch (e) {
      throw new ArgumentError(`issueTokenTo: ${(e as Error).message}`, 'issueTokenTo');
    }
  }
  const expectedScript = buildDeployScript({
    sender: signerAddress,
    bytecode: artifact.bytecode,
    encodedImmFields,
    encodedMutFields,
    initialAttoAlphAmount: initialAttoAlph,
    initialTokens,
    ...(issueTokenAmount !== undefined ? { issueTokenAmount } : {}),
    ...(issueTokenTo !== undefined ? { issueTokenTo } : {}),
  }).toLowerCase();
  const gasAmount = gasOf(request.gasAmount);
  return {
    contract: artifact.name,
    artifact,
    bytecode,
    encodedImmFields,
    encodedMutFields,
    initialAttoAlph,
    initialTokens,
    ...(issueTokenAmount !== undefined ? { issueTokenAmount } : {}),
    ...(issueTokenTo !== undefined ? { issueTokenTo } : {}),
    ...(gasAmount !== undefined ? { gasAmount } : {}),
    expectedScript,
    fields: shown,
    signerAddress,
    cliCodeHash: cliDeploymentCodeHash(bytecode),
  };
}

/** Says what a deploy script differs in: code, fields, deposit, tokens, issuance. */
export function describeDeployDifference(expected: string, actual: string): string | undefined {
  if (expected === actual) return undefined;
  let a: ReturnType<typeof parseDeployScript>;
  let e: ReturnType<typeof parseDeployScript>;
  try {
    e = parseDeployScript(expected);
    a = parseDeployScript(actual);
  } catch (err) {
    return `it is not a deploy script (${(err as Error).message})`;
  }
  const diffs: string[] = [];
  if (a.code !== e.code)
    diffs.push(
      `it creates different code (code hash ${blake2b256Hex(a.code)}, expected ${blake2b256Hex(e.code)})`,
    );
  if (a.encodedImmFields !== e.encodedImmFields)
    diffs.push(`its immutable fields are ${a.encodedImmFields}, expected ${e.encodedImmFields}`);
  if (a.encodedMutFields !== e.encodedMutFields)
    diffs.push(`its mutable fields are ${a.encodedMutFields}, expected ${e.encodedMutFields}`);
  if (a.initialAttoAlphAmount !== e.initialAttoAlphAmount) {
    diffs.push(
      `it deposits ${attoToAlph(a.initialAttoAlphAmount)} ALPH, expected ${attoToAlph(e.initialAttoAlphAmount)}`,
    );
  }
  if (a.sender !== e.sender) diffs.push(`it takes the deposit from ${a.sender}, not from you (${e.sender})`);
  if (
    JSON.stringify(a.initialTokens.map(String)) !== JSON.stringify(e.initialTokens.map(String)) ||
    JSON.stringify(a.initialTokens, bigintJson) !== JSON.stringify(e.initialTokens, bigintJson)
  ) {
    diffs.push('it deposits other tokens than you chose');
  }
  if (a.issueTokenAmount !== e.issueTokenAmount || a.issueTokenTo !== e.issueTokenTo) {
    diffs.push(
      `it issues ${String(a.issueTokenAmount ?? 0n)} tokens to ${a.issueTokenTo ?? 'the contract'}, expected ${String(e.issueTokenAmount ?? 0n)} to ${e.issueTokenTo ?? 'the contract'}`,
    );
  }
  return diffs.join('; ') || 'its bytes differ';
}

function bigintJson(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

export interface BuiltDeploy extends BuiltScriptTx {
  readonly contractAddress: string;
  readonly contractId: string;
}

/**
 * Builds the deploy transaction and verifies it: the script is exactly the one the node compiles for
 * this code, these fields and this deposit, inputs are the signer's, outputs are only change, and the
 * contract address the gateway announces is the one the bytes create.
 */
export async function buildAndVerifyDeploy(
  client: Pick<ScriptClient, 'buildDeployContract'>,
  deploy: PreparedDeploy,
  fromPublicKey: string,
  verify: VerifyOptions,
  verifier: ScriptVerifier,
  signal?: AbortSignal,
): Promise<BuiltDeploy> {
  const built = await client.buildDeployContract(
    {
      fromPublicKey,
      bytecode: deploy.bytecode,
      initialAttoAlphAmount: deploy.initialAttoAlph.toString(),
      ...(deploy.initialTokens.length > 0
        ? {
            initialTokenAmounts: deploy.initialTokens.map((t) => ({ id: t.id, amount: t.amount.toString() })),
          }
        : {}),
      ...(deploy.issueTokenAmount !== undefined
        ? { issueTokenAmount: deploy.issueTokenAmount.toString() }
        : {}),
      ...(deploy.issueTokenTo !== undefined ? { issueTokenTo: deploy.issueTokenTo } : {}),
      ...(deploy.gasAmount !== undefined ? { gasAmount: deploy.gasAmount } : {}),
    },
    { priority: 'user', ...(signal ? { signal } : {}) },
  );
  const verified = verifier.verifyScriptTx(
    {
      kind: 'deploy',
      fromPublicKey,
      expectedScript: deploy.expectedScript,
      approvedAttoAlph: deploy.initialAttoAlph,
      approvedTokens: deploy.initialTokens,
      ...(deploy.gasAmount !== undefined ? { gasAmount: deploy.gasAmount } : {}),
      describeScriptDifference: describeDeployDifference,
    },
    built,
    verify,
  );
  const decoded = decodeUnsignedTx(verified.unsignedTx);
  // The node derives the new contract's id from the txId and the index of the first generated output.
  const contractId = contractIdFromTx(verified.txId, decoded.fixedOutputs.length, verified.fromGroup);
  const contractAddress = addressFromContractId(contractId);
  if (built.contractAddress !== contractAddress) {
    throw new verifier.TransferVerificationError([
      {
        check: 'outputs',
        message: `the gateway announces the new contract at ${built.contractAddress}, but these bytes create ${contractAddress}`,
      },
    ]);
  }
  const lines = [
    `Deploy ${deploy.contract} (code hash ${blake2b256Hex(deploy.artifact.bytecode)})`,
    ...deploy.fields.map((f) => `  ${f.mutable ? 'mut ' : ''}${f.name}: ${f.type} = ${f.value}`),
    `Script: creates exactly this code with exactly these encoded fields ✓ (imm ${deploy.encodedImmFields || '—'}, mut ${deploy.encodedMutFields || '—'})`,
    `Deposit: ${approvalText(deploy.initialAttoAlph, deploy.initialTokens)}`,
    ...(deploy.issueTokenAmount !== undefined
      ? [`Issues ${deploy.issueTokenAmount} of its own token to ${deploy.issueTokenTo ?? 'the contract'}`]
      : []),
    `New contract: ${contractAddress} (group ${verified.fromGroup})`,
    `Outputs: only change back to you (${verified.change.length}) ✓; inputs: only yours (${decoded.inputs.length}) ✓`,
    `Gas: ${verified.gasAmount} × ${verified.gasPrice} atto; fee ${formatAlph(verified.fee)}`,
    ...feeWarningLines(verified),
    `txId (recomputed locally): ${verified.txId}`,
  ];
  return { verified, balanceChanges: [], lines, contractAddress, contractId };
}

// ---- the deployments file ------------------------------------------------------------------------------

export interface DeploymentRecord {
  readonly name: string;
  readonly deployerAddress: string;
  readonly txId: string;
  readonly unsignedTx: string;
  readonly signature: string;
  readonly gasPrice: string;
  readonly gasAmount: number;
  readonly blockHash?: string;
  /** What @alephium/cli writes: SHA-256 of the deploy bytecode's hex text (cliDeploymentCodeHash). */
  readonly codeHash: string;
  readonly contractAddress: string;
  readonly contractId: string;
  readonly groupIndex: number;
  readonly attoAlphAmount?: string;
  /** Initial tokens, `{tokenId: amount}` as the CLI records them. */
  readonly tokens?: Readonly<Record<string, string>>;
  readonly issueTokenAmount?: string;
}

interface DeploymentEntry {
  deployerAddress: string;
  contracts: Record<string, unknown>;
  scripts: Record<string, unknown>;
  migrations: Record<string, unknown>;
  [k: string]: unknown;
}

/** `Counter`, or `Counter:2`, `Counter:3`… when the name is taken by another instance (the CLI's tag form). */
function freeName(contracts: Record<string, unknown>, name: string, address: string): string {
  const sameAddress = (key: string) =>
    (contracts[key] as { contractInstance?: { address?: string } } | undefined)?.contractInstance?.address ===
    address;
  if (!(name in contracts) || sameAddress(name)) return name;
  for (let n = 2; ; n++) {
    const key = `${name}:${n}`;
    if (!(key in contracts) || sameAddress(key)) return key;
  }
}

/**
 * The deployments file with one more contract, in the format `@alephium/cli` writes
 * (`deployments/.deployments.<network>.json`): one object per deployer (an array when there are
 * several), contracts keyed by name. Other entries and unknown keys are kept as they were.
 * Returns the new text and the name used.
 */
export function addDeployment(
  existingText: string | undefined,
  record: DeploymentRecord,
): { text: string; name: string } {
  let parsed: unknown = undefined;
  if (existingText !== undefined && existingText.trim() !== '') {
    try {
      parsed = JSON.parse(existingText) as unknown;
    } catch (e) {
      throw new Error(`the deployments file is not JSON (${(e as Error).message}); it was left as it is`);
    }
  }
  const list: DeploymentEntry[] =
    parsed === undefined
      ? []
      : Array.isArray(parsed)
        ? (parsed as DeploymentEntry[])
        : [parsed as DeploymentEntry];
  if (list.some((d) => typeof d !== 'object' || d === null || typeof d.deployerAddress !== 'string')) {
    throw new Error(
      'the deployments file does not have the shape @alephium/cli writes; it was left as it is',
    );
  }
  let entry = list.find((d) => d.deployerAddress === record.deployerAddress);
  if (!entry) {
    entry = { deployerAddress: record.deployerAddress, contracts: {}, scripts: {}, migrations: {} };
    list.push(entry);
  }
  entry.contracts ??= {};
  entry.scripts ??= {};
  entry.migrations ??= {};
  const name = freeName(entry.contracts, record.name, record.contractAddress);
  entry.contracts[name] = {
    txId: record.txId,
    unsignedTx: record.unsignedTx,
    signature: record.signature,
    gasPrice: record.gasPrice,
    gasAmount: record.gasAmount,
    ...(record.blockHash ? { blockHash: record.blockHash } : {}),
    codeHash: record.codeHash,
    ...(record.attoAlphAmount !== undefined ? { attoAlphAmount: record.attoAlphAmount } : {}),
    ...(record.tokens !== undefined ? { tokens: record.tokens } : {}),
    ...(record.issueTokenAmount !== undefined ? { issueTokenAmount: record.issueTokenAmount } : {}),
    contractInstance: {
      address: record.contractAddress,
      contractId: record.contractId,
      groupIndex: record.groupIndex,
    },
  };
  const out = list.length === 1 && !Array.isArray(parsed) ? list[0] : list;
  return { text: `${JSON.stringify(out, null, 2)}\n`, name };
}

/** Same lockup script (an address can be spelled one way only, but compare bytes to be sure). */
export function sameAddress(a: string, b: string): boolean {
  try {
    return equalBytes(lockupScriptFromAddress(a), lockupScriptFromAddress(b));
  } catch {
    return false;
  }
}
