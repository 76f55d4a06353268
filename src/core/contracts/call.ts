/**
 * "Call Contract Method": from an artifact's function and user input to a call-contract request, and
 * from the node's answer to something a person can read (returns named and typed by the artifact, gas,
 * emitted events decoded, debug messages). Plain Node; the glue only prompts and shows.
 */
import {
  ArgumentError,
  decodeEvent,
  decodeFields,
  encodeArgs,
  formatValue,
  type ArtifactRegistry,
  type ContractArtifact,
  type DecodedEvent,
  type DecodedField,
  type DriftCheck,
  type FunctionSig,
} from '../artifacts';
import type { ContractCall } from '../gateway/client';
import type { CallContractSucceeded, Val } from '../gateway/schemas';
import { RESULT_VALUE_CHARS } from '../text/resultDocument';
import { codeSpan, markdownText } from '../text/inert';

/** `incrementBy(step: U256) → ()` for a pick list. */
export function functionSignature(fn: FunctionSig): string {
  const params = fn.paramNames.map((n, i) => `${n}: ${fn.paramTypes[i] ?? '?'}`).join(', ');
  const returns = fn.returnTypes.length ? fn.returnTypes.join(', ') : '()';
  return `${fn.name}(${params}) → ${returns}`;
}

/** The method by name or index; methodIndex is the position in the artifact's `functions`. */
export function findMethod(
  artifact: ContractArtifact,
  method: string | number,
): { fn: FunctionSig; methodIndex: number } {
  const index =
    typeof method === 'number' || /^\d+$/.test(method)
      ? Number(method)
      : artifact.functions.findIndex((f) => f.name === method);
  const fn = artifact.functions[index];
  if (!fn) {
    throw new ArgumentError(
      `${artifact.name} has no method ${JSON.stringify(method)}; it has ${artifact.functions.map((f) => f.name).join(', ') || 'none'}`,
      'method',
    );
  }
  return { fn, methodIndex: index };
}

/**
 * Why one typed input does not fit the parameter, or undefined. Used while the user types, so the
 * message is the same the call would fail with.
 */
export function argumentProblem(
  type: string,
  name: string,
  input: string,
  registry?: ArtifactRegistry,
): string | undefined {
  try {
    encodeArgs([type], [input], { paramNames: [name], ...(registry ? { structs: registry.structs } : {}) });
    return undefined;
  } catch (e) {
    if (e instanceof ArgumentError) return e.message;
    throw e;
  }
}

/** Placeholder text for a parameter's prompt. */
export function argumentHint(type: string): string {
  if (type.startsWith('[')) return `a JSON array, e.g. ${type.includes('U256') ? '["1","2"]' : '[...]'}`;
  switch (type) {
    case 'U256':
      return 'a non-negative integer, e.g. 42';
    case 'I256':
      return 'an integer, e.g. -7';
    case 'Bool':
      return 'true or false';
    case 'ByteVec':
      return 'hex, e.g. 0a1b';
    case 'Address':
      return 'a base58 address';
    default:
      return `${type}: a contract address or id, or JSON for a struct`;
  }
}

export function buildCall(
  address: string,
  group: number,
  artifact: ContractArtifact,
  method: string | number,
  inputs: readonly unknown[],
  registry?: ArtifactRegistry,
  extra: { callerAddress?: string } = {},
): { call: ContractCall; fn: FunctionSig; methodIndex: number } {
  const { fn, methodIndex } = findMethod(artifact, method);
  const args = encodeArgs(fn.paramTypes, inputs, {
    paramNames: fn.paramNames,
    ...(registry ? { structs: registry.structs } : {}),
  }) as Val[];
  return {
    call: {
      address,
      group,
      methodIndex,
      args,
      ...(extra.callerAddress ? { callerAddress: extra.callerAddress } : {}),
    },
    fn,
    methodIndex,
  };
}

