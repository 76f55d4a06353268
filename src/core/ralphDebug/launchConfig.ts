/**
 * A `ralph` launch configuration (what `launch.json` or a DAP client sends) as a {@link MethodLaunch}: the
 * artifact and source read through `readText`, the arguments and fields typed by the artifact. Every
 * problem is a clear error before anything runs.
 */
import { encodeArgs, parseContractArtifact, type ContractArtifact } from '../artifacts';
import { scanRalph } from '../ralph/scanner';
import type { NodeVal } from '../vm';
import type { MethodLaunch } from './session';

export interface LaunchFiles {
  readText(path: string): Promise<string>;
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

export async function methodLaunchOf(
  args: Record<string, unknown>,
  files: LaunchFiles,
): Promise<MethodLaunch> {
  const artifactPath = text(args, 'artifact', true);
  const artifact: ContractArtifact = parseContractArtifact(
    JSON.parse(await files.readText(artifactPath)),
    artifactPath,
  );
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
  const launch: MethodLaunch = {
    artifact,
    method,
    args: callArgs,
    immFields: valuesOf(false),
    mutFields: valuesOf(true),
    caller,
    ...(sourcePath
      ? { source: { path: sourcePath, scan: scanRalph(await files.readText(sourcePath)) } }
      : {}),
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
