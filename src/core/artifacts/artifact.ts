/**
 * Compiled Ralph artifacts (`artifacts/**\/*.ral.json`, `structs.ral.json`, `constants.ral.json`,
 * `.project.json`), validated with zod. Content in, model out: nothing here reads files, so the VS Code
 * glue decides where files come from (workspace FS, a watcher) and tests feed strings.
 *
 * Errors name the file and the field (`Counter.ral.json: fieldsSig.isMutable: ...`), because a broken
 * artifact is usually a hand edit or a compiler mismatch, and the user has to find it.
 */
// The namespace import lets esbuild leave out zod's locales (about 360 KB of the bundle).
import * as z from 'zod';
import { plainText } from '../text/inert';
import { ArtifactError } from './errors';
import { ralphTypeProblem } from './typeSyntax';
import type { FieldsSig, StructSig } from './vals';

const hex = z.string().regex(/^(?:[0-9a-fA-F]{2})*$/, 'expected an even-length hex string');
const hash32 = z.string().regex(/^[0-9a-fA-F]{64}$/, 'expected a 32-byte hex string');
/** The longest name (contract, function, parameter, field, event, constant, enum) an artifact may use. */
export const MAX_NAME_CHARS = 128;
/** The longest type string (`[[U256;4];2]`, a struct's name) an artifact may use. */
export const MAX_TYPE_CHARS = 512;

const RALPH_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Why `name` cannot be a name in a Ralph artifact, or undefined when it can: a Ralph identifier (a
 * letter or `_`, then letters, digits or `_`) of at most {@link MAX_NAME_CHARS} characters. Names are
 * shown in views, lenses and notifications and put into generated scripts, so nothing else gets in.
 */
export function ralphNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'expected a name, got an empty string';
  if (name.length > MAX_NAME_CHARS)
    return `${quoted(name)} is ${name.length} characters long; names are at most ${MAX_NAME_CHARS}`;
  if (!RALPH_IDENTIFIER.test(name))
    return `${quoted(name)} is not a Ralph identifier (a letter or _, then letters, digits or _)`;
  return undefined;
}

/** Outside text quoted in an error message: short, one line, no link syntax. */
function quoted(text: string): string {
  return JSON.stringify(plainText(text, 40));
}

