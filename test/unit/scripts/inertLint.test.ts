import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { pathToFileURL } from 'node:url';

const ROOT = path.join(import.meta.dirname, '..', '..', '..');

interface Restriction {
  readonly selector: string;
  readonly message: string;
}

/** The inert-text pieces of the project's own eslint.config.mjs (read, not restated). */
interface InertLintConfig {
  readonly INPUT_OWNERS: readonly string[];
  readonly NOTIFICATION_OWNERS: readonly string[];
  readonly RAW_INPUT: readonly Restriction[];
  readonly RAW_OUTPUT: readonly Restriction[];
}

let INPUT_OWNERS: InertLintConfig['INPUT_OWNERS'] = [];
let NOTIFICATION_OWNERS: InertLintConfig['NOTIFICATION_OWNERS'] = [];
let RAW_INPUT: InertLintConfig['RAW_INPUT'] = [];
let RAW_OUTPUT: InertLintConfig['RAW_OUTPUT'] = [];

/** Loads the config as ESLint does (a computed specifier: it is plain JavaScript). */
async function loadInertLintConfig(): Promise<void> {
  ({ INPUT_OWNERS, NOTIFICATION_OWNERS, RAW_INPUT, RAW_OUTPUT } = (await import(
    pathToFileURL(path.join(ROOT, 'eslint.config.mjs')).href
  )) as InertLintConfig);
  assert.ok(RAW_INPUT.length > 0 && INPUT_OWNERS.length > 0, 'the config names the input rule and its owner');
}

/** The restricted-syntax selectors the project's ESLint config applies to `file`. */
async function selectorsFor(file: string): Promise<string[]> {
  const config = (await new ESLint({ cwd: ROOT }).calculateConfigForFile(file)) as {
    rules?: Record<string, unknown[]>;
  };
  const rule = config.rules?.['no-restricted-syntax'] ?? [];
  return rule
    .slice(1)
    .map((option) =>
      typeof option === 'object' && option !== null ? (option as { selector: string }).selector : '',
    );
}

/** The messages the input-box rule reports for `code`, linted as TypeScript. */
function inputRuleMessages(code: string): string[] {
  const linter = new Linter({ configType: 'flat' });
  return linter
    .verify(
      code,
      [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser },
          rules: { 'no-restricted-syntax': ['error', ...RAW_INPUT] },
        },
      ],
      'probe.ts',
    )
    .map((m) => m.message);
}

describe('lint: input boxes and quick picks are made by the inert-text owner only', () => {
  before(loadInertLintConfig);

  it('reports each raw input-box and quick-pick API, however it is reached', () => {
    for (const call of [
      "vscode.window.showInputBox({ prompt: 'x' });",
      'vscode.window.createInputBox();',
      "vscode.window.showQuickPick(['a']);",
      'vscode.window.createQuickPick();',
      "window.showQuickPick(['a']);",
      "const { showInputBox } = vscode.window; const f = vscode.window['showInputBox'];",
    ]) {
      const messages = inputRuleMessages(`declare const vscode: any; declare const window: any;\n${call}`);
      assert.ok(messages.length > 0 && messages.every((m) => /src\/platform\/prompts\.ts/.test(m)), call);
    }
    assert.deepEqual(inputRuleMessages('declare const prompts: any; prompts.askText({});'), []);
  });

  it('applies to every source file but the owner, and the owner still may not show notifications', async () => {
    const input = RAW_INPUT.map((r) => r.selector);
    const output = RAW_OUTPUT.map((r) => r.selector);
    for (const file of [
      'src/transactions/transactionCommands.ts',
      'src/core/text/inert.ts',
      'src/extension.ts',
    ]) {
      const selectors = await selectorsFor(file);
      for (const s of [...input, ...output]) assert.ok(selectors.includes(s), `${file}: ${s}`);
    }
    for (const owner of INPUT_OWNERS) {
      const selectors = await selectorsFor(owner);
      assert.ok(
        input.every((s) => !selectors.includes(s)),
        owner,
      );
      assert.ok(
        output.every((s) => selectors.includes(s)),
        owner,
      );
    }
    for (const owner of NOTIFICATION_OWNERS) {
      const selectors = await selectorsFor(owner);
      assert.ok(
        input.every((s) => selectors.includes(s)),
        owner,
      );
    }
  });
});
