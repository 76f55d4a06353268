import * as vscode from 'vscode';
import {
  GatewayClient,
  urlPrefix,
  type MonthlyUsage,
  type RateHeadroom,
  type UsageRecord,
} from '../core/gateway';
import type { Logger } from '../core/util/log';
import { clientScheduler } from '../core/scheduling/clientScheduler';
import type { Redactor } from '../core/util/redact';
import { inert } from '../core/text/inert';
import { askModal, showWarning } from './notify';
import { keyMoveWords } from '../core/gateway/keyBinding';
import { callContracts } from '../core/gateway/batching';
// By its file, not the tokens barrel: the barrel reaches the catalog, which activation never runs.
import { tokenListNetworkId } from '../core/tokens/network';
import type { TokenCatalog, TokenMeta, TokenMetaStore } from '../core/tokens';
import { tokenLists } from './lazyEngine';
import * as config from './config';
import { networkOptions } from './network';
import type { SecretStore } from './secrets';
import { BuiltinCommands, CommandIds, ContextKeys, StorageKeys } from '../constants';

/** Where a profile's requests go, which is what its API key is bound to: `{baseUrl}/{slug}` or `{baseUrl}`. */
export function originOf(profile: config.ProfileSetting): string {
  return urlPrefix(config.toConnectionProfile(profile));
}

/** The origin of the profile of this name in the settings, or undefined when there is none. */
export function originOfProfileNamed(name: string): string | undefined {
  const profile = config.profiles().find((p) => p.name === name);
  return profile ? originOf(profile) : undefined;
}

export interface ConnectionState {
  readonly profile: config.ProfileSetting | undefined;
  readonly client: GatewayClient | undefined;
  /** Why there is no client (no profile, invalid profile). */
  readonly problem?: string;
}

/**
 * Owns the gateway client of the active profile: builds it lazily on first use, rebuilds it when the
 * profile, the cache or the proxy settings change, and disposes the old one (its pollers go with it).
 * Monthly request counts survive reloads through globalState.
 */
export class ConnectionManager implements vscode.Disposable {
  private current: ConnectionState | undefined;
  private readonly changed = new vscode.EventEmitter<ConnectionState>();
  readonly onDidChange = this.changed.event;
  private readonly headroomEmitter = new vscode.EventEmitter<RateHeadroom>();
  readonly onHeadroom = this.headroomEmitter.event;
  private readonly usageEmitter = new vscode.EventEmitter<MonthlyUsage>();
  readonly onUsage = this.usageEmitter.event;
  private readonly errorEmitter = new vscode.EventEmitter<{ kind: string; message: string }>();
  /** Failures worth showing in the status bar (401, 429, unreachable). */
  readonly onError = this.errorEmitter.event;
  private clientSubscriptions: { dispose(): void }[] = [];
  private readonly disposables: vscode.Disposable[] = [];

  /** Requests left this month on the active key, when the plan's limit is known (local; for cost notices). */
  async requestsLeftThisMonth(): Promise<number | undefined> {
    const usage = await this.state.client?.currentUsage().catch(() => undefined);
    return usage?.limit !== undefined ? usage.limit - usage.count : undefined;
  }

