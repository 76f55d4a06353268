import * as vscode from 'vscode';
import type { MonthlyUsage, RateHeadroom } from '../core/gateway';
import { limitsOf, type ConnectionProfile } from '../core/gateway';
import { isMainnet } from '../core/signing/confirmPolicy';
import { statusBarView, userHeadroomAfter, type UserWindow } from '../core/statusBar/statusBarView';
import { forecastMonth } from '../core/usage/forecast';
import { ledgerTooltipLines } from '../core/usage/usageTooltip';
import type { SafeMarkdown } from '../core/text/inert';
import { freshnessLine } from '../core/scheduling/freshness';
import { clientScheduler } from '../core/scheduling/clientScheduler';
import * as config from '../platform/config';
import type { ConnectionManager } from '../platform/connection';
import type { SecretStore } from '../platform/secrets';
import { CommandIds } from '../constants';
import { markdownString } from '../platform/markdown';
import { DisposableBase } from '../platform/lifecycle';

/** Owns the one status-bar item: the active key's rate-limit headroom, usage and last error. */
export class StatusBarController extends DisposableBase {
  private readonly item: vscode.StatusBarItem;
  private headroom: RateHeadroom | undefined;
  private usage: MonthlyUsage | undefined;
  private lastError: { kind: string; message: string; at: number } | undefined;
  /** One timer at most: the moment the view changes by itself (window reset, warning expiry). */
  private nextRender: ReturnType<typeof setTimeout> | undefined;
  private hasKey: boolean | undefined;
  /** What freshness the background share buys, when it cannot give every contract 16 s. */
  private freshness: string | undefined;
  private planSubscription: { dispose(): void } | undefined;
  /** The active client's own events: which requests were the user's, and its quota lock. */
  private clientSubscription: { dispose(): void } | undefined;
  private userWindow: UserWindow | undefined;
  private user429At: number | undefined;
  private quotaUntil: number | undefined;

  constructor(
    private readonly connection: ConnectionManager,
    private readonly secrets: SecretStore,
  ) {
    super();
    this.item = this.register(
      vscode.window.createStatusBarItem('alephium.headroom', vscode.StatusBarAlignment.Left, 50),
    );
    this.item.name = 'Alephium Gateway rate limit';
    this.item.command = CommandIds.statusBarActions;
    this.register(
      connection.onDidChange(() => {
        this.headroom = undefined;
        this.lastError = undefined;
        this.follow();
      }),
    );
    this.register(
      connection.onHeadroom((h) => {
        this.headroom = h;
        // A good answer after a 401 means the key was fixed.
        if (this.lastError?.kind === 'unauthorized') this.lastError = undefined;
        this.render();
      }),
    );
    this.register(
      connection.onUsage((u) => {
        this.usage = u;
        this.render();
      }),
    );
    this.register(
      connection.onError((e) => {
        this.lastError = { ...e, at: Date.now() };
        this.render();
      }),
    );
    this.register({ dispose: () => clearTimeout(this.nextRender) });
    this.register({ dispose: () => this.planSubscription?.dispose() });
    this.register({ dispose: () => this.clientSubscription?.dispose() });
    // The first paint builds the active client (pipeline, limiter, scheduler) and reads the month's usage,
    // 10-23 ms on a 2-core machine, which the Node view's first read needs a moment later anyway: it runs
    // once activate() has returned, so that activation does not build a client.
    const firstPaint = setImmediate(() => this.follow());
    this.register({ dispose: () => clearImmediate(firstPaint) });
  }

  /** Follows the active connection: its client's events, usage, key and plan, then paints. */
  private follow(): void {
    this.followClient();
    this.render();
    void this.loadUsage();
    void this.loadKeyPresence();
    this.followPlan();
  }

  /**
   * The active client, followed directly: a response to a user-priority request says what headroom the
   * user has (the colour means that, not the background's bursts), and the quota lock is the client's
   * state, so the item says "quota used up until …" exactly while it holds, whatever else fired since.
   */
  private followClient(): void {
    this.clientSubscription?.dispose();
    this.clientSubscription = undefined;
    this.userWindow = undefined;
    this.user429At = undefined;
    const client = this.connection.state.client;
    this.quotaUntil = client?.quotaExhaustedUntil;
    if (!client) return;
    const subscriptions = [
      client.onRequest((r) => {
        if (r.priority !== 'user' || r.status === 0) return;
        // The limiter has just read this response's headers: the window the user's request fell in.
        const headroom = client.headroom;
        if (headroom) this.userWindow = userHeadroomAfter(this.userWindow, headroom);
        if (r.status === 429) this.user429At = Date.now();
        this.render();
      }),
      // The 429s of a used-up month are the lock's (red), not a window the user filled (yellow).
      client.onQuotaExhausted(() => {
        this.quotaUntil = client.quotaExhaustedUntil;
        this.user429At = undefined;
        this.render();
      }),
      client.onQuotaLifted(() => {
        this.quotaUntil = undefined;
        this.user429At = undefined;
        if (this.lastError?.kind === 'quota') this.lastError = undefined;
        this.render();
      }),
    ];
    this.clientSubscription = { dispose: () => subscriptions.forEach((d) => d.dispose()) };
  }

