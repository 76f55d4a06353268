/**
 * Writes the JSON schemas of `schemas/` (used by `contributes.jsonValidation`, so VS Code checks a
 * deployments file or an artifact as you edit it) from the zod schemas the extension itself parses these
 * files with: one definition, so the editor's squiggles and the extension's errors cannot disagree.
 *
 *   npx tsx scripts/generateSchemas.ts          writes schemas/*.json
 *   npx tsx scripts/generateSchemas.ts --check  exits 1 when a committed schema is stale
 *
 * The zod schemas are private to their modules (src/core/artifacts/artifact.ts and deployments.ts), and
 * this script only reads those files: esbuild bundles them in memory with one export line appended, so
 * nothing in src/ is exported for the generator's sake. Refinements that JSON Schema cannot say (a
 * valid base58 address, Ralph identifiers, equal-length arrays) stay the extension's own checks.
 */
import { build } from 'esbuild';
import type { Plugin } from 'esbuild';
import type * as zod from 'zod';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SCHEMAS_DIR = path.join(ROOT, 'schemas');

const ARTIFACT_MODULE = 'src/core/artifacts/artifact.ts';
const DEPLOYMENTS_MODULE = 'src/core/artifacts/deployments.ts';

/** The module-private schemas each source file must expose to the in-memory bundle. */
const PRIVATE_SCHEMAS: Record<string, readonly string[]> = {
  [ARTIFACT_MODULE]: [
    'ContractArtifactSchema',
    'ScriptArtifactSchema',
    'StructsFileSchema',
    'ConstantsFileSchema',
    'ProjectFileSchema',
  ],
  [DEPLOYMENTS_MODULE]: ['DeploymentsFileSchema'],
};

interface SchemaModule {
  readonly z: typeof zod;
  readonly ContractArtifactSchema: zod.ZodType;
  readonly ScriptArtifactSchema: zod.ZodType;
  readonly StructsFileSchema: zod.ZodType;
  readonly ConstantsFileSchema: zod.ZodType;
  readonly ProjectFileSchema: zod.ZodType;
  readonly DeploymentsFileSchema: zod.ZodType;
}

/** Appends `export { … }` to the two source files as esbuild loads them; the files are not changed. */
const exposePrivateSchemas: Plugin = {
  name: 'expose-private-schemas',
  setup(b) {
    b.onLoad({ filter: /src[\\/]core[\\/]artifacts[\\/](artifact|deployments)\.ts$/ }, async (args) => {
      const relative = path.relative(ROOT, args.path).split(path.sep).join('/');
      const names = PRIVATE_SCHEMAS[relative];
      if (!names) return undefined;
      const source = await readFile(args.path, 'utf8');
      return { contents: `${source}\nexport { ${names.join(', ')} };\n`, loader: 'ts' };
    });
  },
};

async function loadSchemas(): Promise<SchemaModule> {
  const entry = [
    `export * as z from 'zod';`,
    `export { ${PRIVATE_SCHEMAS[ARTIFACT_MODULE]!.join(', ')} } from './${ARTIFACT_MODULE}';`,
    `export { ${PRIVATE_SCHEMAS[DEPLOYMENTS_MODULE]!.join(', ')} } from './${DEPLOYMENTS_MODULE}';`,
  ].join('\n');
  const result = await build({
    stdin: { contents: entry, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    logLevel: 'silent',
    plugins: [exposePrivateSchemas],
  });
  const code = result.outputFiles[0]!.text;
  return (await import(
    `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`
  )) as SchemaModule;
}

interface SchemaFile {
  readonly file: string;
  readonly title: string;
  readonly description: string;
  readonly source: string;
  readonly schema: (m: SchemaModule) => zod.ZodType;
}

const FILES: readonly SchemaFile[] = [
  {
    file: 'deployments.schema.json',
    title: 'Alephium deployments file',
    description:
      'deployments/.deployments.<network>.json as @alephium/cli writes it: one deployer, or one per group.',
    source: DEPLOYMENTS_MODULE,
    schema: (m) => m.DeploymentsFileSchema,
  },
  {
    file: 'artifact.schema.json',
    title: 'Ralph contract or script artifact',
    description: 'artifacts/**/<Name>.ral.json as the Ralph compiler writes it: a contract or a script.',
    source: ARTIFACT_MODULE,
    schema: (m) => m.z.union([m.ContractArtifactSchema, m.ScriptArtifactSchema]),
  },
  {
    file: 'structs.schema.json',
    title: 'Ralph structs artifact',
    description: 'artifacts/structs.ral.json: the structs of a Ralph project.',
    source: ARTIFACT_MODULE,
    schema: (m) => m.StructsFileSchema,
  },
  {
    file: 'constants.schema.json',
    title: 'Ralph constants artifact',
    description: 'artifacts/constants.ral.json: the global constants and enums of a Ralph project.',
    source: ARTIFACT_MODULE,
    schema: (m) => m.ConstantsFileSchema,
  },
  {
    file: 'project.schema.json',
    title: 'Ralph project file',
    description: 'artifacts/.project.json: what the Ralph compiler recorded about each contract.',
    source: ARTIFACT_MODULE,
    schema: (m) => m.ProjectFileSchema,
  },
];

/** Every schema file's name and its text, as it should be committed. */
export async function generateSchemas(): Promise<Map<string, string>> {
  const m = await loadSchemas();
  const out = new Map<string, string>();
  for (const f of FILES) {
    // draft-7: the draft VS Code's JSON language service supports best. `input`: the file as written,
    // so a field with a default is optional. Refinements are left to the extension (see above).
    const body = m.z.toJSONSchema(f.schema(m), { target: 'draft-7', io: 'input', unrepresentable: 'any' });
    const { $schema, ...rest } = body;
    const schema = {
      $schema,
      $comment: `Generated by scripts/generateSchemas.ts from ${f.source}; do not edit.`,
      title: f.title,
      description: f.description,
      ...rest,
    };
    // Formatted as `npm run lint` (prettier --check) expects, so the committed file passes it unchanged.
    const target = path.join(SCHEMAS_DIR, f.file);
    const options = { ...(await resolveConfig(target)), filepath: target };
    out.set(f.file, await format(JSON.stringify(schema), options));
  }
  return out;
}

/** The committed schema files that differ from what the zod schemas generate now. */
export async function staleSchemas(): Promise<string[]> {
  const stale: string[] = [];
  for (const [file, text] of await generateSchemas()) {
    const committed = await readFile(path.join(SCHEMAS_DIR, file), 'utf8').catch(() => undefined);
    if (committed !== text) stale.push(file);
  }
  return stale;
}

async function main(): Promise<void> {
  if (process.argv.includes('--check')) {
    const stale = await staleSchemas();
    if (stale.length > 0) {
      console.error(`Stale: ${stale.join(', ')}. Run: npx tsx scripts/generateSchemas.ts`);
      process.exit(1);
    }
    console.log('schemas/ is up to date.');
    return;
  }
  for (const [file, text] of await generateSchemas()) {
    await writeFile(path.join(SCHEMAS_DIR, file), text);
    console.log(`schemas/${file}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
