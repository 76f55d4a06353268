/**
 * Deploying a contract artifact: the deploy request from the artifact and the typed initial fields, the
 * script the node must compile for it, and the built transaction verified against that script.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import {
  buildContractBytecode,
  buildDeployScript,
  encodeContractFields,
  parseDeployScript,
} from '../../bytecode';
import {
  ArgumentError,
  STD_ID_FIELD,
  encodeArgs,
  standardInterfaceField,
  type ArtifactRegistry,
  type ContractArtifact,
} from '../../artifacts';
import {
  addressFromContractId,
  attoToAlph,
  bytesToHex,
  contractIdFromTx,
  decodeUnsignedTx,
  formatAlph,
  lockupScriptFromAddress,
} from '../../protocol';
import type { DeployRequest } from '../actionViews';
import type { VerifyOptions } from '../../signing/verify';
import type { TokenMetadata } from '../../signing/confirmation';
import { depositAtto, depositProblem } from '../inputRules';
import {
  approvalText,
  blake2b256Hex,
  feeWarningLines,
  fieldValue,
  gasOf,
  tokenAmounts,
  type ApprovedToken,
  type BuiltScriptTx,
  type ScriptClient,
  type ScriptVerifier,
} from './shared';

// ---- deploying ------------------------------------------------------------------------------------------

export interface PreparedDeploy {
  readonly contract: string;
  readonly artifact: ContractArtifact;
  /** The contract code deployed (no fields): the release code, or on a devnet the debug build. */
  readonly code: string;
  /** Which build `code` is: a devnet gets the debug build when the artifact has one, as the CLI does. */
  readonly codeBuild: 'release' | 'debug';
  /** Said in the log when a devnet gets the release code: its `emit Debug` messages will not be emitted. */
  readonly codeNote?: string;
  /** Contract code followed by its encoded fields: the `bytecode` of the deploy request. */
  readonly bytecode: string;
  readonly encodedImmFields: string;
  readonly encodedMutFields: string;
  readonly initialAttoAlph: bigint;
  /**
   * Whether the deposit was asked for (`alph`) rather than the minimal deposit taken by default. The CLI
   * records `attoAlphAmount` only when its deploy script gives `initialAttoAlphAmount`, and redeploys when
   * the two differ, so the deployments entry carries it only then.
   */
  readonly depositAsked: boolean;
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

/** As `@alephium/web3`'s `isDevnet`: every network id but mainnet's (0) and testnet's (1). */
export function isDevnetId(networkId: number): boolean {
  return networkId !== 0 && networkId !== 1;
}

/**
 * The code a deploy sends, as the CLI and the SDK choose it (`buildByteCodeToDeploy(fields, isDevnet)`):
 * on a devnet the debug build (`ArtifactRegistry.debugBuildOf`, the patched code checked against
 * `codeHashDebug`), so `emit Debug` works and the deployments `codeHash` is the CLI's; never on network
 * id 0 or 1, where the node refuses debug instructions; the release code without a known network id.
 */
export function deployCode(
  artifact: ContractArtifact,
  registry: Pick<ArtifactRegistry, 'debugBuildOf'> | undefined,
  networkId: number | undefined,
): { code: string; build: 'release' | 'debug'; note?: string } {
  if (networkId === undefined || !isDevnetId(networkId)) return { code: artifact.bytecode, build: 'release' };
  const debug = registry?.debugBuildOf(artifact);
  if (debug !== undefined) return { code: debug.bytecode, build: 'debug' };
  return {
    code: artifact.bytecode,
    build: 'release',
    note: `${artifact.name} has no debug build (no bytecodeDebugPatch in .project.json that gives its codeHashDebug): the release code is deployed on this devnet, so its emit Debug messages will not be emitted, and the CLI would record another codeHash.`,
  };
}

/**
 * Default field values an artifact can give: none in the artifact format, so only what the user types.
 * `network.networkId`: the node's network id (from the network pin); a devnet deploys the debug build.
 */
export function prepareDeploy(
  request: DeployRequest,
  artifact: ContractArtifact,
  signerAddress: string,
  registry?: ArtifactRegistry,
  network?: { readonly networkId?: number | undefined },
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
  const chosen = deployCode(artifact, registry, network?.networkId);
  const bytecode = buildContractBytecode(chosen.code, fields, artifact.fieldsSig, structs).toLowerCase();
  // The rule the deposit prompt checks as it is typed (inputRules.ts), with the same words. Empty takes the
  // minimal deposit and records none, as a CLI deploy script without initialAttoAlphAmount does.
  const depositAsked = request.alph !== undefined && request.alph.trim() !== '';
  const depositRefusal = depositProblem(request.alph ?? '');
  if (depositRefusal !== undefined) throw new ArgumentError(`alph: ${depositRefusal}`, 'alph');
  const initialAttoAlph = depositAtto(request.alph);
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
    bytecode: chosen.code,
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
    code: chosen.code.toLowerCase(),
    codeBuild: chosen.build,
    ...(chosen.note !== undefined ? { codeNote: chosen.note } : {}),
    bytecode,
    encodedImmFields,
    encodedMutFields,
    initialAttoAlph,
    depositAsked,
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
  /** Names of the deposited tokens (the connection's TokenCatalog), resolved before the build. */
  tokenNames?: TokenMetadata,
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
    `Deploy ${deploy.contract} (code hash ${blake2b256Hex(deploy.code)}${deploy.codeBuild === 'debug' ? ', the debug build, as the CLI deploys on a devnet' : ''})`,
    ...deploy.fields.map((f) => `  ${f.mutable ? 'mut ' : ''}${f.name}: ${f.type} = ${f.value}`),
    `Script: creates exactly this code with exactly these encoded fields ✓ (imm ${deploy.encodedImmFields || '—'}, mut ${deploy.encodedMutFields || '—'})`,
    `Deposit: ${approvalText(deploy.initialAttoAlph, deploy.initialTokens, tokenNames)}`,
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
