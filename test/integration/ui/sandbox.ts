// One sandbox gateway for the whole UI suite, started lazily in this (mocha) process and shared by every
// spec that needs chain data. Specs point the workbench at it the way a person would: a profile in the
// workspace settings, then "Alephium: Set API Key" typed into the palette (the key lives in SecretStorage).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { ArtifactRegistry } from '../../../src/core/artifacts';
import { buildMethodCallScript } from '../../../src/core/bytecode/callScript';
import { groupOfAddress } from '../../../src/core/protocol';
import { signTxId } from '../../../src/core/protocol/keys';
import { startSandbox, type Sandbox } from '../../../sandbox';
import {
  artifactFiles,
  deploymentsFileText,
  sandboxCounter,
  type DeployedInstance,
} from '../../../sandbox/testing/project';
import { ui } from './hooks';
import { importSigner, runCommandRetried, unwatchFromPalette, watchDeployment } from './journeyHelpers';
import { runCommandByTitle } from './workbench';

let started: Promise<Sandbox> | undefined;

/** The shared sandbox (no block timer: a spec mines with `sandbox.mine()` when it needs a block). */
export function uiSandbox(): Promise<Sandbox> {
  started ??= startSandbox({ port: 0, blockTimeMs: 0 });
  return started;
}

/** Calls the sandbox's control API (loopback, no auth), e.g. `/events/trigger`. */
export async function sandboxControl(route: string, body?: unknown): Promise<unknown> {
  const sandbox = await uiSandbox();
  const res = await fetch(`${sandbox.baseUrl}/__sandbox${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`sandbox control ${route}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Merges keys into the workspace's .vscode/settings.json; returns a function that restores the file. */
export function mergeWorkspaceSettings(workspace: string, values: Record<string, unknown>): () => void {
  const file = path.join(workspace, '.vscode', 'settings.json');
  const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  const current = before ? (JSON.parse(before) as Record<string, unknown>) : {};
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ ...current, ...values }, null, 2));
  return () => {
    if (before === undefined) fs.rmSync(file, { force: true });
    else fs.writeFileSync(file, before);
  };
}

export const UI_PROFILE = 'UI Sandbox';

/**
 * Workspace settings for a Free-plan profile beside the UI's own, made active, as `npm start` runs: the
 * sandbox's paced key is the one `setApiKey` then stores for it. A headless window may not have focus,
 * so polling continues unfocused as it would in a focused window.
 */
export function freeProfileSettings(
  sandbox: Sandbox,
  name: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const profile = (profileName: string, plan: string) => ({
    name: profileName,
    kind: 'gateway',
    baseUrl: sandbox.baseUrl,
    slug: sandbox.slug,
    network: 'devnet',
    plan,
  });
  return {
    'alephium.profiles': [profile(UI_PROFILE, 'pro'), profile(name, 'free')],
    'alephium.activeProfile': name,
    'alephium.watch.whenUnfocused': 'continue',
    ...extra,
  };
}

let configured: Promise<Sandbox> | undefined;

/**
 * The shared sandbox with the workbench pointed at it: the profile UI_PROFILE active in the workspace
 * settings and its API key set through the palette. Done once for the suite (idempotent), so specs
 * share one profile and one key.
 */
export function sandboxProfile(page: Page = ui.page): Promise<Sandbox> {
  configured ??= configure(page).catch((error: unknown) => {
    configured = undefined;
    throw error;
  });
  return configured;
}

/**
 * The settings file reaches the extension host a moment after it is written, so "Set API Key" is retried
 * (bounded) until the toast with the gateway's answer to the key check appears.
 */
