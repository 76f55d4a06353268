import * as vscode from 'vscode';
import { isGatewayError, slugProblem } from '../core/gateway';
import {
  baseUrlProblem,
  networkNameProblem,
  profileFactLines,
  type ProfileFacts,
} from '../core/profiles/profile';
import { UserCancelledError } from '../core/util/errors';
import { addressFromPublicKey, groupOfAddress } from '../core/protocol';
import * as config from '../platform/config';
import { originOf } from '../platform/connection';
import { CommandIds } from '../constants';
import { apiKeyPromptWords } from '../core/gateway/keyBinding';
import { inert, inertLines, type Inert } from '../core/text/inert';
import { inertCheck, inertProblem } from '../core/text/inertInput';
import { argumentsMayActForUser } from '../platform/automation';
import { askModal, askModalCancelFirst, showError, showInfo } from '../platform/notify';
import { startedByCaller, type CommandTable } from '../platform/commands';
import { callerAsked } from '../core/signing/confirmPolicy';
import { argString, argValue, askText, pick } from '../platform/prompts';
import { keyDerivation, projectsEngine } from '../platform/lazyEngine';
import type { Services } from '../services';
import type { DevnetPreset } from '../core/profiles/devnetPreset';

const PLANS = ['free', 'starter', 'pro', 'enterprise'] as const;

/**
 * The services the profile commands use (the workspace's project configs: a devnet `nodeUrl` there prefills
 * the Local devnet preset), and the network id the Node view last saw the active profile's node on.
 */
export type ProfileDeps = Pick<Services, 'log' | 'redactor' | 'connection' | 'secrets' | 'projects'> & {
  readonly nodeNetworkId?: () => number | undefined;
};

/**
 * Profiles (in settings), their API keys and the signer key (both only in SecretStorage): loaded on the first
 * run of one of them (profiles/index.ts registers the ids at activation).
 */
export const PROFILE_COMMANDS: CommandTable<ProfileDeps> = [
  [CommandIds.addProfile, addProfile],
  [CommandIds.switchProfile, switchProfile],
  [CommandIds.removeProfile, removeProfile],
  [CommandIds.setApiKey, setApiKey],
  [CommandIds.removeApiKey, removeApiKey],
  [CommandIds.importSignerKey, importSignerKey],
  [CommandIds.showSignerAddress, (deps) => showSignerAddress(deps)],
  [CommandIds.forgetSignerKey, forgetSignerKey],
];

function validateUrl(value: string): string | undefined {
  // The one rule (core/profiles/profile.ts): https, or http only to this machine; no user name or password.
  return baseUrlProblem(value.trim());
}

/**
 * A command's arguments may replace or delete a key, or add or remove a profile, without the user seeing
 * it only in the extension's own test runs (platform/automation.ts, the owner of that rule). Anywhere else
 * (another extension, a task, a `command:` link may be the caller) the user confirms what they would do,
 * in a modal; cancelling ends the command quietly.
 */
async function confirmArgumentChange(message: Inert, detail: Inert, action: string): Promise<void> {
  if (argumentsMayActForUser()) return;
  if ((await askModal(message, detail, action)) !== action) throw new UserCancelledError();
}

/**
 * A command that acts on a target its caller named (the profile to switch to, the key to remove) asks
 * first, in a modal that says a caller asked and whose default button is Cancel; picked by the user, or
 * in the extension's own tests (platform/automation.ts), it does not. Cancelling ends it quietly.
 */
async function confirmCallerTarget(
  args: unknown,
  message: Inert,
  request: string,
  facts: Inert,
  action: string,
): Promise<void> {
  if (!startedByCaller(args) || argumentsMayActForUser()) return;
  const detail = inertLines([inert`${callerAsked(request)}`, facts]);
  if ((await askModalCancelFirst(message, detail, action)) !== action) throw new UserCancelledError();
}

/** Why the dialog shows values the user did not type. */
const NOT_TYPED_BY_YOU = inert`These values come from the command's caller (an extension, a task, a keybinding or a link), not from you.`;

/** Whether the caller gave any field of a profile (then they, not the user, chose those values). */
function givesProfileFields(args: unknown): boolean {
  return ['name', 'kind', 'preset', 'baseUrl', 'slug', 'network', 'plan'].some(
    (f) => argValue(args, f) !== undefined,
  );
}

