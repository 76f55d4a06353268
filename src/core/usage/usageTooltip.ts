/**
 * The status bar tooltip's lines about the request ledger: this month's requests by kind and the
 * month-end forecast against the plan and the background share. Only numbers and the extension's own
 * words: nothing from outside reaches these lines.
 */
import type { MonthLedger } from '../gateway/usage';
import { commandLink, joinMarkdown, safeMarkdown, type SafeMarkdown } from '../text/inert';
import { exactCount, percentOf, roughCount, type MonthForecast } from './forecast';
import { KIND_LABELS, REQUEST_KINDS, dayName } from './kinds';

export interface LedgerTooltipOptions {
  /** The command that opens the Request Usage view, linked at the end (omitted when absent). */
  readonly showUsageCommand?: string;
}

/** This month's requests by kind, the kinds with none left out: "Watched contracts 812 · Your actions 40". */
export function kindsLine(ledger: MonthLedger): string {
  const sums = new Map<string, number>();
  for (const day of ledger.days)
    for (const kind of REQUEST_KINDS) sums.set(kind, (sums.get(kind) ?? 0) + (day[kind] ?? 0));
  const parts = REQUEST_KINDS.filter((k) => (sums.get(k) ?? 0) > 0).map(
    (k) => `${KIND_LABELS[k]} ${exactCount(sums.get(k) ?? 0)}`,
  );
  if (ledger.unattributed > 0) parts.push(`not by kind ${exactCount(ledger.unattributed)}`);
  return parts.length > 0 ? parts.join(' · ') : 'none yet';
}

/** The forecast in one sentence, honest about how much history it stands on. */
export function forecastLine(forecast: MonthForecast): string {
  if (forecast.basis === 'none' || !forecast.total)
    return 'Month-end forecast: not yet, less than a whole day of this month to go by.';
  const { expected, low, high } = forecast.total;
  const plan =
    forecast.limit === undefined
      ? ''
      : expected > forecast.limit
        ? ` at this pace, over the plan's ${exactCount(forecast.limit)}`
        : ` of ${exactCount(forecast.limit)} (${percentOf(expected, forecast.limit)})`;
  const range = low === high ? '' : `, ${roughCount(low)} to ${roughCount(high)}`;
  const days = `${forecast.historyDays} day${forecast.historyDays === 1 ? '' : 's'}`;
  const basis = forecast.basis === 'rough' ? `only ${days} so far, rough` : `from ${days}`;
  return `Month-end forecast: about ${roughCount(expected)}${plan}${range} (${basis}).`;
}

/** The background's forecast against its share, when both are known. */
export function shareLine(forecast: MonthForecast): string | undefined {
  if (forecast.share === undefined || forecast.shareFraction === undefined) return undefined;
  const share = `its share of ${exactCount(forecast.share)} (${Math.round(forecast.shareFraction * 100)} % of the plan)`;
  if (!forecast.background) return `Background so far: ${exactCount(forecast.backgroundSoFar)} of ${share}.`;
  return `Background: about ${roughCount(forecast.background.expected)} by the month's end, of ${share}.`;
}

export function runsOutLine(forecast: MonthForecast): string | undefined {
  if (forecast.planRunsOutOn === undefined) return undefined;
  return `At this pace the plan's monthly limit is reached around ${dayName(forecast.month, forecast.planRunsOutOn)} (UTC).`;
}

/** The tooltip's ledger section: requests by kind, the forecast, the share, and a link to the chart. */
export function ledgerTooltipLines(
  ledger: MonthLedger,
  forecast: MonthForecast,
  options: LedgerTooltipOptions = {},
): SafeMarkdown {
  const lines: SafeMarkdown[] = [
    safeMarkdown`**Requests this month by kind**: ${kindsLine(ledger)}`,
    safeMarkdown`${forecastLine(forecast)}`,
  ];
  const share = shareLine(forecast);
  if (share) lines.push(safeMarkdown`${share}`);
  const runsOut = runsOutLine(forecast);
  if (runsOut) lines.push(safeMarkdown`${runsOut}`);
  if (options.showUsageCommand)
    lines.push(commandLink(safeMarkdown`Show Request Usage`, options.showUsageCommand, []));
  return joinMarkdown(lines);
}
