/**
 * What a transaction's script called, and how to run it again: its calls decoded locally (named from the
 * workspace's artifacts), its signer, the block whose world state is the one just before its block
 * (`stateBeforeBlock`), and the call-tx-script request that runs the script again there as its signer
 * with the ALPH it offered (`reproductionRequest`). The node keeps no reason for a failed script, so that reproduction
 * is the only way to get one: transactionExplanation.ts sends it and failureExplanation.ts puts its VM error
 * at its Ralph line.
 *
 * Pure: the glue fetches (each request said before it is sent) and passes the answers in.
 */
import type { ContractArtifact } from '../artifacts';
import { decodeScriptCalls, showValue, type ScriptApproval, type ScriptValue } from '../bytecode/callScript';
import { addressFromContractId, addressFromPublicKey, publicKeyOfUnlockScript } from '../protocol';
import { attoToAlph } from '../protocol/units';

/** One external call of a transaction's script, with the names the workspace knows. */
export interface ExplainedCall {
  /** The called contract's address, when the script names it as a constant. */
  readonly address?: string;
  /** The artifact that describes that contract. */
  readonly contract?: string;
  readonly methodIndex: number;
  readonly method?: string;
  readonly args: readonly { readonly name?: string; readonly type?: string; readonly text: string }[];
  /** What the call may spend: "1.5 ALPH from <caller>", "10 of token <id>". */
  readonly approvals: readonly string[];
}

/** What the glue can say about an address: its artifact, when the workspace describes it. */
export type ArtifactOf = (address: string) => ContractArtifact | undefined;

function addressOfContractId(v: ScriptValue): string | undefined {
  if (v.kind !== 'ByteVec' || !/^[0-9a-f]{64}$/.test(v.value)) return undefined;
  try {
    return addressFromContractId(v.value);
  } catch {
    return undefined;
  }
}

function approvalText(a: ScriptApproval): string {
  const from = a.from.kind === 'Address' ? ` from ${a.from.value}` : '';
  if (a.tokenId === undefined) {
    const alph =
      a.amount.kind === 'U256' ? `${attoToAlph(a.amount.value)} ALPH` : `ALPH ${showValue(a.amount)}`;
    return `${alph}${from}`;
  }
  return `${showValue(a.amount)} of token ${showValue(a.tokenId)}${from}`;
}

/**
 * The calls of a script, in order, named where an artifact describes the called contract. Argument names
 * and types come from the method's signature when the script pushed exactly one value per parameter
 * (arrays and structs are flattened on the stack, so then only the values are listed).
 */
export function explainScriptCalls(scriptHex: string, artifactOf: ArtifactOf): ExplainedCall[] {
  const calls: ExplainedCall[] = [];
  for (const method of decodeScriptCalls(scriptHex)) {
    for (const call of method.calls) {
      const address = addressOfContractId(call.contractId);
      const artifact = address ? artifactOf(address) : undefined;
      const signature = artifact?.functions[call.methodIndex];
      const named = signature && signature.paramNames.length === call.args.length;
      calls.push({
        ...(address ? { address } : {}),
        ...(artifact ? { contract: artifact.name } : {}),
        methodIndex: call.methodIndex,
        ...(signature ? { method: signature.name } : {}),
        args: call.args.map((v, i) => ({
          ...(named ? { name: signature.paramNames[i], type: signature.paramTypes[i] } : {}),
          text: showValue(v),
        })),
        approvals: call.approvals.map(approvalText),
      });
    }
  }
  return calls;
}

/** One line per call: `Counter.incrementBy(step: U256 = 5) at 22fn…, approving 1 ALPH from 1Ab…`. */
export function callLine(call: ExplainedCall): string {
  const target = `${call.contract ?? 'a contract'}.${call.method ?? `method #${call.methodIndex}`}`;
  const args = call.args.map((a) => (a.name ? `${a.name}: ${a.type} = ${a.text}` : a.text)).join(', ');
  const where = call.address ? ` at ${call.address}` : ' (contract computed at run time)';
  const approvals = call.approvals.length > 0 ? `, approving ${call.approvals.join(' and ')}` : '';
  return `${target}(${args})${where}${approvals}`;
}

/**
 * The block whose world state is the state just before block `header` on its chain: its parent on the
 * same chain, which is the intra-group dependency `deps[G - 1 + chainFrom]` for G groups (the node's
 * BlockDeps layout: the other groups' hashes first, then one per chain of the block's group).
 */
export function stateBeforeBlock(header: {
  readonly deps: readonly string[];
  readonly chainFrom: number;
}): string | undefined {
  // 2G - 1 hashes for G groups: G - 1 of the other groups, then G of this group's chains.
  const groups = (header.deps.length + 1) / 2;
  if (!Number.isInteger(groups) || header.chainFrom < 0 || header.chainFrom >= groups) return undefined;
  const parent = header.deps[groups - 1 + header.chainFrom];
  return parent !== undefined && /^[0-9a-f]{64}$/.test(parent) ? parent : undefined;
}

/** The signer of a transaction: the address of its first input's public key, when it has one. */
export function callerOf(inputs: readonly { readonly unlockScript: string }[]): string | undefined {
  const first = inputs[0];
  if (first === undefined) return undefined;
  try {
    const key = publicKeyOfUnlockScript(first.unlockScript);
    return key ? addressFromPublicKey(key) : undefined;
  } catch {
    return undefined;
  }
}

/** What the reproduction sends: the node's call-tx-script, at the state before the block. */
export interface ReproductionRequest {
  readonly group: number;
  readonly bytecode: string;
  readonly callerAddress?: string;
  readonly worldStateBlockHash: string;
  readonly txId: string;
  readonly interestedContracts: readonly string[];
  readonly inputAssets?: readonly {
    readonly address: string;
    readonly asset: { readonly attoAlphAmount: string };
  }[];
}

/**
 * The request that runs a transaction's script again against the state just before its block, as its
 * signer, with the transaction's id (so `txId!()`-dependent code sees the same value), the ALPH its
 * constant approvals name plus its gas fee (so asset checks see what the signer offered), and the
 * contracts its calls name (so their state after the run is returned).
 */
export function reproductionRequest(tx: {
  readonly txId: string;
  readonly group: number;
  readonly scriptHex: string;
  readonly inputs: readonly { readonly unlockScript: string }[];
  readonly gasAmount: number;
  readonly gasPrice: string;
  readonly stateBlockHash: string;
  readonly calls: readonly ExplainedCall[];
  readonly approvedAtto: bigint;
}): ReproductionRequest {
  const caller = callerOf(tx.inputs);
  const fee = BigInt(tx.gasAmount) * BigInt(tx.gasPrice);
  const contracts = [...new Set(tx.calls.flatMap((c) => (c.address ? [c.address] : [])))];
  return {
    group: tx.group,
    bytecode: tx.scriptHex,
    ...(caller ? { callerAddress: caller } : {}),
    worldStateBlockHash: tx.stateBlockHash,
    txId: tx.txId,
    interestedContracts: contracts,
    ...(caller
      ? { inputAssets: [{ address: caller, asset: { attoAlphAmount: (tx.approvedAtto + fee).toString() } }] }
      : {}),
  };
}

/** The ALPH the script's constant approvals name (what the signer offered the calls). */
export function approvedAtto(scriptHex: string): bigint {
  let total = 0n;
  for (const method of decodeScriptCalls(scriptHex))
    for (const call of method.calls)
      for (const a of call.approvals)
        if (a.tokenId === undefined && a.amount.kind === 'U256') total += a.amount.value;
  return total;
}