/** The Local devnet preset, prefilled from the workspace's configs (a URL not taken is logged). */
async function workspaceDevnetPreset(deps: ProfileDeps): Promise<DevnetPreset> {
  // Read again: the person may have just written the config they expect the preset to follow.
  const projects = await deps.projects.projects({ fresh: true });
  const preset = (await projectsEngine()).devnetPreset(projects.map((p) => p.config));
  if (preset.skipped) deps.log.warn(`Local devnet preset: ${preset.skipped}; ${preset.baseUrl} is offered.`);
  return preset;
}

/**
 * What the profile talks to: a gateway, a node, or the Local devnet preset (a node profile on devnet
 * whose URL and network need no more steps). A caller names the preset with `{ preset: 'devnet' }`.
 */
async function chooseKind(
  deps: ProfileDeps,
  args: unknown,
  whereStep: number,
): Promise<{ kind: 'gateway' | 'node'; preset?: DevnetPreset }> {
  const presetArg = argString(args, 'preset');
  if (presetArg !== undefined) {
    if (presetArg !== 'devnet') throw new Error('Preset must be devnet.');
    return { kind: 'node', preset: await workspaceDevnetPreset(deps) };
  }
  const kindArg = argString(args, 'kind');
  if (kindArg !== undefined) return { kind: kindArg as 'gateway' | 'node' };
  const preset = await workspaceDevnetPreset(deps);
  const { devnetPresetLabel, devnetPresetDescription } = await projectsEngine();
  const chosen = await pick(
    [
      {
        label: inert`gateway`,
        description: inert`Node Gateway API: base URL + slug, Bearer key, plan limits`,
        kind: 'gateway' as const,
      },
      {
        // Its URL may come from the workspace's alephium.config: outside text.
        label: inert`${devnetPresetLabel(preset)}`,
        description: inert`${devnetPresetDescription(preset, vscode.env.remoteName)}`,
        kind: 'node' as const,
        preset,
      },
      {
        label: inert`node`,
        description: inert`A full node directly (local devnet): optional X-API-KEY`,
        kind: 'node' as const,
      },
    ],
    {
      title: inert`Add Profile (2/${6 + whereStep})`,
      placeHolder: inert`What does this profile talk to? (a node profile takes ${4 + whereStep} steps, the devnet preset ${2 + whereStep})`,
    },
  );
  if ('preset' in chosen) return { kind: 'node', preset: chosen.preset };
  return { kind: chosen.kind };
}

/**
 * Where the new profile is kept. User settings first and by default: a profile names a personal key's
 * URL and slug. The workspace is offered for a team's shared devnet, with what that means.
 */
async function chooseProfilesPlace(step: number, total: number): Promise<config.ProfilesPlace> {
  const chosen = await pick(
    [
      {
        label: inert`User settings`,
        description: inert`only you, in every folder (recommended)`,
        detail: inert`Kept in your own settings; nothing is written into this folder.`,
        place: 'user' as const,
      },
      {
        label: inert`Workspace settings`,
        description: inert`.vscode/settings.json of this folder`,
        detail: inert`Shared with everyone who opens this folder, and committed with it if it is a repository; a cloned repository's settings are ignored until you trust it.`,
        place: 'workspace' as const,
      },
    ],
    {
      title: inert`Add Profile (${step}/${total}): where to keep it`,
      placeHolder: inert`Where to keep this profile`,
    },
  );
  return chosen.place;
}

