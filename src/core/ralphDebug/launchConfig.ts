/**
 * A `ralph` launch configuration (what `launch.json` or a DAP client sends) as a {@link MethodLaunch}: the
 * artifact and source read through `readText`, the arguments and fields typed by the artifact. Every
 * problem is a clear error before anything runs.
 */
import { parseContractArtifact, type ContractArtifact } from '../artifacts';
import { scanRalph } from '../ralph/scanner';
import type { NodeVal } from '../vm';
import type { MethodLaunch } from './session';

export interface LaunchFiles {
  readText(path: string): Promise<string>;
}

const SCALARS = new Set(['U256', 'I256', 'Bool', 'ByteVec', 'Address']);

/** A value of `type` from what a launch configuration holds (a string, number, boolean or `{type, value}`). */
export function typedValue(raw: unknown, type: string, what: string): NodeVal {
  if (!SCALARS.has(type))
    throw new Error(`${what}: the Ralph debugger takes values of scalar types, not ${type}`);
  const given = typeof raw === 'object' && raw !== null && 'value' in raw ? raw.value : raw;
  switch (type) {
    case 'Bool':
      if (given === true || given === 'true') return { type, value: true };
      if (given === false || given === 'false') return { type, value: false };
      throw new Error(`${what}: a Bool is true or false`);
    case 'U256':
    case 'I256': {
      const text = typeof given === 'number' ? String(given) : given;
      const pattern = type === 'U256' ? /^\d{1,78}$/ : /^-?\d{1,77}$/;
      if (typeof text !== 'string' || !pattern.test(text))
        throw new Error(`${what}: a ${type} is a whole number`);
      const n = BigInt(text);
      const limit = 1n << 256n;
      if (type === 'U256' ? n >= limit : n >= limit / 2n || n < -(limit / 2n))
        throw new Error(`${what}: out of the range of a ${type}`);
      return { type, value: text };
    }
    case 'ByteVec':
      if (typeof given !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(given))
        throw new Error(`${what}: a ByteVec is hex`);
      return { type, value: given.toLowerCase() };
    default:
      if (typeof given !== 'string' || given.length === 0)
        throw new Error(`${what}: an Address is a base58 string`);
      return { type, value: given };
  }
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
  const callArgs = fn.paramTypes.map((t, i) => typedValue(given[i], t, `argument ${fn.paramNames[i] ?? i}`));
  const fields = (typeof args.fields === 'object' && args.fields !== null ? args.fields : {}) as Record<
    string,
    unknown
  >;
  const sig = artifact.fieldsSig;
  const valueOf = (i: number) => {
    const name = sig.names[i] as string;
    const type = sig.types[i] as string;
    return typedValue(fields[name] ?? defaultOf(type, caller), type, `field ${name}`);
  };
  const indexes = sig.names.map((_, i) => i);
  const sourcePath = text(args, 'source');
  const launch: MethodLaunch = {
    artifact,
    method,
    args: callArgs,
    immFields: indexes.filter((i) => !sig.isMutable[i]).map(valueOf),
    mutFields: indexes.filter((i) => sig.isMutable[i]).map(valueOf),
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
