// Builds the extension's bundles:
//   dist/extension.mjs       the extension host's code (Node, ESM, `vscode` external), one module runtime: every
//                            `import()` of the glue becomes a chunk beside it, loaded on first use, and code
//                            two of them share is one chunk of its own, so no module is ever in two files
//   dist/webview/*.js        the webview page bundles (browser, IIFE): tx details, contract panel,
//                            request usage
// `--production` minifies and drops source maps; `--watch` rebuilds on change.
// Every build prints the size of each file so growth is noticed when it happens.
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');
const { writeThirdPartyNotices } = require('./scripts/thirdPartyNotices.cjs');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
// `--outdir=<dir>` builds somewhere else than dist/ (the packaging script builds into a staging folder, so a
// running `npm start` or test keeps its development build).
const outDir = (process.argv.find((a) => a.startsWith('--outdir=')) ?? '--outdir=dist').slice(
  '--outdir='.length,
);

/** Prints esbuild problems in the format of VS Code's `$esbuild-watch` problem matcher. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: 'none',
  metafile: true,
  plugins: watch ? [problemMatcher] : [],
};

/**
 * zod's classic schemas import its JSON Schema generator for `.toJSONSchema()` and Standard Schema's
 * `jsonSchema`, which the extension never calls at run time (scripts/generateSchemas.ts uses it at build
 * time, outside the bundle): about 18 KB of every Node bundle. Here those two modules become stubs with the
 * same export names whose functions throw if ever called, so a future use fails loudly instead of silently.
 */
const zodWithoutJsonSchema = {
  name: 'zod-without-json-schema',
  setup(build) {
    const stubbed = /\/zod\/v4\/core\/(to-json-schema|json-schema-processors)\.js$/;
    build.onLoad({ filter: stubbed }, (args) => {
      const source = fs.readFileSync(args.path, 'utf8');
      const names = new Set([...source.matchAll(/^export (?:const|function) (\w+)/gm)].map((m) => m[1]));
      for (const m of source.matchAll(/^export \{([^}]*)\}/gm))
        for (const part of m[1].split(','))
          if (part.trim())
            names.add(
              part
                .trim()
                .split(/\s+as\s+/)
                .pop(),
            );
      const body = [...names]
        .map((n) =>
          n.startsWith('create')
            ? `export const ${n} = () => () => { throw new Error('zod JSON Schema is not bundled'); };`
            : n === 'allProcessors'
              ? `export const ${n} = {};`
              : `export function ${n}() { throw new Error('zod JSON Schema is not bundled'); }`,
        )
        .join('\n');
      return { contents: body, loader: 'js' };
    });
  },
};

/**
 * undici is loaded on the first request (src/core/gateway/transport.ts) and is CommonJS that requires Node's
 * built-ins, which an ESM chunk cannot do without a `require` of its own: it stays one CommonJS file,
 * dist/undici.cjs, that the host's `import('undici')` loads (Node gives an ESM importer its exports). Nothing
 * else uses it, so it is in no other file.
 */
const undiciAsCommonJsFile = {
  name: 'undici-as-commonjs-file',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: './undici.cjs', external: true }));
  },
};

const hostTarget = {
  ...common,
  entryPoints: { extension: 'src/extension.ts' },
  outdir: outDir,
  outExtension: { '.js': '.mjs' },
  entryNames: '[name]',
  // Flat beside extension.mjs, so that a relative import of an external (./undici.cjs) means the same file
  // from every chunk.
  chunkNames: '[name]-[hash]',
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['vscode'],
  plugins: [...common.plugins, undiciAsCommonJsFile, zodWithoutJsonSchema],
};

const undiciTarget = {
  ...common,
  entryPoints: [require.resolve('undici')],
  outfile: `${outDir}/undici.cjs`,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
};

const pageTargets = [
  ['src/transactions/txDetails/page.ts', 'txDetails.js'],
  ['src/contracts/panel/page.ts', 'contractPanel.js'],
  ['src/usage/panel/page.ts', 'requestUsage.js'],
].map(([entry, out]) => ({
  ...common,
  entryPoints: [entry],
  outfile: `${outDir}/webview/${out}`,
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  tsconfig: 'src/tsconfig.page.json',
}));

/** The Ralph debug adapter on its own (`node dist/debugAdapter.js`): DAP over stdin and stdout. */
const debugAdapterTarget = {
  ...common,
  entryPoints: ['src/debugAdapter.ts'],
  outfile: `${outDir}/debugAdapter.js`,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  plugins: [...common.plugins, zodWithoutJsonSchema],
};

const targets = [hostTarget, undiciTarget, debugAdapterTarget, ...pageTargets];

/** Every file a build wrote, with the entry point or lazily imported module it stands for. */
function printSizes(results) {
  for (const result of results) {
    for (const [file, output] of Object.entries(result.metafile.outputs)) {
      if (file.endsWith('.map')) continue;
      const what = output.entryPoint ? `  (${output.entryPoint})` : '';
      console.log(`${file.padEnd(40)} ${(output.bytes / 1024).toFixed(1).padStart(8)} KB${what}`);
    }
  }
}

async function main() {
  if (watch) {
    const contexts = await Promise.all(targets.map((t) => esbuild.context(t)));
    await Promise.all(contexts.map((c) => c.watch()));
    return;
  }
  // A production build starts from an empty dist/, so no source map of an earlier development build
  // lingers into the package.
  if (production) fs.rmSync(outDir, { recursive: true, force: true });
  // Chunk names carry a content hash: without this, every rebuild would leave the last one's chunks behind (and
  // the CommonJS bundles of builds before the split ones, dist/*.js, would linger into a package).
  else if (fs.existsSync(outDir))
    for (const file of fs.readdirSync(outDir))
      if (/\.m?js(\.map)?$/.test(file)) fs.rmSync(path.join(outDir, file));
  const results = await Promise.all(targets.map((t) => esbuild.build(t)));
  fs.writeFileSync(path.join(outDir, 'meta.json'), JSON.stringify(results[0].metafile));
  // The licenses of exactly the packages the bundles hold, beside dist/ (the package's root: see .vscodeignore).
  writeThirdPartyNotices(
    results.map((r) => r.metafile),
    path.join(outDir, '..', 'ThirdPartyNotices.txt'),
  );
  console.log(`bundles (${production ? 'production' : 'development'}):`);
  printSizes(results);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
