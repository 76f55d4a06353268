/**
 * A `ralph` launch configuration (what `launch.json` or a DAP client sends) as a {@link MethodLaunch}: the
 * artifact and source read through `readText`, the arguments and fields typed by the artifact. Every
 * problem is a clear error before anything runs.
 */
import { encodeArgs, parseContractArtifact, type ContractArtifact } from '../artifacts';
import { scanRalph } from '../ralph/scanner';
import { valFromNode, type NodeVal } from '../vm';
import { isValidAddress } from '../protocol';
import type { LaunchState } from './deployedLaunch';
import type { DebugLaunch, LaunchSource, MethodLaunch, ReplayLaunch } from './target';

export type { LaunchState } from './deployedLaunch';

export interface LaunchFiles {
  readText(path: string): Promise<string>;
}

/** The artifact a launch names, read and checked (the error names the file). */
async function readArtifact(files: LaunchFiles, path: string): Promise<ContractArtifact> {
  return parseContractArtifact(JSON.parse(await files.readText(path)), path);
}

/** The `.ral` source a launch names, scanned for the source map. */
async function readSource(files: LaunchFiles, path: string): Promise<LaunchSource> {
  return { path, scan: scanRalph(await files.readText(path)) };
}

/**
 * Values typed by the artifact with the extension's one encoder of user input (`encodeArgs`: ranges, hex,
 * addresses, structs flattened), each error naming the argument or field. An array has a Val the VM does
 * not take as an argument here: refused with its name.
 */
function typedValues(
  types: readonly string[],
  inputs: readonly unknown[],
  names: readonly string[],
): NodeVal[] {
  const vals = encodeArgs(types, inputs, { paramNames: names });
  if (vals.some((v) => v.type === 'Array'))
    throw new Error(`${names.join(', ')}: the Ralph debugger does not take array values yet`);
  return vals;
}

/** The default a field takes when the configuration leaves it out (an Address defaults to the caller). */
function defaultOf(type: string, caller: string): unknown {
  return type === 'Bool' ? false : type === 'ByteVec' ? '' : type === 'Address' ? caller : '0';
}

function text(args: Record<string, unknown>, key: string, required: true): string;
function text(args: Record<string, unknown>, key: string, required?: false): string | undefined;
function text(args: Record<string, unknown>, key: string, required = false): string | undefined {
  const v = args[key];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string' || v.length === 0)
    throw new Error(`The launch configuration needs "${key}" (a string)`);
  return v;
}

const HEX = /^([0-9a-fA-F]{2})*$/;
const AMOUNT = /^\d{1,78}$/;

/** Each value must be one the VM takes (`valFromNode`): the error names the list and the position. */
function stateValues(list: unknown, name: string): NodeVal[] {
  if (!Array.isArray(list))
    throw new Error(`The launch configuration's state.${name} must be a list of values`);
  return list.map((v: unknown, i) => {
    const val = (typeof v === 'object' && v !== null ? v : {}) as NodeVal;
    try {
      valFromNode(val);
    } catch (error) {
      throw new Error(`state.${name}[${i}]: ${(error as Error).message}`, { cause: error });
    }
    return { type: val.type, value: val.value };
  });
}

/** The `state` of a launch configuration, checked before anything runs. */
export function launchStateOf(value: unknown): LaunchState {
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const asset = (typeof v.asset === 'object' && v.asset !== null ? v.asset : {}) as Record<string, unknown>;
  if (typeof v.bytecode !== 'string' || v.bytecode.length === 0 || !HEX.test(v.bytecode))
    throw new Error("The launch configuration's state.bytecode must be the contract's code in hex");
  if (typeof asset.attoAlphAmount !== 'string' || !AMOUNT.test(asset.attoAlphAmount))
    throw new Error("The launch configuration's state.asset.attoAlphAmount must be atto ALPH, in digits");
  const tokens = asset.tokens === undefined ? [] : asset.tokens;
  if (
    !Array.isArray(tokens) ||
    !tokens.every(
      (t: unknown) =>
        typeof t === 'object' &&
        t !== null &&
        typeof (t as { id?: unknown }).id === 'string' &&
        /^[0-9a-fA-F]{64}$/.test((t as { id: string }).id) &&
        typeof (t as { amount?: unknown }).amount === 'string' &&
        AMOUNT.test((t as { amount: string }).amount),
    )
  )
    throw new Error("The launch configuration's state.asset.tokens must be { id (64 hex), amount } items");
  return {
    bytecode: v.bytecode,
    immFields: stateValues(v.immFields, 'immFields'),
    mutFields: stateValues(v.mutFields, 'mutFields'),
    asset: {
      attoAlphAmount: asset.attoAlphAmount,
      ...(tokens.length > 0 ? { tokens: tokens as Array<{ id: string; amount: string }> } : {}),
    },
  };
}