async function addProfile(deps: ProfileDeps, args: unknown): Promise<config.ProfileSetting> {
  const existing = config.profiles();
  // A caller's profile goes to user settings; a person is asked, when there is a workspace to choose.
  const whereStep = argValue(args, 'name') === undefined && config.canWriteWorkspaceSettings() ? 1 : 0;
  const name =
    argString(args, 'name') ??
    (await askText({
      title: inert`Add Profile (1/${6 + whereStep})`,
      prompt: inert`A name for this profile`,
      placeHolder: inert`mainnet gateway`,
      validate: (v) =>
        !v.trim()
          ? inert`A name is required.`
          : existing.some((p) => p.name === v.trim())
            ? inert`A profile with this name exists.`
            : undefined,
    }));
  if (existing.some((p) => p.name === name.trim()))
    throw new Error(`A profile named "${name}" already exists.`);
  const { kind, preset } = await chooseKind(deps, args, whereStep);
  // Honest step counts: a gateway profile asks for a slug and a plan, a node profile does not, the
  // devnet preset for neither URL nor network; each asks where to keep it when a folder is open.
  const total = (kind === 'gateway' ? 6 : 4) + whereStep;
  const baseUrl = (
    preset?.baseUrl ??
    argString(args, 'baseUrl') ??
    (await askText({
      title: inert`Add Profile (3/${total})`,
      prompt: inert`Base URL`,
      validate: inertCheck(validateUrl),
    }))
  ).trim();
  const urlProblem = validateUrl(baseUrl);
  if (urlProblem) throw new Error(`Base URL: ${urlProblem}`);
  const slug =
    kind === 'gateway'
      ? (
          argString(args, 'slug') ??
          (await askText({
            title: inert`Add Profile (4/${total})`,
            prompt: inert`Slug: the path segment that selects your node endpoint`,
            validate: inertCheck((v) => slugProblem(baseUrl, v.trim())),
          }))
        ).trim()
      : undefined;
  const slugError = slug !== undefined ? slugProblem(baseUrl, slug) : undefined;
  if (slugError) throw new Error(`Slug: ${slugError}`);
  const network =
    preset?.network ??
    argString(args, 'network') ??
    (
      await pick(
        (['mainnet', 'testnet', 'devnet'] as const).map((network) => ({ label: inert`${network}`, network })),
        { title: inert`Add Profile (${kind === 'gateway' ? 5 : 4}/${total})`, placeHolder: inert`Network` },
      )
    ).network;
  // It names the deployments file: a caller's "../x" must not become a path.
  const networkProblem = networkNameProblem(network);
  if (networkProblem) throw new Error(`Network: ${networkProblem}`);
  const plan =
    kind === 'gateway'
      ? ((argString(args, 'plan') ??
          (
            await pick(
              PLANS.map((plan) => ({ label: inert`${plan}`, plan })),
              {
                title: inert`Add Profile (6/${total}): plan (sets the rate limits)`,
                placeHolder: inert`free: 5 requests/s, 100,000/month`,
              },
            )
          ).plan) as config.ProfileSetting['plan'])
      : undefined;
  if (plan && !PLANS.includes(plan)) throw new Error(`Plan must be one of ${PLANS.join(', ')}.`);
  if (kind !== 'gateway' && kind !== 'node') throw new Error('Kind must be gateway or node.');
  const profile: config.ProfileSetting = {
    name: name.trim(),
    kind,
    baseUrl,
    network,
    ...(slug ? { slug } : {}),
    ...(plan ? { plan } : {}),
  };
  if (givesProfileFields(args)) {
    const facts: ProfileFacts = profile;
    await confirmArgumentChange(
      inert`Add the profile "${profile.name}" and make it the active one?`,
      inertLines([
        profileFactLines(facts),
        inert`Requests, and the API key you set for it, go to this URL.`,
        NOT_TYPED_BY_YOU,
      ]),
      'Add Profile',
    );
  }
  const place = whereStep ? await chooseProfilesPlace(preset ? 3 : total, preset ? 3 : total) : 'user';
  await config.addProfileSetting(profile, place);
  await config.setActiveProfile(profile.name);
  deps.log.info(
    `Added profile "${profile.name}" (${kind}, ${network}) at ${baseUrl}, in ${place === 'user' ? 'user' : 'workspace'} settings`,
  );
  if (argValue(args, 'name') === undefined && preset) {
    void showInfo(
      inert`Profile "${profile.name}" added and active: a node on ${baseUrl}, expected on network id ${preset.networkId}. A local devnet needs no API key.`,
    );
  } else if (argValue(args, 'name') === undefined) {
    void showInfo(
      inert`Profile "${profile.name}" added and active. Set its API key next.`,
      'Set API Key',
    ).then((c) => {
      if (c) void vscode.commands.executeCommand(CommandIds.setApiKey);
    });
  }
  return profile;
}

