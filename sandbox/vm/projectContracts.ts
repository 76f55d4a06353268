/**
 * The sandbox project's contracts as the sandbox deploys them at genesis: their artifacts (read from
 * project/artifacts, the same files the extension decodes with), their debug builds, initial fields and
 * assets. Their methods are the artifacts' bytecode, run on the project's VM like any other contract's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { blake2b } from '@noble/hashes/blake2.js';
import { buildDebugBytecode } from '@alephium/web3';

export type ValType = 'U256' | 'I256' | 'Bool' | 'ByteVec' | 'Address';
export interface Val {
  type: ValType;
  value: string | boolean;
}

export interface Artifact {
  version: string;
  name: string;
  bytecode: string;
  codeHash: string;
  fieldsSig: { names: string[]; types: string[]; isMutable: boolean[] };
  eventsSig: { name: string; fieldNames: string[]; fieldTypes: string[] }[];
  functions: {
    name: string;
    paramNames: string[];
    paramTypes: string[];
    paramIsMutable: boolean[];
    returnTypes: string[];
  }[];
  constants: { name: string; value: Val }[];
  enums: { name: string; fields: { name: string; value: Val }[] }[];
  stdInterfaceId?: string;
}

export const ARTIFACTS_DIR = join(import.meta.dirname, '..', 'project', 'artifacts');

export function loadArtifact(name: string): { artifact: Artifact; path: string } {
  const path = join(ARTIFACTS_DIR, `${name}.ral.json`);
  return { artifact: JSON.parse(readFileSync(path, 'utf8')) as Artifact, path };
}

/** A contract's debug code, as @alephium/cli builds it from `.project.json` (the SDK's buildDebugBytecode). */
export interface DebugBuild {
  bytecode: string;
  codeHash: string;
}

/** The debug build `.project.json` records for a contract; undefined when it has none. */
export function loadDebugBuild(artifact: Artifact): DebugBuild | undefined {
  const project = JSON.parse(readFileSync(join(ARTIFACTS_DIR, '.project.json'), 'utf8')) as {
    infos: Record<string, { bytecodeDebugPatch?: string; codeHashDebug?: string } | undefined>;
  };
  const info = project.infos[artifact.name];
  if (!info?.bytecodeDebugPatch || !info.codeHashDebug) return undefined;
  const bytecode = buildDebugBytecode(artifact.bytecode, info.bytecodeDebugPatch);
  const codeHash = Buffer.from(blake2b(Buffer.from(bytecode, 'hex'), { dkLen: 32 })).toString('hex');
  if (codeHash !== info.codeHashDebug)
    throw new Error(`.project.json: the debug build of ${artifact.name} does not hash to its codeHashDebug`);
  return { bytecode, codeHash };
}

/**
 * The definition that runs the debug code of `def` (what @alephium/cli deploys on a devnet): the same
 * methods, the debug code and its hash in the artifact the state reports, and Debug messages emitted.
 * A definition without a debug build is returned as it is.
 */
export function debugVariant(def: ContractDef): ContractDef {
  if (!def.debugBuild || def.runsDebugCode) return def;
  return { ...def, artifact: { ...def.artifact, ...def.debugBuild }, runsDebugCode: true };
}

/** A contract's field values split as the node stores them: immutable ones, then mutable ones, each in order. */
export function fieldsByMutability(
  sig: Artifact['fieldsSig'],
  fields: Readonly<Record<string, Val>>,
): { imm: Val[]; mut: Val[] } {
  const imm: Val[] = [];
  const mut: Val[] = [];
  sig.names.forEach((n, i) => (sig.isMutable[i] ? mut : imm).push(fields[n] as Val));
  return { imm, mut };
}

/** A VM failure, reported as the node does: a CallContractFailed error string. */
export class VmError extends Error {}

export interface ContractDef {
  name: string;
  artifact: Artifact;
  artifactPath: string;
  /** Initial field values by name, given the deployer's address. */
  initialFields(deployer: string): Record<string, Val>;
  initialAlph: bigint;
  /** Initial amount of the contract's own token it holds (a token id equals the contract id). */
  initialSelfTokens: bigint;
  /** The debug build `.project.json` records (release code plus its patch), when there is one. */
  debugBuild?: DebugBuild;
  /**
   * This definition holds the debug code ({@link debugVariant}): its `emit Debug` statements emit when
   * the VM runs it. The release code has no Debug instructions, so a release deploy emits none, as on a
   * real devnet.
   */
  runsDebugCode?: boolean;
}

const u256 = (v: bigint | number): Val => ({ type: 'U256', value: String(v) });
const addr = (a: string): Val => ({ type: 'Address', value: a });
const bytes = (s: string): Val => ({ type: 'ByteVec', value: Buffer.from(s, 'utf8').toString('hex') });
const bool = (b: boolean): Val => ({ type: 'Bool', value: b });

export function counterDef(): ContractDef {
  const { artifact, path } = loadArtifact('Counter');
  return {
    name: 'Counter',
    artifact,
    artifactPath: path,
    debugBuild: loadDebugBuild(artifact),
    initialAlph: 10n ** 17n,
    initialSelfTokens: 0n,
    initialFields: (deployer) => ({ owner: addr(deployer), count: u256(0), paused: bool(false) }),
  };
}

/** Counter's `ErrorCodes.Paused`. */
export const COUNTER_PAUSED_ERROR = 2;

export const FAUCET_SUPPLY = 10n ** 27n;

export function tokenFaucetDef(): ContractDef {
  const { artifact, path } = loadArtifact('TokenFaucet');
  return {
    name: 'TokenFaucet',
    artifact,
    artifactPath: path,
    debugBuild: loadDebugBuild(artifact),
    initialAlph: 10n * 10n ** 18n,
    initialSelfTokens: FAUCET_SUPPLY,
    initialFields: () => ({
      symbol: bytes('SBX'),
      name: bytes('Sandbox Token'),
      decimals: u256(18),
      supply: u256(FAUCET_SUPPLY),
      balance: u256(FAUCET_SUPPLY),
      // Std interface id with its "ALPH" prefix, as the compiler stores it in the hidden field.
      __stdInterfaceId: { type: 'ByteVec', value: '414c50480001' },
    }),
  };
}

/** Checks a Val's shape against an artifact type; returns an error text or undefined. */
export function checkVal(v: unknown, type: string): string | undefined {
  if (typeof v !== 'object' || v === null) return `expected a ${type} value object`;
  const { type: t, value } = v as { type?: unknown; value?: unknown };
  if (t !== type) return `expected type ${type}, got ${String(t)}`;
  switch (type) {
    case 'U256':
      return typeof value === 'string' && /^\d+$/.test(value)
        ? undefined
        : 'U256 value must be a decimal string';
    case 'I256':
      return typeof value === 'string' && /^-?\d+$/.test(value)
        ? undefined
        : 'I256 value must be a decimal string';
    case 'Bool':
      return typeof value === 'boolean' ? undefined : 'Bool value must be a boolean';
    case 'ByteVec':
      return typeof value === 'string' && /^([0-9a-fA-F]{2})*$/.test(value)
        ? undefined
        : 'ByteVec must be hex';
    case 'Address':
      return typeof value === 'string' && value.length > 0 ? undefined : 'Address must be a base58 string';
    default:
      return `unsupported type ${type}`;
  }
}
