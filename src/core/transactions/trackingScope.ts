/**
 * Tracked transactions belong to the profile and network they were sent on: a new mainnet profile's
 * Transactions view must not list (or poll, with its own client) a devnet sandbox's transactions. Each
 * scope persists under its own key; the single list older versions kept is moved, once, into the scope
 * of the profile active when it is first read, so nothing is lost.
 */

/** What a scope is made of: the profile's name and its network (a profile moved to another network is another scope). */
export interface TrackingProfile {
  readonly name: string;
  readonly network: string;
}

/** The storage key of a profile's tracked transactions: `<base>/<network>/<profile name>`. */
export function trackingScopeKey(base: string, profile: TrackingProfile): string {
  // encodeURIComponent encodes '/', so no profile name or network can meet another scope's key.
  return `${base}/${encodeURIComponent(profile.network)}/${encodeURIComponent(profile.name)}`;
}

function txIdOf(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const txId = (raw as { txId?: unknown }).txId;
  return typeof txId === 'string' ? txId.toLowerCase() : undefined;
}

/**
 * The scope's records after moving the legacy list into it: the scope's own records first, then every
 * legacy record it does not already hold (by txId). Records are kept as stored (parsing comes later),
 * so a record this version cannot read is not dropped by the move either.
 */
export function mergeLegacyRecords(
  scoped: readonly unknown[] | undefined,
  legacy: readonly unknown[] | undefined,
): { readonly records: unknown[]; readonly moved: number } {
  const records = [...(scoped ?? [])];
  const held = new Set(records.map(txIdOf).filter((id): id is string => id !== undefined));
  let moved = 0;
  for (const raw of legacy ?? []) {
    const id = txIdOf(raw);
    if (id !== undefined && held.has(id)) continue;
    if (id !== undefined) held.add(id);
    records.push(raw);
    moved++;
  }
  return { records, moved };
}
