import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';

const ROOT = path.join(__dirname, '..', '..', '..');

interface Restriction {
  readonly property: string;
  readonly message: string;
}

/** The command-registration pieces of the project's own eslint.config.mjs (read, not restated). */
interface CommandLintConfig {
  readonly COMMAND_OWNER: string;
  readonly RAW_COMMAND_REGISTRATION: readonly Restriction[];
  readonly PROGRESS_OWNER: string;
  readonly RAW_PROGRESS: readonly Restriction[];
}

let config: CommandLintConfig;
const eslint = new ESLint({ cwd: ROOT });

/** The properties the project's ESLint config restricts in `file`. */
async function restrictedProperties(file: string): Promise<string[]> {
  const computed = (await eslint.calculateConfigForFile(file)) as {
    rules?: Record<string, unknown[]>;
  };
  return (computed.rules?.['no-restricted-properties'] ?? [])
    .slice(1)
    .map((option) => (option as { property?: string }).property ?? '');
}

/** What the rule reports for `code`, linted as TypeScript. */
function messages(code: string, restrictions = config.RAW_COMMAND_REGISTRATION): string[] {
  return new Linter({ configType: 'flat' })
    .verify(
      `declare const vscode: any; declare const commands: any;\n${code}`,
      [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser },
          rules: { 'no-restricted-properties': ['error', ...restrictions] },
        },
      ],
      'probe.ts',
    )
    .map((m) => m.message);
}

/** Every TypeScript file under src/. */
function sourceFiles(dir = path.join(ROOT, 'src')): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [path.relative(ROOT, full).split(path.sep).join('/')] : [];
  });
}

describe('lint: commands are registered by the command wrapper only', () => {
  before(async () => {
    config = (await import(pathToFileURL(path.join(ROOT, 'eslint.config.mjs')).href)) as CommandLintConfig;
    assert.ok(config.RAW_COMMAND_REGISTRATION.length > 0, 'the config names the rule');
  });

  it("reports VS Code's registerCommand and registerTextEditorCommand, however they are reached", () => {
    for (const code of [
      "vscode.commands.registerCommand('alephium.x', () => 1);",
      "vscode.commands.registerTextEditorCommand('alephium.x', () => 1);",
      "commands.registerCommand('alephium.x', () => 1);",
      "vscode.commands['registerCommand']('alephium.x', () => 1);",
      'const { registerCommand } = vscode.commands;',
    ]) {
      const found = messages(code);
      assert.ok(found.length > 0 && found.every((m) => m.includes('src/platform/commands.ts')), code);
    }
    assert.deepEqual(
      messages('registerCommands(deps, TABLE); registerCommandsOnFirstUse(deps, IDS, load);'),
      [],
    );
  });

  it('applies to every source file but the wrapper', async () => {
    const files = sourceFiles();
    assert.ok(files.includes(config.COMMAND_OWNER));
    for (const file of files) {
      const restricted = await restrictedProperties(file);
      const banned = ['registerCommand', 'registerTextEditorCommand'].every((p) => restricted.includes(p));
      assert.equal(banned, file !== config.COMMAND_OWNER, file);
    }
  });
});

describe('lint: progress is shown by src/platform/progress.ts only', () => {
  before(async () => {
    config = (await import(pathToFileURL(path.join(ROOT, 'eslint.config.mjs')).href)) as CommandLintConfig;
  });

  it("reports VS Code's withProgress, however it is reached, and not the owner's functions", () => {
    for (const code of [
      'vscode.window.withProgress({ location: 15 }, async () => 1);',
      "vscode.window['withProgress']({ location: 15 }, async () => 1);",
      'const { withProgress } = vscode.window;',
    ]) {
      const found = messages(code, config.RAW_PROGRESS);
      assert.ok(found.length > 0 && found.every((m) => m.includes(config.PROGRESS_OWNER)), code);
    }
    assert.deepEqual(
      messages('withProgress(options, task); withRequestProgress(client, title, work);', config.RAW_PROGRESS),
      [],
    );
  });

  it('applies to every source file but the owner', async () => {
    const files = sourceFiles();
    assert.ok(files.includes(config.PROGRESS_OWNER));
    for (const file of files) {
      const banned = (await restrictedProperties(file)).includes('withProgress');
      assert.equal(banned, file !== config.PROGRESS_OWNER, file);
    }
  });
});
