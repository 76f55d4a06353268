import type { MonthlyUsage, RateHeadroom } from '../gateway';
import { joinMarkdown, safeMarkdown, markdownCode, plainText, type SafeMarkdown } from '../text/inert';

/** Everything the status bar shows, derived from one state value (tested without VS Code). */
export interface StatusBarInput {
  readonly profileName: string | undefined;
  readonly plan: string | undefined;
  readonly limitPerSecond: number | undefined;
  readonly headroom: RateHeadroom | undefined;
  readonly usage: MonthlyUsage | undefined;
  readonly lastError: { kind: string; message: string; at: number } | undefined;
  /** False when the profile needs an API key (a gateway profile) and none is stored. */
  readonly hasKey?: boolean;
  /**
   * What freshness the background budget buys, when it cannot give every contract the 16 s floor
   * (e.g. "10 contracts on Free: each every 6 min"); see `freshnessLine`.
   */
  readonly freshness?: string;
  readonly now: number;
}

export interface StatusBarView {
  readonly visible: boolean;
  readonly text: string;
  readonly severity: 'normal' | 'warning' | 'error';
  /** Markdown, with every outside value (the profile name, an error's text) escaped. */
  readonly tooltip: SafeMarkdown;
  /**
   * When the view changes by itself (the rate-limit window resets, a 429 warning expires): render again
   * then. Undefined when nothing changes until the next event.
   */
  readonly nextChangeAt?: number;
}

/** A 429 keeps the warning colour this long after it happened. */
const RECENT_429_MS = 60_000;

function clock(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}:${String(d.getSeconds()).padStart(2, '0')}`;
}

export function statusBarView(input: StatusBarInput): StatusBarView {
  if (!input.profileName) return { visible: false, text: '', severity: 'normal', tooltip: safeMarkdown`` };
  const lines: SafeMarkdown[] = [
    safeMarkdown`**Alephium Gateway**: profile ${markdownCode(input.profileName)}${input.plan ? safeMarkdown`, plan ${input.plan}` : safeMarkdown``}`,
  ];
  if (input.usage) {
    const limit =
      input.usage.limit !== undefined
        ? safeMarkdown` of ${input.usage.limit.toLocaleString('en-US')}`
        : safeMarkdown``;
    lines.push(safeMarkdown`This month: ${input.usage.count.toLocaleString('en-US')}${limit} requests`);
  }
  if (input.headroom) {
    lines.push(
      safeMarkdown`Headroom: ${input.headroom.remaining}/${input.headroom.limit} requests left this second, window resets at ${clock(input.headroom.resetAt)}`,
    );
  }
  if (input.freshness)
    lines.push(safeMarkdown`Background polling within the monthly share: ${input.freshness}`);
  if (input.lastError)
    lines.push(safeMarkdown`Last error (${clock(input.lastError.at)}): ${input.lastError.message}`);
  if (input.hasKey === false)
    lines.push(safeMarkdown`No API key is stored for this profile: run "Alephium: Set API Key".`);
  lines.push(safeMarkdown``, safeMarkdown`Click for actions: switch profile, set API key, show logs.`);
  const tooltip = joinMarkdown(lines);

  if (input.hasKey === false) {
    return { visible: true, text: '$(key) Alephium: no API key', severity: 'warning', tooltip };
  }

  if (input.lastError?.kind === 'quota') {
    return {
      visible: true,
      text: `$(error) Alephium: ${plainText(input.lastError.message, 80)}`,
      severity: 'error',
      tooltip,
    };
  }
  if (input.lastError?.kind === 'unauthorized') {
    return { visible: true, text: '$(error) Alephium: API key rejected', severity: 'error', tooltip };
  }
  const recent429 = input.lastError?.kind === 'rateLimited' && input.now - input.lastError.at < RECENT_429_MS;
  const monthlyLow = input.usage?.fraction !== undefined && input.usage.fraction >= 0.9;
  const warningEndsAt = recent429 ? input.lastError!.at + RECENT_429_MS : undefined;
  // Past its reset the window is whole again, whatever the last response said: the headroom decays to
  // the full limit instead of showing "0/5 · resets <a time in the past>" until the next request.
  if (input.headroom && input.headroom.resetAt <= input.now) {
    const { limit } = input.headroom;
    return {
      visible: true,
      text: `$(pulse) Alephium: ${limit}/${limit} req/s`,
      severity: recent429 || monthlyLow ? 'warning' : 'normal',
      tooltip,
      ...(warningEndsAt !== undefined ? { nextChangeAt: warningEndsAt } : {}),
    };
  }
  if (!input.headroom) {
    const limit = input.limitPerSecond !== undefined ? `${input.limitPerSecond}/s` : 'no limit known';
    return {
      visible: true,
      text: `$(pulse) Alephium: ${limit}`,
      severity: recent429 ? 'warning' : 'normal',
      tooltip,
      ...(warningEndsAt !== undefined ? { nextChangeAt: warningEndsAt } : {}),
    };
  }
  const { remaining, limit } = input.headroom;
  const low = remaining <= Math.max(1, Math.floor(limit * 0.2));
  return {
    visible: true,
    text: `$(pulse) Alephium: ${remaining}/${limit} req/s · resets ${clock(input.headroom.resetAt)}`,
    severity: recent429 || low || monthlyLow ? 'warning' : 'normal',
    tooltip,
    nextChangeAt: Math.min(input.headroom.resetAt, warningEndsAt ?? Number.POSITIVE_INFINITY),
  };
}