  constructor(
    private readonly secrets: SecretStore,
    private readonly redactor: Redactor,
    private readonly log: Logger,
    private readonly globalState: vscode.Memento,
  ) {
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (config.affectsConnection(e)) this.reset();
      }),
      secrets.onDidChange(() => {
        // The client asks the key provider on every request, so a new key needs no rebuild; listeners
        // (status bar, node view) still want to know.
        if (this.current) this.changed.fire(this.current);
      }),
      this.changed,
      this.headroomEmitter,
      this.usageEmitter,
      this.errorEmitter,
    );
  }

  get state(): ConnectionState {
    if (!this.current) {
      this.current = this.build();
      this.publishContext();
    }
    return this.current;
  }

  /**
   * The active profile, the one `state` builds its client from, without building that client when none is
   * built yet: activation reads the watch list by it, and the client waits for the first view or request.
   */
  get profile(): config.ProfileSetting | undefined {
    return this.current ? this.current.profile : config.activeProfile();
  }

  /**
   * `alephium.connected` gates the commands and view buttons that need a client (package.json `when`
   * clauses). Before the client is built (it is built lazily) a configured active profile counts, so
   * nothing is hidden from a user who has set one up; once built, whether it could be built.
   */
  publishContext(): void {
    const connected = this.current ? this.current.client !== undefined : config.activeProfile() !== undefined;
    if (connected === this.connectedContext) return;
    this.connectedContext = connected;
    void vscode.commands.executeCommand(BuiltinCommands.setContext, ContextKeys.connected, connected);
  }

  /** The client of the active profile, or a clear error saying what to set up. */
  requireClient(): GatewayClient {
    const { client, problem } = this.state;
    if (!client) throw new Error(problem ?? 'No gateway profile is active. Run "Alephium: Add Profile".');
    return client;
  }

  reset(): void {
    this.disposeClient();
    this.current = undefined;
    this.changed.fire(this.state);
  }

  private connectedContext: boolean | undefined;

  private tokens: { readonly client: GatewayClient; readonly catalog: Promise<TokenCatalog> } | undefined;

  /**
   * The token catalog of the active connection, one per client: the shipped list of the profile's network
   * (mainnet, testnet; none for a devnet), then the token contracts through this client's multicalls, what
   * they said kept in globalState per network. Undefined without a client.
   */
  tokenCatalog(): Promise<TokenCatalog | undefined> {
    const { profile, client } = this.state;
    if (!profile || !client) return Promise.resolve(undefined);
    if (this.tokens?.client !== client) {
      const network = profile.network.trim().toLowerCase();
      const catalog = tokenLists().then((m) =>
        m.newTokenCatalog(
          tokenListNetworkId(network),
          (calls, signal) =>
            callContracts(client, calls, { priority: 'user', ...(signal ? { signal } : {}) }),
          this.tokenStore(network),
        ),
      );
      const entry = { client, catalog };
      // A module that failed to load is asked again next time, not remembered as failed.
      catalog.catch(() => {
        if (this.tokens === entry) this.tokens = undefined;
      });
      this.tokens = entry;
    }
    return this.tokens.catalog;
  }

  /** What each token id is called (lower-case ids); an empty map without a connection. */
  async tokenMetadata(
    tokenIds: readonly string[],
    signal?: AbortSignal,
  ): Promise<ReadonlyMap<string, TokenMeta | undefined>> {
    const catalog = await this.tokenCatalog();
    return catalog ? catalog.resolve(tokenIds, signal) : new Map();
  }

  private tokenStore(network: string): TokenMetaStore {
    const key = StorageKeys.tokenMetadata(network);
    return {
      load: () => this.globalState.get<Record<string, TokenMeta>>(key),
      save: (record) => void this.globalState.update(key, record),
    };
  }

  /**
   * Asks the gateway of `profile` whether it accepts `key`, without storing it: a short-lived client with
   * the profile's settings sends one uncached request. Resolves with the node's version; rejects with the
   * gateway's error (a 401 for a rejected key). The key is registered with the redactor first.
   */
  async checkApiKey(profile: config.ProfileSetting, key: string): Promise<string> {
    this.redactor.addSecret(key);
    const probe = new GatewayClient({
      profile: config.toConnectionProfile(profile),
      keyProvider: () => key,
      logger: this.log,
      redactor: this.redactor,
      network: () => networkOptions(this.log),
      userAgent: 'alephium-gateway-vscode',
    });
    try {
      const version = (await probe.getVersion({ fresh: true })).version;
      // The gateway answered this key: if the active client holds a quota lock for it, the lock is
      // stale (the quota was restored); its next request must be sent, not refused without asking.
      const active = this.current?.client;
      if (active && this.current?.profile?.name === profile.name) active.quotaAnswered(key);
      return version;
    } finally {
      probe.dispose();
    }
  }

  private warnedOrigins = new Set<string>();

  /**
   * The key for requests of `profile`, only if it was entered for the profile's current origin (the rule
   * is core/gateway/keyBinding's `keyForOrigin`). Otherwise nothing is sent (the request fails as "no API key")
   * and the user is told, once; the key moves to the new origin only through a modal that names it.
   */
  private async keyFor(profile: config.ProfileSetting): Promise<string | undefined> {
    const origin = originOf(profile);
    const profileFromWorkspace = config.profileComesFromWorkspace(profile.name);
    const { key, boundTo, unbound } = await this.secrets.apiKeyFor(profile.name, origin, {
      profileFromWorkspace,
    });
    if (key || (!boundTo && !unbound)) return key;
    const warning = `${profile.name}|${origin}`;
    if (!this.warnedOrigins.has(warning)) {
      this.warnedOrigins.add(warning);
      const message = boundTo
        ? `The API key of profile "${profile.name}" was entered for ${boundTo}, but the profile now points at ${origin}. It is not sent there unless you allow it.`
        : `The API key of profile "${profile.name}" was stored without the address it is for, and the profile comes from this workspace's settings. It is not sent to ${origin} unless you allow it.`;
      this.log.warn(message);
      void showWarning(inert`${message}`, 'Review…', 'Set API Key').then((choice) => {
        if (choice === 'Review…') void this.askToMoveKey(profile.name, boundTo, origin, profileFromWorkspace);
        else if (choice === 'Set API Key') void vscode.commands.executeCommand(CommandIds.setApiKey);
      });
    }
    return undefined;
  }

  /** The only way a key moves to another origin: a modal that names it (core/gateway/keyBinding's words). */
  private async askToMoveKey(
    profile: string,
    from: string | undefined,
    to: string,
    profileFromWorkspace: boolean,
  ): Promise<void> {
    const words = keyMoveWords({ profile, from, to, profileFromWorkspace });
    const choice = await askModal(words.message, words.detail, words.action);
    if (choice !== words.action) return;
    if (await this.secrets.moveApiKey(profile, from, to))
      this.log.info(`The API key of "${profile}" now goes to ${to}`);
    else this.log.warn(`The API key of "${profile}" changed meanwhile; it was not moved to ${to}`);
  }

  reportError(kind: string, message: string): void {
    this.errorEmitter.fire({ kind, message: this.redactor.redact(message) });
  }

  private build(): ConnectionState {
    const profile = config.activeProfile();
    if (!profile) {
      const name = config.activeProfileName();
      const unusable = name ? config.unusableProfileProblem(name) : undefined;
      if (unusable) this.log.error(`Profile "${name}" in the settings is not used: ${unusable}.`);
      return {
        profile: undefined,
        client: undefined,
        problem: unusable
          ? `Profile "${name}" in the settings is not used: ${unusable}. Fix it in alephium.profiles.`
          : 'No gateway profile is set up. Run "Alephium: Add Profile".',
      };
    }
    try {
      const client = new GatewayClient({
        profile: config.toConnectionProfile(profile),
        keyProvider: () => this.keyFor(profile),
        logger: this.log,
        redactor: this.redactor,
        cache: { mutableTtlMs: config.mutableCacheSeconds() * 1000 },
        network: () => networkOptions(this.log),
        userAgent: 'alephium-gateway-vscode',
      });
      client.usage.load(this.globalState.get<UsageRecord[]>(StorageKeys.monthlyUsage, []));
      // The month's activity survives reloads, so the background keeps pacing against the real month.
      const activityKey = StorageKeys.backgroundActivity(profile.name);
      clientScheduler(client).setActivityStore({
        get: () => this.globalState.get(activityKey),
        set: (record) => this.globalState.update(activityKey, record),
      });
      this.clientSubscriptions = [
        client.onRateLimit((h) => this.headroomEmitter.fire(h)),
        client.onUsage((u) => {
          this.usageEmitter.fire(u);
          void this.globalState.update(StorageKeys.monthlyUsage, client.usage.save());
        }),
        client.onUnauthorized((e) =>
          this.errorEmitter.fire({
            kind: 'unauthorized',
            message: `The API key of "${profile.name}" was rejected (401) at ${e.endpoint}.`,
          }),
        ),
        client.onQuotaExhausted(({ until }) =>
          this.errorEmitter.fire({
            kind: 'quota',
            message: `monthly quota used up until ${new Date(until).toISOString().slice(0, 10)}`,
          }),
        ),
        client.onRequest((r) => {
          if (r.status === 429)
            this.errorEmitter.fire({ kind: 'rateLimited', message: `429 at ${r.endpoint}` });
        }),
      ];
      this.log.info(`Connected profile "${profile.name}" (${profile.kind}) at ${profile.baseUrl}`);
      return { profile, client };
    } catch (error) {
      const message = `Profile "${profile.name}" is not usable: ${error instanceof Error ? error.message : String(error)}`;
      this.log.error(message);
      return { profile, client: undefined, problem: message };
    }
  }

  private disposeClient(): void {
    for (const s of this.clientSubscriptions.splice(0)) s.dispose();
    if (this.current?.client) {
      void this.globalState.update(StorageKeys.monthlyUsage, this.current.client.usage.save());
      this.current.client.dispose();
    }
  }

  dispose(): void {
    this.disposeClient();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