export async function methodLaunchOf(
  args: Record<string, unknown>,
  files: LaunchFiles,
): Promise<MethodLaunch> {
  const artifactPath = text(args, 'artifact', true);
  const artifact = await readArtifact(files, artifactPath);
  const method = text(args, 'method', true);
  const fn = artifact.functions.find((f) => f.name === method);
  if (!fn) throw new Error(`${artifact.name} has no method ${method}`);
  const caller = text(args, 'caller', true);
  const given = Array.isArray(args.args) ? args.args : [];
  if (given.length !== fn.paramTypes.length)
    throw new Error(
      `${artifact.name}.${method} takes ${fn.paramTypes.length} argument(s), ${given.length} given`,
    );
  const callArgs = typedValues(fn.paramTypes, given, fn.paramNames);
  const fields = (typeof args.fields === 'object' && args.fields !== null ? args.fields : {}) as Record<
    string,
    unknown
  >;
  const sig = artifact.fieldsSig;
  const valuesOf = (mutable: boolean) => {
    const at = sig.names.flatMap((_, i) => ((sig.isMutable[i] ?? false) === mutable ? [i] : []));
    const names = at.map((i) => sig.names[i] as string);
    const types = at.map((i) => sig.types[i] as string);
    return typedValues(
      types,
      names.map((n, k) => fields[n] ?? defaultOf(types[k] as string, caller)),
      names,
    );
  };
  const sourcePath = text(args, 'source');
  const state = args.state === undefined ? undefined : launchStateOf(args.state);
  const launch: MethodLaunch = {
    artifact,
    method,
    args: callArgs,
    immFields: state ? state.immFields : valuesOf(false),
    mutFields: state ? state.mutFields : valuesOf(true),
    ...(state
      ? {
          bytecode: state.bytecode,
          attoAlphAmount: state.asset.attoAlphAmount,
          ...(state.asset.tokens ? { tokens: state.asset.tokens } : {}),
        }
      : {}),
    caller,
    ...(sourcePath ? { source: await readSource(files, sourcePath) } : {}),
  };
  const optional = (key: 'bytecode' | 'attoAlphAmount' | 'callerAttoAlph' | 'address') => {
    const v = text(args, key);
    return v === undefined ? {} : { [key]: v };
  };
  return {
    ...launch,
    ...optional('bytecode'),
    ...optional('attoAlphAmount'),
    ...optional('callerAttoAlph'),
    ...optional('address'),
  };
}

const HASH = /^[0-9a-fA-F]{64}$/;

function whole(v: unknown, name: string, min = 0): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min)
    throw new Error(`The launch configuration's replay.${name} must be a whole number`);
  return v;
}

function replayText(
  v: Record<string, unknown>,
  name: string,
  test: (s: string) => boolean,
  what: string,
): string {
  const value = v[name];
  if (typeof value !== 'string' || !test(value))
    throw new Error(`The launch configuration's replay.${name} must be ${what}`);
  return value;
}

/**
 * A `replay` launch: a mined transaction's script and what it ran with (its signer, id, gas, block time),
 * and the contracts of its world as they were before its block, each with the artifact and source that
 * name it where the workspace has them. Checked before anything runs.
 */
async function replayLaunchOf(value: unknown, files: LaunchFiles): Promise<ReplayLaunch> {
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const list = Array.isArray(v.contracts) ? (v.contracts as unknown[]) : undefined;
  if (!list || list.length > 64)
    throw new Error("The launch configuration's replay.contracts must be a list of at most 64 contracts");
  const contracts = await Promise.all(
    list.map(async (c: unknown, i) => {
      const o = (typeof c === 'object' && c !== null ? c : {}) as Record<string, unknown>;
      if (typeof o.address !== 'string' || !isValidAddress(o.address))
        throw new Error(`replay.contracts[${i}].address must be a contract address`);
      const state = launchStateOf(o.state);
      const artifactPath = typeof o.artifact === 'string' && o.artifact ? o.artifact : undefined;
      const sourcePath = typeof o.source === 'string' && o.source ? o.source : undefined;
      const artifact = artifactPath ? await readArtifact(files, artifactPath) : undefined;
      const source = artifact && sourcePath ? await readSource(files, sourcePath) : undefined;
      return {
        address: o.address,
        state,
        ...(artifact ? { artifact } : {}),
        ...(source ? { source } : {}),
      };
    }),
  );
  return {
    kind: 'replay',
    txId: replayText(v, 'txId', (t) => HASH.test(t), 'a transaction id (64 hex)'),
    script: replayText(v, 'script', (t) => t.length > 0 && HEX.test(t), "the transaction's script in hex"),
    caller: replayText(v, 'caller', isValidAddress, "the signer's address"),
    callerAttoAlph: replayText(v, 'callerAttoAlph', (t) => AMOUNT.test(t), 'atto ALPH, in digits'),
    networkId: whole(v.networkId, 'networkId'),
    blockTimeStamp: whole(v.blockTimeStamp, 'blockTimeStamp'),
    gasAmount: whole(v.gasAmount, 'gasAmount', 1),
    gasPrice: replayText(v, 'gasPrice', (t) => AMOUNT.test(t), 'atto ALPH, in digits'),
    fixedOutputs: whole(v.fixedOutputs, 'fixedOutputs'),
    contracts,
  };
}

/** A launch configuration's run: a mined transaction's replay (`replay`), else a method's launch. */
export async function debugLaunchOf(args: Record<string, unknown>, files: LaunchFiles): Promise<DebugLaunch> {
  return args.replay === undefined ? methodLaunchOf(args, files) : replayLaunchOf(args.replay, files);
}
