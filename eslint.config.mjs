// @ts-check
import fs from 'node:fs';
import path from 'node:path';
import tseslint from 'typescript-eslint';

const ZOD_IMPORT = {
  selector: "ImportDeclaration[source.value='zod'] > ImportSpecifier[imported.name='z']",
  message: "Use `import * as z from 'zod'` (keeps the bundle small).",
};

/**
 * Outside text is inert (docs/ARCHITECTURE.md): VS Code turns `[x](command:…)` in a notification, an
 * input box's prompt or its validation message into a link that runs a command, and renders Markdown in
 * hovers and tooltips. Notifications are made in src/platform/notify.ts, Markdown in
 * src/platform/markdown.ts and input boxes and quick picks in src/platform/prompts.ts only, each from
 * `inert`/`safeMarkdown` text; every other file calls them.
 */
export const NOTIFICATION_OWNERS = ['src/platform/notify.ts', 'src/platform/markdown.ts'];
export const INPUT_OWNERS = ['src/platform/prompts.ts'];
export const RAW_OUTPUT = [
  {
    selector: 'MemberExpression[property.name=/^show(Error|Warning|Information)Message$/]',
    message: 'Use showError/showWarning/showInfo/askModal of src/platform/notify.ts with inert`…` text.',
  },
  {
    selector:
      "NewExpression[callee.property.name='MarkdownString'], NewExpression[callee.name='MarkdownString']",
    message: 'Use markdownString() of src/platform/markdown.ts with markdown`…` text.',
  },
  {
    selector: 'CallExpression[callee.property.name=/^append(Markdown|Codeblock)$/]',
    message: 'Build the Markdown with markdown`…` (core/text/inert.ts) and markdownString().',
  },
];
const INPUT_APIS = '/^(showInputBox|createInputBox|showQuickPick|createQuickPick)$/';
export const RAW_INPUT = [
  {
    // `window.showInputBox`, `window['showInputBox']` and `const { showInputBox } = window` alike.
    selector: [
      `MemberExpression[property.name=${INPUT_APIS}]`,
      `MemberExpression[property.value=${INPUT_APIS}]`,
      `ObjectPattern > Property[key.name=${INPUT_APIS}]`,
    ].join(', '),
    message:
      'Use askText/askTextOrCancel/pick/pickOrCancel of src/platform/prompts.ts with inert`…` texts (core/text/inertInput.ts).',
  },
];

/**
 * One way to register a command: a feature's CommandTable, through the wrapper of src/platform/commands.ts
 * (a failure logged and shown once with "Show Logs", a cancellation quiet, the caller rules kept). VS Code's
 * own registration is called there only.
 */
export const COMMAND_OWNER = 'src/platform/commands.ts';
export const RAW_COMMAND_REGISTRATION = ['registerCommand', 'registerTextEditorCommand'].map((property) => ({
  property,
  message:
    'Register commands with a CommandTable and registerCommands/registerCommandsOnFirstUse of src/platform/commands.ts.',
}));

/**
 * One way to show progress: withProgress/withRequestProgress of src/platform/progress.ts, which first closes
 * the prompt a command answered last (kept on screen by promptHandOver.ts until the waiting shows elsewhere).
 */
export const PROGRESS_OWNER = 'src/platform/progress.ts';
export const RAW_PROGRESS = [
  {
    property: 'withProgress',
    message: 'Show progress with withProgress/withRequestProgress of src/platform/progress.ts.',
  },
];

/**
 * Feature folders of the VS Code glue: every folder of src/ but the core and the platform, read from the disk
 * when lint runs, so a folder added, renamed or removed is in the list at once. A feature takes from another
 * only what that one exports on purpose: its `index.ts`, or a `…Service.ts` it hands to the composition root.
 * Everything else in a feature folder is its own business (docs/ARCHITECTURE.md), so a move inside one breaks
 * no other.
 */
const SRC = path.join(import.meta.dirname, 'src');
const NOT_FEATURES = new Set(['core', 'platform']);
export const FEATURES = fs
  .readdirSync(SRC, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !NOT_FEATURES.has(entry.name))
  .map((entry) => entry.name)
  .sort();
// The assistant's folder has its own block below (the same boundary plus its read-only rule).
const featureBoundaries = FEATURES.filter((feature) => feature !== 'assistant').map((feature) => {
  const others = FEATURES.filter((f) => f !== feature).join('|');
  return {
    files: [`src/${feature}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(${others})/(?!index$)(?!\\w+Service$)`,
              message: `Import another feature through its index.ts (or its …Service.ts), not its internals.`,
            },
          ],
        },
      ],
    },
  };
});

/**
 * The core is the bottom layer (docs/ARCHITECTURE.md, "One direction of dependency"): a file in src/core
 * imports only src/core, src/constants.ts and npm packages (Node's builtins among them), never `vscode`, the
 * platform or a feature folder. Each relative specifier is resolved against the importing file, so no depth of
 * `../` gets round it; static, dynamic, type-only and re-exporting imports alike.
 */
const CORE = path.join(SRC, 'core');
const CONSTANTS = path.join(SRC, 'constants');
export const CORE_IMPORTS_MESSAGE =
  'src/core imports only src/core, src/constants.ts and npm packages (not vscode, src/platform or a feature ' +
  'folder): move what both need into the core.';

