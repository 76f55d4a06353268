import * as vscode from 'vscode';
import type { ConnectionProfile, Plan } from '../core/gateway';
import type { NetworkSettings } from '../core/gateway';
import { networkNameProblem } from '../core/profiles/profile';

/** The one place that reads settings. Everything else gets plain values from here. */
export const SECTION = 'alephium';

export interface ProfileSetting {
  readonly name: string;
  readonly kind: 'gateway' | 'node';
  readonly baseUrl: string;
  readonly slug?: string;
  readonly network: string;
  readonly plan?: Plan;
  readonly requestsPerSecond?: number;
  readonly requestsPerMonth?: number;
  /** Where Open in Explorer goes for this profile (core/explorer checks it); mainnet and testnet have one. */
  readonly explorerUrl?: string;
}

export type UnfocusedPolling = 'continue' | 'slow' | 'pause';

function section(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(SECTION);
}

/**
 * The profiles of the user's settings, then those of a trusted workspace's settings that the user has no
 * profile of the same name for. A workspace adds to the user's profiles rather than replacing them (a
 * profile written to user settings is seen in every folder), and a name the user already has is the
 * user's: a cloned repository cannot re-point it.
 */
export function profiles(): ProfileSetting[] {
  const user = profilesIn('user');
  const names = new Set(user.map((p) => p.name));
  return [...user, ...profilesIn('workspace').filter((p) => !names.has(p.name))];
}

/** Where a profile may be written: the user's own settings (the default), or this workspace's. */
export type ProfilesPlace = 'user' | 'workspace';

/** The valid profiles one place holds; the workspace's count only when it is trusted (as VS Code does). */
function profilesIn(place: ProfilesPlace): ProfileSetting[] {
  const inspected = section().inspect<unknown>('profiles');
  if (place === 'workspace' && !vscode.workspace.isTrusted) return [];
  const raw = place === 'user' ? inspected?.globalValue : inspected?.workspaceValue;
  return Array.isArray(raw) ? raw.filter(isProfileSetting) : [];
}

/** The raw list one place holds (entries that are not valid profiles are kept as they are). */
function rawProfilesIn(place: ProfilesPlace): unknown[] {
  const inspected = section().inspect<unknown>('profiles');
  const raw = place === 'user' ? inspected?.globalValue : inspected?.workspaceValue;
  return Array.isArray(raw) ? raw : [];
}

function targetOf(place: ProfilesPlace): vscode.ConfigurationTarget {
  return place === 'user' ? vscode.ConfigurationTarget.Global : vscode.ConfigurationTarget.Workspace;
}

/** Whether a workspace is open whose settings a profile could be written to. */
export function canWriteWorkspaceSettings(): boolean {
  return (vscode.workspace.workspaceFolders?.length ?? 0) > 0;
}

/** Appends a profile to the user's settings (the default) or, when the user chose it, the workspace's. */
export async function addProfileSetting(
  profile: ProfileSetting,
  place: ProfilesPlace = 'user',
): Promise<void> {
  await section().update('profiles', [...rawProfilesIn(place), profile], targetOf(place));
}

/** Removes the profile of this name from every place that holds one. */
export async function removeProfileSetting(name: string): Promise<void> {
  const named = (p: unknown) =>
    typeof p === 'object' && p !== null && (p as { name?: unknown }).name === name;
  for (const place of ['user', 'workspace'] as const) {
    const raw = rawProfilesIn(place);
    if (raw.some(named))
      await section().update(
        'profiles',
        raw.filter((p) => !named(p)),
        targetOf(place),
      );
  }
}

/**
 * A profile as settings may hold it. The network name is checked here too (core/profiles/profile.ts owns
 * the rule): it names the deployments file, and a profile from a cloned workspace must not be able to
 * name a path with it. A profile that fails is not offered at all; its URL is checked when it is used.
 */
function isProfileSetting(value: unknown): value is ProfileSetting {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.name === 'string' &&
    typeof v.baseUrl === 'string' &&
    (v.kind === 'gateway' || v.kind === 'node') &&
    networkNameProblem(v.network) === undefined
  );
}

/**
 * Whether the profile of this name is the one this workspace's settings define (a cloned repository's
 * `.vscode/settings.json`), which people should know before their API key is sent where it points.
 * In an untrusted workspace those settings are ignored, so nothing comes from it.
 */
export function profileComesFromWorkspace(name: string): boolean {
  if (profilesIn('user').some((p) => p.name === name)) return false;
  return profilesIn('workspace').some((p) => p.name === name);
}

/**
 * Why the settings' profile of this name is not used, when an entry of that name exists but is not a
 * valid profile (e.g. a network name that is not a plain word): said instead of "no profile".
 */
