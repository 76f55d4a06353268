import * as vscode from 'vscode';
import { FailureWithFollowUp, errorMessage, isUserCancelled } from '../core/util/errors';
import type { Services } from '../services';
import { inert } from '../core/text/inert';
import { CommandIds, type CommandId } from '../constants';
import { showError } from './notify';
import { closeAnsweredPrompt } from './promptHandOver';

/** What every command needs: the log its failures go to and the redactor their messages pass through. */
export type CommandContext = Pick<Services, 'log' | 'redactor'>;

/**
 * Set on the argument object of a command a person starts from the editor (a CodeLens, a hover link):
 * like a tree element or the palette, a failure is shown once as this extension's toast and not
 * rethrown, since VS Code would add a second error of its own.
 */
export const FROM_EDITOR = 'fromEditor';

/**
 * Whether a person started the command from the UI with an argument: a tree element of this extension's
 * views (a `kind` and an `id` or `txId`) or an editor gesture (FROM_EDITOR). Automation's argument
 * objects are neither.
 */
function startedFromUi(arg: unknown): boolean {
  if (typeof arg !== 'object' || arg === null) return false;
  const a = arg as Record<string, unknown>;
  if (a[FROM_EDITOR] === true) return true;
  return typeof a.kind === 'string' && (typeof a.id === 'string' || typeof a.txId === 'string');
}

/**
 * The argument objects this extension built for its own UI: a view's tree elements, a CodeLens's
 * arguments, the contract panel's requests. VS Code hands such an object back to the command as the very
 * object (a CodeLens's arguments stay in the extension host, a tree element is resolved from its handle),
 * while a task, a `command:` link or another extension passes an object of its own, so membership here
 * cannot be forged the way an argument's shape (FROM_EDITOR, `kind`) can.
 */
const ownUiArguments = new WeakSet<object>();

/** Marks an argument object as this extension's own UI's (see {@link startedByCaller}); returns it. */
export function fromOwnUi<T extends object>(arg: T): T {
  ownUiArguments.add(arg);
  return arg;
}

/**
 * Whether a caller, not the user, started the command: it received an argument this extension's own UI
 * did not build. The palette, a view's title button, the status bar and the walkthrough pass none.
 */
export function startedByCaller(arg: unknown): boolean {
  if (arg === undefined || arg === null) return false;
  return !(typeof arg === 'object' && ownUiArguments.has(arg));
}

/**
 * Registers a command with the extension's house rules: the failure of a command is logged and shown
 * with a "Show Logs" action, a user cancellation ends quietly, and the result is returned to callers
 * of `executeCommand` (tests and automation use that). The one place that calls VS Code's
 * `registerCommand` (a lint rule bans it elsewhere); features register a {@link CommandTable}.
 */
function registerCommand(
  ctx: CommandContext,
  id: CommandId,
  handler: (...args: unknown[]) => unknown,
): vscode.Disposable {
  return vscode.commands.registerCommand(id, (...args: unknown[]) => runCommand(ctx, id, handler, args));
}

/**
 * Runs a command's handler with the house rules of {@link registerCommand}, for a caller inside the
 * extension (the contract panel) that would otherwise re-enter through `executeCommand`.
 */
export async function runCommand(
  ctx: CommandContext,
  id: CommandId,
  handler: (...args: unknown[]) => unknown,
  args: unknown[],
): Promise<unknown> {
  try {
    return await handler(...args);
  } catch (error) {
    if (isUserCancelled(error)) {
      ctx.log.debug(`${id}: cancelled`);
      return undefined;
    }
    const message = ctx.redactor.redact(errorMessage(error));
    ctx.log.error(`${id}: ${message}`);
    // The message holds outside text (a gateway's detail, a name from the workspace): shown inert.
    const followUp = error instanceof FailureWithFollowUp ? error.followUp : undefined;
    const buttons = followUp ? [followUp.title, 'Show Logs'] : ['Show Logs'];
    void showError(inert`${message}`, ...buttons).then((choice) => {
      // The button is the extension's own, pressed by the user: its arguments are the user's choice.
      if (followUp && choice === followUp.title)
        void vscode.commands.executeCommand(followUp.command, fromOwnUi({ ...followUp.args }));
      else if (choice) void vscode.commands.executeCommand(CommandIds.showLogs);
    });
    // Callers that pass arguments (automation, keybindings with args, tests) get the failure too. From
    // the palette (no arguments) or a view's menu (a tree element) it is not rethrown: the toast says
    // it, and VS Code would add a second error of its own on top of it.
    if (args.length > 0 && args[0] !== undefined && !startedFromUi(args[0])) throw error;
    return undefined;
  } finally {
    // The last prompt the command answered stays on screen until here (promptHandOver.ts).
    closeAnsweredPrompt();
  }
}

/**
 * A feature's commands: each id with the module function that runs it over the feature's deps and the
 * command's first argument. The one way a feature registers a command ({@link registerCommands}, or
 * {@link registerCommandsOnFirstUse} for a table in a chunk of its own).
 */
export type CommandTable<D> = readonly (readonly [CommandId, (deps: D, args: unknown) => unknown])[];

/** Registers every command of a table through {@link registerCommand}. */
export function registerCommands<D extends CommandContext>(
  deps: D,
  table: CommandTable<D>,
): vscode.Disposable[] {
  return table.map(([id, run]) => registerCommand(deps, id, (args) => run(deps, args)));
}

/**
 * Registers the commands `ids` now and loads their table on the first run of any of them: activation carries
 * the ids, not the code (a feature's command module is a chunk of its own). The table must name exactly
 * `ids`; a command it lacks fails loudly rather than doing nothing.
 */
export function registerCommandsOnFirstUse<D extends CommandContext>(
  deps: D,
  ids: readonly CommandId[],
  load: () => Promise<CommandTable<D>>,
): vscode.Disposable[] {
  let table: Promise<Map<CommandId, (deps: D, args: unknown) => unknown>> | undefined;
  const runOf = async (id: CommandId): Promise<(deps: D, args: unknown) => unknown> => {
    table ??= load().then((rows) => new Map(rows));
    const run = (await table).get(id);
    if (!run) throw new Error(`${id} is registered but its command module does not define it`);
    return run;
  };
  return ids.map((id) => registerCommand(deps, id, async (args) => (await runOf(id))(deps, args)));
}
