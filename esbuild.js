// Builds the two bundles of the extension:
//   dist/extension.js        the extension host bundle (Node, CommonJS, `vscode` external)
//   dist/webview/*.js        the webview page bundles (browser, IIFE): tx details, contract panel,
//                            request usage
// `--production` minifies and drops source maps; `--watch` rebuilds on change.
// Every build prints the size of each bundle so growth is noticed when it happens.
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');
const { writeThirdPartyNotices } = require('./scripts/thirdPartyNotices.cjs');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

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
 * undici is loaded on the first request (see src/core/gateway/transport.ts), so the extension bundle
 * refers to it as `./undici.js` and the library gets a bundle of its own next to it.
 */
const undiciAsSeparateFile = {
  name: 'undici-as-separate-file',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: './undici.js', external: true }));
  },
};

/**
 * Code loaded on first use, each as its own file next to dist/extension.js, so activation loads none of it:
 * the Ralph scanner and failure explainer, the verification, signing, script and bytecode code of
 * Send/Sweep/Simulate/Execute/Deploy, the BIP39/BIP32 code of mnemonic import and the Request Usage view's
 * panel and model, the token lists with their catalog, and the language-model tools. The glue loads each with `lazyModule(() => import('./x'))` (src/platform/lifecycle.ts);
 * a dynamic import that resolves to an entry below becomes a `require` of its separate file at run time
 * (under tsx it is the module itself). The entry is named by its path, so a moved file fails the build
 * (its entry is missing) instead of slipping into the activation bundle, and a static import of an entry
 * is an error.
 */
const LAZY_MODULES = [
  { entry: 'src/debugging/engine.ts', out: 'debuggingEngine.js' },
  { entry: 'src/debugging/explainRun.ts', out: 'explainRun.js' },
  { entry: 'src/platform/actionsEngine.ts', out: 'actionsEngine.js' },
  { entry: 'src/platform/keyDerivation.ts', out: 'keyDerivation.js' },
  { entry: 'src/platform/projectsEngine.ts', out: 'projectsEngine.js' },
  { entry: 'src/usage/panel/host.ts', out: 'requestUsagePanel.js' },
  { entry: 'src/contracts/panel/host.ts', out: 'contractPanelHost.js' },
  { entry: 'src/platform/tokenLists.ts', out: 'tokenLists.js' },
  { entry: 'src/assistant/lmTools.ts', out: 'assistantTools.js' },
  { entry: 'src/onboarding/walkthroughContext.ts', out: 'walkthroughContext.js' },
];
const lazyModulesAsSeparateFiles = {
  name: 'lazy-modules-as-separate-files',
  setup(build) {
    const byPath = new Map(LAZY_MODULES.map((m) => [path.resolve(m.entry).replace(/\.ts$/, ''), m]));
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      const target = path.resolve(args.resolveDir, args.path).replace(/\.(ts|js)$/, '');
      const m = byPath.get(target);
      if (!m) return undefined;
      if (args.kind !== 'dynamic-import')
        return {
          errors: [{ text: `${m.entry} is loaded on first use: import it with import(), not statically` }],
        };
      return { path: `./${m.out}`, external: true };
    });
  },
};

/**
 * platform/automation.ts holds the run mode that activation reads from VS Code. A lazily loaded bundle
 * that imports it gets a copy of its own that activation never told, which always says "production": the
 * rule's owner would answer differently in two bundles. A lazy module is handed what it needs through its
 * deps instead; importing the module there fails the build.
 */
const runModeOnlyInActivation = {
  name: 'run-mode-only-in-activation',
  setup(build) {
    // On load, not on resolve: however it is imported (a relative path with or without an extension, a
    // re-export), the file itself is what must not be bundled here.
    build.onLoad({ filter: /[\\/]src[\\/]platform[\\/]automation\.ts$/ }, () => ({
      errors: [
        {
          text: "src/platform/automation.ts is in a lazily loaded bundle: its copy would never know the run mode; pass the answer in the module's deps",
        },
      ],
    }));
  },
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

const targets = [
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [...common.plugins, undiciAsSeparateFile, lazyModulesAsSeparateFiles, zodWithoutJsonSchema],
  },
  ...LAZY_MODULES.map((m) => ({
    ...common,
    entryPoints: [m.entry],
    outfile: `dist/${m.out}`,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [...common.plugins, zodWithoutJsonSchema, runModeOnlyInActivation],
  })),
  {
    ...common,
    entryPoints: [require.resolve('undici')],
    outfile: 'dist/undici.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  {
    ...common,
    entryPoints: ['src/transactions/txDetails/page.ts'],
    outfile: 'dist/webview/txDetails.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    tsconfig: 'src/tsconfig.page.json',
  },
  {
    ...common,
    entryPoints: ['src/contracts/panel/page.ts'],
    outfile: 'dist/webview/contractPanel.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    tsconfig: 'src/tsconfig.page.json',
  },
  {
    ...common,
    entryPoints: ['src/usage/panel/page.ts'],
    outfile: 'dist/webview/requestUsage.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    tsconfig: 'src/tsconfig.page.json',
  },
];

function printSizes() {
  for (const target of targets) {
    const bytes = fs.statSync(target.outfile).size;
    console.log(
      `${path.relative(process.cwd(), target.outfile).padEnd(28)} ${(bytes / 1024).toFixed(1).padStart(8)} KB`,
    );
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
  if (production) fs.rmSync('dist', { recursive: true, force: true });
  const results = await Promise.all(targets.map((t) => esbuild.build(t)));
  // The licenses of exactly the packages the bundles hold, for the .vsix (see .vscodeignore).
  writeThirdPartyNotices(results.map((r) => r.metafile));
  console.log(`bundles (${production ? 'production' : 'development'}):`);
  printSizes();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
