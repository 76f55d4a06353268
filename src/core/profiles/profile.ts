/**
 * Connection profiles: where requests go and how they are authenticated.
 *
 * - A `gateway` profile talks to the Node Gateway: `{baseUrl}/{slug}/...` with `Authorization: Bearer`.
 * - A `node` profile talks to a full node directly (a local devnet): `{baseUrl}/...`, optionally with the
 *   node's own `X-API-KEY` header.
 */
import { inert, inertLines, type Inert } from '../text/inert';
import { ValidationError } from '../gateway/errors';

export type Plan = 'free' | 'starter' | 'pro' | 'enterprise';

export interface PlanLimits {
  /** Requests per second (the spec's per-key rate limit). */
  readonly perSecond: number;
  /** Requests per calendar month. */
  readonly perMonth: number;
}

/** The spec's Limits table. Enterprise is custom: the profile supplies its numbers. */
export const PLAN_LIMITS: Readonly<Record<Exclude<Plan, 'enterprise'>, PlanLimits>> = {
  free: { perSecond: 5, perMonth: 100_000 },
  starter: { perSecond: 25, perMonth: 1_000_000 },
  pro: { perSecond: 100, perMonth: 10_000_000 },
};

export interface GatewayProfile {
  readonly kind: 'gateway';
  readonly baseUrl: string;
  readonly slug: string;
  /**
   * Network name as the user calls it (mainnet, testnet, devnet, ...): it names the deployments file
   * (`.deployments.<network>.json`), so it is a plain word ({@link networkNameProblem}).
   */
  readonly network: string;
  readonly plan: Plan;
  /** Overrides of the plan's limits (required for `enterprise`, optional otherwise). */
  readonly limits?: Partial<PlanLimits>;
}

export interface NodeProfile {
  readonly kind: 'node';
  readonly baseUrl: string;
  readonly network: string;
  /** A node has no plan; pacing only applies when the node (or a proxy) announces a limit. */
  readonly limits?: Partial<PlanLimits>;
}

export type ConnectionProfile = GatewayProfile | NodeProfile;

/**
 * Returns the current API key, or undefined when none is set. Called for every request, so that a key
 * replaced in SecretStorage is picked up without rebuilding the client.
 */
export type KeyProvider = () => Promise<string | undefined> | string | undefined;

export function limitsOf(profile: ConnectionProfile): Partial<PlanLimits> {
  const base = profile.kind === 'gateway' && profile.plan !== 'enterprise' ? PLAN_LIMITS[profile.plan] : {};
  return { ...base, ...profile.limits };
}

/**
 * What is wrong with a gateway slug for this base URL, or undefined. The slug is exactly one path
 * segment: `.` and `..` would be removed by URL normalisation (the request would leave the slug's
 * prefix), and a base URL that already ends with the slug would double it (`/slug/slug/...`).
 */
export function slugProblem(baseUrl: string, slug: string): string | undefined {
  if (!/^[A-Za-z0-9._~-]+$/.test(slug) || slug === '.' || slug === '..')
    return 'must be one path segment (letters, digits, . _ ~ -), not "." or ".."';
  let last: string | undefined;
  try {
    last = new URL(baseUrl).pathname.split('/').filter(Boolean).pop();
  } catch {
    return undefined; // the base URL's own check names that problem
  }
  if (last !== undefined && decodeURIComponent(last) === slug)
    return `the base URL already ends with /${slug}: give the base URL without it (requests go to {baseUrl}/{slug}/...)`;
  return undefined;
}

/** Longest network name: longer than any real one, short enough for a file name. */
const NETWORK_NAME_MAX = 32;

/**
 * What is wrong with a profile's network name, or undefined. The name becomes part of a file name
 * (`deployments/.deployments.<network>.json`), and a profile may come from a cloned workspace's settings,
 * so it is a plain word: letters, digits, `-` and `_`, starting with a letter or digit (no `.`, `/` or `\`
 * that could leave the deployments folder).
 */
