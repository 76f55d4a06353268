/**
 * Runtime checks for values whose static type may not hold: command arguments, persisted state and
 * other input from outside TypeScript's reach.
 */

/**
 * `Array.isArray` without its `any[]`: a value typed as a readonly array keeps its element type, and
 * anything else (from a caller who ignored the type) is told apart.
 */
export function isList(value: unknown): value is readonly unknown[] {
  return Array.isArray(value);
}

/** The text of a string, number, bigint or boolean; `undefined` for anything else (objects never print as `[object Object]`). */
export function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return String(value);
  return undefined;
}
