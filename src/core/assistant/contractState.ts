/**
 * The contract-state tool: a contract's fields (named with the artifact that describes it), its balance
 * and its getters, read now. One fresh state read, then the zero-argument getters through multicalls,
 * all at the user's priority under the `assistant` purpose, through the extension's one client.
 */
import {
  type ContractArtifact,
  type DecodedField,
  decodeFields,
  decodeState,
  formatValue,
  getterIndexes,
  type ResolvedContract,
  type StructsLike,
} from '../artifacts';
import { callContracts, type ContractState, type GatewayClient, type RequestOptions } from '../gateway';
import { groupOfAddress } from '../protocol/address';
import { attoToAlph } from '../protocol/units';
import { errorMessage } from '../util/errors';
import { answer, chainValue } from './answerText';

/** How every tool's request is sent: the person asked (through the chat), and the ledger says so. */
export const ASSISTANT_REQUESTS: RequestOptions = { priority: 'user', purpose: 'assistant' };

export interface ContractStateDeps {
  readonly client: GatewayClient;
  /** The artifact and drift of the address for its on-chain code hash: the extension's one artifact rule. */
  resolve(address: string, codeHash: string): Promise<ResolvedContract>;
  readonly structs?: StructsLike;
}

export interface GetterValue {
  readonly name: string;
  readonly type: string;
  readonly value?: string;
  readonly error?: string;
}

export interface ContractStateReading {
  readonly address: string;
  /** The name the person knows it by (watched entry, deployment or artifact), when there is one. */
  readonly label?: string;
  readonly state: ContractState;
  readonly resolved: ResolvedContract;
  readonly getters: readonly GetterValue[];
}

/** An artifact may name the methods only while the code on chain is the artifact's (no drift). */
function callableArtifact(resolved: ResolvedContract): ContractArtifact | undefined {
  return resolved.drift.status === 'drift' ? undefined : resolved.artifact;
}

export async function readContractState(
  deps: ContractStateDeps,
  address: string,
  label?: string,
  signal?: AbortSignal,
): Promise<ContractStateReading> {
  const options: RequestOptions = { ...ASSISTANT_REQUESTS, ...(signal ? { signal } : {}) };
  const state = await deps.client.getContractState(address, { ...options, fresh: true });
  const resolved = await deps.resolve(address, state.codeHash);
  const artifact = callableArtifact(resolved);
  const indexes = getterIndexes(artifact);
  const group = groupOfAddress(address);
  const outcomes =
    indexes.length === 0
      ? []
      : await callContracts(
          deps.client,
          indexes.map((methodIndex) => ({ address, group, methodIndex, args: [] })),
          options,
        );
  const getters = outcomes.map((o, k): GetterValue => {
    const fn = artifact!.functions[indexes[k]!]!;
    const type = fn.returnTypes[0]!;
    if (!o.ok) return { name: fn.name, type, error: errorMessage(o.error) };
    const decoded = decodeFields(['value'], [type], o.result.returns, deps.structs);
    const value = decoded.ok
      ? formatValue(decoded.fields[0]!.value)
      : decoded.raw.map((f) => formatValue(f.value)).join(', ');
    return { name: fn.name, type, value };
  });
  return { address, ...(label ? { label } : {}), state, resolved, getters };
}

function fieldLine(field: DecodedField, mutable: boolean | undefined): string {
  const kind = mutable === undefined ? '' : mutable ? ' (mutable)' : ' (immutable)';
  return `- ${chainValue(field.name, 100)}: ${chainValue(field.type, 100)}${kind} = ${chainValue(formatValue(field.value))}`;
}

function fieldLines(reading: ContractStateReading, structs: StructsLike): string[] {
  const { state, resolved } = reading;
  const artifact = resolved.artifact;
  if (!artifact) {
    const raw = decodeState({ names: [], types: [], isMutable: [] }, state.immFields, state.mutFields);
    const fields = raw.ok ? raw.fields : raw.raw;
    return [
      'No artifact in the workspace describes this contract: fields are raw, in order (imm… immutable, mut… mutable).',
      ...fields.map((f) => fieldLine(f, undefined)),
    ];
  }
  const decoded = decodeState(artifact.fieldsSig, state.immFields, state.mutFields, structs);
  if (!decoded.ok)
    return [
      `The state does not fit the artifact ${chainValue(artifact.name, 100)}: ${chainValue(decoded.error)}. Raw fields:`,
      ...decoded.raw.map((f) => fieldLine(f, undefined)),
    ];
  const mutable = new Map(
    artifact.fieldsSig.names.map((n, i) => [n, artifact.fieldsSig.isMutable[i] === true]),
  );
  const lines = decoded.fields.map((f) => fieldLine(f, mutable.get(f.name)));
  // Said in words too: a model reading a marked value must not take it for a value of the declared type.
  if (decoded.problems)
    lines.push(`Not what their type says (shown raw, marked ⚠): ${chainValue(decoded.problems.join('; '))}.`);
  return lines;
}

function artifactLine(resolved: ResolvedContract): string {
  if (!resolved.artifact) return 'Artifact: none in the workspace matches this contract.';
  const name = chainValue(resolved.artifact.name, 100);
  if (resolved.drift.status === 'drift')
    return `Artifact: ${name}, but the code on chain differs (${chainValue(resolved.drift.message)}); names may be wrong and getters were not called.`;
  if (resolved.drift.status !== 'match') return `Artifact: ${name}.`;
  // A devnet deploys the debug build (.project.json records its hash), as the Alephium CLI does.
  return resolved.drift.debugBuild
    ? `Artifact: ${name} (the code hash of its debug build matches the chain).`
    : `Artifact: ${name} (its code hash matches the chain).`;
}

/** The answer: what the contract is, its fields by name, its balance and tokens, its getters. */
export function contractStateText(reading: ContractStateReading, structs?: StructsLike): string {
  const { state, address } = reading;
  const title = reading.label ? `${chainValue(reading.label, 100)} at ${address}` : address;
  const lines = [
    `Contract ${title} (group ${groupOfAddress(address)}), read from the gateway just now.`,
    `Code hash: ${chainValue(state.codeHash, 80)}.`,
    artifactLine(reading.resolved),
    'Fields:',
    ...fieldLines(reading, structs),
    `Balance: ${attoToAlph(String(state.asset.attoAlphAmount))} ALPH (${chainValue(state.asset.attoAlphAmount, 80)} attoALPH).`,
    ...(state.asset.tokens ?? []).map((t) => `Token ${chainValue(t.id, 80)}: ${chainValue(t.amount, 80)}.`),
  ];
  if (reading.getters.length > 0) {
    lines.push('Getters (methods without parameters, called just now):');
    for (const g of reading.getters)
      lines.push(
        g.error !== undefined
          ? `- ${chainValue(g.name, 100)}(): not answered (${chainValue(g.error, 300)})`
          : `- ${chainValue(g.name, 100)}(): ${chainValue(g.type, 100)} = ${chainValue(g.value)}`,
      );
  }
  return answer(lines);
}