async function chooseProfile(args: unknown, placeHolder: Inert): Promise<config.ProfileSetting> {
  const all = config.profiles();
  const named = argString(args, 'name') ?? argString(args, 'profile');
  if (named) {
    const found = all.find((p) => p.name === named);
    if (!found) throw new Error(`No profile named "${named}".`);
    return found;
  }
  if (all.length === 0) throw new Error('No profiles yet. Run "Alephium: Add Profile" first.');
  const active = config.activeProfileName();
  const chosen = await pick(
    all.map((p) => ({
      // Names and URLs of profiles may come from a cloned workspace's settings: outside text.
      label: inert`${p.name}`,
      description: inert`${p.kind} · ${p.network} · ${p.baseUrl}`,
      ...(p.name === active ? { detail: inert`active` } : {}),
      profile: p,
    })),
    { placeHolder },
  );
  return chosen.profile;
}

async function switchProfile(deps: ProfileDeps, args: unknown): Promise<string> {
  const profile = await chooseProfile(args, inert`Switch to profile`);
  const named = argString(args, 'name') ?? argString(args, 'profile');
  if (named !== undefined && profile.name !== config.activeProfileName()) {
    await confirmCallerTarget(
      args,
      inert`Switch the active profile to "${profile.name}"?`,
      `to switch the active profile to "${profile.name}"`,
      inert`${profile.kind} · ${profile.network} · ${profile.baseUrl}`,
      'Switch Profile',
    );
  }
  await config.setActiveProfile(profile.name);
  deps.log.info(`Active profile: "${profile.name}"`);
  return profile.name;
}

async function removeProfile(deps: ProfileDeps, args: unknown): Promise<void> {
  const profile = await chooseProfile(args, inert`Remove profile`);
  const named = argString(args, 'name') ?? argString(args, 'profile');
  // Picked by the user: asked as always. Named by a caller: asked too, except in the extension's tests.
  if (named === undefined || !argumentsMayActForUser()) {
    const ok = await askModal(
      inert`Remove profile "${profile.name}" and its API key?`,
      inertLines([inert`${profile.kind} · ${profile.network} · ${profile.baseUrl}`]),
      'Remove',
    );
    if (ok !== 'Remove') return;
  }
  await config.removeProfileSetting(profile.name);
  await deps.secrets.deleteApiKey(profile.name);
  if (config.activeProfileName() === profile.name) {
    const next = config.profiles()[0];
    await config.setActiveProfile(next?.name ?? '');
  }
  deps.log.info(`Removed profile "${profile.name}"`);
}

function activeOrThrow(): config.ProfileSetting {
  const profile = config.activeProfile();
  if (!profile) throw new Error('No active profile. Run "Alephium: Add Profile" first.');
  return profile;
}

