import type { MonthlyUsage, RateHeadroom } from '../gateway';

/** Everything the status bar shows, derived from one state value (tested without VS Code). */
export interface StatusBarInput {
  readonly profileName: string | undefined;
  readonly plan: string | undefined;
  readonly limitPerSecond: number | undefined;
  readonly headroom: RateHeadroom | undefined;
  readonly usage: MonthlyUsage | undefined;
  readonly lastError: { kind: string; message: string; at: number } | undefined;
  readonly now: number;
}

export interface StatusBarView {
  readonly visible: boolean;
  readonly text: string;
  readonly severity: 'normal' | 'warning' | 'error';
  /** Markdown. */
  readonly tooltip: string;
}

/** A 429 keeps the warning colour this long after it happened. */
const RECENT_429_MS = 60_000;

function clock(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}:${String(d.getSeconds()).padStart(2, '0')}`;
}

export function statusBarView(input: StatusBarInput): StatusBarView {
  if (!input.profileName) return { visible: false, text: '', severity: 'normal', tooltip: '' };
  const lines = [
    `**Alephium Gateway**: profile \`${input.profileName}\`${input.plan ? `, plan ${input.plan}` : ''}`,
  ];
  if (input.usage) {
    const limit = input.usage.limit !== undefined ? ` of ${input.usage.limit.toLocaleString('en-US')}` : '';
    lines.push(`This month: ${input.usage.count.toLocaleString('en-US')}${limit} requests`);
  }
  if (input.headroom) {
    lines.push(
      `Headroom: ${input.headroom.remaining}/${input.headroom.limit} requests left this second, window resets at ${clock(input.headroom.resetAt)}`,
    );
  }
  if (input.lastError) lines.push(`Last error (${clock(input.lastError.at)}): ${input.lastError.message}`);
  lines.push('', 'Click for actions: switch profile, set API key, show logs.');
  const tooltip = lines.join('\n\n');

  if (input.lastError?.kind === 'unauthorized') {
    return { visible: true, text: '$(error) Alephium: API key rejected', severity: 'error', tooltip };
  }
  const recent429 = input.lastError?.kind === 'rateLimited' && input.now - input.lastError.at < RECENT_429_MS;
  if (!input.headroom) {
    const limit = input.limitPerSecond !== undefined ? `${input.limitPerSecond}/s` : 'no limit known';
    return {
      visible: true,
      text: `$(pulse) Alephium: ${limit}`,
      severity: recent429 ? 'warning' : 'normal',
      tooltip,
    };
  }
  const { remaining, limit } = input.headroom;
  const low = remaining <= Math.max(1, Math.floor(limit * 0.2));
  const monthlyLow = input.usage?.fraction !== undefined && input.usage.fraction >= 0.9;
  return {
    visible: true,
    text: `$(pulse) Alephium: ${remaining}/${limit} req/s · resets ${clock(input.headroom.resetAt)}`,
    severity: recent429 || low || monthlyLow ? 'warning' : 'normal',
    tooltip,
  };
}
