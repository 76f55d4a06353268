import { strict as assert } from 'node:assert';
import type * as Commands from '../../../src/platform/commands';
import type * as StatusBarCommands from '../../../src/statusBar/statusBarCommands';
import { CommandIds, type CommandId } from '../../../src/constants';
import type { CommandContext } from '../../../src/platform/commands';
import { Redactor } from '../../../src/core/util/redact';
import { UserCancelledError } from '../../../src/core/util/errors';
import { installFakeVscode, type FakeVscode } from '../../helpers/fakeVscode';

/** Masks the one secret these tests use, so a message shows whether it went through the redactor. */
class MarkingRedactor extends Redactor {
  override redact(text: string): string {
    return text.replaceAll('sbx_secret', '[redacted]');
  }
}

/** A command context that keeps what was logged, by level. */
function recordingContext(): CommandContext & { logged: string[] } {
  const logged: string[] = [];
  const at =
    (level: string) =>
    (message: string): void =>
      void logged.push(`${level} ${message}`);
  return {
    logged,
    log: { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
    redactor: new MarkingRedactor(),
  };
}

describe('commands: every command runs through the one wrapper (src/platform/commands.ts)', () => {
  let vscode: FakeVscode;
  let commands: typeof Commands;
  let statusBar: typeof StatusBarCommands;
  let ctx: ReturnType<typeof recordingContext>;

  before(async () => {
    vscode = installFakeVscode();
    commands = await import('../../../src/platform/commands');
    statusBar = await import('../../../src/statusBar/statusBarCommands');
  });
  beforeEach(() => {
    vscode.reset();
    ctx = recordingContext();
  });

  /** Runs a registered command as VS Code would: the handler it was given, with these arguments. */
  function run(id: CommandId, ...args: unknown[]): Promise<unknown> {
    const handler = vscode.registered.get(id);
    assert.ok(handler, `${id} is registered`);
    return Promise.resolve(handler(...args));
  }

  describe("the status bar's menu", () => {
    it('a failure is logged with the command id and shown once with "Show Logs", not thrown at the status bar', async () => {
      statusBar.registerStatusBarCommands(ctx);
      // The person picks Show Logs, and the command it runs fails.
      vscode.quickPick = (items) =>
        Promise.resolve(items.find((i) => (i as { label: string }).label.includes('Show Logs')));
      vscode.registered.set(CommandIds.showLogs, () => {
        throw new Error('the command it ran failed (key sbx_secret)');
      });
      assert.equal(await run(CommandIds.statusBarActions), undefined);
      assert.deepEqual(ctx.logged, [
        'error alephium.statusBarActions: the command it ran failed (key [redacted])',
      ]);
      assert.deepEqual(vscode.shown, [
        { level: 'error', text: 'the command it ran failed (key [redacted])', actions: ['Show Logs'] },
      ]);
    });

    it('Escape ends it quietly; a choice runs that command with no argument, as the palette does', async () => {
      statusBar.registerStatusBarCommands(ctx);
      await run(CommandIds.statusBarActions);
      assert.deepEqual([vscode.executed, vscode.shown, ctx.logged], [[], [], []]);
      vscode.quickPick = (items) =>
        Promise.resolve(items.find((i) => (i as { label: string }).label.includes('Show Logs')));
      await run(CommandIds.statusBarActions);
      assert.deepEqual(vscode.executed, [{ id: CommandIds.showLogs, args: [] }]);
    });
  });

  describe('a command table', () => {
    const failing = (_deps: CommandContext, args: unknown): never => {
      throw new Error(`failed with ${JSON.stringify(args)}`);
    };

    it('shows a failure once; rethrows it only to a caller, not to the palette, a tree element or the editor', async () => {
      commands.registerCommands(ctx, [[CommandIds.showLogs, failing]]);
      await run(CommandIds.showLogs);
      await run(CommandIds.showLogs, { kind: 'contract', id: 'a' });
      await run(CommandIds.showLogs, { [commands.FROM_EDITOR]: true, address: 'a' });
      await assert.rejects(run(CommandIds.showLogs, { confirm: false }), /failed with {"confirm":false}/);
      assert.equal(vscode.shown.length, 4, 'shown to the user every time, rethrown or not');
      assert.ok(vscode.shown.every((m) => m.level === 'error' && m.actions.join() === 'Show Logs'));
      assert.ok(ctx.logged.every((line) => line.startsWith('error alephium.showLogs: failed')));
    });

    it('ends a user cancellation quietly, whoever started the command', async () => {
      const cancelled = (): never => {
        throw new UserCancelledError();
      };
      commands.registerCommands(ctx, [[CommandIds.showLogs, cancelled]]);
      assert.equal(await run(CommandIds.showLogs), undefined);
      assert.equal(await run(CommandIds.showLogs, { confirm: false }), undefined);
      assert.deepEqual(
        [vscode.shown, ctx.logged],
        [[], ['debug alephium.showLogs: cancelled', 'debug alephium.showLogs: cancelled']],
      );
    });

    it('passes the deps and the first argument, and returns the result to executeCommand callers', async () => {
      commands.registerCommands(ctx, [[CommandIds.showLogs, (deps, args) => [deps === ctx, args]]]);
      assert.deepEqual(await run(CommandIds.showLogs, 'first', 'second'), [true, 'first']);
    });
  });

  describe('a table loaded on first use', () => {
    it('registers its ids at once, loads the table on the first run only, and names a missing id', async () => {
      let loads = 0;
      commands.registerCommandsOnFirstUse(ctx, [CommandIds.showLogs, CommandIds.statusBarActions], () => {
        loads++;
        return Promise.resolve([
          [CommandIds.showLogs, (_deps: CommandContext, args: unknown) => args],
        ] as const);
      });
      assert.deepEqual([...vscode.registered.keys()], [CommandIds.showLogs, CommandIds.statusBarActions]);
      assert.equal(loads, 0, 'nothing is loaded at registration');
      assert.equal(await run(CommandIds.showLogs, 'x'), 'x');
      assert.equal(await run(CommandIds.showLogs, 'y'), 'y');
      assert.equal(loads, 1);
      await assert.rejects(
        run(CommandIds.statusBarActions, { confirm: false }),
        /alephium\.statusBarActions is registered but its command module does not define it/,
      );
    });
  });

  describe('who started a command (startedByCaller)', () => {
    it('the palette and the own UI did; any other argument, whatever its shape, is a caller', () => {
      assert.equal(commands.startedByCaller(undefined), false);
      assert.equal(commands.startedByCaller(null), false);
      assert.equal(commands.startedByCaller(commands.fromOwnUi({ kind: 'contract', id: 'a' })), false);
      for (const forged of [{ kind: 'contract', id: 'a' }, { [commands.FROM_EDITOR]: true }, 'a', 0, false])
        assert.equal(commands.startedByCaller(forged), true, JSON.stringify(forged));
    });
  });
});
