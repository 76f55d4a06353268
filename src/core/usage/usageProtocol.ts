/**
 * The Request Usage webview's model and messages, shared by the host (src/usage/panel/host.ts), the page
 * (src/usage/panel/page.ts, which draws the model as an SVG chart with text nodes only) and the core model
 * that builds it from the request ledger (usageView.ts). Plain data only. This file imports nothing, so
 * Node and the DOM page can both use it.
 */

export const REQUEST_USAGE_VIEW_TYPE = 'alephium.requestUsage';

export interface UsageKindView {
  /** `contracts`, `node`, `tracking`, `actions`, `other`: the CSS class of its colour. */
  readonly id: string;
  readonly label: string;
  readonly description: string;
  /** Background work (core/gateway/usage.ts `isBackgroundKind`), not what a person asked for. */
  readonly background: boolean;
  /** This month's requests of this kind. */
  readonly total: number;
}

export interface UsageDayView {
  readonly day: number;
  /** "May 3". */
  readonly label: string;
  /** Requests per kind, in the order of `RequestUsageModel.kinds`. */
  readonly counts: readonly number[];
  readonly total: number;
  readonly today: boolean;
  /** After today: drawn as the forecast's average day, if there is a forecast. */
  readonly future: boolean;
  readonly weekend: boolean;
}

export interface UsageForecastView {
  readonly basis: 'none' | 'rough' | 'steady';
  readonly historyDays: number;
  /** Requests at the month's end (absent while `basis` is `none`). */
  readonly expected?: number;
  readonly low?: number;
  readonly high?: number;
  /** An average day so far: the forecast's height for each day left. */
  readonly perDay?: number;
  readonly backgroundExpected?: number;
  /** Day of the month the plan's limit is reached at this pace, if within the month. */
  readonly planRunsOutOn?: number;
}

export interface RequestUsageModel {
  /** The profile the requests were counted for (its name is the user's own setting). */
  readonly profile?: string;
  readonly plan?: string;
  /** `YYYY-MM` (UTC, the gateway's month). */
  readonly month: string;
  /** "May 2025". */
  readonly monthLabel: string;
  readonly daysInMonth: number;
  readonly today: number;
  readonly kinds: readonly UsageKindView[];
  /** Every day of the month, 1 to `daysInMonth`. */
  readonly days: readonly UsageDayView[];
  readonly total: number;
  /** Requests of this month counted before the ledger kept days, so on no day. */
  readonly unattributed: number;
  readonly limit?: number;
  /** The background share of the plan in requests. */
  readonly share?: number;
  readonly sharePercent?: number;
  /** The share spread evenly over the month's days: the daily chart's share line. */
  readonly sharePerDay?: number;
  readonly forecast: UsageForecastView;
  /** The chart in sentences: its text equivalent, read before the chart. */
  readonly summary: readonly string[];
  /** Why there is nothing to show (no profile, no API key), when that is the case. */
  readonly notice?: string;
  /** ISO time of the model. */
  readonly updatedAt: string;
}

export type HostToWebviewMessage = { readonly type: 'model'; readonly model: RequestUsageModel };

export type WebviewToHostMessage =
  { readonly type: 'ready' } | { readonly type: 'rendered'; readonly text: string };

/** Characters of the rendered text the page reports back (for tests). */
export const RENDERED_TEXT_LIMIT = 100_000;

/**
 * A message from the page, parsed exactly: one of the two shapes with no other keys, its text bounded.
 * Anything else is undefined and ignored; the page can ask for nothing but the model again.
 */
export function parseWebviewMessage(value: unknown): WebviewToHostMessage | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  const keys = Object.keys(v);
  switch (v.type) {
    case 'ready':
      return keys.length === 1 ? { type: 'ready' } : undefined;
    case 'rendered':
      if (keys.length !== 2 || typeof v.text !== 'string') return undefined;
      return { type: 'rendered', text: v.text.slice(0, RENDERED_TEXT_LIMIT) };
    default:
      return undefined;
  }
}
