/**
 * The sandbox's contracts: their artifacts (read from project/artifacts, the same files the extension
 * decodes with) and TypeScript implementations of their methods. The sandbox does not run bytecode; what
 * matters to the extension is that state, returns and events have exactly the shapes and types the
 * artifacts declare, so decoding against the artifact is exercised for real.
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

/** What a method sees while it runs; effects are collected and applied by the caller (or discarded). */
export interface ExecContext {
  address: string;
  caller: string;
  /** Flattened field values by name, mutable ones writable. */
  fields: Record<string, Val>;
  emit(eventName: string, fields: Val[]): void;
  debug(message: string): void;
  /** Moves `amount` of the contract's own token (id = contract id) to the caller, with dust ALPH. */
  transferSelfTokenToCaller(amount: bigint): void;
  fail(errorCode: number): never;
}

export type MethodImpl = (ctx: ExecContext, args: Val[]) => Val[];

export interface ContractDef {
  name: string;
  artifact: Artifact;
  artifactPath: string;
  methods: Record<string, { impl: MethodImpl; gas: number }>;
  /** Initial field values by name, given the deployer's address. */
  initialFields(deployer: string): Record<string, Val>;
  initialAlph: bigint;
  /** Initial amount of the contract's own token it holds (a token id equals the contract id). */
  initialSelfTokens: bigint;
  /**
   * Deployed code the sandbox has no implementation for (a deploy of unknown bytecode): its state is
   * stored and readable, but calls answer 400 instead of pretending to run it.
   */
  notExecutable?: boolean;
  /** The debug build `.project.json` records (release code plus its patch), when there is one. */
  debugBuild?: DebugBuild;
  /**
   * This definition runs the debug code ({@link debugVariant}): its `emit Debug` statements emit. The
   * release code has no Debug instructions, so a release deploy emits none, as on a real devnet.
   */
  runsDebugCode?: boolean;
}

const u256 = (v: bigint | number): Val => ({ type: 'U256', value: String(v) });
const addr = (a: string): Val => ({ type: 'Address', value: a });
const bytes = (s: string): Val => ({ type: 'ByteVec', value: Buffer.from(s, 'utf8').toString('hex') });
const bool = (b: boolean): Val => ({ type: 'Bool', value: b });
const big = (v: Val | undefined): bigint => BigInt(String(v?.value ?? '0'));

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
    methods: {
      get: { gas: 2_301, impl: (ctx) => [ctx.fields.count as Val] },
      // The assert on `paused` costs each increment 11 gas more than it did without it.
      increment: {
        gas: 5_754,
        impl: (ctx) => {
          failWhenPaused(ctx);
          const next = big(ctx.fields.count) + 1n;
          ctx.fields.count = u256(next);
          ctx.debug(`count is now ${next}`);
          ctx.emit('Incremented', [addr(ctx.caller), u256(next)]);
          return [];
        },
      },
      incrementBy: {
        gas: 5_923,
        impl: (ctx, args) => {
          failWhenPaused(ctx);
          const step = big(args[0]);
          if (step > 100n) ctx.fail(1);
          const next = big(ctx.fields.count) + step;
          ctx.fields.count = u256(next);
          ctx.emit('Incremented', [addr(ctx.caller), u256(next)]);
          return [];
        },
      },
      reset: {
        gas: 5_120,
        impl: (ctx) => {
          if (ctx.caller !== ctx.fields.owner?.value) ctx.fail(0);
          ctx.emit('Reset', [addr(ctx.caller), ctx.fields.count as Val]);
          ctx.fields.count = u256(0);
          return [];
        },
      },
      pause: { gas: 5_030, impl: (ctx) => setPaused(ctx, true) },
      unpause: { gas: 5_030, impl: (ctx) => setPaused(ctx, false) },
    },
  };
}

/** Counter's `assert!(!paused, ErrorCodes.Paused)`. */
function failWhenPaused(ctx: ExecContext): void {
  if (ctx.fields.paused?.value === true) ctx.fail(COUNTER_PAUSED_ERROR);
}

/** Counter's owner-only pause and unpause. */
function setPaused(ctx: ExecContext, paused: boolean): Val[] {
  if (ctx.caller !== ctx.fields.owner?.value) ctx.fail(0);
  ctx.fields.paused = bool(paused);
  return [];
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
    methods: {
      getSymbol: { gas: 2_280, impl: (ctx) => [ctx.fields.symbol as Val] },
      getName: { gas: 2_280, impl: (ctx) => [ctx.fields.name as Val] },
      getDecimals: { gas: 2_280, impl: (ctx) => [ctx.fields.decimals as Val] },
      getTotalSupply: { gas: 2_280, impl: (ctx) => [ctx.fields.supply as Val] },
      balance: { gas: 2_301, impl: (ctx) => [ctx.fields.balance as Val] },
      withdraw: {
        gas: 17_645,
        impl: (ctx, args) => {
          ctx.debug(`The current balance is ${big(ctx.fields.balance)}`);
          const amount = big(args[0]);
          if (amount > 2n) ctx.fail(0);
          ctx.transferSelfTokenToCaller(amount);
          ctx.fields.balance = u256(big(ctx.fields.balance) - amount);
          ctx.emit('Withdraw', [addr(ctx.caller), u256(amount)]);
          return [];
        },
      },
    },
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
