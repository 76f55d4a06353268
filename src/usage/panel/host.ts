import * as vscode from 'vscode';
import { forecastMonth } from '../../core/usage/forecast';
import { buildUsageViewModel, emptyUsageViewModel } from '../../core/usage/usageView';
import {
  REQUEST_USAGE_VIEW_TYPE,
  parseWebviewMessage,
  type HostToWebviewMessage,
  type RequestUsageModel,
  type WebviewToHostMessage,
} from '../../core/usage/usageProtocol';
import * as config from '../../platform/config';
import type { ConnectionManager } from '../../platform/connection';
import type { Services } from '../../services';
import { DisposableBase } from '../../platform/lifecycle';
import { webviewOptions, type WebviewPage } from '../../platform/webview/host';
import { PanelHost } from '../../platform/webview/panelHost';

export type RequestUsageDeps = Pick<Services, 'log' | 'redactor' | 'extensionUri' | 'connection'>;

/** What the view showed: for the extension's API (tests), nothing secret (a key's fingerprint at most). */
export interface RequestUsageSnapshot {
  readonly html: string;
  readonly model?: RequestUsageModel;
  /** The page's own rendered text, reported back after each render. */
  readonly text?: string;
  /** How many models were posted to the page. */
  readonly posts: number;
}

/** A burst of requests redraws the chart at most this often. */
const REDRAW_EVERY_MS = 1_000;

/**
 * The model of the active profile's month: its key's ledger, the forecast against the plan and the
 * background share. A profile without a client or without a key has nothing counted, and says why.
 */
export async function currentUsageModel(
  connection: ConnectionManager,
  now = Date.now(),
): Promise<RequestUsageModel> {
  const { client, profile, problem } = connection.state;
  if (!client || !profile)
    return emptyUsageViewModel(now, problem ?? 'No gateway profile is active. Run "Alephium: Add Profile".');
  const usage = await client.currentUsage().catch(() => undefined);
  if (!usage)
    return emptyUsageViewModel(
      now,
      `Profile "${profile.name}" has no API key: requests are counted per key, so there is nothing to show.`,
    );
  const ledger = client.usage.ledger(usage.keyId);
  return buildUsageViewModel({
    ledger,
    forecast: forecastMonth(ledger, now, { share: config.watchMonthlyShare() / 100 }),
    now,
    profile: profile.name,
    plan: profile.kind === 'gateway' ? (profile.plan ?? 'free') : 'node',
  });
}

const USAGE_PAGE: WebviewPage = { script: 'requestUsage', style: 'requestUsage', title: 'Request Usage' };

/**
 * "Request Usage" (loaded on first use, a chunk of dist/ of its own; src/usage/requestUsage.ts is
 * what activation registers): one webview drawing the month per day and kind, with the share and the forecast. The
 * HTML is a shell with a strict CSP and a nonce; the model arrives by message and is drawn as SVG with
 * text nodes only. The page can say "ready" and report its text; nothing it sends can run anything.
 */
export class RequestUsagePanel extends DisposableBase {
  private page: UsagePage | undefined;
  private model: RequestUsageModel | undefined;
  private posts = 0;
  private redraw: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly deps: RequestUsageDeps) {
    super();
    this.register(deps.connection.onUsage(() => this.scheduleRedraw()));
    this.register(deps.connection.onDidChange(() => void this.update()));
    this.register({
      dispose: () => {
        clearTimeout(this.redraw);
        this.page?.dispose();
      },
    });
  }

  /** Opens (or reveals) the view and waits until its model is posted. */
  async show(): Promise<RequestUsageModel | undefined> {
    if (this.page) this.page.reveal();
    else
      this.adopt(
        vscode.window.createWebviewPanel(
          REQUEST_USAGE_VIEW_TYPE,
          'Request Usage',
          { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
          this.options(),
        ),
      );
    await this.update();
    return this.model;
  }

  /** A panel VS Code restored after a reload. */
  async revive(panel: vscode.WebviewPanel): Promise<void> {
    // Options are not persisted with the panel: apply them again before any HTML is set.
    panel.webview.options = this.options();
    if (this.page) {
      panel.dispose();
      return;
    }
    this.adopt(panel);
    await this.update();
  }

  snapshot(): RequestUsageSnapshot | undefined {
    if (!this.page) return undefined;
    return {
      html: this.page.html,
      ...(this.model ? { model: this.model } : {}),
      ...(this.page.text !== undefined ? { text: this.page.text } : {}),
      posts: this.posts,
    };
  }

  /** @internal for the page: the panel was closed. */
  closed(page: UsagePage): void {
    if (this.page !== page) return;
    this.page = undefined;
    this.model = undefined;
  }

  private options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return webviewOptions(this.deps.extensionUri);
  }

  private adopt(panel: vscode.WebviewPanel): void {
    this.page = new UsagePage(panel, this.deps.extensionUri, this);
  }

  private scheduleRedraw(): void {
    if (!this.page || this.redraw) return;
    this.redraw = setTimeout(() => {
      this.redraw = undefined;
      void this.update();
    }, REDRAW_EVERY_MS);
  }

  /** @internal for the page: builds the model and posts it. */
  async update(): Promise<void> {
    if (!this.page) return;
    try {
      this.model = await currentUsageModel(this.deps.connection);
    } catch (error) {
      this.deps.log.warn(`Request Usage: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (!this.page) return;
    this.posts++;
    this.page.show(this.model);
  }
}

/** The panel itself. Hidden, the page is dropped (no retained context): shown again, it asks for the model. */
class UsagePage extends PanelHost<HostToWebviewMessage, WebviewToHostMessage> {
  /** The page's own rendered text, reported back after each render. */
  text: string | undefined;

  constructor(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly owner: RequestUsagePanel,
  ) {
    // No data in the HTML: the page receives the model by message and draws it with text nodes only.
    super(panel, { extensionUri, page: USAGE_PAGE, parse: parseWebviewMessage });
  }

  show(model: RequestUsageModel): void {
    this.post({ type: 'model', model });
  }

  protected pageReady(): Promise<void> {
    return this.owner.update();
  }

  protected received(message: WebviewToHostMessage): void {
    if (message.type === 'rendered') this.text = message.text;
  }

  protected override panelClosed(): void {
    this.owner.closed(this);
  }
}