const ralphName = z.string().superRefine((name, ctx) => {
  const problem = ralphNameProblem(name);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/**
 * A Ralph type as the compiler writes it: its syntax is checked here (typeSyntax.ts), so no other text
 * (a `[label](command:…)` link, markup, spaces) reaches a prompt or a view as a type. Its meaning is not:
 * a well-formed type this version does not understand must not discard the whole file; the field, event
 * or method that uses it shows its raw values with the parser's reason instead (decodeFields, encodeArgs).
 */
function ralphType({ allowMap = false } = {}) {
  return z
    .string()
    .min(1, 'expected a type')
    .max(MAX_TYPE_CHARS, `expected a type of at most ${MAX_TYPE_CHARS} characters`)
    .superRefine((type, ctx) => {
      if (type.length > MAX_TYPE_CHARS) return;
      const problem = ralphTypeProblem(type, { allowMap });
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
}
const typeString = ralphType();

const ValJsonSchema = z.looseObject({
  type: typeString,
  value: z.union([z.string(), z.boolean(), z.array(z.unknown())]),
});

/** Parallel arrays must line up; a mismatch would shift every name against its type. */
function sameLength<T extends Record<string, unknown>>(keys: (keyof T & string)[]) {
  return (obj: T, ctx: z.RefinementCtx) => {
    const [first, ...rest] = keys;
    const n = (obj[first as string] as unknown[]).length;
    for (const k of rest) {
      const m = (obj[k] as unknown[]).length;
      if (m !== n) {
        ctx.addIssue({
          code: 'custom',
          path: [k],
          message: `has ${m} entries but ${first} has ${n} (they must line up one to one)`,
        });
      }
    }
  };
}

const FieldsSigSchema = z
  .looseObject({
    names: z.array(ralphName),
    types: z.array(typeString),
    isMutable: z.array(z.boolean()),
  })
  .superRefine(sameLength(['names', 'types', 'isMutable']));

const EventSigSchema = z
  .looseObject({
    name: ralphName,
    fieldNames: z.array(ralphName),
    fieldTypes: z.array(typeString),
  })
  .superRefine(sameLength(['fieldNames', 'fieldTypes']));

const FunctionSigSchema = z
  .looseObject({
    name: ralphName,
    paramNames: z.array(ralphName),
    paramTypes: z.array(typeString),
    paramIsMutable: z.array(z.boolean()),
    returnTypes: z.array(typeString),
  })
  .superRefine(sameLength(['paramNames', 'paramTypes', 'paramIsMutable']));

const ConstantSchema = z.looseObject({ name: ralphName, value: ValJsonSchema });
const EnumSchema = z.looseObject({
  name: ralphName,
  fields: z.array(z.looseObject({ name: ralphName, value: ValJsonSchema })),
});

/** The compiler version an artifact names (`v4.6.0`): informative, so only bounded. */
const compilerVersion = z.string().max(64, 'expected a compiler version of at most 64 characters');

const ContractArtifactSchema = z.looseObject({
  version: compilerVersion,
  name: ralphName,
  bytecode: hex,
  codeHash: hash32,
  fieldsSig: FieldsSigSchema,
  eventsSig: z.array(EventSigSchema),
  functions: z.array(FunctionSigSchema),
  // Older compilers omit constants and enums; they are informative only.
  constants: z.array(ConstantSchema).default([]),
  enums: z.array(EnumSchema).default([]),
  mapsSig: z
    .looseObject({ names: z.array(ralphName), types: z.array(ralphType({ allowMap: true })) })
    .superRefine(sameLength(['names', 'types']))
    .optional(),
  // Hex digits: they become the `__stdInterfaceId` field's bytes (`414c5048` + id).
  stdInterfaceId: z
    .string()
    .regex(/^[0-9a-fA-F]{0,64}$/, 'expected an interface id of hex digits')
    .optional(),
});

const ScriptArtifactSchema = z.looseObject({
  version: compilerVersion,
  name: ralphName,
  // `{0}`, `{1}`... mark where the script's fields are substituted, so this is not pure hex.
  bytecodeTemplate: z.string().regex(/^(?:[0-9a-fA-F]{2}|\{\d+\})*$/, 'expected hex with {n} placeholders'),
  fieldsSig: FieldsSigSchema,
  functions: z.array(FunctionSigSchema),
});

const StructSigSchema = z
  .looseObject({
    name: ralphName,
    fieldNames: z.array(ralphName),
    fieldTypes: z.array(typeString),
    isMutable: z.array(z.boolean()),
  })
  .superRefine(sameLength(['fieldNames', 'fieldTypes', 'isMutable']));
const StructsFileSchema = z.array(StructSigSchema);

const ConstantsFileSchema = z.looseObject({
  constants: z.array(ConstantSchema).default([]),
  enums: z.array(EnumSchema).default([]),
});

const ProjectFileSchema = z.looseObject({
  fullNodeVersion: z.string().optional(),
  infos: z
    .record(
      // Keyed by contract name (checked in parseProjectFile, which can say which key is wrong).
      z.string(),
      z.looseObject({
        sourceFile: z.string().optional(),
        sourceCodeHash: z.string().optional(),
        bytecodeDebugPatch: z.string().optional(),
        // Compilers write "" for scripts, interfaces and structs, which have no debug build.
        codeHashDebug: z.union([hash32, z.literal('')]).optional(),
      }),
    )
    .default({}),
});

export type EventSig = z.infer<typeof EventSigSchema>;
export type FunctionSig = z.infer<typeof FunctionSigSchema>;
export type ConstantDef = z.infer<typeof ConstantSchema>;
export type EnumDef = z.infer<typeof EnumSchema>;

export interface ContractArtifact {
  readonly kind: 'contract';
  /** Where it came from, for messages (undefined when parsed from memory). */
  readonly file: string | undefined;
  readonly version: string;
  readonly name: string;
  readonly bytecode: string;
  /** Lowercase, so lookups by an on-chain hash do not depend on case. */
  readonly codeHash: string;
  readonly fieldsSig: FieldsSig;
  readonly eventsSig: readonly EventSig[];
  readonly functions: readonly FunctionSig[];
  readonly constants: readonly ConstantDef[];
  readonly enums: readonly EnumDef[];
  readonly mapsSig: { readonly names: readonly string[]; readonly types: readonly string[] } | undefined;
  readonly stdInterfaceId: string | undefined;
}

export interface ScriptArtifact {
  readonly kind: 'script';
  readonly file: string | undefined;
  readonly version: string;
  readonly name: string;
  readonly bytecodeTemplate: string;
  readonly fieldsSig: FieldsSig;
  readonly functions: readonly FunctionSig[];
}

export interface ConstantsFile {
  readonly kind: 'constants';
  readonly file: string | undefined;
  readonly constants: readonly ConstantDef[];
  readonly enums: readonly EnumDef[];
}

export interface ProjectInfo {
  readonly sourceFile: string | undefined;
  /** Code hash of the debug build (devnets deploy debug bytecode, whose hash differs). */
  readonly codeHashDebug: string | undefined;
  /** The compiler's patch from the release bytecode to the debug build (core/bytecode/debugPatch.ts). */
  readonly bytecodeDebugPatch: string | undefined;
}

export interface ProjectFile {
  readonly kind: 'project';
  readonly file: string | undefined;
  readonly fullNodeVersion: string | undefined;
  readonly infos: ReadonlyMap<string, ProjectInfo>;
}

export interface StructsFile {
  readonly kind: 'structs';
  readonly file: string | undefined;
  readonly structs: readonly StructSig[];
}

export type ArtifactFile = ContractArtifact | ScriptArtifact | StructsFile | ConstantsFile | ProjectFile;

function baseName(file: string | undefined): string | undefined {
  return file?.split(/[\\/]/).pop();
}

function fail(file: string | undefined, error: z.ZodError, what: string): never {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : undefined;
  const shown = baseName(file) ?? what;
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problem(s))` : '';
  throw new ArtifactError(
    `${shown}: ${field ?? '(root)'}: ${issue?.message ?? 'invalid'}${more}`,
    file,
    field ?? undefined,
  );
}

function parseWith<T>(schema: z.ZodType<T>, json: unknown, file: string | undefined, what: string): T {
  const r = schema.safeParse(json);
  if (!r.success) fail(file, r.error, what);
  return r.data;
}

export function parseContractArtifact(json: unknown, file?: string): ContractArtifact {
  const a = parseWith(ContractArtifactSchema, json, file, 'contract artifact');
  return {
    kind: 'contract',
    file,
    version: a.version,
    name: a.name,
    bytecode: a.bytecode.toLowerCase(),
    codeHash: a.codeHash.toLowerCase(),
    fieldsSig: a.fieldsSig,
    eventsSig: a.eventsSig,
    functions: a.functions,
    constants: a.constants,
    enums: a.enums,
    mapsSig: a.mapsSig,
    stdInterfaceId: a.stdInterfaceId,
  };
}

export function parseScriptArtifact(json: unknown, file?: string): ScriptArtifact {
  const a = parseWith(ScriptArtifactSchema, json, file, 'script artifact');
  return {
    kind: 'script',
    file,
    version: a.version,
    name: a.name,
    bytecodeTemplate: a.bytecodeTemplate,
    fieldsSig: a.fieldsSig,
    functions: a.functions,
  };
}

export function parseStructs(json: unknown, file?: string): StructsFile {
  const structs = parseWith(StructsFileSchema, json, file, 'structs.ral.json');
  const seen = new Set<string>();
  structs.forEach((s, i) => {
    if (seen.has(s.name)) {
      throw new ArtifactError(
        `${baseName(file) ?? 'structs.ral.json'}: ${i}.name: duplicate struct '${s.name}'`,
        file,
        `${i}.name`,
      );
    }
    seen.add(s.name);
  });
  return { kind: 'structs', file, structs };
}

export function parseConstantsFile(json: unknown, file?: string): ConstantsFile {
  const c = parseWith(ConstantsFileSchema, json, file, 'constants.ral.json');
  return { kind: 'constants', file, constants: c.constants, enums: c.enums };
}

export function parseProjectFile(json: unknown, file?: string): ProjectFile {
  const p = parseWith(ProjectFileSchema, json, file, '.project.json');
  const infos = new Map<string, ProjectInfo>();
  for (const [name, info] of Object.entries(p.infos)) {
    const problem = ralphNameProblem(name);
    if (problem)
      throw new ArtifactError(`${baseName(file) ?? '.project.json'}: infos: ${problem}`, file, 'infos');
    infos.set(name, {
      sourceFile: info.sourceFile,
      codeHashDebug: info.codeHashDebug ? info.codeHashDebug.toLowerCase() : undefined,
      bytecodeDebugPatch: info.bytecodeDebugPatch,
    });
  }
  return { kind: 'project', file, fullNodeVersion: p.fullNodeVersion, infos };
}

/** JSON.parse with an error that names the file and the position. */
export function parseJsonText(text: string, file?: string): unknown {
  try {
    // A BOM (some editors add one) is not JSON.
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new ArtifactError(
      `${baseName(file) ?? 'artifact'}: not valid JSON (${(e as Error).message})`,
      file,
      undefined,
    );
  }
}

/**
 * Parses any file of an artifacts directory, telling the kinds apart by file name first (the fixed names
 * of the compiler) and by shape otherwise (`bytecodeTemplate` marks a script).
 */
export function parseArtifactText(text: string, file?: string): ArtifactFile {
  const json = parseJsonText(text, file);
  const name = baseName(file);
  if (name === 'structs.ral.json') return parseStructs(json, file);
  if (name === 'constants.ral.json') return parseConstantsFile(json, file);
  if (name === '.project.json') return parseProjectFile(json, file);
  if (typeof json === 'object' && json !== null && 'bytecodeTemplate' in json) {
    return parseScriptArtifact(json, file);
  }
  return parseContractArtifact(json, file);
}

/**
 * The getters the views read: methods with no parameters and one return value, by index (the Watched
 * Contracts view's State rows, the contract-state tool). Whether a method is view-only is another rule
 * (core/contracts/actions/methodTraits.ts).
 */
export function getterIndexes(artifact: ContractArtifact | undefined): number[] {
  const indexes: number[] = [];
  artifact?.functions.forEach((fn, i) => {
    if (fn.paramTypes.length === 0 && fn.returnTypes.length === 1) indexes.push(i);
  });
  return indexes;
}

/** Index of a method by name (call-contract takes the index), or -1. */
export function functionIndex(artifact: ContractArtifact, name: string): number {
  return artifact.functions.findIndex((f) => f.name === name);
}

/** The field the compiler adds to a contract that implements a standard (`@std(id = #0001)`). */
export const STD_ID_FIELD = '__stdInterfaceId';

/**
 * The value of `__stdInterfaceId` for an artifact with a standard interface id: "ALPH" (414c5048) followed
 * by the id, as `@alephium/web3` fills it; undefined when the artifact has no such field.
 */
export function standardInterfaceField(artifact: ContractArtifact): string | undefined {
  if (artifact.stdInterfaceId === undefined || !artifact.fieldsSig.names.includes(STD_ID_FIELD))
    return undefined;
  return `414c5048${artifact.stdInterfaceId.toLowerCase()}`;
}
