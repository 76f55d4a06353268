/**
 * API keys are stored bound to the origin (`{baseUrl}/{slug}`) they were entered for, so that a profile
 * whose base URL changes (a workspace's settings can change it) does not carry the key to another host.
 * A plain stored string is a key from before keys were bound. This module owns the rule "where may this
 * key be sent", and the words of the question that moves a key to another origin.
 */
import { inert, inertLines, plainText, type Inert } from '../text/inert';

export interface StoredKey {
  readonly key: string;
  /** Undefined for a key stored before keys were bound to an origin. */
  readonly origin?: string;
}

export function encodeBoundKey(key: string, origin: string): string {
  return JSON.stringify({ key, origin });
}

export function decodeStoredKey(raw: string | undefined): StoredKey | undefined {
  if (!raw) return undefined;
  if (raw.startsWith('{')) {
    try {
      const parsed = JSON.parse(raw) as { key?: unknown; origin?: unknown };
      if (typeof parsed.key === 'string' && typeof parsed.origin === 'string' && parsed.key)
        return { key: parsed.key, origin: parsed.origin };
    } catch {
      // A key that merely starts with "{" is a plain key.
    }
  }
  return { key: raw };
}

/** Where the profile that asks for the key is defined. */
export interface KeyRequestContext {
  /**
   * The profile is defined by this workspace's settings (a cloned repository can write them), not by the
   * user's own. Only then does a key stored without an origin wait for the user's consent.
   */
  readonly profileFromWorkspace?: boolean;
}

/**
 * What may be sent to `origin`:
 * - `key`: the key is bound there (`bindNow`: it was stored without an origin, by an older version, and
 *   the profile is the user's own, so it is bound to where it has always gone);
 * - `boundTo`: it belongs to another origin and goes nowhere else until the user moves it;
 * - `unbound`: it was stored without an origin and the profile comes from the workspace's settings, so
 *   it goes there only if the user says so (a cloned repository could have renamed a profile to it);
 * - nothing: no key is stored.
 */
export function keyForOrigin(
  stored: StoredKey | undefined,
  origin: string,
  context: KeyRequestContext = {},
): { key?: string; boundTo?: string; bindNow?: boolean; unbound?: boolean } {
  if (!stored) return {};
  if (stored.origin === undefined)
    return context.profileFromWorkspace ? { unbound: true } : { key: stored.key, bindNow: true };
  return stored.origin === origin ? { key: stored.key } : { boundTo: stored.origin };
}

/** The host of an origin for a button label (the origin itself when it does not parse). */
export function hostOf(origin: string): string {
  try {
    return new URL(origin).host || origin;
  } catch {
    return origin;
  }
}

/** The words of the modal that moves a profile's key to a new origin. Values are outside text. */
export interface KeyMoveQuestion {
  readonly profile: string;
  /** Where the key is bound now; undefined for a key stored without an origin. */
  readonly from: string | undefined;
  readonly to: string;
  readonly profileFromWorkspace: boolean;
}

export interface KeyMoveWords {
  readonly message: Inert;
  readonly detail: Inert;
  /** The button that moves the key; it names the host. */
  readonly action: string;
}

/**
 * The question the user must answer (in a modal) before a key is sent to an origin it was not entered
 * for: it names the new origin, where the key was bound, and says when the profile comes from this
 * workspace's settings. Names and origins are outside text (a workspace's settings), so they are inert.
 */
export function keyMoveWords(q: KeyMoveQuestion): KeyMoveWords {
  const lines = [
    q.from === undefined
      ? inert`The key was stored by an earlier version without the address it was entered for.`
      : inert`The key was entered for ${q.from}.`,
    q.from === undefined
      ? inert`From now on it is sent with every request to ${q.to}, and only there.`
      : inert`From now on it is sent with every request to ${q.to}, and no longer to ${q.from}.`,
  ];
  if (q.profileFromWorkspace)
    lines.push(
      inert`This profile is defined by this workspace's settings (.vscode/settings.json), which a cloned repository can write. Allow it only if you know and trust that address.`,
    );
  lines.push(inert`Otherwise cancel, and set a key for this address with "Alephium: Set API Key".`);
  return {
    message: inert`Send the API key of profile "${q.profile}" to ${q.to}?`,
    detail: inertLines(lines),
    action: `Send the Key to ${plainText(hostOf(q.to), 100)}`,
  };
}

/** The prompt of Set API Key: where the typed key will be sent (and checked at once). */
export function apiKeyPromptWords(profile: string, origin: string, profileFromWorkspace: boolean): Inert {
  const where = inert`The key is sent to ${origin} with every request of "${profile}" (once now, to check it).`;
  const stored = inert`Stored only in VS Code SecretStorage, never in settings or logs.`;
  return profileFromWorkspace
    ? inert`${where} This profile comes from this workspace's settings. ${stored}`
    : inert`${where} ${stored}`;
}