/** Whether `specifier`, imported by `file`, leaves what the core may import. */
export function leavesCore(file, specifier) {
  if (specifier === 'vscode' || specifier.startsWith('vscode/')) return true;
  if (!specifier.startsWith('.') && !path.isAbsolute(specifier)) return false;
  const target = path.resolve(path.dirname(file), specifier).replace(/\.(ts|js|mjs|cjs)$/, '');
  return !(target === CONSTANTS || target === CORE || target.startsWith(CORE + path.sep));
}

const coreImportsOnlyCore = {
  meta: {
    type: 'problem',
    docs: { description: 'src/core imports only src/core, src/constants.ts and npm packages.' },
    schema: [],
    messages: { outside: `{{specifier}}: ${CORE_IMPORTS_MESSAGE}` },
  },
  create(context) {
    /** @param {any} source */
    const check = (source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      if (leavesCore(context.filename, source.value))
        context.report({ node: source, messageId: 'outside', data: { specifier: source.value } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      /** @param {any} node `import('…').Type` in a type position. */
      TSImportType: (node) => check(node.argument?.literal),
      /** @param {any} node `import x = require('…')`. */
      TSExternalModuleReference: (node) => check(node.expression),
      /** @param {any} node */
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require') check(node.arguments[0]);
      },
    };
  },
};
export const housePlugin = { rules: { 'core-imports-only-core': coreImportsOnlyCore } };

/**
 * The language-model tools only read: a chat assistant drives them, so their folders import nothing
 * that signs, sends a transaction or holds a key (the signing path, the secrets, key derivation, the
 * actions engine, the transactions feature and its core), and the core part nothing of VS Code.
 */
const ASSISTANT_READ_ONLY = [
  {
    regex:
      '(^|/)(signing|secrets|devSecrets|keyDerivation|actionsEngine|lazyEngine|transactions)(/|$)' +
      '|(^|/)protocol(/index|/keys|/mnemonic)?$|(^|/)contracts/actions(/|$)|^@noble/secp256k1|^@scure/bip3[29]',
    message:
      'The language-model tools only read: no signing, sending, key or secrets code here (import core/protocol/<file> for what decodes).',
  },
];
const assistantBoundaries = [
  {
    files: ['src/assistant/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...ASSISTANT_READ_ONLY,
            {
              regex: `^(\\.\\./)+(${FEATURES.filter((f) => f !== 'assistant').join('|')})/(?!index$)(?!\\w+Service$)`,
              message: `Import another feature through its index.ts (or its …Service.ts), not its internals.`,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/core/assistant/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'src/core must not depend on vscode.' }],
          patterns: [
            ...ASSISTANT_READ_ONLY,
            { group: ['vscode/*'], message: 'src/core must not depend on vscode.' },
          ],
        },
      ],
    },
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.test-output/**', '.vscode-test/**'] },
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: ['**/*.ts'] })),
  {
    // Type-checked rules read each file with its tsconfig: the webview pages have their own (DOM, no Node).
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.json', './src/tsconfig.page.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A promise nobody awaits is an error nobody sees: await it, return it, or mark it `void` on purpose.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
      // `import { z } from 'zod'` drags zod's locales into the bundle (about 360 KB); the namespace
      // import lets esbuild leave them out.
      'no-restricted-syntax': ['error', ZOD_IMPORT],
      'no-console': 'off',
    },
  },
  {
    // The core is plain Node: behaviour that can be tested without an editor. Keep it that way.
    files: ['src/core/**/*.ts'],
    plugins: { house: housePlugin },
    rules: {
      'house/core-imports-only-core': 'error',
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'vscode',
              message: 'src/core must not depend on vscode; put VS Code glue in a feature folder.',
            },
          ],
          patterns: [{ group: ['vscode/*'], message: 'src/core must not depend on vscode.' }],
        },
      ],
    },
  },
  ...featureBoundaries,
  ...assistantBoundaries,
  {
    files: ['src/**/*.ts'],
    ignores: [...NOTIFICATION_OWNERS, ...INPUT_OWNERS],
    rules: { 'no-restricted-syntax': ['error', ZOD_IMPORT, ...RAW_OUTPUT, ...RAW_INPUT] },
  },
  // Each owner is exempt from its own rule only.
  { files: NOTIFICATION_OWNERS, rules: { 'no-restricted-syntax': ['error', ZOD_IMPORT, ...RAW_INPUT] } },
  { files: INPUT_OWNERS, rules: { 'no-restricted-syntax': ['error', ZOD_IMPORT, ...RAW_OUTPUT] } },
  {
    // Files a newcomer reads in one sitting (issue 20): generated code excepted.
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 700, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: false, skipComments: false }],
    },
  },
  // Each owner is exempt from its own rule only (one rule option list per file: the blocks do not add up).
  {
    files: ['src/**/*.ts'],
    ignores: [COMMAND_OWNER, PROGRESS_OWNER],
    rules: { 'no-restricted-properties': ['error', ...RAW_COMMAND_REGISTRATION, ...RAW_PROGRESS] },
  },
  { files: [COMMAND_OWNER], rules: { 'no-restricted-properties': ['error', ...RAW_PROGRESS] } },
  { files: [PROGRESS_OWNER], rules: { 'no-restricted-properties': ['error', ...RAW_COMMAND_REGISTRATION] } },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