  /** The background scheduler of the active client: its plan says what freshness the share buys. */
  private followPlan(): void {
    this.planSubscription?.dispose();
    this.planSubscription = undefined;
    this.freshness = undefined;
    const { client, profile } = this.connection.state;
    if (!client) return;
    const planName = profile?.kind === 'gateway' ? (profile.plan ?? 'free') : undefined;
    const scheduler = clientScheduler(client);
    const update = (): void => {
      this.freshness = freshnessLine(scheduler.plan(), planName);
      this.render();
    };
    this.planSubscription = scheduler.onDidChangePlan(update);
    update();
  }

  /** A gateway profile without a stored key says so (a node profile's key is optional). */
  private async loadKeyPresence(): Promise<void> {
    const profile = this.connection.state.profile;
    this.hasKey =
      profile?.kind === 'gateway' ? (await this.secrets.getApiKey(profile.name)) !== undefined : undefined;
    this.render();
  }

  /** What the item shows now (the integration tests read this as well as the DOM). */
  get text(): string {
    return this.item.text;
  }

  /** The item's colour as a word (the integration tests read it): normal, warning or error. */
  get severity(): 'normal' | 'warning' | 'error' {
    return this.lastSeverity;
  }

  private lastSeverity: 'normal' | 'warning' | 'error' = 'normal';

  /** The item's colour as a word (the integration tests read it): a severity's, or mainnet's. */
  get colour(): 'normal' | 'warning' | 'error' | 'mainnet' {
    return this.lastColour;
  }

  private lastColour: 'normal' | 'warning' | 'error' | 'mainnet' = 'normal';

  private async loadUsage(): Promise<void> {
    const client = this.connection.state.client;
    if (!client) return;
    this.usage = await client.currentUsage().catch(() => undefined);
    this.render();
  }

  /** The request ledger's lines for the tooltip: this month by kind, the month-end forecast. */
  private ledgerLines(): SafeMarkdown | undefined {
    const client = this.connection.state.client;
    if (!client || !this.usage) return undefined;
    const ledger = client.usage.ledger(this.usage.keyId);
    const forecast = forecastMonth(ledger, Date.now(), { share: config.watchMonthlyShare() / 100 });
    return ledgerTooltipLines(ledger, forecast, { showUsageCommand: CommandIds.showRequestUsage });
  }

  private render(): void {
    const { profile, client } = this.connection.state;
    const ledger = this.ledgerLines();
    const view = statusBarView({
      profileName: profile?.name,
      plan: profile?.kind === 'gateway' ? (profile.plan ?? 'free') : profile ? 'node' : undefined,
      ...(profile ? { network: profile.network, mainnet: isMainnet(undefined, profile.network) } : {}),
      ...(client?.profile.kind === 'node' ? { nodeHost: hostOf(client.profile) } : {}),
      limitPerSecond: client ? limitsOf(client.profile).perSecond : undefined,
      headroom: this.headroom,
      ...(this.userWindow ? { userHeadroom: this.userWindow.headroom } : {}),
      ...(this.user429At !== undefined ? { user429At: this.user429At } : {}),
      ...(this.quotaUntil !== undefined ? { quotaUntil: this.quotaUntil } : {}),
      ...(ledger ? { ledger: [ledger] } : {}),
      usage: this.usage,
      lastError: this.lastError,
      ...(this.hasKey !== undefined ? { hasKey: this.hasKey } : {}),
      ...(this.freshness ? { freshness: this.freshness } : {}),
      now: Date.now(),
    });
    clearTimeout(this.nextRender);
    this.nextRender = undefined;
    if (view.nextChangeAt !== undefined) {
      // Capped: a reset announced far in the future must not arm a timer past Node's 24.8-day maximum.
      const delay = Math.min(Math.max(0, view.nextChangeAt - Date.now()) + 50, 60_000);
      this.nextRender = setTimeout(() => this.render(), delay);
    }
    if (!view.visible) {
      this.item.hide();
      return;
    }
    this.item.text = view.text;
    this.lastSeverity = view.severity;
    this.lastColour = view.colour;
    this.item.tooltip = markdownString(view.tooltip, {
      enabledCommands: [CommandIds.showRequestUsage],
    });
    // VS Code lets a status bar item take only these two backgrounds: mainnet takes the warning one.
    this.item.backgroundColor =
      view.colour === 'error'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : view.colour === 'warning' || view.colour === 'mainnet'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
    this.item.accessibilityInformation = { label: view.text.replace(/\$\([a-z-]+\)\s*/g, '') };
    this.item.show();
  }
}

/** A node profile's host and port, as the status bar names it (the base URL was validated with the client). */
function hostOf(profile: ConnectionProfile): string | undefined {
  try {
    return new URL(profile.baseUrl).host;
  } catch {
    return undefined;
  }
}