export function unusableProfileProblem(name: string): string | undefined {
  const raw = [...rawProfilesIn('user'), ...(vscode.workspace.isTrusted ? rawProfilesIn('workspace') : [])];
  const entry = raw.find(
    (p): p is Record<string, unknown> =>
      typeof p === 'object' && p !== null && (p as { name?: unknown }).name === name,
  );
  if (!entry || isProfileSetting(entry)) return undefined;
  if (typeof entry.baseUrl !== 'string') return 'its baseUrl is missing';
  if (entry.kind !== 'gateway' && entry.kind !== 'node') return 'its kind must be "gateway" or "node"';
  return `its network ${networkNameProblem(entry.network) ?? 'is not valid'}`;
}

export function activeProfileName(): string | undefined {
  return section().get<string>('activeProfile') || undefined;
}

export function activeProfile(): ProfileSetting | undefined {
  const all = profiles();
  const name = activeProfileName();
  return all.find((p) => p.name === name) ?? (name ? undefined : all[0]);
}

/** The core's connection profile for a setting (validated by the client when it is built). */
export function toConnectionProfile(p: ProfileSetting): ConnectionProfile {
  const limits = {
    ...(p.requestsPerSecond ? { perSecond: p.requestsPerSecond } : {}),
    ...(p.requestsPerMonth ? { perMonth: p.requestsPerMonth } : {}),
  };
  if (p.kind === 'node') return { kind: 'node', baseUrl: p.baseUrl, network: p.network, limits };
  return {
    kind: 'gateway',
    baseUrl: p.baseUrl,
    slug: p.slug ?? '',
    network: p.network,
    plan: p.plan ?? 'free',
    limits,
  };
}

export async function setActiveProfile(name: string): Promise<void> {
  const inspected = section().inspect('activeProfile');
  const target =
    inspected?.workspaceValue !== undefined
      ? vscode.ConfigurationTarget.Workspace
      : vscode.ConfigurationTarget.Global;
  await section().update('activeProfile', name, target);
}

export function requiredConfirmations(): number {
  return Math.max(1, section().get<number>('transactions.confirmations', 1));
}

export function notFoundGraceSeconds(): number {
  return Math.max(16, section().get<number>('transactions.notFoundGraceSeconds', 64));
}

/**
 * Turning this off is an explicit choice in the user's own settings; it is never turned off implicitly,
 * and never by a workspace: a cloned repository's .vscode/settings.json must not switch off the
 * confirmation before signing, so only the user (global) value counts.
 */
export function confirmBeforeSigning(): boolean {
  return section().inspect<boolean>('transactions.confirmBeforeSigning')?.globalValue ?? true;
}

export function mutableCacheSeconds(): number {
  return Math.min(15, Math.max(5, section().get<number>('cache.mutableSeconds', 10)));
}

export function watchIntervalSeconds(): number | undefined {
  const v = section().get<number>('watch.intervalSeconds', 0);
  return v > 0 ? Math.max(16, v) : undefined;
}

export function watchMonthlyShare(): number {
  return Math.min(100, Math.max(1, section().get<number>('watch.monthlySharePercent', 50)));
}

export function unfocusedPolling(): UnfocusedPolling {
  return section().get<UnfocusedPolling>('watch.whenUnfocused', 'slow');
}

export function notifyEvents(): string[] {
  return section().get<string[]>('watch.notifyEvents', []);
}

export function eventPageSize(): number {
  return Math.min(100, Math.max(1, section().get<number>('events.pageSize', 25)));
}

/**
 * VS Code's own network settings (the ones the rest of VS Code's requests follow), for the core network
 * policy; the environment is added by the caller.
 */
export function networkSettings(): Omit<NetworkSettings, 'environment'> {
  const http = vscode.workspace.getConfiguration('http');
  const proxy = http.get<string>('proxy');
  const proxyAuthorization = http.get<string | null>('proxyAuthorization') ?? undefined;
  const proxySupport = http.get<string>('proxySupport');
  return {
    ...(proxy ? { proxy } : {}),
    ...(proxyAuthorization ? { proxyAuthorization } : {}),
    noProxy: http.get<string[]>('noProxy', []),
    proxyStrictSSL: http.get<boolean>('proxyStrictSSL', true),
    ...(proxySupport ? { proxySupport } : {}),
  };
}

/** `http.systemCertificates`: trust the certificates installed on the machine (default on, as in VS Code). */
export function systemCertificates(): boolean {
  return vscode.workspace.getConfiguration('http').get<boolean>('systemCertificates', true);
}

const NETWORK_SETTINGS = [
  'http.proxy',
  'http.proxyAuthorization',
  'http.proxyStrictSSL',
  'http.noProxy',
  'http.proxySupport',
  'http.systemCertificates',
];

/** Settings whose change means the client must be rebuilt (others are read live). */
export function affectsConnection(e: vscode.ConfigurationChangeEvent): boolean {
  return (
    e.affectsConfiguration(`${SECTION}.profiles`) ||
    e.affectsConfiguration(`${SECTION}.activeProfile`) ||
    e.affectsConfiguration(`${SECTION}.cache`) ||
    NETWORK_SETTINGS.some((setting) => e.affectsConfiguration(setting))
  );
}