export function networkNameProblem(network: unknown): string | undefined {
  if (typeof network !== 'string' || network === '') return 'is required (mainnet, testnet or devnet)';
  if (network.length > NETWORK_NAME_MAX) return `must be at most ${NETWORK_NAME_MAX} characters`;
  // One character class, no repetition of groups: linear on any input.
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(network))
    return 'must be a plain name (letters, digits, - and _), e.g. mainnet, testnet or devnet';
  return undefined;
}

/** Hosts that never leave this machine: the only ones a key may be sent to over plain http. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase());
}

/**
 * What is wrong with a base URL, or undefined: it is an absolute https URL (plain http only to this
 * machine, since the key travels in a header), with no user name or password (they would be logged and
 * shown with the URL), no query and no fragment.
 */
export function baseUrlProblem(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return `not a URL: ${JSON.stringify(baseUrl.slice(0, 200))}`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must start with https:// or http://';
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    return 'must use https:// (plain http:// only for this machine: localhost, 127.0.0.1 or [::1]), so the key is not sent in clear';
  if (url.username || url.password)
    return 'must not carry a user name or password (give the key with "Alephium: Set API Key")';
  if (url.search || url.hash) return 'must not carry a query or fragment';
  return undefined;
}

/** Checks a profile before it is used, naming the offending field. */
export function validateProfile(profile: ConnectionProfile): void {
  const urlProblem = baseUrlProblem(profile.baseUrl);
  if (urlProblem) throw new ValidationError('baseUrl', urlProblem);
  const networkProblem = networkNameProblem(profile.network);
  if (networkProblem) throw new ValidationError('network', networkProblem);
  if (profile.kind === 'gateway') {
    // The slug is exactly one path segment; anything else would silently address another endpoint.
    const problem = slugProblem(profile.baseUrl, profile.slug);
    if (problem) throw new ValidationError('slug', problem);
    if (profile.plan === 'enterprise' && !profile.limits?.perSecond) {
      throw new ValidationError('limits.perSecond', 'is required for an enterprise plan');
    }
  }
  for (const [field, value] of Object.entries(profile.limits ?? {})) {
    if (value !== undefined && (!Number.isInteger(value) || value <= 0)) {
      throw new ValidationError(`limits.${field}`, 'must be a positive integer');
    }
  }
}

/** The URL prefix every path is appended to: `{baseUrl}/{slug}` or `{baseUrl}`, without a trailing slash. */
export function urlPrefix(profile: ConnectionProfile): string {
  const base = profile.baseUrl.replace(/\/+$/, '');
  return profile.kind === 'gateway' ? `${base}/${encodeURIComponent(profile.slug)}` : base;
}

/** The authentication header for a profile and key (none for a node without a key). */
export function authHeaders(profile: ConnectionProfile, key: string | undefined): Record<string, string> {
  if (!key) return {};
  return profile.kind === 'gateway' ? { authorization: `Bearer ${key}` } : { 'x-api-key': key };
}

/** A profile as a person reviews it before it is added (any value may come from a command's caller). */
export interface ProfileFacts {
  readonly name: string;
  readonly kind: string;
  readonly baseUrl: string;
  readonly slug?: string;
  readonly network: string;
  readonly plan?: string;
}

/**
 * The lines a confirmation shows for a profile: name, kind, where its requests (and its key) go, the
 * network and the plan. The values are outside text (a command's caller chose them), so they are inert.
 */
export function profileFactLines(p: ProfileFacts): Inert {
  return inertLines([
    inert`Name: ${p.name}`,
    inert`Kind: ${p.kind}`,
    p.slug !== undefined ? inert`URL: ${p.baseUrl} (slug ${p.slug})` : inert`URL: ${p.baseUrl}`,
    inert`Network: ${p.network}`,
    ...(p.plan !== undefined ? [inert`Plan: ${p.plan}`] : []),
  ]);
}
