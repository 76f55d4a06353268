/**
 * API keys are stored bound to the origin (`{baseUrl}/{slug}`) they were entered for, so that a profile
 * whose base URL changes (a workspace's settings can change it) does not carry the key to another host.
 * A plain stored string is a key from before keys were bound.
 */
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

/** What may be sent to `origin`: the key when it is bound there (or not bound yet), else where it belongs. */
export function keyForOrigin(
  stored: StoredKey | undefined,
  origin: string,
): { key?: string; boundTo?: string; bindNow?: boolean } {
  if (!stored) return {};
  if (stored.origin === undefined) return { key: stored.key, bindNow: true };
  return stored.origin === origin ? { key: stored.key } : { boundTo: stored.origin };
}
