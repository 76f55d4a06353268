import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  ALEPHIUM_TASK_TYPE,
  CLI_COMMANDS,
  RALPH_EXTENSION_ID,
  RALPH_PROBLEM_MATCHER,
  cliTaskPlans,
  shouldOfferRalphExtension,
  type CliCommand,
  type CliTaskPlan,
} from '../core/tooling/cliTasks';
import { inert } from '../core/text/inert';
import { showInfo } from '../platform/notify';
import type { Services } from '../services';
import { EXTENSION_ID, StorageKeys } from '../constants';

export type RalphToolingDeps = Pick<Services, 'log' | 'projects' | 'globalState'>;

/** The `alephium` task definition as package.json's `taskDefinitions` declares it. */
interface AlephiumTaskDefinition extends vscode.TaskDefinition {
  readonly command: CliCommand;
  /** The project's folder relative to its workspace folder ('' for the folder itself). */
  readonly project?: string;
}

function taskOf(plan: CliTaskPlan, folder: vscode.WorkspaceFolder): vscode.Task {
  const definition: AlephiumTaskDefinition = {
    type: ALEPHIUM_TASK_TYPE,
    command: plan.command,
    project: plan.relativeRoot,
  };
  const cwd = path.join(folder.uri.fsPath, plan.relativeRoot);
  const task = new vscode.Task(
    definition,
    folder,
    plan.name,
    ALEPHIUM_TASK_TYPE,
    new vscode.ShellExecution('npx', [...plan.args], { cwd }),
    // The CLI's compile errors name the .ral file relative to the project's contracts folder.
    plan.command === 'compile' ? [RALPH_PROBLEM_MATCHER] : [],
  );
  task.group =
    plan.command === 'compile'
      ? vscode.TaskGroup.Build
      : plan.command === 'test'
        ? vscode.TaskGroup.Test
        : undefined;
  task.detail = `npx ${plan.args.join(' ')}`;
  return task;
}

/**
 * Whether the project at `root` pins @alephium/cli in its own node_modules (then npx never downloads it). Read
 * through VS Code's file system, as every workspace file is (a virtual workspace has no `node:fs`).
 */
async function pinsCli(root: vscode.Uri): Promise<boolean> {
  const manifest = vscode.Uri.joinPath(root, 'node_modules', '@alephium', 'cli', 'package.json');
  return vscode.workspace.fs.stat(manifest).then(
    () => true,
    () => false,
  );
}

async function provideTasks(deps: RalphToolingDeps): Promise<vscode.Task[]> {
  const tasks: vscode.Task[] = [];
  // Tasks run only in a trusted workspace (VS Code refuses otherwise); they are listed the same way.
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const inFolder = (await deps.projects.projects()).filter(
      (p) => vscode.workspace.getWorkspaceFolder(p.root)?.uri.toString() === folder.uri.toString(),
    );
    const projects = await Promise.all(
      inFolder.map(async (p) => ({
        relativeRoot: path.relative(folder.uri.fsPath, p.root.fsPath).split(path.sep).join('/'),
        pinsCli: await pinsCli(p.root),
      })),
    );
    for (const plan of cliTaskPlans(projects)) tasks.push(taskOf(plan, folder));
  }
  return tasks;
}

/** A task of tasks.json (`"type": "alephium"`) gets its execution the way provided tasks do. */
async function resolveTask(task: vscode.Task): Promise<vscode.Task | undefined> {
  const definition = task.definition as Partial<AlephiumTaskDefinition>;
  const folder = task.scope;
  if (typeof folder !== 'object' || !CLI_COMMANDS.includes(definition.command as CliCommand))
    return undefined;
  const relativeRoot = typeof definition.project === 'string' ? definition.project : '';
  // A project path from tasks.json stays inside its workspace folder.
  if (path.isAbsolute(relativeRoot) || relativeRoot.split(/[\\/]/).includes('..')) return undefined;
  const [plan] = cliTaskPlans([
    { relativeRoot, pinsCli: await pinsCli(vscode.Uri.joinPath(folder.uri, relativeRoot)) },
  ]).filter((p) => p.command === definition.command);
  if (!plan) return undefined;
  const resolved = taskOf(plan, folder);
  return new vscode.Task(
    task.definition,
    folder,
    task.name,
    ALEPHIUM_TASK_TYPE,
    resolved.execution,
    resolved.problemMatchers,
  );
}

/**
 * Offers Alephium's Ralph extension once, when a `.ral` file opens and no installed extension gives it a
 * language: it opens the Extensions view on it and installs nothing by itself.
 */
function offerRalphExtension(deps: RalphToolingDeps, document: vscode.TextDocument): void {
  if (!document.uri.path.endsWith('.ral')) return;
  const offered = deps.globalState.get<boolean>(StorageKeys.ralphExtensionOffered) === true;
  if (!shouldOfferRalphExtension(vscode.extensions.all, offered, EXTENSION_ID)) return;
  void deps.globalState.update(StorageKeys.ralphExtensionOffered, true);
  void showInfo(
    inert`.ral files have no Ralph language support here. Alephium's Ralph extension (${RALPH_EXTENSION_ID}) adds highlighting, diagnostics and go to definition.`,
    'Show in Extensions',
  ).then((choice) => {
    if (choice)
      void vscode.commands.executeCommand('workbench.extensions.search', `@id:${RALPH_EXTENSION_ID}`);
  });
}

/** The CLI's tasks with their problem matcher, and the one-time offer of the Ralph extension. */
export function registerRalphTooling(deps: RalphToolingDeps): vscode.Disposable[] {
  for (const document of vscode.workspace.textDocuments) offerRalphExtension(deps, document);
  return [
    vscode.tasks.registerTaskProvider(ALEPHIUM_TASK_TYPE, {
      provideTasks: () => provideTasks(deps),
      resolveTask: (task) => resolveTask(task),
    }),
    vscode.workspace.onDidOpenTextDocument((document) => offerRalphExtension(deps, document)),
  ];
}