export interface CallSummary {
  readonly contract: string;
  readonly method: string;
  readonly methodIndex: number;
  readonly returns: readonly DecodedField[];
  /** Set when the returns do not fit the artifact's return types (then shown raw). */
  readonly returnsWarning?: string;
  readonly gasUsed: number;
  readonly events: readonly (DecodedEvent & { contractAddress: string })[];
  readonly debugMessages: readonly { contractAddress: string; message: string }[];
}

/** Names for returns: the artifact has only types, so they are named after the method. */
function returnNames(fn: FunctionSig): string[] {
  return fn.returnTypes.length === 1 ? ['result'] : fn.returnTypes.map((_, i) => `result${i}`);
}

export function summariseCall(
  artifact: ContractArtifact,
  fn: FunctionSig,
  methodIndex: number,
  result: CallContractSucceeded,
  artifactOf: (address: string) => { artifact?: ContractArtifact; drift?: DriftCheck } | undefined,
  registry?: ArtifactRegistry,
): CallSummary {
  const decoded = decodeFields(
    returnNames(fn),
    fn.returnTypes,
    result.returns,
    registry ? registry.structs : undefined,
  );
  const events = result.events.map((e) => {
    const found = artifactOf(e.contractAddress);
    return {
      ...decodeEvent(e, found?.artifact, {
        ...(found?.drift ? { drift: found.drift } : {}),
        ...(registry ? { structs: registry.structs } : {}),
      }),
      contractAddress: e.contractAddress,
    };
  });
  return {
    contract: artifact.name,
    method: fn.name,
    methodIndex,
    returns: decoded.ok ? decoded.fields : decoded.raw,
    ...(decoded.ok ? {} : { returnsWarning: `the returns do not fit ${fn.name}: ${decoded.error}` }),
    gasUsed: result.gasUsed,
    events,
    debugMessages: result.debugMessages.map((d) => ({
      contractAddress: d.contractAddress,
      message: d.message,
    })),
  };
}

/**
 * The result document of a simulated call. Names come from the workspace's artifact and values, events
 * and debug messages from the gateway: each is escaped (markdownText) or put in a code span that cannot
 * be broken out of (codeSpan), so no link, image or HTML can form in the document or its preview.
 */
export function callMarkdown(summary: CallSummary, address: string, args: readonly Val[]): string {
  const value = (v: string) => codeSpan(v, RESULT_VALUE_CHARS);
  const lines = [
    `# Simulated call: ${markdownText(summary.contract)}.${markdownText(summary.method)} (methodIndex ${summary.methodIndex})`,
    '',
    '_A dry run through `call-contract`: nothing was signed or sent, and the chain did not change._',
    '',
    `- contract: ${codeSpan(address)}`,
    `- arguments: ${args.length ? args.map((a) => value(JSON.stringify(a.value))).join(', ') : 'none'}`,
    `- gas used: ${summary.gasUsed}`,
    '',
    '## Returns',
    ...(summary.returns.length
      ? summary.returns.map(
          (r) => `- **${markdownText(r.name)}** (${markdownText(r.type)}): ${value(formatValue(r.value))}`,
        )
      : ['_none_']),
    ...(summary.returnsWarning ? [`- ⚠ ${markdownText(summary.returnsWarning)}`] : []),
    '',
    '## Events',
    ...(summary.events.length
      ? summary.events.map(
          (e) =>
            `- **${markdownText(e.name)}**(${e.fields.map((f) => `${markdownText(f.name)}=${value(formatValue(f.value))}`).join(', ')})` +
            `${e.warning ? ` ⚠ ${markdownText(e.warning)}` : ''}`,
        )
      : ['_none_']),
    '',
    '## Debug messages',
    ...(summary.debugMessages.length
      ? summary.debugMessages.map((d) => `- ${codeSpan(d.contractAddress)}: ${codeSpan(d.message)}`)
      : ['_none_']),
    '',
  ];
  return lines.join('\n');
}