/** Stores the key, then checks it with one cheap request so that a wrong key is reported at once. */
async function setApiKey(deps: ProfileDeps, args: unknown): Promise<{ ok: boolean; message: string }> {
  const profile = argString(args, 'profile')
    ? await chooseProfile({ name: argString(args, 'profile') }, inert``)
    : activeOrThrow();
  // A profile that may not be used (plain http to another machine, say) gets no key: it would go there.
  const urlProblem = baseUrlProblem(profile.baseUrl);
  if (urlProblem) throw new Error(`Profile "${profile.name}": base URL ${urlProblem}. No key was stored.`);
  const origin = originOf(profile);
  const fromWorkspace = config.profileComesFromWorkspace(profile.name);
  const key =
    argString(args, 'key') ??
    (await askText({
      title: inert`API key for "${profile.name}"`,
      prompt: apiKeyPromptWords(profile.name, origin, fromWorkspace),
      password: true,
      validate: (v) => (v.trim().length < 8 ? inert`That looks too short for an API key.` : undefined),
    }));
  const candidate = key.trim();
  const interactive = argString(args, 'key') === undefined;
  if (!interactive)
    await confirmArgumentChange(
      inert`Store a new API key for profile "${profile.name}" and send it to ${origin}?`,
      inertLines([
        inert`It replaces the profile's key and goes with every request to ${origin}.`,
        NOT_TYPED_BY_YOU,
        ...(fromWorkspace ? [inert`This profile comes from this workspace's settings.`] : []),
      ]),
      'Store and Send',
    );
  // Checked before it is stored: a mistyped key must not replace one that works.
  let version: string | undefined;
  try {
    version = await deps.connection.checkApiKey(profile, candidate);
  } catch (error) {
    if (isGatewayError(error) && error.kind === 'unauthorized') {
      const kept = (await deps.secrets.getApiKey(profile.name)) !== undefined;
      const message = `The gateway rejected this API key for "${profile.name}" (401). ${kept ? 'The previous key is kept.' : 'Nothing was stored.'}`;
      deps.log.warn(message);
      if (interactive)
        void showError(inert`${message}`, 'Set API Key').then((c) => {
          if (c) void vscode.commands.executeCommand(CommandIds.setApiKey);
        });
      return { ok: false, message };
    }
    // Not a verdict on the key (the gateway is unreachable, say): store it only if the user says so.
    const reason = redactedMessage(deps, error);
    const save = interactive
      ? await askModal(
          inert`Could not check the API key for "${profile.name}": ${reason}`,
          inert`Save it anyway? Requests will tell whether the gateway accepts it.`,
          'Save Anyway',
        )
      : undefined;
    if (save !== 'Save Anyway')
      return { ok: false, message: `Not stored: could not check the key (${reason}).` };
  }
  await deps.secrets.setApiKey(profile.name, candidate, origin);
  const message =
    version !== undefined
      ? `API key saved for "${profile.name}"; the gateway answered (node ${version}).`
      : `API key saved for "${profile.name}" without a check.`;
  deps.log.info(message);
  if (interactive) void showInfo(inert`${message}`);
  return { ok: true, message };
}

function redactedMessage(deps: ProfileDeps, error: unknown): string {
  return deps.redactor.redact(error instanceof Error ? error.message : String(error));
}

async function removeApiKey(deps: ProfileDeps, args: unknown): Promise<void> {
  const named = argString(args, 'profile');
  const profile = named ? await chooseProfile({ name: named }, inert``) : activeOrThrow();
  if (named) {
    await confirmCallerTarget(
      args,
      inert`Remove the API key of "${profile.name}"?`,
      `to remove the API key of the profile "${profile.name}"`,
      inert`It is deleted from SecretStorage; "Alephium: Set API Key" stores one again.`,
      'Remove API Key',
    );
  }
  await deps.secrets.deleteApiKey(profile.name);
  deps.log.info(`Removed the API key of "${profile.name}"`);
}

function isHexKey(value: string): boolean {
  return /^(0x)?[0-9a-fA-F]{64}$/.test(value.trim());
}

