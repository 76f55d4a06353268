/**
 * Whether the editor's SecretStorage keeps what this extension stores. Some web workbenches (the one
 * `npm start` serves answers "Method Not Allowed … seal") hold secrets only in memory: a key imported
 * there works until the window reloads, then the older value (or none) comes back, silently. Each store
 * bumps a generation number kept twice, in SecretStorage and in the extension's state; after a reload a
 * SecretStorage generation older than the state's says the newer secrets were not kept.
 */

/** What the person is told, once per window, when secrets are not kept. */
export const SECRETS_NOT_KEPT =
  'This VS Code cannot keep secrets across a reload (some web workbenches keep SecretStorage in memory): keys imported or set here last only for this window.';

/**
 * True when SecretStorage holds at least the generation last written (`recorded`, from the extension's
 * state); nothing recorded yet is nothing to compare, so it counts as kept. `stored` is SecretStorage's
 * text (undefined when it holds none).
 */
export function secretsKept(recorded: unknown, stored: string | undefined): boolean {
  if (typeof recorded !== 'number' || !Number.isSafeInteger(recorded) || recorded <= 0) return true;
  const generation = stored === undefined || !/^\d{1,15}$/.test(stored) ? 0 : Number(stored);
  return generation >= recorded;
}

/** The generation a store writes next. */
export function nextGeneration(recorded: unknown): number {
  return typeof recorded === 'number' && Number.isSafeInteger(recorded) && recorded > 0 ? recorded + 1 : 1;
}
