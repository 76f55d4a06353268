// Starts the sandbox gateway inside the extension host's process and points the extension at it
// through its own commands, with their arguments (the way keybindings and automation call them).
import * as vscode from 'vscode';
import { startSandbox, type Sandbox } from '../../../sandbox';
import type { AlephiumGatewayApi } from '../../../src/extension';
import { CommandIds, EXTENSION_ID } from '../../../src/constants';
import { artifactFiles, deploymentsFileText, sandboxCounter } from '../../../sandbox/testing/project';
import * as fs from 'node:fs';
import { until } from '../../helpers/until';

export async function extensionApi(): Promise<AlephiumGatewayApi> {
  const extension = vscode.extensions.getExtension<AlephiumGatewayApi>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not installed`);
  return extension.activate();
}

export async function startSandboxProfile(options: {
  name: string;
  plan: 'free' | 'starter' | 'pro';
  blockTimeMs?: number;
  network?: string;
}): Promise<Sandbox> {
  const sandbox = await startSandbox({ port: 0, blockTimeMs: options.blockTimeMs ?? 0 });
  await vscode.commands.executeCommand(CommandIds.addProfile, {
    name: options.name,
    kind: 'gateway',
    baseUrl: sandbox.baseUrl,
    slug: sandbox.slug,
    network: options.network ?? 'devnet',
    plan: options.plan,
  });
  return sandbox;
}

/**
 * Makes the workspace the sandbox's Ralph project through VS Code's file system, as the CLI leaves it:
 * the compiled artifacts (`only`, or every one) with `.project.json`, and a devnet deployments file
 * naming the sandbox's Counter (what is written: sandbox/testing/project.ts).
 */
export async function writeSandboxProject(sandbox: Sandbox, only?: readonly string[]): Promise<void> {
  const folder = vscode.workspace.workspaceFolders![0]!.uri;
  for (const { name, source } of artifactFiles(sandbox, only))
    await vscode.workspace.fs.writeFile(
      vscode.Uri.joinPath(folder, 'artifacts', name),
      fs.readFileSync(source),
    );
  await vscode.workspace.fs.writeFile(
    vscode.Uri.joinPath(folder, 'deployments', '.deployments.devnet.json'),
    new TextEncoder().encode(deploymentsFileText(sandbox, { Counter: sandboxCounter(sandbox) })),
  );
}

/** Removes the profile (and its key) so the next suite starts from a clean slate. */
export async function removeProfile(name: string): Promise<void> {
  await vscode.commands.executeCommand(CommandIds.removeProfile, { name });
}

/** Everything the extension has logged so far (its log files, as VS Code writes the output channel). */
export async function readLogs(logUri: vscode.Uri): Promise<string> {
  const fs = await import('node:fs');
  const path = await import('node:path');
  const texts: string[] = [];
  const walk = (dir: string): void => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else texts.push(fs.readFileSync(full, 'utf8'));
    }
  };
  // The channel is flushed asynchronously; wait (bounded) until the latest line is on disk.
  await until(
    'the log file to be flushed',
    () => {
      texts.length = 0;
      walk(logUri.fsPath);
      return texts.join('\n').includes('probe:') ? true : undefined;
    },
    10_000,
  ).catch(() => undefined);
  return texts.join('\n');
}