async function configure(page: Page): Promise<Sandbox> {
  const sandbox = await uiSandbox();
  mergeWorkspaceSettings(ui.workspace, {
    'alephium.profiles': [
      {
        name: UI_PROFILE,
        kind: 'gateway',
        baseUrl: sandbox.baseUrl,
        slug: sandbox.slug,
        network: 'devnet',
        plan: 'pro',
      },
    ],
    'alephium.activeProfile': UI_PROFILE,
  });
  const saved = page.locator('.notifications-toasts').getByText(`API key saved for "${UI_PROFILE}"`).first();
  for (let attempt = 1; ; attempt++) {
    await runCommandByTitle(page, 'Alephium: Set API Key');
    const input = page.locator('.quick-input-widget input');
    try {
      // Before the settings arrive the command fails at once ("no active profile") and shows no input box.
      await input.waitFor({ state: 'visible', timeout: 5_000 });
      await input.fill(sandbox.apiKeys.pro);
      await input.press('Enter');
      await saved.waitFor({ state: 'visible', timeout: 10_000 });
      return sandbox;
    } catch (error) {
      if (attempt >= 8) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

/** POSTs to the sandbox gateway's node API with its Pro key, as any client could; a non-200 throws. */
export async function sandboxApi(
  sandbox: Sandbox,
  route: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${sandbox.apiUrl}${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.apiKeys.pro}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** The sandbox's counter.ral, which the debugging and explain journeys put into the workspace. */
export const COUNTER_RAL = path.join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'sandbox',
  'project',
  'contracts',
  'counter.ral',
);

export { sandboxCounter, type DeployedInstance };

/**
 * Copies the sandbox project's compiled artifacts, and its .project.json, into `<workspace>/artifacts`
 * (which ones: sandbox/testing/project.ts). `only` names the artifacts to copy (`Counter`).
 */
export function writeArtifacts(
  sandbox: Sandbox,
  { only, workspace = ui.workspace }: { only?: readonly string[]; workspace?: string } = {},
): void {
  const target = path.join(workspace, 'artifacts');
  fs.mkdirSync(target, { recursive: true });
  for (const { name, source } of artifactFiles(sandbox, only))
    fs.copyFileSync(source, path.join(target, name));
}

/** The CLI's devnet deployments file in `<workspace>/deployments`, naming each entry a Counter instance. */
export function writeDeployments(
  sandbox: Sandbox,
  entries: Readonly<Record<string, DeployedInstance>>,
  workspace: string = ui.workspace,
): void {
  fs.mkdirSync(path.join(workspace, 'deployments'), { recursive: true });
  fs.writeFileSync(
    path.join(workspace, 'deployments', '.deployments.devnet.json'),
    deploymentsFileText(sandbox, entries),
  );
}

/** Removes what the writers above put into the workspace. */
export function removeProject(workspace: string = ui.workspace): void {
  for (const dir of ['artifacts', 'deployments'])
    fs.rmSync(path.join(workspace, dir), { recursive: true, force: true });
}

/**
 * Makes the workspace a Ralph project around a Counter instance: its source, the compiled artifact and
 * the CLI's deployments file naming `instance` as the deployed Counter.
 */
export function writeCounterProject(sandbox: Sandbox, instance: DeployedInstance): void {
  fs.mkdirSync(path.join(ui.workspace, 'contracts'), { recursive: true });
  fs.copyFileSync(COUNTER_RAL, path.join(ui.workspace, 'contracts', 'counter.ral'));
  writeArtifacts(sandbox, { only: ['Counter'] });
  writeDeployments(sandbox, { Counter: instance });
}

/**
 * Makes the workspace the sandbox's Ralph project as `@alephium/cli` leaves it: its artifacts, a devnet
 * deployments file naming the sandbox's Counter, and an alephium.config.ts whose devnet node is the
 * sandbox (so Add Profile's devnet preset offers it). Returns a function that removes what it wrote.
 */
export function writeSandboxProject(workspace: string, sandbox: Sandbox): () => void {
  writeArtifacts(sandbox, { only: sandbox.contracts.map((c) => c.name), workspace });
  writeDeployments(sandbox, { Counter: sandboxCounter(sandbox) }, workspace);
  const nodeUrl = `${sandbox.baseUrl}/${sandbox.slug}`;
  fs.writeFileSync(
    path.join(workspace, 'alephium.config.ts'),
    `const configuration = {\n  networks: {\n    devnet: { nodeUrl: '${nodeUrl}', networkId: 4, privateKeys: [] },\n  },\n}\nexport default configuration\n`,
  );
  return () => {
    removeProject(workspace);
    fs.rmSync(path.join(workspace, 'alephium.config.ts'), { force: true });
  };
}

/**
 * The start of the journeys that drive a Counter of their own (its increments move no Counter other specs
 * count events of): the sandbox profile, a Counter deployed in the group of the sandbox's, the project's
 * artifacts and a deployments file naming it `name`, events polled while the window is unfocused, a
 * signer of that group imported (a script runs in its signer's group), and the deployment watched.
 * Returns the group and the function that restores the workspace settings.
 */
export async function watchOwnCounter(
  page: Page,
  name: string,
): Promise<{ sandbox: Sandbox; group: number; counter: DeployedInstance; restore: () => void }> {
  const sandbox = await sandboxProfile(page);
  const group = sandbox.contracts.find((c) => c.name === 'Counter')!.groupIndex;
  const counter = (await sandboxControl('/contracts/deploy', { name: 'Counter', group })) as DeployedInstance;
  writeArtifacts(sandbox, { only: sandbox.contracts.map((c) => c.name) });
  writeDeployments(sandbox, { [name]: counter });
  const restore = mergeWorkspaceSettings(ui.workspace, { 'alephium.watch.whenUnfocused': 'continue' });
  await importSigner(page, sandbox.accounts[group]!, runCommandRetried);
  // The deployments file reaches the extension a moment after it is written: offered again (bounded).
  await watchDeployment(page, name, runCommandRetried);
  return { sandbox, group, counter, restore };
}

/**
 * Undoes {@link watchOwnCounter} for the next specs: no editor open, the deployment unwatched through the
 * palette (the tree must let go of its row: a contract left watched would stand first in the specs that
 * follow), the settings restored and the project files removed.
 */
export async function leaveOwnCounter(
  page: Page,
  name: string,
  restore: (() => void) | undefined,
): Promise<void> {
  await runCommandByTitle(page, 'View: Close All Editors').catch(() => undefined);
  await runCommandRetried(page, 'View: Show Alephium');
  await unwatchFromPalette(page, name, { run: runCommandRetried, strict: true, treeRowGone: true });
  await runCommandByTitle(page, 'View: Show Explorer').catch(() => undefined);
  restore?.();
  removeProject();
}

/** A signed Counter method call on `instance`, built by the gateway and submitted, as any wallet could; mined. */
export async function sendCounterCall(
  sandbox: Sandbox,
  instance: { address: string; contractId: string },
  method: string,
  args: readonly unknown[],
): Promise<string> {
  const counter = sandbox.contracts.find((c) => c.name === 'Counter')!;
  const artifact = ArtifactRegistry.fromFiles([
    { path: 'artifacts/Counter.ral.json', text: fs.readFileSync(counter.artifact, 'utf8') },
  ]).byName('Counter')!;
  const index = artifact.functions.findIndex((f) => f.name === method);
  const bytecode = buildMethodCallScript({
    contractId: instance.contractId,
    methodIndex: index,
    paramTypes: artifact.functions[index]!.paramTypes,
    args: [...args],
    returnTypes: [],
  });
  const from = sandbox.accounts[groupOfAddress(instance.address)]!;
  const built = await sandboxApi(sandbox, '/contracts/unsigned-tx/execute-script', {
    fromPublicKey: from.publicKey,
    bytecode,
  });
  const txId = built.txId as string;
  await sandboxApi(sandbox, '/transactions/submit', {
    unsignedTx: built.unsignedTx,
    signature: signTxId(txId, from.privateKey),
  });
  sandbox.mine();
  return txId;
}