async function importSignerKey(
  deps: ProfileDeps,
  args: unknown,
): Promise<{ address: string; group: number; replaced?: string }> {
  const given = argString(args, 'privateKey') ?? argString(args, 'mnemonic');
  // The key code is loaded before the prompt, so a typed phrase is checked whole as it is typed.
  const derivation = await keyDerivation();
  // On a devnet profile only (core/signing/devnetTestKey.ts), a word takes @alephium/cli's public test key.
  const network = config.activeProfile()?.network;
  const nodeId = deps.nodeNetworkId?.();
  const testKeyWords =
    given === undefined && derivation.devnetTestKeyOffered(network, nodeId)
      ? ` On this ${network ?? ''} profile, type "${derivation.DEVNET_TEST_KEY_WORD}" for ${derivation.DEVNET_TEST_KEY_LABEL} (${derivation.DEVNET_TEST_KEY_WARNING}).`
      : '';
  const typed =
    given ??
    (await askText({
      title: inert`Import Signer Key`,
      prompt: inert`A hex private key (64 hex digits) or a BIP39 mnemonic (path m/44'/1234'/0'/0/i). Stored only in SecretStorage.${testKeyWords}`,
      password: true,
      // A phrase is checked whole (words, checksum) as it is typed, before the address-index prompt.
      validate: (v) =>
        testKeyWords && derivation.devnetTestKeyChosen(v, network, nodeId)
          ? {
              message: inert`${derivation.DEVNET_TEST_KEY_LABEL}: ${derivation.DEVNET_TEST_KEY_WARNING}. Enter imports it.`,
              severity: 'warning',
            }
          : isHexKey(v)
            ? undefined
            : v.trim().split(/\s+/).length < 12
              ? inert`Enter 64 hex digits or 12-24 mnemonic words.`
              : inertProblem(derivation.mnemonicProblem(v)),
    }));
  const testKey = testKeyWords ? derivation.devnetTestKeyChosen(typed, network, nodeId) : undefined;
  const secret = testKey ?? typed;
  deps.redactor.addSecret(secret);
  let privateKey: string;
  if (isHexKey(secret)) {
    privateKey = secret.trim().replace(/^0x/, '').toLowerCase();
    derivation.publicKeyFromPrivateKey(privateKey); // throws a clear error for an out-of-range key
  } else {
    const indexArg = argValue(args, 'index');
    const index =
      typeof indexArg === 'number'
        ? indexArg
        : given
          ? 0
          : Number(
              await askText({
                title: inert`Address index`,
                value: '0',
                prompt: inert`The i in m/44'/1234'/0'/0/i`,
                validate: (v) => (/^\d+$/.test(v) ? undefined : inert`A non-negative integer.`),
              }),
            );
    privateKey = derivation.deriveKeyFromMnemonic(secret.trim().replace(/\s+/g, ' '), index).privateKey;
  }
  const address = addressFromPublicKey(derivation.publicKeyFromPrivateKey(privateKey));
  const group = groupOfAddress(address);
  const current = await signerAddress(deps);
  if (given !== undefined)
    await confirmArgumentChange(
      current === undefined
        ? inert`Use the key of address ${address} (group ${group}) as the signer key?`
        : inert`Replace the signer key of ${current.address} with the key of ${address} (group ${group})?`,
      inertLines([
        inert`Whatever is signed from now on is signed with it.`,
        NOT_TYPED_BY_YOU,
        ...(current === undefined || current.address === address
          ? []
          : [
              inert`The current key (address ${current.address}) is deleted from SecretStorage: make sure you have a backup of it.`,
            ]),
      ]),
      current === undefined ? 'Import Key' : 'Replace Key',
    );
  await deps.secrets.setSignerKey(privateKey);
  deps.log.info(`Signer key imported: address ${address} (group ${group})`);
  if (testKey)
    void showInfo(
      inert`${derivation.DEVNET_TEST_KEY_LABEL} stored as the signer key (${derivation.DEVNET_TEST_KEY_WARNING}). Address ${address}, group ${group}.`,
    );
  else if (!given)
    void showInfo(inert`Signer key stored in SecretStorage. Address ${address}, group ${group}.`);
  return { address, group, ...(current && current.address !== address ? { replaced: current.address } : {}) };
}

/** The signer's address from its public key: showing it never reads the private key. */
async function signerAddress(deps: ProfileDeps): Promise<{ address: string; group: number } | undefined> {
  const publicKey = await deps.secrets.getSignerPublicKey();
  if (!publicKey) return undefined;
  const address = addressFromPublicKey(publicKey);
  return { address, group: groupOfAddress(address) };
}

async function showSignerAddress(deps: ProfileDeps): Promise<{ address: string; group: number } | undefined> {
  const signer = await signerAddress(deps);
  if (!signer) {
    void showInfo(inert`No signer key is set.`, 'Import Signer Key').then((c) => {
      if (c) void vscode.commands.executeCommand(CommandIds.importSignerKey);
    });
    return undefined;
  }
  const { address, group } = signer;
  void showInfo(inert`Signer address ${address} (group ${group})`, 'Copy Address').then((c) => {
    if (c) void vscode.env.clipboard.writeText(address);
  });
  return signer;
}

async function forgetSignerKey(deps: ProfileDeps, args: unknown): Promise<void> {
  // `confirm: true` answers the question only in the extension's tests; anywhere else the user does.
  if (argValue(args, 'confirm') !== true || !argumentsMayActForUser()) {
    const signer = await signerAddress(deps);
    const ok = await askModal(
      signer ? inert`Forget the signer key of ${signer.address}?` : inert`Forget the signer key?`,
      inert`It is deleted from SecretStorage. Make sure you have a backup.`,
      'Forget',
    );
    if (ok !== 'Forget') return;
  }
  await deps.secrets.deleteSignerKey();
  deps.log.info('Signer key forgotten');
}
